#!/usr/bin/env python3
"""Golden files and accounting for adexp-parse's data formats.

  formats_test.py ADEXP_PARSE TESTDATA_DIR [--update]

Runs adexp-parse over testdata/messages and testdata/invalid (from TESTDATA_DIR,
so that sources are relative) in --format view, csv, tsv and csv --rows RTEPTS,
and compares each output with its golden file in testdata/formats/ byte for byte
(--update rewrites them; review the diff). Then checks that every message is
accounted for: one view line and one CSV row per JSON line, one --rows row per
route point, --title keeping exactly the messages of those titles and counting
the others in the summary; and, where pandas is installed, that pandas reads
the CSV files with one row per message and per point.
"""
import csv
import io
import json
import os
import re
import subprocess
import sys

EXE, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
UPDATE = "--update" in sys.argv[3:]
FAILED = []

FIELDS = ("ARCID,ADEP,ADES,EOBD,EOBT,EOBT_utc,RFL,RFL_ft,RFL_m,ESTDATA.PTID,"
          "ESTDATA.ETO_utc,EETFIR,ADDR.FAC,REFDATA.SENDER.FAC,CTOT_utc,MSGTXT")
ENVELOPE = ("ARCID,envelope.transmission_id,envelope.priority,envelope.addressees,"
            "envelope.filing_time,envelope.originator,envelope.text")
CASES = [
    # golden file, arguments
    ("messages.view.ndjson", ["--format", "view", "messages"]),
    ("invalid.view.ndjson", ["--format", "view", "invalid"]),
    ("messages.csv", ["--format", "csv", "--fields", FIELDS, "messages"]),
    ("invalid.csv", ["--format", "csv", "invalid"]),
    ("messages.tsv", ["--format", "tsv", "messages"]),
    ("messages-rtepts.csv", ["--format", "csv", "--rows", "RTEPTS",
                             "--fields", "ARCID,ADEP,ADES,EOBD", "messages"]),
    ("feeds.csv", ["--format", "csv", "--fields", ENVELOPE, "feeds"]),
]


def check(name, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + name + ("" if cond else ": " + detail))
    if not cond:
        FAILED.append(name)


def run(*args):
    p = subprocess.run([EXE, "-q", "-j", "2", "--include", "*.adexp", *args],
                       cwd=ROOT, capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode()


def golden():
    for name, args in CASES:
        _, out, _ = run(*args)
        path = os.path.join(ROOT, "formats", name)
        if UPDATE:
            with open(path, "wb") as f:
                f.write(out)
            continue
        want = open(path, "rb").read() if os.path.exists(path) else None
        check("golden " + name, want == out,
              "no golden file" if want is None else "differs (rewrite with --update, review the diff)")


def json_lines(d):
    return [json.loads(l) for l in run("--format", "json", d)[1].splitlines()]


def accounting():
    for d in ("messages", "invalid"):
        msgs = json_lines(d)
        view = [json.loads(l) for l in run("--format", "view", d)[1].splitlines()]
        check(f"{d}: one view line per message", len(view) == len(msgs),
              f"{len(view)} view lines, {len(msgs)} messages")
        check(f"{d}: view keeps source, index, title, errors",
              [(v["source"], v["index"], v["title"], len(v["errors"])) for v in view] ==
              [(m["source"], m["index"], m["title"], len(m["errors"])) for m in msgs])
        rows = list(csv.DictReader(io.StringIO(run("--format", "csv", d)[1].decode())))
        check(f"{d}: one CSV row per message", len(rows) == len(msgs),
              f"{len(rows)} rows, {len(msgs)} messages")
        check(f"{d}: failed messages have their errors in CSV",
              [bool(r["errors"]) for r in rows] == [bool(m["errors"]) for m in msgs])
        points = sum(len(f.get("items", [])) for m in msgs for f in m["fields"]
                     if f["name"] == "RTEPTS")
        with_list = {(m["source"], m["index"]) for m in msgs
                     if any(f["name"] == "RTEPTS" for f in m["fields"])}
        lost = sum(1 for m in msgs if m["errors"] and (m["source"], m["index"]) not in with_list)
        rrows = list(csv.DictReader(io.StringIO(
            run("--format", "csv", "--rows", "RTEPTS", d)[1].decode())))
        check(f"{d}: one --rows RTEPTS row per item (and per failed message without one)",
              len(rrows) == points + lost, f"{len(rrows)} rows, {points} items + {lost}")
    msgs = json_lines("messages")
    want = [m for m in msgs if m["title"] in ("IFPL", "CHG")]
    for fmt in ("json", "view", "csv"):
        rc, out, err = run("--format", fmt, "--title", "IFPL,chg", "messages")
        n = len(out.splitlines()) - (fmt == "csv")
        check(f"--title IFPL,chg keeps {len(want)} messages in {fmt}", n == len(want), f"{n}")
    p = subprocess.run([EXE, "--format", "summary", "--title", "IFPL,CHG", "--include", "*.adexp",
                        "messages"], cwd=ROOT, capture_output=True, text=True)
    m = re.search(r"(\d+) messages of titles IFPL,CHG written, (\d+) left out", p.stderr)
    check("the summary counts the messages --title leaves out",
          m and int(m.group(1)) == len(want) and int(m.group(2)) == len(msgs) - len(want), p.stderr)
    view = [json.loads(l) for l in run("--format", "view", "--fields", "ARCID,RTEPTS",
                                        "messages")[1].splitlines()]
    keys = set().union(*(v.keys() for v in view))
    check("--fields trims the view", keys <= {"source", "index", "offset", "title", "arcid",
                                              "rtepts", "errors", "other"}, str(keys))
    tj = [json.loads(l) for l in run("--format", "json", "--fields", "ARCID", "messages")[1].splitlines()]
    names = {f["name"] for m in tj for f in m["fields"]}
    check("--fields trims json (TITLE kept)", names <= {"TITLE", "ARCID"} and len(tj) == len(msgs),
          str(names))


PANDAS_CHECK = r"""
import io, subprocess, sys
import pandas
exe, root = sys.argv[1], sys.argv[2]
def read(*args):
    out = subprocess.run([exe, "-q", "--include", "*.adexp", *args], cwd=root,
                         capture_output=True, check=False).stdout
    return pandas.read_csv(io.BytesIO(out))
msgs, points = int(sys.argv[3]), int(sys.argv[4])
df = read("--format", "csv", "--fields", "ARCID,COMMENT,RFL_ft", "messages")
pts = read("--format", "csv", "--rows", "RTEPTS", "messages")
tsv = subprocess.run([exe, "-q", "--include", "*.adexp", "--format", "tsv", "messages"],
                     cwd=root, capture_output=True).stdout
tf = pandas.read_csv(io.BytesIO(tsv), sep="\t")
print(len(df), len(pts), len(tf), str(pts["RTEPTS.FL_ft"].dtype))
"""


def pandas_python():
    """An interpreter that imports pandas (Debian's python3-pandas is for /usr/bin/python3)."""
    for py in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(py) and subprocess.run([py, "-c", "import pandas"],
                                                 capture_output=True).returncode == 0:
            return py
    return None


def with_pandas():
    py = pandas_python()
    if not py:
        print("SKIP pandas checks: python3-pandas is not installed (apt-get install python3-pandas)")
        return
    msgs = json_lines("messages")
    points = sum(len(f.get("items", [])) for m in msgs for f in m["fields"] if f["name"] == "RTEPTS")
    p = subprocess.run([py, "-c", PANDAS_CHECK, EXE, ROOT, str(len(msgs)), str(points)],
                       capture_output=True, text=True)
    got = p.stdout.split()
    check("pandas reads the CSV and TSV files", p.returncode == 0 and len(got) == 4, p.stderr[-600:])
    if len(got) == 4:
        check("pandas: one row per message (csv and tsv)",
              int(got[0]) == len(msgs) and int(got[2]) == len(msgs), f"{got}, {len(msgs)} messages")
        check("pandas: one row per route point", int(got[1]) == points, f"{got[1]}, {points} points")
        check("pandas: levels in feet are numbers", got[3].startswith(("int", "float")), got[3])


def hostile_inputs():
    """The fuzz corpora and regressions: every view line is JSON, every CSV
    file has one row per message, whatever the bytes."""
    fuzz = os.path.join(os.path.dirname(ROOT), "fuzz", "corpus")
    dirs = [os.path.join(fuzz, d) for d in sorted(os.listdir(fuzz))] if os.path.isdir(fuzz) else []
    dirs.append(os.path.join(ROOT, "regress"))
    for d in dirs:
        p = subprocess.run([EXE, "-q", "--format", "json", d], capture_output=True)
        n = len(p.stdout.splitlines())
        p = subprocess.run([EXE, "-q", "--format", "view", d], capture_output=True)
        lines = p.stdout.splitlines()
        bad = 0
        for l in lines:
            try:
                json.loads(l)
            except ValueError:
                bad += 1
        check(f"{os.path.basename(d)}: {n} view lines, all JSON", len(lines) == n and not bad,
              f"{len(lines)} lines, {bad} not JSON")
        for extra in ([], ["--rows", "RTEPTS"]):
            p = subprocess.run([EXE, "-q", "--format", "csv", "--fields",
                                "ARCID,COMMENT,MSGTXT,RTEPTS.PT.PTID,ETO_utc", *extra, d],
                               capture_output=True)
            text = p.stdout.decode("utf-8")   # must be valid UTF-8
            rows = list(csv.reader(io.StringIO(text, newline="")))
            widths = {len(r) for r in rows}
            ok = len(widths) <= 1 and (extra or len(rows) - 1 == n)
            label = " ".join(["csv"] + extra)
            check(f"{os.path.basename(d)}: {label} rectangular" +
                  ("" if extra else ", one row per message"), ok, f"{len(rows)} rows, widths {widths}")


def usage_errors():
    for args, what in ((["--format", "view", "--rows", "RTEPTS"], "--rows needs"),
                       (["--format", "csv", "--fields", "RFL_km"], "unknown suffix"),
                       (["--format", "csv", "--fields", "A..B"], "bad path"),
                       (["--format", "csv", "--fields", "envelope.orignator"],
                        "did you mean envelope.originator?"),
                       (["--title", "IFPL,"], "empty title"),
                       (["--format", "xml"], "unknown format")):
        p = subprocess.run([EXE, *args, "messages"], cwd=ROOT, capture_output=True, text=True)
        check(f"usage error: {' '.join(args)}", p.returncode == 2 and what in p.stderr,
              f"exit {p.returncode}: {p.stderr}")


def main():
    golden()
    if UPDATE:
        print("golden files rewritten")
        return 0
    accounting()
    hostile_inputs()
    usage_errors()
    with_pandas()
    print(f"{len(FAILED)} failed")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
