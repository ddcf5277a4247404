#!/usr/bin/env python3
"""Benchmark of the batch CLI on one big file: summary against JSON, -j 1
against -j 2, peak anonymous memory, bytes of JSON per second.

  bench_bigfile.py ADEXP_PARSE SOURCE_ROOT CACHE_DIR [--runs N] [--messages N]

Generates one file once (testdata/gen_corpus.py --messages N --seed 1, default
130,000 messages, about 200 MB) into CACHE_DIR, warms the page cache, then runs
the commands by turns, RUNS rounds (default 5), so that all of them see the same
machine speed, and prints a Markdown table of medians. Peak anonymous memory is
RssAnon of /proc/PID/status, sampled every millisecond (the mapped input is page
cache, not anonymous) in one run of each command apart from the timed ones. The JSON outputs of -j 1 and -j 2 are compared byte for
byte (SHA-256) and their lines counted.
"""
import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import threading
import time


def corpus(root, cache, n):
    os.makedirs(cache, exist_ok=True)
    path = os.path.join(cache, f"big-{n}.adexp")
    if not os.path.exists(path):
        tmp = path + ".part"
        subprocess.run([sys.executable, os.path.join(root, "testdata", "gen_corpus.py"),
                        "--messages", str(n), "--out", tmp, "--seed", "1"],
                       check=True, stdout=subprocess.DEVNULL)
        os.rename(tmp, path)
    return path


def rss_anon(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run(cmd, digest=False, sample=False):
    """(wall s, CPU s, peak anonymous bytes (0 unless sample), sha256 of stdout
    or None, lines, bytes of stdout). The timed runs do not sample: the
    sampling thread reads /proc every millisecond and would take CPU time from
    the command's workers (with -j 2, a share of the second core)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE if digest else subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    peak = [0]
    done = threading.Event()

    def sampler():
        while not done.is_set():
            peak[0] = max(peak[0], rss_anon(p.pid))
            time.sleep(0.001)
    th = threading.Thread(target=sampler)
    if sample:
        th.start()
    h, lines, nbytes = None, 0, 0
    if digest:
        sha = hashlib.sha256()
        for block in iter(lambda: p.stdout.read(1 << 20), b""):
            sha.update(block)
            lines += block.count(b"\n")
            nbytes += len(block)
        h = sha.hexdigest()
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    done.set()
    if sample:
        th.join()
    if p.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} exited {p.returncode}")
    return dt, ru.ru_utime + ru.ru_stime, peak[0], h, lines, nbytes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("root")
    ap.add_argument("cache")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--messages", type=int, default=130000)
    a = ap.parse_args()
    f = corpus(a.root, a.cache, a.messages)
    size = os.path.getsize(f)
    cmds = [("read (cat > /dev/null)", 1, ["cat", f])]
    for j in (1, 2):
        cmds.append(("--format summary", j, [a.exe, "-q", "--format", "summary",
                                             "-j", str(j), f]))
        cmds.append(("--format json -o /dev/null", j, [a.exe, "-q", "-o", os.devnull,
                                                      "-j", str(j), f]))
    # The same output must come out of -j 1 and -j 2, every message in it.
    check = {j: run([a.exe, "-q", "-j", str(j), f], digest=True) for j in (1, 2)}
    peaks = {}
    for n, j, cmd in cmds:      # warm the page cache and the binary; memory
        peaks[(n, j)] = run(cmd, sample=True)[2]
    res = {(n, j): [] for n, j, _ in cmds}
    for _ in range(a.runs):
        for n, j, cmd in cmds:
            res[(n, j)].append(run(cmd))
    json_bytes = check[1][5]
    print(f"one file: {size / 1e6:.1f} MB, {check[1][4]} messages; medians of {a.runs} "
          f"rounds by turns, warm cache; load average {os.getloadavg()[0]:.2f} "
          f"on {os.cpu_count()} CPUs\n")
    print(f"-j 1 and -j 2 JSON outputs: {'identical' if check[1][3] == check[2][3] else 'DIFFER'}"
          f" ({check[1][4]} and {check[2][4]} lines, {json_bytes / 1e6:.1f} MB)\n")
    print("| command | -j | median wall s | MB/s in | JSON MB/s out | median CPU s "
          "| peak anon MB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    med = {}
    for n, j, _ in cmds:
        rs = res[(n, j)]
        wall = statistics.median(r[0] for r in rs)
        cpu = statistics.median(r[1] for r in rs)
        peak = peaks[(n, j)]
        med[(n, j)] = wall
        out = f"{json_bytes / 1e6 / wall:.0f}" if "json" in n else ""
        print(f"| {n} | {j} | {wall:.3f} | {size / 1e6 / wall:.0f} | {out} | {cpu:.3f} "
              f"| {peak / 1e6:.1f} |")
    s1, s2 = med[("--format summary", 1)], med[("--format summary", 2)]
    j1, j2 = med[("--format json -o /dev/null", 1)], med[("--format json -o /dev/null", 2)]
    print(f"\nJSON / summary, -j 1: {j1 / s1:.2f}x (target <= 1.6); -j 2: {j2 / s2:.2f}x")
    print(f"-j 1 / -j 2: summary {s1 / s2:.2f}x, JSON {j1 / j2:.2f}x (target >= 1.6)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
