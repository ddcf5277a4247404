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
import tempfile

EXE = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
GEN = os.path.join(ROOT, "testdata", "gen_corpus.py")

GOOD = ("-TITLE IFPL -ARCID ABC{n:04d} -ADEP EDDM -ADES EDDH -EOBT 0746\n"
        "-BEGIN RTEPTS -PT -PTID EDDM -ETO 181023074618 -PT -PTID EDDH -ETO 181023085118\n"
        "-END RTEPTS\n")
BAD_MSG = "-TITLE IFPL -ARCID BAD -BEGIN RTEPTS -PT -PTID X\n"   # list never closed
SUMMARY = re.compile(r"(\d+) files \((\d+) ok, (\d+) failed\), (\d+) skipped, "
                     r"(\d+) messages \((\d+) failed\)")

passed = failed = 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


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
                 ["--files-from"], [], ["--files-from", "-", "-"]):
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
          c and c["skipped"] == 2 and c["files"] == 5 and ".hidden.adexp: hidden" in err, err)
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
    for name, data in (("zz/empty.adexp", ""), ("zz/binary.adexp", b"-TITLE\0\0"),
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
    write(os.path.join(d, "binary.adexp"), b"-TITLE IFPL\x00\x01\x02")
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
    check("bad: message error as path:line:col: CODE:",
          any(re.match(re.escape(os.path.join(d, "msgerr.adexp")) + r":\d+:\d+: [A-Z_]+: ", l)
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


def test_outputs(tmp):
    f = os.path.join(tmp, "out", "m.adexp")
    write(f, GOOD.format(n=3) * 3)
    rc, out, err = run("--format", "summary", f)
    c = counts(err)
    check("--format summary prints no messages", rc == 0 and out == "" and c and c["messages"] == 3)
    check("summary: MB/s and messages/s", "MB/s" in err and "messages/s" in err)
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
          rc == 1 and "-: empty file" in err, err)
    rc, out, err = run("-", stdin=b"-TITLE IFPL\x00\x01")
    check("stream: NUL in the first 4 KiB is binary", rc == 1 and "binary file" in err, err)


def main():
    tmp = tempfile.mkdtemp(prefix="adexp-cli-")
    try:
        for t in (test_help_version_usage, test_walk_order, test_corpus,
                  test_stdin_and_lists, test_bad_inputs, test_outputs, test_progress,
                  test_include, test_streams):
            try:
                t(tmp)
            except Exception as e:      # a crash or timeout is one failure
                check(t.__name__, False, repr(e))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
