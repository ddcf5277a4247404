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
import subprocess
import sys
import tarfile
import zipfile
import zlib

from checks import check, run_tests

EXE = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
GEN = os.path.join(ROOT, "testdata", "gen_corpus.py")


def run(*args, stdin=None, timeout=60):
    p = subprocess.run([EXE, *args], input=stdin, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def sources(out):
    return [json.loads(line)["source"] for line in out.splitlines()]


def corpus(tmp, n, seed=7):
    """The bytes of n generated messages."""
    path = os.path.join(tmp, f"corpus-{n}-{seed}.adexp")
    if not os.path.exists(path):
        subprocess.run([sys.executable, GEN, "--messages", str(n), "--out", path,
                        "--seed", str(seed)], check=True, capture_output=True)
    return open(path, "rb").read()


# Started by a small interpreter of its own: a child's peak RSS counts the
# memory of the process it was forked from, and this one's grows with the
# test data.
RSS_RUNNER = ("import hashlib, resource, subprocess, sys, tempfile\n"
              "e = tempfile.TemporaryFile()\n"
              "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=e)\n"
              "h = hashlib.sha256()\n"
              "for b in iter(lambda: p.stdout.read(1 << 20), b''): h.update(b)\n"
              "p.wait(); e.seek(0)\n"
              "sys.stderr.buffer.write(e.read())\n"
              "print(h.hexdigest(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
              "sys.exit(p.returncode)")


def asan_build(exe):
    """Whether exe is built with AddressSanitizer, whose shadow memory adds a
    byte for every 8 the program touches to its resident size."""
    p = subprocess.run(["ldd", exe], capture_output=True)
    return b"libasan" in p.stdout


SHADOW = 8 if asan_build(EXE) else 0     # one shadow byte per SHADOW touched


def run_rss(*args, stdin=None):
    """Run: exit code, stderr, the child's peak RSS in bytes (getrusage
    RUSAGE_CHILDREN of the runner) and the SHA-256 of its output."""
    p = subprocess.run([sys.executable, "-S", "-c", RSS_RUNNER, EXE, *args], stdin=stdin,
                       capture_output=True, timeout=120)
    digest, rss = p.stdout.split()[-2:]
    return (p.returncode, p.stderr.decode("utf-8", "replace"), int(rss) * 1024,
            digest.decode())


def inflate_intact(data):
    """What zlib makes of gzip data up to its first detected fault."""
    d = zlib.decompressobj(31)
    out = bytearray()
    for i in range(0, len(data), 4096):
        c = d.copy()
        try:
            out += d.decompress(data[i:i + 4096])
        except zlib.error:
            for b in range(i, min(i + 4096, len(data))):   # byte by byte to the fault
                try:
                    out += c.decompress(data[b:b + 1])
                except zlib.error:
                    return bytes(out)
            return bytes(out)
    return bytes(out)


def first_diff(a, b):
    n = min(len(a), len(b))
    return next((i for i in range(n) if a[i] != b[i]), n)


def wholly_before(text, at):
    """Messages of text that are whole in text[:at]: the parser knows one
    has ended once the next "-TITLE" and the byte after it are in."""
    starts = [m.start() for m in re.finditer(rb"-TITLE", text)] + [len(text) - 6]
    return sum(1 for s in starts[1:] if s + 7 <= at)


def lines_as(out, source):
    """JSON lines with source replaced (to compare runs on different names)."""
    res = []
    for line in out.splitlines():
        j = json.loads(line)
        j["source"] = source
        res.append(json.dumps(j))
    return res


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


def test_damaged_gzip(tmp):
    """A .gz cut short or with a byte flipped: every message wholly before
    the damage comes out as it would from the whole file, then the error
    with its offset."""
    text = corpus(tmp, 2000)
    whole = os.path.join(tmp, "whole.adexp")
    write(whole, text)
    rc, want, _ = run("-j", "1", whole)
    want = lines_as(want, "x")
    gz = gzip.compress(text)
    cases = [(f"cut {k}%", gz[:len(gz) * k // 100]) for k in (10, 50, 90)]
    for k in (30, 60):
        flipped = bytearray(gz)
        flipped[len(gz) * k // 100] ^= 0x55
        cases.append((f"byte flipped at {k}%", bytes(flipped)))
    for name, data in cases:
        at = first_diff(inflate_intact(data), text)
        n = wholly_before(text, at)
        f = os.path.join(tmp, "damaged.gz")
        write(f, data)
        for j in ("1", "2"):
            rc, out, err = run("-j", j, f)
            got = lines_as(out, "x")
            check(f"damaged gzip, {name}, -j {j}: the {n} messages before the damage "
                  "come out, then the error", rc == 1 and got[:n] == want[:n] and
                  (name.startswith("byte") or len(got) == n) and
                  re.search(re.escape(f) + r": (?:error: )?(corrupt|truncated) gzip data.* at byte \d+", err),
                  (len(got), n, err[-300:]))


def test_damaged_tar_gz(tmp):
    """A .tar.gz cut short: the members before the cut whole, the cut one's
    messages before the cut, then the error naming the member. Members of
    100 messages and of 2 (smaller than the first bytes read to tell what
    a member is), as a file and on standard input."""
    text = corpus(tmp, 2000)
    starts = [m.start() for m in re.finditer(rb"-TITLE", text)] + [len(text)]
    f = os.path.join(tmp, "cut.tar.gz")
    for per, cuts in ((100, (5, 35, 70, 97)), (2, (30, 31, 40, 81))):
        members = [text[starts[i]:starts[min(i + per, len(starts) - 1)]]
                   for i in range(0, len(starts) - 1, per)]
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tf:
            for i, m in enumerate(members):
                ti = tarfile.TarInfo(f"m{i:04d}.adexp")
                ti.size = len(m)
                tf.addfile(ti, io.BytesIO(m))
        tar = buf.getvalue()
        with tarfile.open(fileobj=io.BytesIO(tar)) as tf:
            offs = [ti.offset_data for ti in tf.getmembers()]
        tgz = gzip.compress(tar)
        for k in cuts:
            data = tgz[:len(tgz) * k // 100]
            at = len(inflate_intact(data))
            write(f, data)
            for how in ("-j 1", "-j 2", "stdin"):
                name = f if how != "stdin" else "-"
                want = []
                for i, m in enumerate(members):
                    member = f"{name}:m{i:04d}.adexp"
                    if offs[i] + len(m) <= at:
                        want += [member] * m.count(b"-TITLE")
                    else:
                        want += [member] * wholly_before(m, at - offs[i])
                        cut = member
                        break
                if how == "stdin":
                    rc, out, err = run("-", stdin=data)
                else:
                    rc, out, err = run(*how.split(), f)
                check(f"tar.gz of {per}-message members cut at {k}%, {how}: "
                      f"{len(want)} messages before the cut, then the error of the member cut",
                      rc == 1 and sources(out) == want and
                      (cut + ": error: corrupt or truncated data at byte") in err,
                      (len(sources(out)), len(want), cut, err[-400:]))


def test_damaged_gzip_stdin(tmp):
    """A .gz cut short on standard input: the messages before the cut."""
    text = corpus(tmp, 2000)
    gz = gzip.compress(text)
    for k in (1, 50):
        data = gz[:len(gz) * k // 100]
        n = wholly_before(text, len(inflate_intact(data)))
        rc, out, err = run("-", stdin=data)
        check(f"gzip cut at {k}% on standard input: the {n} messages before the cut",
              rc == 1 and len(out.splitlines()) == n and "-: error: truncated gzip data" in err,
              (len(out.splitlines()), n, err[-300:]))

def test_stream_bound(tmp):
    """A decompressed input with no message end (newlines only) holds at
    most --max-file-size before it fails, and so does a packed member read
    whole (a tar inside a tar.gz)."""
    mb = 1 << 20
    limit = 16 * mb
    tiny = os.path.join(tmp, "tiny.gz")
    write(tiny, gzip.compress(b"-TITLE IFPL -ARCID A\n"))
    _, _, base, _ = run_rss("--max-file-size", "16M", tiny)
    nl = os.path.join(tmp, "newlines.gz")
    write(nl, gzip.compress(b"\n" * (64 * mb)))
    inner = io.BytesIO()
    with tarfile.open(fileobj=inner, mode="w") as tf:
        ti = tarfile.TarInfo("nl.adexp")
        ti.size = 48 * mb
        tf.addfile(ti, io.BytesIO(b"\n" * ti.size))
    outer = io.BytesIO()
    with tarfile.open(fileobj=outer, mode="w") as tf:
        ti = tarfile.TarInfo("inner.tar")
        ti.size = len(inner.getvalue())
        tf.addfile(ti, io.BytesIO(inner.getvalue()))
    nested = os.path.join(tmp, "nested.tar.gz")
    write(nested, gzip.compress(outer.getvalue(), 1))
    slack = 2 * mb + (limit // SHADOW if SHADOW else 0)
    for f, what in ((nl, "message too large"), (nested, "too large once decompressed")):
        rc, err, rss, _ = run_rss("--max-file-size", "16M", f)
        check(f"{os.path.basename(f)}: fails at --max-file-size 16M holding at most "
              f"16 MiB more than a tiny input ({(rss - base) / mb:.1f} MiB, "
              f"slack {slack / mb:.0f} MiB)",
              rc == 1 and what in err and rss - base <= limit + slack, err[-300:])


def long_path(tmp, length):
    """A directory under tmp whose path is about length bytes long."""
    d = os.path.join(tmp, "long")
    while len(d) < length - 250:
        d = os.path.join(d, "d" * 240)
    os.makedirs(d, exist_ok=True)
    return d


def test_ordered_memory(tmp):
    """Ordered output at -j 2 and -j 4 of a big file whose output is many
    times its size (tiny messages under a long path; a diagnostic per few
    bytes): peak RSS at most 64 MiB + 16 MiB per worker (+ the input, which
    is mapped: page cache, not the process's own memory), and the output is
    that of -j 1."""
    mb = 1 << 20
    tiny = os.path.join(long_path(tmp, 3000), "tiny.adexp")
    write(tiny, b"".join(b"-TITLE IFPL -ARCID A%06d\n" % i for i in range(90000)))
    dense = os.path.join(tmp, "dense.adexp")
    write(dense, b"-TITLE IFPL -ARCID ERR - - - - - - - - - - - - - - - - - - - -\n" * 40000)
    for f in (tiny, dense):
        size = os.path.getsize(f)
        want = None
        for j in ("1", "2", "4"):
            rc, err, rss, digest = run_rss("-j", j, f)
            err = err[:err.rfind("adexp-parse: ")]   # the summary line holds times
            if want is None:
                want = (digest, err)
                continue
            bound = 64 * mb + 16 * mb * int(j) + size
            check(f"{os.path.basename(f)} ({size / mb:.1f} MiB, diagnostics "
                  f"{len(err) / mb:.0f} MiB) at -j {j}: peak RSS {rss / mb:.0f} MiB "
                  f"within {bound / mb:.0f} MiB, output that of -j 1",
                  rss <= bound and (digest, err) == want,
                  (rss / mb, digest == want[0], err == want[1]))

def main():
    return run_tests((test_zip_crc, test_damaged_gzip, test_damaged_tar_gz,
        test_damaged_gzip_stdin, test_stream_bound, test_ordered_memory), "adexp-faults-")


if __name__ == "__main__":
    sys.exit(main())
