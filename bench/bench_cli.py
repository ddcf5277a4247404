#!/usr/bin/env python3
"""Benchmark of the batch CLI against the floor of just reading the files.

  bench_cli.py ADEXP_PARSE READ_FLOOR SOURCE_ROOT CACHE_DIR [--runs N] [--files N]

Generates the corpus once (testdata/gen_corpus.py --files N --seed 1, default
20,000 one-message files) into CACHE_DIR, warms the page cache, then times each
command RUNS times (default 5) and prints a Markdown table of medians.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import time


def corpus(root, cache, nfiles):
    d = os.path.join(cache, f"corpus-{nfiles}")
    stamp = d + ".complete"     # outside: a hidden file inside would be skipped
    if not os.path.exists(stamp):
        subprocess.run([sys.executable, os.path.join(root, "testdata", "gen_corpus.py"),
                        "--files", str(nfiles), "--dir", d, "--seed", "1"],
                       check=True, stdout=subprocess.DEVNULL)
        open(stamp, "w").close()
    return d


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd):
    """(wall seconds, CPU seconds user + system) of one run."""
    c0, t0 = cpu(), time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    dt, dc = time.perf_counter() - t0, cpu() - c0
    if p.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.decode()[-500:]}")
    return dt, dc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("floor")
    ap.add_argument("root")
    ap.add_argument("cache")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--files", type=int, default=20000)
    a = ap.parse_args()
    d = corpus(a.root, a.cache, a.files)
    nbytes = nfiles = 0
    for r, _, fs in os.walk(d):
        for f in fs:
            if not f.startswith("."):
                nfiles += 1
                nbytes += os.path.getsize(os.path.join(r, f))
    cmds = []
    for j in (1, 2):
        cmds.append(("read floor (walk + open + read)", j, [a.floor, "-j", str(j), d]))
    for j in (1, 2):
        cmds.append(("adexp-parse --format summary", j,
                     [a.exe, "-q", "--format", "summary", "-j", str(j), d]))
    for j in (1, 2):
        cmds.append(("adexp-parse --format json -o /dev/null", j,
                     [a.exe, "-q", "--format", "json", "-o", "/dev/null", "-j", str(j), d]))
    for _, _, cmd in cmds:      # warm the page cache and the binaries
        timed(cmd)
    rows, floor = [], {}
    for name, j, cmd in cmds:
        runs = [timed(cmd) for _ in range(a.runs)]
        med = statistics.median(t for t, _ in runs)
        medcpu = statistics.median(c for _, c in runs)
        if name.startswith("read floor"):
            floor[j] = (med, medcpu)
        rows.append((name, j, med, medcpu))
    print(f"corpus: {nfiles} files, {nbytes / 1e6:.1f} MB, medians of {a.runs} runs, warm cache\n")
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs\n")
    print("| command | -j | median wall s | files/s | MB/s | vs floor (wall) "
          "| median CPU s | vs floor (CPU) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, j, med, medcpu in rows:
        print(f"| {name} | {j} | {med:.3f} | {nfiles / med:,.0f} | {nbytes / 1e6 / med:.1f} "
              f"| {floor[j][0] / med:.2f} | {medcpu:.3f} | {floor[j][1] / medcpu:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
