"""adexp.to_pandas against adexp-parse --format csv + pandas.read_csv, by turns
in one process, on one generated file (bench/RESULTS.md, "Python tables").

Three routes to the same rows: to_pandas on the path (the batch writes the
rows into the table's columns, no Message made), the same table filled from
parse_files' Messages (the route before), and the CLI's CSV read by pandas.
Each round runs all three in turn; the medians and the ratios to the CSV
route, round by round, are printed.

Run: PYTHONPATH=build/python python3 bench/bench_tables.py build/cli/adexp-parse CORPUS [--runs N]
(CORPUS: python3 testdata/gen_corpus.py --messages 20000 --out CORPUS --seed 7)
"""
import argparse
import io
import os
import resource
import statistics
import subprocess
import time

import pandas

import adexp
from adexp import tables

SELECTIONS = [
    ("default columns", {}, []),
    ("rows RTEPTS", {"rows": "RTEPTS"}, ["--rows", "RTEPTS"]),
    ("validate", {"validate": True}, ["--validate"]),
]


def cpu():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def timed(f):
    t0, c0 = time.perf_counter(), cpu()
    r = f()
    return r, time.perf_counter() - t0, cpu() - c0


def via_csv(exe, path, args, jobs):
    out = subprocess.run([exe, "-q", "-j", str(jobs), "--format", "csv", *args, path],
                         capture_output=True, check=False).stdout
    # as a user would read it: strings kept as strings, the rest guessed
    return pandas.read_csv(io.BytesIO(out), dtype={"EOBT": str, "EOBD": str})


def via_messages(path, kwargs, jobs):
    t = tables.table(kwargs.get("fields"), kwargs.get("rows"), kwargs.get("titles"),
                     kwargs.get("validate", False))
    t.add(adexp.parse_files([path], jobs))
    return tables.frame(t)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("corpus")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--jobs", type=int, default=2)
    a = p.parse_args()
    path, jobs = a.corpus, a.jobs
    print(f"{path}: {os.path.getsize(path)} bytes, jobs {jobs}, {a.runs} rounds, "
          f"load average {os.getloadavg()[0]:.1f}")
    print("| selection | rows | to_pandas wall s | CPU s | via Messages wall s | CPU s "
          "| csv + read_csv wall s | CPU s | to_pandas / csv (wall) | via Messages / csv (wall) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for what, kwargs, args in SELECTIONS:
        routes = [lambda: adexp.to_pandas([path], jobs=jobs, **kwargs),
                  lambda: via_messages(path, kwargs, jobs),
                  lambda: via_csv(a.exe, path, args, jobs)]
        got = [r() for r in routes]                 # warm-up, and the same rows
        assert len({len(df) for df in got}) == 1, (what, [len(df) for df in got])
        pandas.testing.assert_frame_equal(got[0], got[1])   # the two table routes agree
        runs = [[], [], []]
        for _ in range(a.runs):
            for k, r in enumerate(routes):
                runs[k].append(timed(r)[1:])
        wall = [statistics.median(w for w, _ in rs) for rs in runs]
        cpus = [statistics.median(c for _, c in rs) for rs in runs]
        ratio = [statistics.median(x[0] / y[0] for x, y in zip(runs[k], runs[2])) for k in (0, 1)]
        print(f"| {what} | {len(got[0]):,} | {wall[0]:.3f} | {cpus[0]:.3f} | {wall[1]:.3f} "
              f"| {cpus[1]:.3f} | {wall[2]:.3f} | {cpus[2]:.3f} | {ratio[0]:.2f} | {ratio[1]:.2f} |")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
