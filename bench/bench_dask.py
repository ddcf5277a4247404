#!/usr/bin/env python3
"""adexp.dask at archive scale: one big plain file in byte ranges on a
distributed.LocalCluster of 1 and of 2 worker processes, side by side with
adexp-parse and adexp.parse_files on the same file.

  bench_dask.py ADEXP_PARSE SOURCE_ROOT CACHE_DIR [--messages N] [--runs N]
                [--blocksize SIZE]

The file is testdata/gen_corpus.py --messages N --seed 7 (default 68,000
messages, about 100 MB), made once into CACHE_DIR. Timed by turns, RUNS
times each, medians:
  - adexp-parse -q -j 2 FILE -o /dev/null (the CLI, for scale);
  - adexp.parse_files([FILE], jobs=2) + to_dict() of every message;
  - adexp.dask.read([FILE], blocksize=SIZE).count() (default 8MiB: 13
    partitions, which two processes share 7 and 6), every message made
    into its dict on the workers, with 1 worker process, then with 2
    (processes=True, one thread each): the ratio is what the second
    process brings.
The module must be importable (PYTHONPATH=build/python).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import adexp
import adexp.dask


def corpus(root, cache, messages):
    path = os.path.join(cache, f"dask-{messages}.adexp")
    if not os.path.exists(path):
        os.makedirs(cache, exist_ok=True)
        subprocess.run([sys.executable, os.path.join(root, "testdata/gen_corpus.py"),
                        "--messages", str(messages), "--out", path, "--seed", "7"],
                       check=True, stdout=subprocess.DEVNULL)
    return path


def timed(f):
    t = time.perf_counter()
    n = f()
    return time.perf_counter() - t, n


def cli(adexp_parse, path):
    subprocess.run([adexp_parse, "-q", "-j", "2", path, "-o", os.devnull], check=False)
    return None


def package(path):
    return sum(1 for m in adexp.parse_files([path], jobs=2) if m.to_dict())


def on_cluster(path, workers, blocksize):
    import distributed
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster):
        bag = adexp.dask.read([path], blocksize=blocksize)
        adexp.dask.read([path], blocksize=blocksize).take(1)   # workers warm
        t, n = timed(lambda: bag.count().compute())
        return t, n, bag.npartitions


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("adexp_parse")
    ap.add_argument("root")
    ap.add_argument("cache")
    ap.add_argument("--messages", type=int, default=68000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--blocksize", default="8MiB")
    a = ap.parse_args()
    path = corpus(a.root, a.cache, a.messages)
    size = os.path.getsize(path)
    times = {"cli": [], "package": [], 1: [], 2: []}
    counts, parts = set(), None
    for _ in range(a.runs):
        times["cli"].append(timed(lambda: cli(a.adexp_parse, path))[0])
        t, n = timed(lambda: package(path))
        times["package"].append(t)
        counts.add(n)
        for w in (1, 2):
            t, n, parts = on_cluster(path, w, a.blocksize)
            times[w].append(t)
            counts.add(n)
    assert counts == {a.messages}, counts
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{a.messages} messages, {size / 1e6:.1f} MB, blocksize {a.blocksize} "
          f"({parts} partitions), medians of {a.runs} runs by turns; "
          f"load average {os.getloadavg()[0]:.1f}")
    print("| route | wall s | MB/s | vs adexp-parse |")
    print("|---|---:|---:|---:|")
    rows = [("`adexp-parse -q -j 2 FILE -o /dev/null`", med["cli"]),
            ("`adexp.parse_files([FILE], jobs=2)` + `to_dict()`", med["package"]),
            ("`adexp.dask.read(blocksize)` .count(), 1 worker process", med[1]),
            ("`adexp.dask.read(blocksize)` .count(), 2 worker processes", med[2])]
    for name, t in rows:
        print(f"| {name} | {t:.2f} | {size / 1e6 / t:.1f} | {t / med['cli']:.1f} |")
    print(f"2 worker processes against 1: {med[1] / med[2]:.2f}x")


if __name__ == "__main__":
    main()
