#!/usr/bin/env python3
"""Damaged inputs and memory bounds of adexp-parse.

Usage: faults_test.py ADEXP_PARSE SOURCE_ROOT

Damaged compressed inputs and archives (cut short, bytes flipped): every
message wholly before the damage comes out, then one error naming the
input (and member) and the offset. Memory: peak RSS of the child, measured
by getrusage, stays within its bound on inputs that used to grow it.
Prints one line per check and "N passed, N failed"; exits 1 on any failure.
"""
import gzip
import io
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

EXE = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
GEN = os.path.join(ROOT, "testdata", "gen_corpus.py")

passed = failed = 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {str(detail)[:2000]}")


def run(*args, stdin=None, timeout=60):
    p = subprocess.run([EXE, *args], input=stdin, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def sources(out):
    return [json.loads(line)["source"] for line in out.splitlines()]


def corpus(tmp, n, seed=7):
    """n generated messages: the bytes, and each message's end offset."""
    path = os.path.join(tmp, f"corpus-{n}-{seed}.adexp")
    if not os.path.exists(path):
        subprocess.run([sys.executable, GEN, "--messages", str(n), "--out", path,
                        "--seed", str(seed)], check=True)
    data = open(path, "rb").read()
    rc, out, err = run("-j", "1", path)
    assert rc == 0, err
    ends = [m["offset"] + m["length"] for m in map(json.loads, out.splitlines())]
    return data, ends


def test_zip_crc(tmp):
    """A zip member whose CRC does not match is an error of that member."""
    text = b"".join(b"-TITLE IFPL -ARCID ABC%04d -ADEP EDDM -ADES EDDH\n" % i
                    for i in range(50))
    for method, name in ((zipfile.ZIP_STORED, "stored"), (zipfile.ZIP_DEFLATED, "deflated")):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", method) as zf:
            zf.writestr("a.adexp", text)
            zf.writestr("b.adexp", text)
        data = bytearray(buf.getvalue())
        if method == zipfile.ZIP_STORED:
            at = data.index(b"ABC0007") + 3
            data[at] = ord("9")          # still a message: only the CRC tells
        else:
            crc_at = 14                  # the local header's CRC-32
            data[crc_at] ^= 0x01
        z = os.path.join(tmp, f"crc-{name}.zip")
        write(z, bytes(data))
        rc, out, err = run(z)
        check(f"zip CRC mismatch ({name}) is an error of the member, exit 1",
              rc == 1 and re.search(re.escape(z) + r":a\.adexp: .*CRC", err) and
              sources(out).count(f"{z}:b.adexp") == 50, (rc, err))


def main():
    tmp = tempfile.mkdtemp(prefix="adexp-faults-")
    try:
        for t in (test_zip_crc,):
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
