#!/usr/bin/env python3
"""Two commands timed by turns, A B A B ..., after one warm-up run of each:
the minimum, median and maximum of their wall and CPU (user + system)
seconds, and of the ratio A/B pair by pair (steadier than a ratio of
medians when the machine's speed drifts). Output goes to /dev/null.

    bench/by_turns.py [-n RUNS] --vs 'COMMAND B' -- COMMAND A ...
"""
import argparse
import resource
import shlex
import statistics
import subprocess
import sys
import time


def once(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def row(name, values):
    return f"{name:<12} {min(values):10.4f} {statistics.median(values):10.4f} {max(values):10.4f}"


def main():
    p = argparse.ArgumentParser(usage=__doc__)
    p.add_argument("-n", type=int, default=5)
    p.add_argument("--vs", required=True)
    p.add_argument("a", nargs=argparse.REMAINDER)
    args = p.parse_args()
    a = args.a[1:] if args.a[:1] == ["--"] else args.a
    b = shlex.split(args.vs)
    if not a:
        p.error("no command A")
    once(a), once(b)
    runs = {"A": [], "B": []}
    for _ in range(args.n):
        runs["A"].append(once(a))
        runs["B"].append(once(b))
    print(f"{'':<12} {'min':>10} {'median':>10} {'max':>10}   ({args.n} pairs)")
    for k in ("A", "B"):
        print(row(f"{k} wall s", [w for w, _ in runs[k]]))
        print(row(f"{k} cpu s", [c for _, c in runs[k]]))
    pairs = list(zip(runs["A"], runs["B"]))
    print(row("A/B wall", [x[0] / y[0] for x, y in pairs]))
    print(row("A/B cpu", [x[1] / y[1] if y[1] else float("nan") for x, y in pairs]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
