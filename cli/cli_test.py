#!/usr/bin/env python3
"""End-to-end tests of adexp-parse. Usage: cli_test.py ADEXP_PARSE SOURCE_ROOT

Prints one line per check and "N passed, N failed"; exits 1 on any failure.
"""
import json
import os
import re
import shutil
import subprocess
import sys

from checks import check, run_tests

EXE = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
GEN = os.path.join(ROOT, "testdata", "gen_corpus.py")

GOOD = ("-TITLE IFPL -ARCID ABC{n:04d} -ADEP EDDM -ADES EDDH -EOBT 0746\n"
        "-BEGIN RTEPTS -PT -PTID EDDM -ETO 181023074618 -PT -PTID EDDH -ETO 181023085118\n"
        "-END RTEPTS\n")
BAD_MSG = "-TITLE IFPL -ARCID BAD -BEGIN RTEPTS -PT -PTID X\n"   # list never closed
SUMMARY = re.compile(r"(\d+) files \((\d+) ok, (\d+) failed\), (\d+) skipped, "
                     r"(\d+) messages \((\d+) failed\)")


def run(*args, stdin=None, timeout=20):
    p = subprocess.run([EXE, *args], input=stdin, capture_output=True,
                       timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def counts(err):
    m = SUMMARY.search(err)
    if not m:
        return None
    keys = ("files", "ok", "failed", "skipped", "messages", "msg_failed")
    return dict(zip(keys, map(int, m.groups())))


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)


def sources(out):
    return [json.loads(line)["source"] for line in out.splitlines()]


def test_help_version_usage(tmp):
    rc, out, _ = run("--help")
    check("--help exits 0 and lists the options", rc == 0 and all(
        o in out for o in ("--jobs", "--output", "--format", "--unordered",
                           "--files-from", "--max-file-size", "--quiet", "--version")))
    rc, out, _ = run("--version")
    check("--version", rc == 0 and out.startswith("adexp-parse ") and "allocator:" in out)
    f = os.path.join(tmp, "one.adexp")
    write(f, GOOD.format(n=1))
    for args in (["--bogus", f], ["-j", "0", f], ["-j", "x", f], ["-j"], ["-o"],
                 ["--format", "xml", f], ["--format"], ["--max-file-size", "0", f],
                 ["--files-from"], ["--files-from", "-", "-"]):
        rc, _, err = run(*args)
        check(f"usage error {args} exits 2", rc == 2 and "adexp-parse:" in err, f"rc={rc}")


def test_walk_order(tmp):
    d = os.path.join(tmp, "walk")
    for name in ("b.adexp", "a.adexp", "sub/z.adexp", "sub/deeper/y.adexp", "c.adexp",
                 ".hidden.adexp", ".git/x.adexp"):
        write(os.path.join(d, name), GOOD.format(n=len(name)))
    rc, out, err = run("-j", "3", d)
    want = [os.path.join(d, n) for n in ("a.adexp", "b.adexp", "c.adexp",
                                         "sub/deeper/y.adexp", "sub/z.adexp")]
    check("walk: sorted, recursive, hidden skipped", rc == 0 and sources(out) == want,
          f"rc={rc} {sources(out)}")
    c = counts(err)
    check("walk: hidden entries counted as skipped with a note",
          c and c["skipped"] == 2 and c["files"] == 5 and ".hidden.adexp: note: hidden" in err, err)
    rc, out2, _ = run("-j", "1", d + "/")
    check("walk: trailing slash gives single slashes",
          sources(out2) == [os.path.join(d, n) for n in ("a.adexp", "b.adexp", "c.adexp",
                                                         "sub/deeper/y.adexp", "sub/z.adexp")])


def gen_corpus(d, n, bad_every):
    """The shared generator if it works, else a local one. Returns the set of
    paths that must fail: the generator's broken messages, plus file-level
    failures mixed in here (empty, binary, no '-')."""
    bad = set()
    listf = d + ".bad"
    p = None
    if os.path.exists(GEN):
        p = subprocess.run([sys.executable, GEN, "--files", str(n), "--dir", d,
                            "--bad-every", str(bad_every), "--bad-list", listf],
                           capture_output=True)
    if p is not None and p.returncode == 0:
        with open(listf) as fh:
            bad = {os.path.join(d, line.split()[1]) for line in fh if line.strip()}
    else:
        print("note: gen_corpus.py missing or failed, using the local generator")
        shutil.rmtree(d, ignore_errors=True)
        for i in range(n):
            text = GOOD.format(n=i) * (1 + i % 3)
            path = os.path.join(d, f"d{i % 10}", f"m{i:05d}.adexp")
            if i % bad_every == bad_every - 1:
                text = BAD_MSG
                bad.add(path)
            write(path, text)
    for name, data in (("zz/empty.adexp", ""), ("zz/binary.adexp", b"\x7fELF\0\0-"),
                       ("zz/nodash.adexp", "no dash\n")):
        write(os.path.join(d, name), data)
        bad.add(os.path.join(d, name))
    return bad


def test_corpus(tmp):
    d = os.path.join(tmp, "corpus")
    bad = gen_corpus(d, 1000, 97)
    files = sorted(os.path.join(r, f) for r, _, fs in os.walk(d) for f in fs
                   if not f.startswith("."))
    rc1, out1, err1 = run("-j", "1", d, timeout=60)
    rc4, out4, err4 = run("-j", "4", d, timeout=60)
    check("corpus: -j 1 and -j 4 give byte-identical output", out1 == out4 and out1)
    check("corpus: and identical diagnostics",
          err1.rsplit("adexp-parse:", 1)[0] == err4.rsplit("adexp-parse:", 1)[0])
    c = counts(err4)
    check("corpus: bad files make exit 1", rc1 == 1 and rc4 == 1, f"{rc1} {rc4}")
    check("corpus: counts add up", c and c["files"] == len(files) == c["ok"] + c["failed"]
          and c["failed"] > 0, f"{c} {len(files)}")
    failed_paths = {line.split(":", 1)[0] for line in err4.splitlines()
                    if line.startswith(d)}
    seen = set(sources(out4))
    missing = [f for f in files if f not in seen and f not in failed_paths]
    check("corpus: every file is in the output or reported", not missing, missing[:3])
    check("corpus: exactly the broken files are reported",
          c and failed_paths == bad and c["failed"] == len(bad),
          f"{c} {sorted(failed_paths ^ bad)[:4]}")
    rcu, outu, _ = run("--unordered", "-j", "2", d, timeout=60)
    check("corpus: --unordered gives the same lines", rcu == 1 and
          sorted(outu.splitlines()) == sorted(out1.splitlines()))


def test_stdin_and_lists(tmp):
    rc, out, _ = run("-", stdin=(GOOD.format(n=7) * 2).encode())
    check("stdin: two messages with source '-'", rc == 0 and sources(out) == ["-", "-"])
    d = os.path.join(tmp, "list")
    paths = [os.path.join(d, f"f{i}.adexp") for i in range(3)]
    for i, p in enumerate(paths):
        write(p, GOOD.format(n=i))
    listf = os.path.join(tmp, "list.txt")
    write(listf, "\n".join(reversed(paths)) + "\n\n")
    rc, out, _ = run("--files-from", listf)
    check("--files-from FILE keeps the list's order", rc == 0 and sources(out) == paths[::-1])
    find = subprocess.run(["find", d, "-name", "*.adexp"], capture_output=True).stdout
    rc, out, _ = run("--files-from", "-", stdin=find)
    check("--files-from - (from find)", rc == 0 and sorted(sources(out)) == paths)
    rc, _, err = run("--files-from", os.path.join(tmp, "nolist"))
    check("--files-from missing list fails", rc == 1 and "nolist" in err)


def test_bad_inputs(tmp):
    d = os.path.join(tmp, "bad")
    write(os.path.join(d, "ok.adexp"), GOOD.format(n=1))
    write(os.path.join(d, "empty.adexp"), "")
    write(os.path.join(d, "binary.adexp"), b"\x7fELF\x02\x01\x00\x00-")
    write(os.path.join(d, "nodash.txt"), "hello world\n")
    write(os.path.join(d, "msgerr.adexp"), BAD_MSG)
    os.symlink("does-not-exist", os.path.join(d, "dangling.adexp"))
    os.symlink(".", os.path.join(d, "loop"))
    os.makedirs(os.path.join(d, "sub"))
    os.symlink("../sub", os.path.join(d, "sub", "up"))
    os.mkfifo(os.path.join(d, "fifo"))
    rc, out, err = run("-j", "2", d)
    lines = err.splitlines()

    def has(suffix, text):
        return any(l.startswith(os.path.join(d, suffix) + ":") and text in l for l in lines)
    check("bad: exit 1", rc == 1, rc)
    check("bad: empty file", has("empty.adexp", "empty file"))
    check("bad: binary file", has("binary.adexp", "binary file"))
    check("bad: no '-' is binary too", has("nodash.txt", "no '-'"))
    check("bad: dangling symlink", has("dangling.adexp", "dangling symbolic link"))
    check("bad: symlink loops", has("loop", "directory loop") and has("sub/up", "directory loop"))
    check("bad: FIFO in a walk is skipped, no hang", has("fifo", "FIFO"))
    check("bad: message error as path:line:col: error: CODE:",
          any(re.match(re.escape(os.path.join(d, "msgerr.adexp")) + r":\d+:\d+: error: [A-Z_]+: ", l)
              for l in lines))
    msgs = [json.loads(l) for l in out.splitlines()]
    errmsg = [m for m in msgs if m["source"].endswith("msgerr.adexp")]
    check("bad: failed message still has its JSON line with errors",
          len(errmsg) == 1 and errmsg[0]["errors"])
    c = counts(err)
    check("bad: counts (8 files, 1 ok, 7 failed, 1 skipped)",
          c and (c["files"], c["ok"], c["failed"], c["skipped"]) == (8, 1, 7, 1), c)
    rc, _, err = run(os.path.join(d, "missing"))
    check("bad: missing file", rc == 1 and "No such file" in err)
    rc, _, err = run("--max-file-size", "20", os.path.join(d, "ok.adexp"))
    check("bad: over --max-file-size", rc == 1 and "file too large" in err, err)
    rc, _, err = run("--max-file-size", "1K", os.path.join(d, "ok.adexp"))
    check("bad: under --max-file-size 1K parses", rc == 0, err)
    nothing = os.path.join(tmp, "nothing")
    os.makedirs(os.path.join(nothing, "day", "hour"))
    rc, out, err = run(nothing)
    c = counts(err)
    check("bad: a named directory with no file below it is told of (a note, exit 0)",
          rc == 0 and out == "" and c and c["skipped"] == 1 and
          f"{nothing}: note: no file in the directory or below it" in err, err)
    rc, _, err = run("--include", "*.zzz", d)
    check("bad: files left out by --include are counted, not told as no file",
          "not matching --include *.zzz" in err and "no file in the directory" not in err, err)


def test_outputs(tmp):
    f = os.path.join(tmp, "out", "m.adexp")
    write(f, GOOD.format(n=3) * 3)
    rc, out, err = run("--format", "summary", f)
    c = counts(err)
    check("--format summary prints no messages", rc == 0 and out == "" and c and c["messages"] == 3)
    check("summary: MB/s and messages/s", "MB/s" in err and "messages/s" in err)
    # the summary writes nothing for a message, yet counts what --title leaves
    # out and what --validate finds
    g = os.path.join(tmp, "out", "mixed.adexp")
    write(g, GOOD.format(n=1) + "-TITLE CHG -ARCID ABC0002\n" + GOOD.format(n=3) +
          "-TITLE IFPL -ARCID ABC0004 -EOBT 2599\n")
    rc, out, err = run("--format", "summary", "--title", "CHG", g)
    check("summary --title: the messages left out are counted",
          rc == 0 and out == "" and "1 messages of titles CHG written, 3 left out" in err, err)
    rc, out, err = run("--format", "summary", "--validate", g)
    check("summary --validate: the messages with findings are counted",
          out == "" and "adexp-parse: 1 messages with warnings" in err, err)
    o = os.path.join(tmp, "out", "res.json")
    rc, out, _ = run("-o", o, f)
    with open(o) as fh:
        lines = fh.read().splitlines()
    check("-o FILE", rc == 0 and out == "" and len(lines) == 3
          and json.loads(lines[2])["index"] == 2)
    rc, out, err = run("-q", f)
    check("--quiet: nothing on stderr", rc == 0 and err == "" and len(out.splitlines()) == 3)
    check("no progress line when stderr is not a terminal", "\r" not in err)


def test_progress(tmp):
    """A progress line on a terminal: stderr is a pty, and stdin is fed in two
    halves 0.4 s apart, so that the run lasts long enough to draw it."""
    import pty
    import time
    master, slave = pty.openpty()
    p = subprocess.Popen([EXE, "-", "-o", os.devnull], stdin=subprocess.PIPE,
                         stderr=slave)
    os.close(slave)
    p.stdin.write(GOOD.format(n=1).encode())
    p.stdin.flush()
    time.sleep(0.4)
    p.stdin.write(GOOD.format(n=2).encode())
    p.stdin.close()
    rc = p.wait(timeout=10)
    err = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        err += chunk
    os.close(master)
    text = err.decode("utf-8", "replace")
    check("progress line on a terminal", rc == 0 and "\r\x1b[Kadexp-parse: 0/1 files" in text
          and "1 files (1 ok, 0 failed)" in text, repr(text[-200:]))


def test_include(tmp):
    d = os.path.join(tmp, "include")
    for name in ("a.adexp", "a.json", "README.md", "sub/b.adexp", "sub/b.json"):
        write(os.path.join(d, name), GOOD.format(n=len(name)))
    named = os.path.join(d, "a.json")
    rc, out, err = run("--include", "*.adexp", d, named)
    check("--include: only matching files in directories, named files always",
          rc == 0 and sources(out) == [os.path.join(d, "a.adexp"),
                                       os.path.join(d, "sub/b.adexp"), named], sources(out))
    check("--include: the others are counted",
          "3 files in directories not matching --include *.adexp" in err, err)
    rc, _, err = run("--include")
    check("--include needs a pattern", rc == 2, rc)


def messages_text(n, start=0):
    return "".join(GOOD.format(n=i) for i in range(start, start + n))


def test_archives(tmp):
    """Compressed files and archives made here, known by their bytes (the
    names say nothing), each member an input ARCHIVE:MEMBER."""
    import gzip
    import io
    import lzma
    import tarfile
    import zipfile
    d = os.path.join(tmp, "arch")
    os.makedirs(d)
    text = messages_text(3).encode()
    write(os.path.join(d, "plain.bin"), gzip.compress(text))
    write(os.path.join(d, "x.data"), lzma.compress(text))
    write(os.path.join(d, "multi.gz"), gzip.compress(text) + gzip.compress(text))
    for name, data in (("p1.gz", gzip.compress(text)), ("p1.xz", lzma.compress(text))):
        write(os.path.join(d, name), data)
    rc, out, err = run("-j", "2", os.path.join(d, "plain.bin"), os.path.join(d, "x.data"),
                       os.path.join(d, "multi.gz"))
    check("archives: gzip and xz by their bytes, source as given",
          rc == 0 and sources(out) == [os.path.join(d, "plain.bin")] * 3 +
          [os.path.join(d, "x.data")] * 3 + [os.path.join(d, "multi.gz")] * 6, err)
    if shutil.which("zstd"):
        z = os.path.join(d, "m.zst")
        subprocess.run(["zstd", "-q", "-o", z, "-"], input=text, check=True)
        rc, out, err = run(z)
        check("archives: zstd", rc == 0 and sources(out) == [z] * 3, err)
    else:
        check("archives: zstd (the zstd tool is missing)", False)

    def tar_bytes(mode, compress=None):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode=mode) as tf:
            ti = tarfile.TarInfo("day")
            ti.type = tarfile.DIRTYPE
            tf.addfile(ti)
            for name, data in (("day/b.adexp", messages_text(2).encode()),
                               ("day/a.adexp", messages_text(1).encode()),
                               ("day/c.adexp.gz", gzip.compress(messages_text(1).encode()))):
                ti = tarfile.TarInfo(name)
                ti.size = len(data)
                tf.addfile(ti, io.BytesIO(data))
            ti = tarfile.TarInfo("day/link")
            ti.type = tarfile.SYMTYPE
            ti.linkname = "a.adexp"
            tf.addfile(ti)
        return buf.getvalue()
    t = os.path.join(d, "day.tar")
    tgz = os.path.join(d, "day.tgz")
    write(t, tar_bytes("w"))
    write(tgz, gzip.compress(tar_bytes("w")))
    txz = os.path.join(d, "day.tar.xz")
    write(txz, lzma.compress(tar_bytes("w")))
    want = lambda a: [f"{a}:day/b.adexp"] * 2 + [f"{a}:day/a.adexp", f"{a}:day/c.adexp.gz"]
    for a in (t, tgz, txz):
        rc, out, err = run("-j", "2", a)
        c = counts(err)
        check(f"archives: {os.path.basename(a)} members in archive order, "
              "a compressed member decompressed",
              rc == 0 and sources(out) == want(a), sources(out))
        check(f"archives: {os.path.basename(a)} symlink member skipped with a note",
              c and c["files"] == 3 and c["skipped"] == 1 and
              f"{a}:day/link: note: symbolic link member: skipped" in err, err)
    zp = os.path.join(d, "day.zip")
    with zipfile.ZipFile(zp, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("z2.adexp", messages_text(1))
        zf.writestr("sub/z1.adexp", messages_text(2))
    rc, out, err = run(zp)
    check("archives: zip members in order", rc == 0 and
          sources(out) == [f"{zp}:z2.adexp", f"{zp}:sub/z1.adexp", f"{zp}:sub/z1.adexp"], err)
    zd = os.path.join(d, "dirs.zip")
    with zipfile.ZipFile(zd, "w") as zf:
        zf.writestr(zipfile.ZipInfo("only/"), "")
    rc, out, err = run(zd)
    check("archives: an archive of directories only fails (it is still counted)",
          rc == 1 and f"{zd}: error: archive with no member" in err and out == "", err)
    rc, out, err = run("-", stdin=gzip.compress(text))
    check("archives: gzip on standard input", rc == 0 and sources(out) == ["-"] * 3, err)

    # Corrupt and truncated: a clear error with the byte offset; the run goes
    # on. A decompressed input is parsed as a stream: the messages before
    # the damage come out, and the input counts failed.
    good = os.path.join(d, "p1.gz")
    big = messages_text(3000).encode()
    g = bytearray(gzip.compress(big))
    g[len(g) // 2] ^= 0xFF
    bad = os.path.join(d, "corrupt.gz")
    write(bad, bytes(g))
    cut = os.path.join(d, "cut.tgz")
    tb = io.BytesIO()
    with tarfile.open(fileobj=tb, mode="w") as tf:
        for name in ("one.adexp", "two.adexp"):
            ti = tarfile.TarInfo(name)
            ti.size = len(big)
            tf.addfile(ti, io.BytesIO(big))
    tgzb = gzip.compress(tb.getvalue())
    write(cut, tgzb[: len(tgzb) * 3 // 4])
    cutxz = os.path.join(d, "cut.xz")
    write(cutxz, lzma.compress(big)[:-40])
    rc, out, err = run("-j", "2", bad, cut, cutxz, good)
    check("archives: corrupt gzip is one error with its byte offset",
          re.search(re.escape(bad) + r": error: corrupt gzip data at byte \d+ of the gzip data", err)
          and "(2 ok, 3 failed)" in err, err)
    check("archives: truncated tar.gz names the member and the offset",
          re.search(re.escape(cut) + r":two\.adexp: error: corrupt or truncated data at byte \d+ "
                    r"of the member: truncated gzip data", err), err)
    check("archives: a truncated xz is an error",
          (cutxz + ": error: corrupt or truncated") in err and
          sources(out).count(cutxz) < 3000, err)
    check("archives: the run goes on after them",
          rc == 1 and sources(out).count(good) == 3 and
          sources(out).count(f"{cut}:one.adexp") == 3000, err)
    junk = os.path.join(d, "junk.gz")
    write(junk, b"\x1f\x8b" + b"not gzip at all" * 4)
    rc, _, err = run(junk)
    check("archives: gzip magic with a bad header fails clearly",
          rc == 1 and junk + ": error: corrupt gzip data at byte" in err, err)
    many = os.path.join(d, "many.gz")
    write(many, gzip.compress(messages_text(50).encode()))
    rc, out, err = run("--max-file-size", "2K", many)
    check("archives: a decompressed input is a stream: --max-file-size bounds a message",
          rc == 0 and sources(out) == [many] * 50, err)
    huge = os.path.join(d, "huge.gz")
    write(huge, gzip.compress(("-TITLE IFPL -RMK " + "X" * 8000 + "\n").encode() * 2))
    rc, _, err = run("--max-file-size", "2K", huge)
    check("archives: a decompressed message over --max-file-size fails",
          rc == 1 and huge + ": error: message too large" in err, err)
    rc, out, err = run("-", stdin=gzip.compress(messages_text(2).encode()) +
                       gzip.compress(messages_text(1).encode()))
    check("archives: two gzip members on standard input", rc == 0 and
          sources(out) == ["-"] * 3 and
          [json.loads(l)["index"] for l in out.splitlines()] == [0, 1, 2], err)
    rc, out, err = run("-", stdin=tgzb)
    check("archives: a tar.gz on standard input, each member a stream",
          rc == 0 and sources(out) == ["-:one.adexp"] * 3000 + ["-:two.adexp"] * 3000, err)
    rc, out, err = run("-", stdin=tgzb[: len(tgzb) * 3 // 4])
    check("archives: a truncated tar.gz on standard input names the member",
          rc == 1 and "-:two.adexp: error: corrupt or truncated data at byte" in err and
          sources(out).count("-:one.adexp") == 3000, err)


def test_big_members_in_place(tmp):
    """A member over 1 MiB that lies whole in the archive's bytes (a plain
    tar's, a zip's stored one) is read there and cut across the workers as
    a file is: the same output as the member's bytes as a file named, for
    plain, gzip-packed, deflated and ITA-2-framed members, at -j 1 and -j 2."""
    import gzip
    import io
    import tarfile
    import zipfile
    d = os.path.join(tmp, "inplace")
    os.makedirs(d)
    text = messages_text(30000).encode()                 # 2.5 MB
    framed = "".join("ZCZC AAA%03d\nFF EDDFZQZX\n041159 EUCHZMFP\n%sNNNN\n"
                     % (i % 1000, GOOD.format(n=i)) for i in range(20000)).encode()
    # a big member with no '-' fails as a file does ("not ADEXP"), where a
    # stream's (a deflated one's) is a NO_TITLE record
    nodash = ("nodash.txt", b"A" * (2 << 20))
    members = (("big.adexp", text), ("framed.adexp", framed),
               ("small.adexp", messages_text(2).encode()),
               ("packed.adexp.gz", gzip.compress(text, 1)), nodash)
    for name, data in members:
        write(os.path.join(d, name), data)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tf:
        for name, data in members:
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            tf.addfile(ti, io.BytesIO(data))
    write(os.path.join(d, "day.tar"), buf.getvalue())
    for comp, zname in ((zipfile.ZIP_STORED, "stored.zip"), (zipfile.ZIP_DEFLATED, "deflated.zip")):
        with zipfile.ZipFile(os.path.join(d, zname), "w", comp) as zf:
            for name, data in members:
                if comp == zipfile.ZIP_STORED or name != nodash[0]:
                    zf.writestr(name, data)
    for arch in ("day.tar", "stored.zip", "deflated.zip"):
        a = os.path.join(d, arch)
        inplace = arch != "deflated.zip"
        named = members if inplace else members[:-1]
        for j in ("1", "2"):
            for fmt in ("json", "csv"):
                got = subprocess.run([EXE, "-q", "-j", j, "--format", fmt, a],
                                     capture_output=True, timeout=60)
                want = b""
                for name, _ in named:
                    f = os.path.join(d, name)
                    one = subprocess.run([EXE, "-q", "-j", j, "--format", fmt, f],
                                         capture_output=True, timeout=60).stdout
                    if fmt == "csv" and want:
                        one = one.split(b"\n", 1)[1]      # one header
                    want += one.replace(f.encode(), (a + ":" + name).encode())
                check(f"in place: {arch} -j {j} --format {fmt} as its members named",
                      got.returncode == (1 if inplace else 0) and got.stdout == want,
                      got.stderr.decode()[-300:])
            if inplace:
                err = got.stderr.decode()
                check(f"in place: {arch} -j {j}: a big member is checked as a file is",
                      a + ":nodash.txt: error: not ADEXP: no '-' in the file" in err,
                      err[-300:])


def test_null_lists(tmp):
    d = os.path.join(tmp, "nul")
    names = ["a.adexp", "new\nline.adexp", "c d.adexp"]
    paths = [os.path.join(d, n) for n in names]
    for i, p in enumerate(paths):
        write(p, GOOD.format(n=i))
    find = subprocess.run(["find", d, "-name", "*.adexp", "-print0"],
                          capture_output=True).stdout
    rc, out, err = run("-0", "--files-from", "-", stdin=find)
    check("-0: every path of find -print0, a newline in one",
          rc == 0 and sorted(sources(out)) == sorted(paths), f"{rc} {err}")
    rc, out, err = run("--null", "--files-from", "-", stdin=b"\0".join(
        p.encode() for p in paths) + b"\0\0")
    check("--null: list order kept, empty items ignored", rc == 0 and sources(out) == paths)
    lst = paths[0].encode() + b"\n" + paths[2].encode() + b"\0\n"
    rc, out, err = run("--files-from", "-", stdin=lst)
    check("a NUL byte in a list of lines: error with its line, nothing parsed",
          rc == 2 and "-:2: NUL byte in a list of lines" in err and out == "", err)
    rc, _, err = run("-0", paths[0])
    check("-0 without --files-from is a usage error", rc == 2, rc)


def test_output_safety(tmp):
    d = os.path.join(tmp, "outsafe")
    f = os.path.join(d, "in.adexp")
    write(f, GOOD.format(n=1) * 2)
    before = open(f, "rb").read()
    rc, out, err = run("-o", f, f)
    check("-o naming an input: refused with exit 2, input untouched",
          rc == 2 and open(f, "rb").read() == before and "is the input" in err, err)
    rc, out, err = run("-o", f, d)
    check("-o naming a file the walk would parse: refused with exit 2, untouched",
          rc == 2 and open(f, "rb").read() == before and out == "" and
          f"the output {f} is a file the walk of {d} would parse: refused" in err, err)
    link = os.path.join(d, "link.adexp")
    os.symlink("in.adexp", link)
    rc, _, err = run("-o", link, d)
    check("-o through a link to a file the walk would parse: refused, untouched",
          rc == 2 and open(f, "rb").read() == before and "would parse: refused" in err, err)
    os.unlink(link)
    sub = os.path.join(d, "sub", "deep.adexp")
    write(sub, GOOD.format(n=7))
    rc, _, err = run("-o", sub, d + "/")
    check("-o naming a file deeper in the walk: refused, untouched",
          rc == 2 and open(sub).read() == GOOD.format(n=7) and "would parse" in err, err)
    notes = os.path.join(d, "sub", "notes.txt")
    write(notes, GOOD.format(n=8))
    rc, _, err = run("--include", "*.adexp", "-o", notes, os.path.join(d, "sub"))
    check("-o naming a file --include leaves out of the walk: written",
          rc == 0 and open(notes).read().startswith('{"source":'), err)
    shutil.rmtree(os.path.join(d, "sub"))
    hidden = os.path.join(d, ".old", "in.adexp")
    write(hidden, before)
    rc, _, err = run("-o", hidden, d)
    check("-o naming a file under a hidden directory the walk skips: written",
          rc == 0 and open(hidden).read().startswith('{"source":'), err)
    shutil.rmtree(os.path.join(d, ".old"))
    with open(f, "ab") as fo:
        p = subprocess.run([EXE, d], stdout=fo, stderr=subprocess.PIPE)
    check("stdout appended to a file the walk would parse: refused",
          p.returncode == 2 and open(f, "rb").read() == before and
          b"the walk of" in p.stderr, p.stderr)
    rc, _, err = run("--files-from", "-", "-o", f, stdin=d.encode() + b"\n")
    check("-o naming a file the walk of a listed directory would parse: refused",
          rc == 2 and open(f, "rb").read() == before, err)
    link = os.path.join(d, "link.adexp")
    os.symlink("in.adexp", link)
    rc, _, err = run("-o", link, f)
    check("-o through a link to a named input: refused",
          rc == 2 and open(f, "rb").read() == before and "is the input" in err, err)
    os.unlink(link)
    with open(f, "ab") as fo:
        p = subprocess.run([EXE, f], stdout=fo, capture_output=False,
                           stderr=subprocess.PIPE)
    check("stdout appended to an input: refused", p.returncode == 2 and
          open(f, "rb").read() == before, p.stderr)
    o = os.path.join(d, "out.ndjson")
    rc, out, err = run("-o", o, d)
    c = counts(err)
    with open(o) as fh:
        lines = fh.read().splitlines()
    check("-o inside the walked directory: left out with a note",
          rc == 0 and len(lines) == 2 and c and c["skipped"] == 1 and
          "out.ndjson: note: the output file: left out of the walk" in err, err)
    rc, out, err = run("-o", "/dev/full", f)
    c = counts(err)
    check("-o /dev/full: exit 1, the summary says the run failed and what was not written",
          rc == 1 and "No space left on device: output stopped after 0 messages" in err
          and "2 not written" in err and "the run failed" in err, err)
    # A small file size limit stands for a full disk: the output must end
    # at a complete line, and the summary count what it holds.
    import resource
    import signal
    big = os.path.join(d, "big")
    write(os.path.join(big, "m.adexp"), messages_text(400))
    limited = os.path.join(tmp, "limited.ndjson")

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (50000, 50000))
    # Blocks of JSON and view lines, and of ADEXP's line layout, are counted
    # by their messages, not read again: the count must still be the lines
    # the file holds.
    for fmt in ("json", "view", "adexp"):
        p = subprocess.run([EXE, "--format", fmt, "-o", limited, big], capture_output=True,
                           preexec_fn=small_files, timeout=20)
        err = p.stderr.decode()
        data = open(limited, "rb").read()
        m = re.search(r"output stopped after (\d+) messages \((\d+) bytes", err)
        check(f"full output (RLIMIT_FSIZE), {fmt}: ends at its last complete line, counted",
              p.returncode == 1 and m and data.endswith(b"\n") and
              int(m.group(1)) == data.count(b"\n") > 0 and int(m.group(2)) == len(data), err)
        if fmt == "adexp":
            check("full output, adexp: every line it holds is a whole message",
                  all(l.startswith(b"-TITLE ") for l in data.splitlines()))
        else:
            check(f"full output, {fmt}: every line it holds is whole JSON",
                  all(json.loads(l) for l in data.splitlines()))
    # CSV and TSV rows are counted as the writer makes them: the count must
    # be the rows the file holds after its header (written before them).
    for fmt in ("csv", "tsv"):
        args = ["--format", fmt, "--rows", "RTEPTS"]
        p = subprocess.run([EXE, *args, "-o", limited, big], capture_output=True,
                           preexec_fn=small_files, timeout=20)
        err = p.stderr.decode()
        data = open(limited, "rb").read()
        head = data.index(b"\n") + 1
        m = re.search(r"output stopped after (\d+) lines \((\d+) bytes", err)
        check(f"full output (RLIMIT_FSIZE), {' '.join(args)}: ends at its last complete row, "
              "counted", p.returncode == 1 and m and data.endswith(b"\n") and
              int(m.group(1)) == data.count(b"\n") - 1 > 0 and
              int(m.group(2)) == len(data) - head, err)
    # The same through a big file cut across workers (its pieces written by
    # writev) and through a .gz parsed as a stream.
    import gzip
    huge = os.path.join(tmp, "huge-out")
    text = messages_text(16000).encode()   # 2.4 MB: cut into pieces with -j 2
    write(os.path.join(huge, "big.adexp"), text)
    write(os.path.join(huge, "big.adexp.gz"), gzip.compress(text))
    # With -j 1 the file's blocks go through write(), counted by their
    # messages, until the one the limit cuts short.
    for name, jobs in (("big.adexp", "2"), ("big.adexp", "1"), ("big.adexp.gz", "2")):
        with open(limited, "wb"):
            pass

        def five_mb():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (5 << 20, 5 << 20))
        p = subprocess.run([EXE, "-j", jobs, "-o", limited, os.path.join(huge, name)],
                           capture_output=True, preexec_fn=five_mb, timeout=60)
        err = p.stderr.decode()
        data = open(limited, "rb").read()
        m = re.search(r"output stopped after (\d+) messages \((\d+) bytes", err)
        check(f"full output from {name}, -j {jobs}: ends at its last complete line, counted",
              p.returncode == 1 and m and data.endswith(b"\n") and
              int(m.group(1)) == data.count(b"\n") > 0 and int(m.group(2)) == len(data) and
              [json.loads(l)["index"] for l in data.splitlines()] ==
              list(range(data.count(b"\n"))), err)
    mnt = os.path.join(tmp, "tmpfs")
    os.makedirs(mnt)
    if os.geteuid() == 0 and subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt],
            capture_output=True).returncode == 0:
        try:
            full = os.path.join(mnt, "out.ndjson")
            rc, _, err = run("-o", full, big)
            data = open(full, "rb").read()
            m = re.search(r"output stopped after (\d+) messages", err)
            check("full tmpfs: ends at its last complete line, counted",
                  rc == 1 and m and data.endswith(b"\n") and
                  int(m.group(1)) == data.count(b"\n"), err)
        finally:
            subprocess.run(["umount", mnt])
    else:
        print("note: no tmpfs could be mounted; the full disk is the RLIMIT_FSIZE check")


def test_std_fds(tmp):
    d = os.path.join(tmp, "fds")
    write(os.path.join(d, "ok.adexp"), GOOD.format(n=1))
    write(os.path.join(d, "bad.adexp"), BAD_MSG)
    o = os.path.join(tmp, "fds.ndjson")
    p = subprocess.run(["sh", "-c", 'exec 2>&-; exec "$0" -o "$1" "$2"', EXE, o, d],
                       capture_output=False, timeout=20)
    with open(o, "rb") as fh:
        data = fh.read()
    check("2>&-: diagnostics never go into the -o file",
          p.returncode == 1 and all(json.loads(l) for l in data.splitlines())
          and data.count(b"\n") == 2, data[:200])
    p = subprocess.run(["sh", "-c", 'exec 0<&- 1>&-; exec "$0" -o "$1" "$2"', EXE, o, d],
                       capture_output=True, timeout=20)
    check("0<&- 1>&- with -o: runs, diagnostics on stderr", p.returncode == 1 and
          b"LIST_UNCLOSED" in p.stderr, p.stderr)
    # A closed standard output is not a place to write to: the run fails
    # before anything is read, as writing to it would have.
    for close in ("1>&-", "0<&- 1>&-"):
        p = subprocess.run(["sh", "-c", f'exec {close}; exec "$0" "$1"', EXE, d],
                           capture_output=True, timeout=20)
        check(f"{close}: exit 1, standard output closed, nothing read",
              p.returncode == 1 and b"standard output is closed" in p.stderr and
              b"LIST_UNCLOSED" not in p.stderr, p.stderr)
    p = subprocess.run(["sh", "-c", 'exec 1>&-; exec "$0" --format summary "$1"', EXE, d],
                       capture_output=True, timeout=20)
    check("1>&- with --format summary: runs (nothing goes to stdout)",
          p.returncode == 1 and b"LIST_UNCLOSED" in p.stderr, p.stderr)
    p = subprocess.run(["sh", "-c", 'exec 1<"$2"; exec "$0" "$1"', EXE, d, o],
                       capture_output=False, stderr=subprocess.PIPE, timeout=20)
    check("stdout open for reading only: refused like a closed one",
          p.returncode == 1 and b"standard output is" in p.stderr, p.stderr)
    for args in (["--help"], ["--version"]):
        p = subprocess.run(["sh", "-c", 'exec 1>&-; exec "$0" "$@"', EXE, *args],
                           capture_output=True, timeout=20)
        check(f"1>&- {args[0]}: exit 1, the text could not be written",
              p.returncode == 1 and b"standard output" in p.stderr, p.stderr)


def test_nul_in_message(tmp):
    d = os.path.join(tmp, "nulmsg")
    f = os.path.join(d, "three.adexp")
    write(f, GOOD.format(n=1).encode() + b"-TITLE IFPL -ARCID X\0Y -ADEP EDDM\n" +
          GOOD.format(n=3).encode())
    rc, out, err = run(f)
    msgs = [json.loads(l) for l in out.splitlines()]
    check("NUL in a message: every message comes out", rc == 1 and len(msgs) == 3, err)
    check("NUL in a message: that message's NUL_BYTE error with its position",
          f"{f}:4:21: error: NUL_BYTE: NUL byte inside the message" in err and
          [e["code"] for e in msgs[1]["errors"]] == ["NUL_BYTE"] and
          not msgs[0]["errors"] and not msgs[2]["errors"], err)
    c = counts(err)
    check("NUL in a message: one message failed", c and c["msg_failed"] == 1, c)
    b = os.path.join(d, "blob.bin")
    write(b, b"\x89PNG\r\n\x1a\n\0\0\0-x")
    rc, _, err = run(b)
    check("a NUL and no -TITLE is still binary", rc == 1 and "binary file" in err, err)
    far = os.path.join(d, "far.adexp")     # the NUL past the binary probe's 4 KiB
    head = "".join(GOOD.format(n=i) for i in range(1, 60)).encode()
    write(far, head + b"-TITLE IFPL -ARCID X\0Y -ADEP EDDM\n")
    rc, out, err = run(far)
    line = head.count(b"\n") + 1
    check("a NUL past the first 4 KiB: its message's NUL_BYTE error",
          len(head) > 4096 and rc == 1 and len(out.splitlines()) == 60 and
          f"{far}:{line}:21: error: NUL_BYTE" in err, err[-300:])
    # a mapped file (over 1 MiB) parsed whole by one worker: each message
    # with a NUL gets its error, near the start and far past the probe
    big = os.path.join(d, "big.adexp")
    nul_msg = b"-TITLE IFPL -ARCID X\0Y -ADEP EDDM\n"
    many = "".join(GOOD.format(n=i) for i in range(1, 8000)).encode()
    write(big, nul_msg + many + nul_msg + many)
    rc, out, err = run("-j", "1", big)
    second = 1 + many.count(b"\n") + 1
    check("a mapped file at -j 1: each message with a NUL has its NUL_BYTE error",
          len(many) > 1 << 20 and rc == 1 and err.count("NUL_BYTE") == 2 and
          f"{big}:1:21: error: NUL_BYTE" in err and
          f"{big}:{second}:21: error: NUL_BYTE" in err and
          counts(err)["msg_failed"] == 2, err[-300:])
    # CR and CRLF end lines for the NUL as for parse errors: line 3 here
    cr = os.path.join(d, "cr.adexp")
    text = b"-TITLE IFPL\r-ARCID ABC\r\n-ADEP ED\0DM -ADES EDDH\r-EOBT 0746\r"
    write(cr, text)
    for name, args, stdin, where in (("a file", [cr], None, cr), ("stdin", ["-"], text, "-")):
        rc, out, err = run(*args, stdin=stdin)
        errs = [e for l in out.splitlines() for e in json.loads(l)["errors"]]
        check(f"NUL after CR line ends ({name}): its line and column as the parser counts",
              rc == 1 and f"{where}:3:9: error: NUL_BYTE" in err and
              [(e["line"], e["column"]) for e in errs] == [(3, 9)], err + out)
    # after a byte order mark, line 1's columns count from the byte after it
    # for a parse error, a NUL byte and a validation finding alike
    bom = os.path.join(d, "bom.adexp")
    write(bom, b"\xef\xbb\xbf-TITLE IFPL -ARCID A\0B -EOBT 99 -\n")
    rc, out, err = run("--validate", bom)
    check("after a byte order mark: NUL, parse error and finding count from the text",
          rc == 1 and f"{bom}:1:21: error: NUL_BYTE" in err and
          f"{bom}:1:33: error: NO_KEYWORD" in err and f"{bom}:1:30: warning: BAD_VALUE: EOBT" in err, err)


def test_symlink_fanout(tmp):
    d = os.path.join(tmp, "fan")
    for i in range(16):
        os.makedirs(os.path.join(d, f"l{i}"), exist_ok=True)
        os.makedirs(os.path.join(d, f"l{i + 1}"), exist_ok=True)
        os.symlink(f"../l{i + 1}", os.path.join(d, f"l{i}", "a"))
        os.symlink(f"../l{i + 1}", os.path.join(d, f"l{i}", "b"))
    write(os.path.join(d, "l16", "m.adexp"), GOOD.format(n=1))
    rc, out, err = run(os.path.join(d, "l0"), timeout=20)
    c = counts(err)
    check("symlink fan-out: the file once, each second way in skipped with a note",
          rc == 0 and len(sources(out)) == 1 and c and c["skipped"] == 16 and
          err.count("directory already walked by another path: skipped") == 16, c)


def test_names(tmp):
    d = os.path.join(tmp, "names").encode()
    odd = [b"new\nline.adexp", b"esc\x1b[31mred.adexp", b"latin\xe9.adexp",
           "latin\u00e9.adexp".encode(), b"back\\slash.adexp", b"c1\xc2\x9b.adexp"]
    os.makedirs(d)
    for n in odd:
        with open(os.path.join(d, n), "wb") as fh:
            fh.write(BAD_MSG.encode())
    p = subprocess.run([EXE, "-j", "2", d], capture_output=True, timeout=20)
    err = p.stderr
    check("names: no raw control byte reaches stderr",
          b"\x1b" not in err and b"\xc2\x9b" not in err and
          err.count(b"\n") == err.count(b"LIST_UNCLOSED") + 1, err)
    check("names: escapes shown", b"new\\nline.adexp:1:" in err and
          b"esc\\x1B[31mred.adexp:1:" in err and b"latin\\xE9.adexp:1:" in err and
          "latin\u00e9.adexp:1:".encode() in err and b"back\\\\slash" in err and
          b"c1\\xC2\\x9B.adexp" in err, err)
    srcs = [json.loads(l)["source"] for l in p.stdout.decode().splitlines()]
    got = sorted(os.fsencode(s) for s in srcs)
    check("names: JSON source gives back every name's bytes (surrogate escapes)",
          got == sorted(os.path.join(d, n) for n in odd) and len(set(srcs)) == len(odd), got)
    check("names: a Latin-1 name and its UTF-8 twin differ in JSON",
          b'latin\\udce9.adexp"' in p.stdout and b"latin\\u00e9" not in p.stdout)
    v = subprocess.run([EXE, "-q", "--format", "view", os.path.join(d, b"latin\xe9.adexp")],
                       capture_output=True, timeout=20)
    check("names: the view's source is escaped the same way",
          b'"source":"' + d + b'/latin\\udce9.adexp"' in v.stdout, v.stdout[:200])
    vf = os.path.join(d, b"val\x1bid.adexp")
    with open(vf, "wb") as fh:
        fh.write(b"-TITLE IFPL -ADEP 12345\n")
    q = subprocess.run([EXE, "-q", "--validate", vf], capture_output=True, timeout=20)
    check("names: escaped in validation findings too",
          b"val\\x1Bid.adexp:1:" in q.stderr and b"BAD_VALUE" in q.stderr and
          b"\x1b" not in q.stderr, q.stderr)


def test_limit_options(tmp):
    d = os.path.join(tmp, "limits")
    f = os.path.join(d, "route.adexp")
    pts = "".join(f"-PT -PTID P{i:06d}\n" for i in range(120000))
    write(f, "-TITLE IFPL -ARCID LONG1 -BEGIN RTEPTS\n" + pts + "-END RTEPTS\n")
    rc, _, err = run("--format", "summary", f, timeout=60)
    check("a long route list fails by default with LIST_LIMIT", rc == 1 and "LIST_LIMIT" in err)
    rc, _, err = run("--format", "summary", "--max-list-items", "200000", f, timeout=60)
    check("--max-list-items raises it", rc == 0, err)
    g = os.path.join(d, "small.adexp")
    write(g, GOOD.format(n=1))
    for args, code in ((["--max-fields", "3"], "FIELD_LIMIT"), (["--max-depth", "1"], "DEPTH_LIMIT"),
                       (["--max-message-size", "40"], "SIZE_LIMIT")):
        rc, _, err = run(*args, g)
        check(f"{args[0]} {args[1]}: {code}", rc == 1 and code in err, err)
    rc, _, err = run("--max-message-size", "1K", "--max-depth", "1024", "--max-fields", "100", g)
    check("limits accepted at their edges (1K, 1024)", rc == 0, err)
    for args in (["--max-depth", "0"], ["--max-depth", "1025"], ["--max-fields", "x"],
                 ["--max-list-items", "-1"], ["--max-message-size", "0"],
                 ["--max-message-size", "5T"], ["--max-fields"]):
        rc, _, _ = run(*args, g)
        check(f"usage error {args}", rc == 2, rc)


def test_help_equals_doc(tmp):
    rc, out, _ = run("--help")
    doc = open(os.path.join(ROOT, "doc", "cli.md")).read()
    m = re.search(r"## Options \(as printed by `adexp-parse --help`\)\n\n```\n(.*?)```",
                  doc, re.S)
    check("--help equals doc/cli.md's copy", m and m.group(1) == out,
          "" if not m else "".join(
              f"\n  help: {a!r}\n  read: {b!r}" for a, b in
              zip(out.splitlines(), m.group(1).splitlines()) if a != b)[:400])


def read_line(p, timeout):
    """One line of p's stdout within timeout seconds, or None."""
    import select
    r, _, _ = select.select([p.stdout], [], [], timeout)
    return p.stdout.readline().decode() if r else None


def test_streams(tmp):
    """Streams are parsed as they arrive: a message's line comes out as soon
    as the next -TITLE is read, before the writer closes."""
    p = subprocess.Popen([EXE, "-q", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    try:
        p.stdin.write((GOOD.format(n=1) + "-TITLE IFPL -ARCID").encode())
        p.stdin.flush()
        first = read_line(p, 10)
        check("stream: the first message's line before the writer goes on",
              first is not None and '"offset":0' in first, first)
        p.stdin.write((" XYZ\n" + GOOD.format(n=3)).encode())
        p.stdin.close()
        rest = p.stdout.read().decode().splitlines()
        p.wait(timeout=10)
        check("stream: the rest at the end, offsets of the whole stream",
              p.returncode == 0 and len(rest) == 2 and
              [json.loads(l)["index"] for l in rest] == [1, 2], rest)
    finally:
        p.kill()
        p.wait()

    d = os.path.join(tmp, "streams")
    write(os.path.join(d, "a.adexp"), GOOD.format(n=1))
    write(os.path.join(d, "b.adexp"), GOOD.format(n=2))
    fifo = os.path.join(d, "in.fifo")
    os.mkfifo(fifo)
    p = subprocess.Popen([EXE, "-j", "2", os.path.join(d, "a.adexp"), fifo,
                          os.path.join(d, "b.adexp")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        import time
        time.sleep(0.3)                 # adexp-parse is waiting for a writer
        with open(fifo, "w") as w:
            w.write(GOOD.format(n=10))
            w.flush()
            time.sleep(0.2)
            w.write(GOOD.format(n=11))
        out, err = p.communicate(timeout=10)
        check("FIFO on the command line: read when its writer comes, in input order",
              p.returncode == 0 and sources(out.decode()) ==
              [os.path.join(d, "a.adexp"), fifo, fifo, os.path.join(d, "b.adexp")],
              (p.returncode, err.decode()))
    finally:
        p.kill()
        p.wait()

    q = subprocess.run(["bash", "-c", f'"{EXE}" -q <(cat "{os.path.join(d, "a.adexp")}")'],
                       capture_output=True, timeout=20)
    out = q.stdout.decode()
    check("process substitution <(...) is read as a stream",
          q.returncode == 0 and len(out.splitlines()) == 1 and
          sources(out)[0].startswith("/dev/fd/"), q.stderr.decode())
    rc, out, err = run("/dev/stdin", stdin=(GOOD.format(n=4) * 3).encode())
    check("/dev/stdin through a pipe", rc == 0 and sources(out) == ["/dev/stdin"] * 3, err)
    rc, out, err = run("-", stdin=b"")
    check("stream: empty standard input fails as an empty file",
          rc == 1 and "-: error: empty file" in err, err)
    rc, out, err = run("-", stdin=b"\x00\x01\x02 no message here")
    check("stream: NUL in the first 4 KiB and no -TITLE is binary",
          rc == 1 and "binary file" in err, err)
    rc, out, err = run("-", stdin=b"-TITLE IFPL\x00\x01")
    check("stream: a NUL inside a message is its NUL_BYTE error",
          rc == 1 and "-:1:12: error: NUL_BYTE" in err and len(out.splitlines()) == 1, err)


def test_stdin_file(tmp):
    """A regular file on standard input is read as that file named: mapped
    and cut across the workers, with the same output, and the descriptor
    left at its end; read from elsewhere than its start, it is a stream."""
    import gzip
    f = os.path.join(tmp, "stdin-file.adexp")
    text = messages_text(30000)            # 2.5 MB: over the size that is mapped
    write(f, text)
    z = f + ".gz"
    with open(z, "wb") as fh:
        fh.write(gzip.compress(text.encode(), 1))
    for path in (f, z):
        for fmt in ("json", "csv", "view", "adexp"):
            named = subprocess.run([EXE, "-q", "-j", "2", "--format", fmt, path],
                                   capture_output=True, timeout=60)
            with open(path, "rb") as fh:
                piped = subprocess.run([EXE, "-q", "-j", "2", "--format", fmt, "-"],
                                       stdin=fh, capture_output=True, timeout=60)
            check(f"stdin file: {os.path.basename(path)} --format {fmt} as the file named",
                  piped.returncode == 0 and named.returncode == 0 and piped.stdout and
                  piped.stdout == named.stdout.replace(path.encode(), b"-"),
                  piped.stderr.decode()[-300:])
    with open(f, "rb") as fh:
        q = subprocess.run(["sh", "-c", f'"{EXE}" -q -o /dev/null -; cat | wc -c'],
                           stdin=fh, capture_output=True, timeout=60)
    check("stdin file: left read to its end", q.stdout.strip() == b"0", q.stdout)
    skip = len(messages_text(29998))
    with open(f, "rb") as fh:
        fh.seek(skip)
        q = subprocess.run([EXE, "-q", "-"], stdin=fh, capture_output=True, timeout=60)
    lines = q.stdout.decode().splitlines()
    check("stdin file: read from where its offset is",
          q.returncode == 0 and len(lines) == 2 and
          json.loads(lines[0])["offset"] == 0 and '"ABC29998"' in lines[0], lines[:1])
    with open(f, "rb") as fh:
        q = subprocess.run([EXE, "--max-file-size", "1M", "-o", os.devnull, "-"], stdin=fh,
                           capture_output=True, timeout=60)
    check("stdin file over --max-file-size fails as the file named",
          q.returncode == 1 and "-: error: file too large (" in q.stderr.decode() and
          "--max-file-size 1048576)" in q.stderr.decode(), q.stderr.decode()[-300:])
    small = os.path.join(tmp, "stdin-small.adexp")
    write(small, "no field here\n")
    with open(small, "rb") as fh:
        q = subprocess.run([EXE, "-"], stdin=fh, capture_output=True, timeout=20)
    check("stdin file: a small one too (no '-' in it: not ADEXP, as named)",
          q.returncode == 1 and "-: error: not ADEXP: no '-' in the file" in q.stderr.decode(),
          q.stderr.decode())


def test_validate_every_path(tmp):
    """--validate gives the same findings, at the whole input's lines and
    columns, and the same output, whether the input is parsed whole (-j 1),
    in pieces (-j 2 over a big file) or as a stream read in chunks, in
    every format (a finding after the first chunk once came out at the
    chunk's line; in any format but JSON a stream crashed)."""
    big = os.path.join(tmp, "validate", "big.adexp")
    os.makedirs(os.path.dirname(big), exist_ok=True)
    subprocess.run([sys.executable, GEN, "--messages", "3000", "--seed", "5",
                    "--bad-every", "60", "--out", big], check=True, capture_output=True)
    with open(big, "rb") as f:
        data = f.read()

    def norm(text):
        lines = [l for l in text.replace(big, "-").splitlines()
                 if not l.startswith("adexp-parse: ")]
        return lines

    for fmt in ("json", "view", "csv", "summary", "adexp"):
        whole = run("-j1", "--validate", "--format", fmt, big, timeout=60)
        pieces = run("-j2", "--validate", "--format", fmt, big, timeout=60)
        stream = run("-j1", "--validate", "--format", fmt, "-", stdin=data, timeout=60)
        want = (whole[0], norm(whole[1]), norm(whole[2]))
        check(f"--validate --format {fmt}: findings many lines in", len(want[2]) > 100 and
              any(l.split(":")[1].isdigit() and int(l.split(":")[1]) > 5000 for l in want[2]),
              want[2][-3:])
        for how, got in (("in pieces", pieces), ("as a stream", stream)):
            check(f"--validate --format {fmt} {how}: as parsed whole",
                  (got[0], norm(got[1]), norm(got[2])) == want,
                  (got[0], got[2][-500:]))


def test_libarchive_missing(tmp):
    """libarchive is loaded on the first input that needs it: when it
    cannot be (ADEXP_LIBARCHIVE names a file that does not exist), each such
    input fails with the loader's error, and plain and gzip inputs (zlib's)
    are parsed as ever."""
    import gzip
    import io
    import lzma
    import tarfile
    d = os.path.join(tmp, "nolib")
    text = messages_text(2).encode()
    write(os.path.join(d, "a.adexp"), text)
    write(os.path.join(d, "b.gz"), gzip.compress(text))
    write(os.path.join(d, "c.xz"), lzma.compress(text))
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tf:
        ti = tarfile.TarInfo("m.adexp")
        ti.size = len(text)
        tf.addfile(ti, io.BytesIO(text))
    write(os.path.join(d, "d.tar"), buf.getvalue())
    write(os.path.join(d, "e.tar.gz"), gzip.compress(buf.getvalue()))
    env = dict(os.environ, ADEXP_LIBARCHIVE="libadexp-no-such-library.so.0")

    def run_env(*args, stdin=None):
        p = subprocess.run([EXE, *args], input=stdin, capture_output=True, env=env,
                           timeout=20)
        return p.returncode, p.stdout.decode(), p.stderr.decode()
    rc, out, err = run_env("-j", "2", "--format", "json", d)
    why = ": error: needs libarchive (libadexp-no-such-library.so.0), which cannot be loaded: "
    failed_names = sorted(l.split(why)[0] for l in err.splitlines() if why in l)
    check("no libarchive: each input that needs it fails, naming it and the loader's error",
          rc == 1 and failed_names == [os.path.join(d, n) for n in
                                       ("c.xz", "d.tar", "e.tar.gz")] and
          "cannot open shared object file" in err, err)
    check("no libarchive: plain and gzip inputs are parsed",
          sorted(sources(out)) == [os.path.join(d, "a.adexp")] * 2 +
          [os.path.join(d, "b.gz")] * 2, out)
    c = counts(err)
    check("no libarchive: the inputs that need it are counted as failed",
          c is not None and c["files"] == 5 and c["failed"] == 3 and c["messages"] == 4,
          err)
    rc, out, err = run_env("-", stdin=lzma.compress(text))
    check("no libarchive: an xz standard input fails the same way",
          rc == 1 and ("-" + why) in err and out == "", err)
    rc, out, err = run_env("-", stdin=gzip.compress(text))
    check("no libarchive: a gzip standard input is parsed",
          rc == 0 and sources(out) == ["-"] * 2, err)


def test_walk_order_bytes(tmp):
    """The walk's order is strcmp's (bytes, unsigned) on names that share
    long prefixes, hold bytes >= 0x80, are prefixes of one another, and are
    more than a few in a directory (lib/batch/batch_dirnames.c sorts those)."""
    d = os.path.join(tmp, "walkbytes").encode()
    os.makedirs(d)
    names = [b"IFPL_20240101_%04d.adexp" % i for i in (7, 70, 700, 1000, 999, 10)]
    names += [b"a", b"ab", b"abcdefgh", b"abcdefghi", b"abcdefgh\x80", b"abcdefgh\xff",
              b"abcdefgg\xff", b"\x80", b"\xff", b"\xff\xfe", b"\x7f", b"Z", b"z", b"0",
              b"caf\xc3\xa9", b"caf\xe9", b"cafe", b"~", b"a b", b"\x01",
              b"message-0000000000000000000000000000-\x80",
              b"message-0000000000000000000000000000-\x7f",
              b"message-0000000000000000000000000000-"]
    for n in names:
        with open(os.path.join(d, n), "wb") as fh:
            fh.write(GOOD.format(n=1).encode())
    p = subprocess.run([EXE, "-j", "2", d], capture_output=True, timeout=20)
    got = [os.fsencode(json.loads(l)["source"]) for l in p.stdout.decode().splitlines()]
    want = sorted(os.path.join(d, n) for n in names)
    check("walk: names in byte order (long prefixes, high bytes, prefixes)",
          p.returncode == 0 and got == want, got[:6])


def main():
    return run_tests((test_help_version_usage, test_walk_order, test_corpus,
        test_stdin_and_lists, test_bad_inputs, test_outputs, test_progress,
        test_include, test_streams, test_archives, test_null_lists,
        test_output_safety, test_std_fds, test_nul_in_message,
        test_symlink_fanout, test_names, test_limit_options,
        test_help_equals_doc, test_libarchive_missing,
        test_walk_order_bytes, test_validate_every_path, test_stdin_file,
        test_big_members_in_place), "adexp-cli-")


if __name__ == "__main__":
    sys.exit(main())
