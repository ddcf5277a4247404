#!/usr/bin/env python3
"""adexp-parse on AFTN-framed feeds (doc/feeds.md): the same messages and
envelopes from a file, a stream on standard input (read in small pieces),
a .gz and a tar member, big files cut into pieces, --envelope none.
Usage: feeds_test.py ADEXP_PARSE SOURCE_ROOT

Prints one line per check and "N passed, N failed"; exits 1 on any failure.
"""
import gzip
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

EXE = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
FEEDS = os.path.join(ROOT, "testdata", "feeds")

passed = failed = 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def run(*args, stdin=None):
    p = subprocess.run([EXE, "-q", *args], input=stdin, capture_output=True, timeout=60)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def records(out):
    """The JSON lines, less their source (which names the input)."""
    recs = []
    for line in out.splitlines():
        d = json.loads(line)
        d.pop("source")
        recs.append(d)
    return recs


def values(rec):
    """Every value of a record's fields, nested ones too."""
    stack, out = list(rec["fields"]), []
    while stack:
        f = stack.pop()
        if "value" in f:
            out.append(f["value"])
        stack.extend(f.get("fields", []) + f.get("items", []))
    return out


def framed(n):
    """n good ITA-2 messages, every other one IA-5 with CR LF."""
    parts = []
    for i in range(n):
        text = f"-TITLE CNL\n-ARCID F{i:04d}\n-ADEP LKPR\n-ADES EGLL\n-EOBT 1330\n"
        if i % 2:
            parts.append(f"\x01A{i:05d}\r\nFF LKPREPWC\r\n170001 EUCHZMFP\r\n\x02"
                         + text.replace("\n", "\r\n") + "\v\x03")
        else:
            parts.append(f"ZCZC A{i:05d} 170001\nFF LKPREPWC EUCHZMFP\n170001 EUCHZMFP\n"
                         + text + "\n\n\nNNNN\n")
    return "".join(parts).encode()


def test_good_feed(tmp):
    data = framed(40)
    path = os.path.join(tmp, "feed.adexp")
    with open(path, "wb") as f:
        f.write(data)
    rc, out, err = run(path)
    recs = records(out)
    check("good feed: exit 0, no diagnostics", rc == 0 and err == "", err)
    check("good feed: every message once", [r["fields"][1]["value"] for r in recs]
          == [f"F{i:04d}" for i in range(40)])
    check("good feed: no envelope text in any value",
          not any(w in v for r in recs for v in values(r)
                  for w in ("NNNN", "ZCZC", "EUCHZMFP", "\x01", "\x03")))
    check("good feed: every envelope kept",
          all(r["envelope"]["originator"] == "EUCHZMFP" and r["envelope"]["priority"] == "FF"
              for r in recs))

    # a stream on standard input, written in small pieces with pauses
    p = subprocess.Popen([EXE, "-q", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    for i in range(0, len(data), 97):
        p.stdin.write(data[i:i + 97])
        p.stdin.flush()
        time.sleep(0.001)
    p.stdin.close()
    sout = p.stdout.read().decode()
    p.wait()
    check("stream: the same records", p.returncode == 0 and records(sout) == recs)

    gz = path + ".gz"
    with open(gz, "wb") as f:
        f.write(gzip.compress(data))
    rc, gout, _ = run(gz)
    check(".gz: the same records", rc == 0 and records(gout) == recs)

    tar = os.path.join(tmp, "feed.tar")
    with tarfile.open(tar, "w") as t:
        info = tarfile.TarInfo("day/feed.adexp")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    rc, tout, _ = run(tar)
    check("tar member: the same records", rc == 0 and records(tout) == recs)

    # a big file cut into pieces parsed side by side (the split follows
    # the envelopes' starts)
    big = os.path.join(tmp, "big.adexp")
    with open(big, "wb") as f:
        f.write(framed(20000))   # over 2 MiB: cut into 1 MiB pieces
    rc1, out1, _ = run("-j1", big)
    rc4, out4, _ = run("-j4", big)
    check("big feed: -j1 and -j4 byte-identical", rc1 == rc4 == 0 and out1 == out4)

    rc, vout, _ = run("--format", "view", path)
    check("--format view: the same envelopes",
          rc == 0 and [json.loads(l)["envelope"] for l in vout.splitlines()]
          == [r["envelope"] for r in recs])

    rc, out, err = run("--envelope", "none", path)
    check("--envelope none: the envelope read as ADEXP text (as before)",
          rc == 1 and "NO_TITLE" in err and "NNNN" in out and '"envelope"' not in out)
    rc, _, err = run("--envelope", "x400", path)
    check("--envelope x400: usage error", rc == 2 and "aftn or none" in err, err)


def test_broken_feed(tmp):
    rc, out, err = run(os.path.join(FEEDS, "aftn-broken.adexp"))
    recs = records(out)
    check("broken feed: exit 1, each error with line and column",
          rc == 1 and err.count(": error: ENVELOPE: ") == 3 and ":9:1: error: ENVELOPE" in err, err)
    check("broken feed: the next message still found",
          [r["fields"][1]["value"] for r in recs] == ["CSA101", "CSA102", "CSA103", "CSA104"])
    check("broken feed: the good one has no error", recs[1]["errors"] == [])


def test_plain_unchanged(tmp):
    # unframed input: no "envelope" key anywhere
    rc, out, _ = run("--include", "*.adexp", os.path.join(ROOT, "testdata", "messages"))
    check("plain input: no envelope", rc == 0 and '"envelope"' not in out)


def main():
    tmp = tempfile.mkdtemp()
    try:
        for t in (test_good_feed, test_broken_feed, test_plain_unchanged):
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
