#!/usr/bin/env python3
"""adexp-parse's habits as a newcomer meets them: no size limit on plain
files, typos in names refused with suggestions, the Unix conventions of
options, standard input and diagnostics. Usage: habits_test.py ADEXP_PARSE

Prints one line per check and "N passed, N failed"; exits 1 on any failure.
"""
import gzip
import os
import pty
import re
import select
import subprocess
import sys
import threading
import time

from checks import check, run_tests

EXE = os.path.abspath(sys.argv[1])
GOOD = ("-TITLE IFPL -ARCID ABC{n:04d} -ADEP EDDM -ADES EDDH -EOBT 0746 -RFL F350\n"
        "-BEGIN RTEPTS -PT -PTID EDDM -ETO 181023074618 -PT -PTID EDDH -ETO 181023085118\n"
        "-END RTEPTS\n")


def run(*args, stdin=b"", timeout=30):
    """stdin: bytes (a pipe), or None to keep this process's own."""
    p = subprocess.run([EXE, *args], input=stdin, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def write(path, data):
    with open(path, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)


def test_file_size(tmp):
    rc, out, _ = run("--help")
    check("size: --help says --max-file-size has no default limit",
          "default: no limit" in out)
    f = os.path.join(tmp, "one.adexp")
    write(f, GOOD.format(n=1))
    rc, _, err = run("--max-file-size", "20", f)
    check("size: over --max-file-size fails, naming the option",
          rc == 1 and "file too large" in err and "--max-file-size 20" in err, err)
    # Just over the old default of 256 MiB, sparse: a message, zeros, a message.
    big = os.path.join(tmp, "big.adexp")
    with open(big, "wb") as fh:
        fh.write(GOOD.format(n=1).encode())
        fh.truncate((256 << 20) + 4096)
        fh.seek(0, 2)
        fh.write(("\n" + GOOD.format(n=2)).encode())
    rc, out, err = run("-j1", big)
    check("size: a plain file over 256 MiB is parsed, not refused",
          "too large" not in err and "ABC0002" in out, err[:300])
    os.unlink(big)


def test_typos(tmp):
    f = os.path.join(tmp, "typo.adexp")
    write(f, GOOD.format(n=1))
    for args, bad, hint in ((["--fields", "ARCDI"], "ARCDI", "ARCID"),
                            (["--format", "csv", "--rows", "RTEPT"], "RTEPT", "RTEPTS"),
                            (["--fields", "ARCID,ESTDATA.PTIX_utc"], "PTIX", "PTID")):
        rc, out, err = run(*args, f)
        check(f"typo: {args} exits 2, suggesting {hint}",
              rc == 2 and out == "" and f"unknown field {bad}" in err and
              "did you mean" in err and hint in err, f"rc={rc} {err}")
    rc, out, err = run("--format", "csv", "--rows", "ARCID", f)
    check("typo: --rows of a field that is no list exits 2",
          rc == 2 and "not a list" in err, f"rc={rc} {err}")
    rc, out, err = run("-q", "--fields", "ARCID,RFL_ft,RTEPTS.PTID", "--format", "csv",
                       "--rows", "RTEPTS", f)
    check("typo: known names pass", rc == 0 and "ABC0001" in out, err)
    ext = os.path.join(tmp, "ext.tsv")
    write(ext, "XYZZY\tprimary\tb\t-\t-\taircraftid\n")
    rc, out, err = run("-q", "--dictionary", ext, "--fields", "XYZZY", f)
    check("typo: a keyword of --dictionary is known", rc == 0, err)
    rc, out, err = run("-q", "--title", "IFLP,IFPL", f)
    check("typo: --title a title no message had: a warning, the run goes on",
          rc == 0 and "ABC0001" in out and
          "adexp-parse: warning: --title IFLP: no message of this title" in err, err)


def test_conventions(tmp):
    d = os.path.join(tmp, "conv")
    os.makedirs(d)
    for i, name in enumerate(("a.adexp", "b.txt", "c.adexp", "README.md")):
        write(os.path.join(d, name), GOOD.format(n=i))
    os.symlink("nowhere", os.path.join(d, "dead.lnk"))
    rc, want, _ = run("-q", "-j", "2", "--include", "*.adexp", d)
    rc2, got, err = run("-qj2", "--include", "*.adexp", d)
    check("conv: -qj2 is -q -j 2", rc == rc2 == 0 and got == want and err == "", err)
    rc, out, err = run("-qj", "1", os.path.join(d, "a.adexp"))
    check("conv: -qj 1 takes the next argument", rc == 0 and "ABC0000" in out, err)
    rc, _, err = run("-qx", d)
    check("conv: an unknown letter in a cluster is a usage error",
          rc == 2 and "unknown option -x" in err, err)
    rc, out, err = run("-q", "--include", "*.adexp", "--include", "*.txt", d)
    check("conv: repeated --include adds patterns (a dangling link they leave out is no failure)",
          rc == 0 and [l.count("ABC000") for l in out.splitlines()] == [1, 1, 1] and
          "ABC0001" in out, f"rc={rc} {err}")
    rc, out, err = run("--exclude", "*.md", "--exclude", "*.lnk", "--exclude", "*.txt", d)
    check("conv: --exclude leaves out and counts",
          rc == 0 and len(out.splitlines()) == 2 and
          "3 files in directories matching --exclude *.md,*.lnk,*.txt" in err, err)
    rc, _, err = run("-q", d)
    check("conv: without patterns the dangling link still fails",
          rc == 1 and "dangling symbolic link" in err, err)
    f = os.path.join(d, "a.adexp")
    cwd = os.getcwd()
    os.chdir(tmp)
    try:
        rc, out, err = run("-q", "-o", "-", f)
        check("conv: -o - is standard output", rc == 0 and "ABC0000" in out and
              not os.path.exists("-"), err)
    finally:
        os.chdir(cwd)
    rc, out, err = run("-q", stdin=GOOD.format(n=7).encode())
    check("conv: no PATH and a pipe on stdin reads it", rc == 0 and '"source":"-"' in out and
          "ABC0007" in out, err)
    rc, out, err = run("-q", "--", f)
    check("conv: -- before a PATH", rc == 0 and "ABC0000" in out, err)
    cwd = os.getcwd()
    os.chdir(d)
    try:
        write("-q", GOOD.format(n=9))
        rc, out, err = run("--", "-q")
        check("conv: -- ends options: -q is a file", rc == 0 and "ABC0009" in out, err)
    finally:
        os.chdir(cwd)
    master, slave = pty.openpty()
    try:
        p = subprocess.run([EXE, "-q"], stdin=slave, capture_output=True, timeout=20)
    finally:
        os.close(slave)
        os.close(master)
    check("conv: no PATH and a terminal on stdin is a usage error",
          p.returncode == 2 and b"no PATH given" in p.stderr, p.stderr)


def test_severity(tmp):
    f = os.path.join(tmp, "sev.adexp")
    write(f, "-TITLE IFPL -ARCID BAD -BEGIN RTEPTS -PT -PTID X\n")
    rc, _, err = run("-q", f)
    check("severity: PATH:LINE:COL: error: CODE: message",
          rc == 1 and f"{f}:1:24: error: LIST_UNCLOSED: " in err and "\033[" not in err, err)
    rc, _, err = run("-q", os.path.join(tmp, "missing"))
    check("severity: PATH: error: message", "missing: error: No such file" in err, err)
    v = os.path.join(tmp, "warn.adexp")
    write(v, "-TITLE IFPL -ARCID ABC -RFL F35O\n")
    rc, _, err = run("-q", "--validate", v)
    check("severity: PATH:LINE:COL: warning: CODE: FIELD: message",
          f"{v}:1:29: warning: BAD_VALUE: RFL: " in err, err)
    rc, _, err = run("-q", "--color=always", f)
    check("severity: --color=always colours the word",
          "\033[1;31merror:\033[0m LIST_UNCLOSED" in err, repr(err))
    rc, _, err = run("-q", "--color", "never", f)
    check("severity: --color never", "\033[" not in err and ": error: " in err, repr(err))
    rc, _, err = run("-q", "--color=sometimes", f)
    check("severity: --color takes auto, always or never", rc == 2, err)
    master, slave = pty.openpty()
    try:
        subprocess.run([EXE, "-q", f], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=slave, timeout=20)
        os.close(slave)
        slave = -1
        got = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            got += chunk
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)
    check("severity: --color=auto colours on a terminal", b"\033[1;31merror:" in got, got)


def test_warnings_columns(tmp):
    v = os.path.join(tmp, "cols.adexp")
    write(v, "-TITLE IFPL -ARCID ABC -RFL F35O -EOBT 0875\n" + GOOD.format(n=1))
    rc, out, err = run("-q", "--validate", "--format", "csv", v)
    rows = out.split("\r\n")
    check("warnings: csv gets a last column warnings, CODE:FIELD joined by ';'",
          rows[0].endswith(",errors,warnings") and
          rows[1].endswith(",,BAD_VALUE:RFL;BAD_VALUE:EOBT") and rows[2].endswith(",,") and
          rows[3] == "", repr(out))
    r = os.path.join(tmp, "rows.adexp")
    write(r, GOOD.format(n=1).replace("F350", "F35O") + GOOD.format(n=2))
    rc, out, err = run("-q", "--validate", "--format", "tsv", "--rows", "RTEPTS", r)
    rows = out.split("\n")
    check("warnings: tsv with --rows: the cell on every row of the message",
          rows[0].endswith("\terrors\twarnings") and len(rows) == 6 and
          all(x.endswith("\t\tBAD_VALUE:RFL") for x in rows[1:3]) and
          all(x.endswith("\t\t") for x in rows[3:5]) and
          len({x.count("\t") for x in rows[:5]}) == 1, repr(out))
    rc, out, err = run("-q", "--format", "csv", v)
    check("warnings: no column without --validate", "warnings" not in out, out)
    rc, out, err = run("-q", "--validate", "--format", "view", v)
    import json
    lines = [json.loads(l) for l in out.splitlines()]
    check("warnings: the view gets a warnings member like JSON's",
          [w["code"] + ":" + w["field"] for w in lines[0]["warnings"]] ==
          ["BAD_VALUE:RFL", "BAD_VALUE:EOBT"] and lines[1]["warnings"] == [] and
          lines[0]["warnings"][0]["line"] == 1, out)


PROGRESS = re.compile(rb"(\d+)/(\d+) files  ([\d.]+) MB read( \(([\d.]+) MB compressed\))?"
                      rb"  (\d+) messages  [\d.]+ MB/s")


def progress_lines(args, stdin=None, feed=None):
    """Run with stderr on a pseudo-terminal; stdout read slowly (64 KiB each
    10 ms) so that the run lasts long enough to draw the line; feed: chunks
    written to stdin, 100 ms apart. Returns the progress lines' matches."""
    master, slave = pty.openpty()
    p = subprocess.Popen([EXE, *args], stdin=stdin, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)

    def drain():
        while p.stdout.read1(65536):
            time.sleep(0.01)

    def give():
        for c in feed:
            p.stdin.write(c)
            p.stdin.flush()
            time.sleep(0.1)
        p.stdin.close()
    threads = [threading.Thread(target=drain)] + ([threading.Thread(target=give)] if feed else [])
    for t in threads:
        t.start()
    got = b""
    while True:
        try:
            r, _, _ = select.select([master], [], [], 30)
            chunk = os.read(master, 65536) if r else b""
        except OSError:
            break
        if not chunk:
            break
        got += chunk
    for t in threads:
        t.join()
    p.wait()
    os.close(master)
    return [PROGRESS.search(l) for l in got.split(b"\r\033[K") if PROGRESS.search(l)]


def test_progress(tmp):
    msg = GOOD.format(n=1).encode() * 40
    big = os.path.join(tmp, "progress.adexp")
    with open(big, "wb") as f:
        f.write(msg * (10_000_000 // len(msg)))
    lines = progress_lines(["-j1", "--format", "csv", big])
    mbs = [float(m.group(3)) for m in lines]
    check("progress: one big file: bytes and messages move while it is read",
          len(set(mbs)) >= 2 and 0 < max(mbs) < 10.1 and
          max(int(m.group(6)) for m in lines) > 0 and
          all(m.group(1) == b"0" for m in lines), [m.group(0) for m in lines][:5])
    # random remarks: the compressed bytes are many enough to show
    text = b"".join(GOOD.format(n=i).encode().replace(b"-RFL", b"-RMK " + os.urandom(60).hex().encode() + b" -RFL")
                    for i in range(12000))
    gz = gzip.compress(text, compresslevel=1)
    step = len(gz) // 5 + 1
    lines = progress_lines(["-j1", "--format", "csv", "-"], stdin=subprocess.PIPE,
                           feed=[gz[i:i + step] for i in range(0, len(gz), step)])
    mbs = [float(m.group(3)) for m in lines]
    check("progress: a .gz stream: decompressed and compressed bytes move",
          len(set(mbs)) >= 2 and any(m.group(5) and float(m.group(5)) > 0 for m in lines),
          [m.group(0) for m in lines][:5])
    os.unlink(big)
    rc, _, err = run("-j1", "--format", "csv", os.path.join(tmp, "sev.adexp"))
    check("progress: never on a non-terminal", "\033[K" not in err and "MB read" not in err, err)


def test_flush_idle(tmp):
    first = GOOD.format(n=1).encode()
    part = b"-TITLE IFPL -ARCID ABC0002 -BEGIN RTEPTS\n"
    rest = b"-PT -PTID EDDM -END RTEPTS\n"
    p = subprocess.Popen([EXE, "-q", "--flush-idle", "50", "-"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdin.write(first)
    p.stdin.flush()
    # comes while standard input stays open (10 s: never, the check fails)
    ready, _, _ = select.select([p.stdout], [], [], 10)
    line = p.stdout.readline() if ready else b""
    p.stdin.write(part)
    p.stdin.flush()
    time.sleep(0.3)              # idle, but what is held is no whole message
    p.stdin.write(rest)
    p.stdin.close()
    out = p.stdout.read()
    p.wait()
    import json
    second = [json.loads(l) for l in out.splitlines()]
    check("flush-idle: a complete message held is written once the input is idle",
          b'"ABC0001"' in line and json.loads(line)["index"] == 0, line)
    check("flush-idle: an incomplete one waits for the rest; indexes and offsets go on",
          len(second) == 1 and second[0]["index"] == 1 and second[0]["offset"] == len(first)
          and not second[0]["errors"] and p.returncode == 0, out)
    rc, _, err = run("--flush-idle", "0", "-")
    check("flush-idle: 0 is a usage error", rc == 2, err)


def main():
    return run_tests([fn for name, fn in sorted(globals().items())
                      if name.startswith("test_") and callable(fn)], "adexp-habits-")


if __name__ == "__main__":
    sys.exit(main())
