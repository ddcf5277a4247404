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
  - adexp.to_pandas([FILE], jobs=2) (the table in one process, for scale);
  - len(adexp.dask.to_dataframe([FILE], blocksize=SIZE)) (default 8MiB: 13
    partitions, which two processes share 7 and 6), each range made into
    its table in C on the workers, with 1 worker process, then with 2
    (processes=True, one thread each): the ratio is what the second
    process brings;
  - with --bags, also adexp.dask.read([FILE], blocksize=SIZE).count(), every
    message made into its dict on the workers, 1 and 2 processes.
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


def table(path):
    return len(adexp.to_pandas([path], jobs=2))


def workers_cpu(client):
    """CPU seconds the worker processes have used so far, all together."""
    import resource

    def used():
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime
    return sum(client.run(used).values())


def warm():
    """pandas imported and a table made in a worker, before the timing."""
    return len(adexp.to_pandas(adexp.parse(b"-TITLE IFPL -ARCID A -RFL F300")))


def on_cluster(path, workers, blocksize, bags):
    """(seconds, messages, partitions, workers' CPU seconds) of the table,
    and of the bag if bags."""
    import distributed
    out = []
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        adexp.dask.read([path], blocksize=blocksize).take(1)   # workers warm
        client.run(warm)
        ddf = adexp.dask.to_dataframe([path], blocksize=blocksize)
        c = workers_cpu(client)
        t, n = timed(lambda: len(ddf))
        out.append((t, n, ddf.npartitions, workers_cpu(client) - c))
        if bags:
            bag = adexp.dask.read([path], blocksize=blocksize)
            c = workers_cpu(client)
            t, n = timed(lambda: bag.count().compute())
            out.append((t, n, bag.npartitions, workers_cpu(client) - c))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("adexp_parse")
    ap.add_argument("root")
    ap.add_argument("cache")
    ap.add_argument("--messages", type=int, default=68000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--blocksize", default="8MiB")
    ap.add_argument("--bags", action="store_true")
    a = ap.parse_args()
    path = corpus(a.root, a.cache, a.messages)
    size = os.path.getsize(path)
    times = {k: [] for k in ("cli", "package", "table", 1, 2, "bag1", "bag2")}
    cpus = {k: [] for k in (1, 2, "bag1", "bag2")}
    counts, parts = set(), None
    print(f"load average at the start {os.getloadavg()[0]:.1f}")
    for _ in range(a.runs):
        times["cli"].append(timed(lambda: cli(a.adexp_parse, path))[0])
        if a.bags:
            t, n = timed(lambda: package(path))
            times["package"].append(t)
            counts.add(n)
        t, n = timed(lambda: table(path))
        times["table"].append(t)
        counts.add(n)
        for w in (1, 2):
            got = on_cluster(path, w, a.blocksize, a.bags)
            times[w].append(got[0][0])
            cpus[w].append(got[0][3])
            counts.add(got[0][1])
            parts = got[0][2]
            if a.bags:
                times[f"bag{w}"].append(got[1][0])
                cpus[f"bag{w}"].append(got[1][3])
                counts.add(got[1][1])
    assert counts == {a.messages}, counts
    med = {k: statistics.median(v) for k, v in times.items() if v}
    cpu = {k: statistics.median(v) for k, v in cpus.items() if v}
    print(f"{a.messages} messages, {size / 1e6:.1f} MB, blocksize {a.blocksize} "
          f"({parts} partitions), medians of {a.runs} runs by turns; "
          f"load average {os.getloadavg()[0]:.1f}")
    print("| route | wall s | MB/s | vs adexp-parse | workers' CPU s | MB per worker CPU s |")
    print("|---|---:|---:|---:|---:|---:|")
    rows = [("`adexp-parse -q -j 2 FILE -o /dev/null`", "cli"),
            ("`adexp.parse_files([FILE], jobs=2)` + `to_dict()`", "package"),
            ("`adexp.to_pandas([FILE], jobs=2)`", "table"),
            ("`len(adexp.dask.to_dataframe(blocksize))`, 1 worker process", 1),
            ("`len(adexp.dask.to_dataframe(blocksize))`, 2 worker processes", 2),
            ("`adexp.dask.read(blocksize)` .count(), 1 worker process", "bag1"),
            ("`adexp.dask.read(blocksize)` .count(), 2 worker processes", "bag2")]
    for name, k in rows:
        if k in med:
            t = med[k]
            c = f"{cpu[k]:.2f} | {size / 1e6 / cpu[k]:.1f}" if k in cpu else " | "
            print(f"| {name} | {t:.2f} | {size / 1e6 / t:.1f} | {t / med['cli']:.1f} | {c} |")
    print(f"to_dataframe, 2 worker processes against 1: {med[1] / med[2]:.2f}x; "
          f"MB/s per worker process: {size / 1e6 / med[1]:.1f} (1), "
          f"{size / 1e6 / med[2] / 2:.1f} (2)")
    if a.bags:
        print(f"read, 2 worker processes against 1: {med['bag1'] / med['bag2']:.2f}x")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
