"""adexp.to_pandas against adexp-parse --format csv + pandas.read_csv, one run
each, side by side, on one generated file (bench/RESULTS.md, "Python tables").

Run: PYTHONPATH=build/python python3 bench/bench_tables.py build/cli/adexp-parse CORPUS
(CORPUS: python3 testdata/gen_corpus.py --messages 20000 --out CORPUS --seed 7)
"""
import io
import os
import resource
import subprocess
import sys
import time

import pandas

import adexp

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


def via_csv(exe, path, args):
    out = subprocess.run([exe, "-q", "-j", "2", "--format", "csv", *args, path],
                         capture_output=True, check=False).stdout
    # as a user would read it: strings kept as strings, the rest guessed
    return pandas.read_csv(io.BytesIO(out), dtype={"EOBT": str, "EOBD": str})


def main():
    exe, path = sys.argv[1], sys.argv[2]
    print(f"{path}: {os.path.getsize(path)} bytes")
    print("| selection | rows | to_pandas wall s | CPU s | --format csv + read_csv wall s "
          "| CPU s | wall ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for what, kwargs, args in SELECTIONS:
        df, w1, c1 = timed(lambda: adexp.to_pandas([path], jobs=2, **kwargs))
        ref, w2, c2 = timed(lambda: via_csv(exe, path, args))
        assert len(df) == len(ref), (what, len(df), len(ref))
        print(f"| {what} | {len(df):,} | {w1:.3f} | {c1:.3f} | {w2:.3f} | {c2:.3f} "
              f"| {w1 / w2:.2f} |")


if __name__ == "__main__":
    main()
