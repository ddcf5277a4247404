#!/usr/bin/env python3
"""Benchmark of the adexp Python package against the subprocess route.

  bench_python.py ADEXP_PARSE SOURCE_ROOT CACHE_DIR [--runs N] [--files N] [--jobs N]
  bench_python.py ADEXP_PARSE SOURCE_ROOT CACHE_DIR --scaling FILE [--runs N]
  bench_python.py ADEXP_PARSE SOURCE_ROOT CACHE_DIR --marshal FILE [--runs N]

On the corpus of bench_cli.py (testdata/gen_corpus.py --files N --seed 1,
default 20,000 one-message files), times by turns, RUNS times each:
  - adexp.parse_files(files, jobs) + Message.to_dict() for every message;
  - subprocess.run(adexp-parse -q -j JOBS --files-from -) + json.loads of
    every line, what users do without the package;
checks that both give the same list of dicts, and prints medians. Then
adexp.parse (and parse + to_dict) of the teivah IFPL in microseconds.
With --scaling, parse_files([FILE], jobs) + to_dict() (and the Messages
alone) with jobs=1 and jobs=2 by turns: wall, the process's CPU and the
calling thread's, which makes the Messages and dicts (a jobs=2 run can go
no faster than that thread).
With --marshal, what a flat encoding written on the workers would leave to
the calling thread: marshal.loads of each message's dict, marshalled
beforehand, against to_dict() of the same Messages, by turns (the best of
RUNS, each message's result dropped at once as the --scaling loop does).
The module must be importable (PYTHONPATH=build/python).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import timeit

import adexp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_cli import corpus  # noqa: E402  the same corpus, made once


def package_route(files, jobs):
    return [m.to_dict() for m in adexp.parse_files(files, jobs=jobs)]


def subprocess_route(exe, files, jobs):
    p = subprocess.run([exe, "-q", "-j", str(jobs), "--files-from", "-"],
                       input="\n".join(files).encode() + b"\n",
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if p.returncode not in (0, 1):
        sys.exit(f"adexp-parse exited {p.returncode}: {p.stderr.decode()[-500:]}")
    return [json.loads(line) for line in p.stdout.splitlines()]


def cpu():
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def timed(fn, *args):
    c0, t0 = cpu(), time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t0, cpu() - c0, out


def per_call_us(stmt, g, number):
    runs = timeit.repeat(stmt, number=number, repeat=9, globals=g)
    return statistics.median(runs) / number * 1e6


def scaling(path, runs):
    def once(jobs, dicts):
        w, p, t = time.perf_counter(), time.process_time(), time.thread_time()
        for m in adexp.parse_files([path], jobs):
            if dicts:
                m.to_dict()
        return time.perf_counter() - w, time.process_time() - p, time.thread_time() - t

    print(f"{path}: {os.path.getsize(path)} bytes, {runs} rounds by turns, "
          f"load average {os.getloadavg()[0]:.1f}")
    print("| route | jobs | wall s | process CPU s | calling thread CPU s |")
    print("|---|---:|---:|---:|---:|")
    for dicts in (True, False):
        res = {1: [], 2: []}
        for _ in range(runs):
            for jobs in res:
                res[jobs].append(once(jobs, dicts))
        for jobs, v in res.items():
            med = [statistics.median(x[i] for x in v) for i in range(3)]
            what = "`parse_files` + `to_dict()`" if dicts else "`parse_files`, Messages only"
            print(f"| {what} | {jobs} | {med[0]:.3f} | {med[1]:.3f} | {med[2]:.3f} |")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


def flat(path, runs):
    import marshal
    msgs = list(adexp.parse_files([path], 1))
    blobs = [marshal.dumps(m.to_dict()) for m in msgs]

    def dicts():
        for m in msgs:
            m.to_dict()

    def loads():
        for b in blobs:
            marshal.loads(b)

    best = {dicts: [], loads: []}
    for _ in range(runs):
        for fn, v in best.items():
            t = time.thread_time()
            fn()
            v.append(time.thread_time() - t)
    print(f"{path}: {len(msgs)} messages, {sum(map(len, blobs)) / len(blobs):.0f} marshal "
          f"bytes each, load average {os.getloadavg()[0]:.1f}")
    print(f"| to_dict() | {min(best[dicts]):.3f} s |")
    print(f"| marshal.loads | {min(best[loads]):.3f} s |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("root")
    ap.add_argument("cache")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--files", type=int, default=20000)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--scaling", metavar="FILE")
    ap.add_argument("--marshal", metavar="FILE")
    a = ap.parse_args()
    if a.scaling:
        return scaling(a.scaling, a.runs)
    if a.marshal:
        return flat(a.marshal, a.runs)
    d = corpus(a.root, a.cache, a.files)
    files = list(adexp.expand_paths([d]))
    # Both routes give the same dicts (and the page cache is warm). The
    # timed runs then keep only the count: results held across runs would
    # make the garbage collector's passes longer for whichever runs later.
    want = package_route(files, a.jobs)
    if subprocess_route(a.exe, files, a.jobs) != want:
        sys.exit("the two routes give different dicts")
    nmsgs = len(want)
    del want
    routes = {"parse_files + to_dict": lambda: len(package_route(files, a.jobs)),
              "subprocess adexp-parse + json.loads":
                  lambda: len(subprocess_route(a.exe, files, a.jobs))}
    wall = {k: [] for k in routes}
    cpus = {k: [] for k in routes}
    for _ in range(a.runs):
        for name, fn in routes.items():
            dt, dc, out = timed(fn)
            if out != nmsgs:
                sys.exit(f"{name}: {out} messages, not {nmsgs}")
            wall[name].append(dt)
            cpus[name].append(dc)
    print(f"{len(files)} files, {nmsgs} messages, -j {a.jobs}, "
          f"medians of {a.runs} runs by turns\n")
    print("| route | wall s | messages/s | CPU s | vs subprocess (wall) |")
    print("|---|---:|---:|---:|---:|")
    base = statistics.median(wall["subprocess adexp-parse + json.loads"])
    for name in routes:
        w, c = statistics.median(wall[name]), statistics.median(cpus[name])
        print(f"| {name} | {w:.3f} | {nmsgs / w:,.0f} | {c:.3f} | {w / base:.2f} |")

    ifpl = open(os.path.join(a.root, "testdata/messages/IFPL-teivah-1.adexp"), "rb").read()
    line = json.dumps(adexp.parse(ifpl)[0].to_dict())
    g = {"adexp": adexp, "ifpl": ifpl, "json": json, "line": line}
    n = 20000
    print(f"\nteivah IFPL ({len(ifpl)} bytes), medians of 9 x {n} calls:\n")
    print("| call | µs per message |")
    print("|---|---:|")
    for label, stmt in [("adexp.parse(ifpl)", "adexp.parse(ifpl)"),
                        ("adexp.parse(ifpl)[0].to_dict()", "adexp.parse(ifpl)[0].to_dict()"),
                        ("json.loads of its JSON line (for scale)", "json.loads(line)")]:
        print(f"| `{label}` | {per_call_us(stmt, g, n):.2f} |")


if __name__ == "__main__":
    main()
