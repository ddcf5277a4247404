"""adexp-parse -j 4 over every kind of input at once: a directory (testdata/),
a .tar.gz of testdata/messages, a big file cut into pieces for the workers
(over 2 MiB: lib/batch/batch_split.c), big .gz, .tar.gz and .zst files, and
a .gz and a .tar.gz cut short (over 1 MiB: decompressed on a thread of their
own at -j 4, lib/batch/batch_readahead.c, not at -j 1) and standard input.
The output must be -j 1's, byte for byte; the exit code 1 (testdata/invalid
holds invalid files); and standard error free of sanitizer reports. Built with
-Db_sanitize=thread it is the ThreadSanitizer run (suite 'threads', in CI).

Run: python3 cli/threads_test.py BUILD/cli/adexp-parse SOURCE_ROOT
"""
import gzip
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

EXE, SRC = sys.argv[1], sys.argv[2]
REPORTS = ("ThreadSanitizer", "AddressSanitizer", "LeakSanitizer", "runtime error:")


def corpus(path, messages, seed):
    subprocess.run([sys.executable, os.path.join(SRC, "testdata", "gen_corpus.py"),
                    "--messages", str(messages), "--seed", str(seed), "--bad-every", "50",
                    "--out", path], check=True, capture_output=True)


def parse(jobs, inputs, stdin_path):
    with open(stdin_path, "rb") as stdin:
        r = subprocess.run([EXE, "-j", str(jobs), *inputs, "-"], stdin=stdin,
                           capture_output=True)
    # the closing summary line holds the time taken
    notes = [l for l in r.stderr.decode(errors="replace").splitlines()
             if not l.startswith("adexp-parse: ")]
    return r.returncode, r.stdout, sorted(notes), r.stderr.decode(errors="replace")


def main():
    failures = []
    with tempfile.TemporaryDirectory() as d:
        archive = os.path.join(d, "messages.tar.gz")
        with tarfile.open(archive, "w:gz") as t:
            t.add(os.path.join(SRC, "testdata", "messages"), arcname="messages")
        big, stream = os.path.join(d, "big.adexp"), os.path.join(d, "stream.adexp")
        corpus(big, 3000, 7)      # about 4.6 MB: split into 1 MiB pieces
        corpus(stream, 1000, 8)
        packed = os.path.join(d, "packed.adexp")
        corpus(packed, 9000, 9)   # about 14 MB: over 1 MiB compressed
        with open(packed, "rb") as f:
            text = f.read()
        gz, cut = os.path.join(d, "packed.adexp.gz"), os.path.join(d, "cut.adexp.gz")
        with open(gz, "wb") as f:
            f.write(gzip.compress(text, 6))
        with open(gz, "rb") as f, open(cut, "wb") as g:
            data = f.read()
            g.write(data[:len(data) * 3 // 5])
        # a big member of a .tar.gz is read ahead too; and one cut short
        tgz, tcut = os.path.join(d, "packed.tar.gz"), os.path.join(d, "cut.tar.gz")
        with tarfile.open(tgz, "w:gz") as t:
            t.add(packed, arcname="packed.adexp")
        with open(tgz, "rb") as f, open(tcut, "wb") as g:
            data = f.read()
            g.write(data[:len(data) * 3 // 5])
        inputs = [os.path.join(SRC, "testdata"), archive, big, gz, cut, tgz, tcut]
        if shutil.which("zstd"):
            subprocess.run(["zstd", "-q", "-3", packed, "-o", packed + ".zst"], check=True)
            inputs.append(packed + ".zst")
        code4, out4, notes4, err4 = parse(4, inputs, stream)
        code1, out1, notes1, _ = parse(1, inputs, stream)

    reports = [l for l in err4.splitlines() if any(s in l for s in REPORTS)]
    if reports:
        failures.append("sanitizer reports at -j 4:\n" + err4[-4000:])
    if code4 != 1:
        failures.append(f"-j 4 exit code {code4}, want 1 (testdata/invalid)")
    if code1 != 1:
        failures.append(f"-j 1 exit code {code1}, want 1")
    if out4 != out1:
        failures.append(f"-j 4 output differs from -j 1's ({len(out4)} and {len(out1)} bytes)")
    if notes4 != notes1:
        failures.append(f"-j 4 diagnostics differ from -j 1's ({len(notes4)} and {len(notes1)} lines)")
    lines = out4.count(b"\n")
    if lines < 4000 + 9000 * 4:
        failures.append(f"only {lines} messages written")
    for f in failures:
        print("FAIL", f)
    if not failures:
        print(f"ok: {lines} messages, {len(notes4)} diagnostics, "
              "-j 4 as -j 1, no sanitizer report")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
