"""adexp-parse --dictionary: extension files on the command line.

Run: python3 cli/dictionary_test.py BUILD/cli/adexp-parse SOURCE_ROOT
"""
import json
import os
import subprocess
import sys
import tempfile

from checks import check, summary

EXE, ROOT = sys.argv[1], sys.argv[2]
WRITE = os.path.join(os.path.dirname(EXE), "adexp-write")
EXT = os.path.join(ROOT, "lib", "dict", "extensions")


def run(args, stdin=b""):
    return subprocess.run([EXE, "-q"] + args, input=stdin, capture_output=True)


def fields(out):
    return [json.loads(l)["fields"] for l in out.decode().splitlines()]


SAM = (b"-TITLE SAM -ARCID AFR1234 -ADEP LFPG -TTO -PTID VEULE -TO 1050 -FL F300 "
       b"-REGUL LFFUA12 -CTOT 1043\n")
IFPL = (b"-TITLE IFPL -ARCID CES123 -BEGIN RTEPTS "
        b"-PT -PTID ZSNB -FL S0841 -ETO 231012010000 -ISPASS Y "
        b"-PT -PTID P448 -FL S0841 -ETO 231012011000 -ISPASS N "
        b"-PT -PTID XYZ -ETO 231012012000 -END RTEPTS\n")

# Without an extension TTO is unknown; with etfms.tsv it is a known compound.
r = run(["-"], SAM)
tto = [f for f in fields(r.stdout)[0] if f["name"] == "TTO"][0]
check("tto unknown without extension", tto.get("unknown") is True, tto)
r = run(["--dictionary", os.path.join(EXT, "etfms.tsv"), "-"], SAM)
fs = fields(r.stdout)[0]
tto = [f for f in fs if f["name"] == "TTO"][0]
check("tto known with etfms.tsv", r.returncode == 0 and "unknown" not in tto
      and [s["name"] for s in tto["fields"]] == ["PTID", "TO", "FL"], (r, tto))
check("fields after tto at top level",
      [f["name"] for f in fs] == ["TITLE", "ARCID", "ADEP", "TTO", "REGUL", "CTOT"], fs)

# Two files: the second extends the first; PT gains ISPASS.
r = run(["--dictionary", os.path.join(EXT, "etfms.tsv"),
         "--dictionary", os.path.join(EXT, "local-route-points.tsv"), "-"], IFPL)
rte = [f for f in fields(r.stdout)[0] if f["name"] == "RTEPTS"][0]
pts = rte["items"]
check("three points, ISPASS known in each", r.returncode == 0 and len(pts) == 3 and
      [[s["name"] for s in p["fields"]] for p in pts] ==
      [["PTID", "FL", "ETO", "ISPASS"], ["PTID", "FL", "ETO", "ISPASS"], ["PTID", "ETO"]]
      and "unknown" not in json.dumps(rte), rte)

# ADEXP written with the extensions reads back with them as the same fields,
# in both layouts (the writer is given the dictionary the parser read with).
DICTS = ["--dictionary", os.path.join(EXT, "etfms.tsv"),
         "--dictionary", os.path.join(EXT, "local-route-points.tsv")]
for layout in ("line", "ifps"):
    first = run(DICTS + ["-"], SAM + IFPL)
    written = run(DICTS + ["--format", "adexp", "--layout", layout, "-"], SAM + IFPL)
    again = run(DICTS + ["-"], written.stdout)
    check(f"--format adexp --layout {layout} with extensions reads back the same",
          written.returncode == 0 and again.returncode == 0 and
          fields(again.stdout) == fields(first.stdout), (written, again))

# A broken file: exit 2, its path, line and column.
with tempfile.TemporaryDirectory() as d:
    bad = os.path.join(d, "bad.tsv")
    with open(bad, "w") as f:
        f.write("# ok so far\nTTO\tprimary\tc\t-\tPTID NOSUCH\t-\n")
    r = run(["--dictionary", bad, "-"], SAM)
    err = r.stderr.decode()
    check("broken file: exit 2 with line and column",
          r.returncode == 2 and (bad + ":2:22: subfield NOSUCH is not defined") in err
          and r.stdout == b"", (r.returncode, err))
    with open(bad, "w") as f:
        f.write("TTO\tprimary\tc\t-\tPTID TITLE\t-\n")
    r = run(["--dictionary", bad, "-"], SAM)
    err = r.stderr.decode()
    check("TITLE as a subfield: refused, exit 2 with line and column",
          r.returncode == 2 and (bad + ":1:22: TITLE is the message's syntax") in err
          and r.stdout == b"", (r.returncode, err))
    with open(bad, "w") as f:
        f.write("LOCALLIST\tprimary\tl\t-\tLOCALITEM TITLE\t-\n"
                "LOCALITEM\tsubfield\tc\t-\tPTID\t-\n")
    w = subprocess.run([WRITE, "--dictionary", bad], input=b"", capture_output=True)
    check("adexp-write: TITLE as a list item refused, exit 2 with line and column",
          w.returncode == 2 and (bad + ":1:33: TITLE is the message's syntax").encode()
          in w.stderr, w.stderr)
    r = run(["--dictionary", os.path.join(d, "missing.tsv"), "-"], SAM)
    check("missing file: exit 2", r.returncode == 2 and "missing.tsv: No such file"
          in r.stderr.decode(), r.stderr)
    r = run(["--dictionary"])
    check("no file name: exit 2", r.returncode == 2 and b"needs a file name" in r.stderr,
          r.stderr)

# Validation knows the extended structure: GEOID made a subfield of PT is
# no longer NOT_ALLOWED there (a primary field such as ADEP is allowed in a
# list's element anyway, S31 4.3.7).
PTADEP = (b"-TITLE IFPL -ARCID ABC123 -BEGIN RTEPTS -PT -PTID EDDM -ETO 231012010000 "
          b"-GEOID GEO01 -PT -PTID INPUD -ETO 231012011000 -END RTEPTS\n")
with tempfile.TemporaryDirectory() as d:
    ext = os.path.join(d, "pt-adep.tsv")
    with open(ext, "w") as f:
        f.write("PT\tsubfield\tc\t-\tGEOID\t-\n")
    r = run(["--validate", "-"], PTADEP)
    w = json.loads(r.stdout)["warnings"]
    check("validate: GEOID in PT not allowed without extension",
          [x["code"] for x in w] == ["NOT_ALLOWED"], w)
    r = run(["--validate", "--dictionary", ext, "-"], PTADEP)
    w = json.loads(r.stdout)["warnings"]
    check("validate: GEOID in PT allowed with extension", w == [] and r.returncode == 0, w)

# A new basic field with the value class of a built-in one is checked as it.
VX = b"-TITLE SAM -ARCID ABC12 -NEWTIME 2599 -TTO -PTID VEULE -TO 1050 -FL F300\n"
with tempfile.TemporaryDirectory() as d:
    ext = os.path.join(d, "vx.tsv")
    with open(ext, "w") as f:
        f.write("TTO\tprimary\tc\t-\tPTID TO FL\t-\nNEWTIME\tprimary\tb\t-\t-\ttimehhmm\n")
    r = run(["--validate", "--dictionary", ext, "-"], VX)
    w = json.loads(r.stdout)["warnings"]
    check("validate: an extension's value class checked", [x["field"] for x in w] ==
          ["NEWTIME"], w)
    r = run(["--validate", "--dictionary", ext, "-"], VX.replace(b"2599", b"2359"))
    check("validate: a good value of an extension's class passes",
          json.loads(r.stdout)["warnings"] == [], r.stdout)

# adexp-write --dictionary: a new ICAO text field (TEXT flag) with hyphens
# is written back; without the extension it cannot be.
LT = b"-TITLE X -ARCID A -LOCALTEXT (FPL-ABC-IS) -TTO -PTID VEULE -TO 1050 -FL F300\n"
with tempfile.TemporaryDirectory() as d:
    ext = os.path.join(d, "lt.tsv")
    with open(ext, "w") as f:
        f.write("TTO\tprimary\tc\t-\tPTID TO FL\t-\nLOCALTEXT\tprimary\tb\tTEXT\t-\t-\n")
    j = run(["--dictionary", ext, "-"], LT).stdout
    w = subprocess.run([WRITE, "--dictionary", ext], input=j, capture_output=True)
    check("adexp-write --dictionary writes a new text field", w.returncode == 0 and
          w.stdout == LT, (w.returncode, w.stdout, w.stderr))
    w = subprocess.run([WRITE], input=j, capture_output=True)
    check("adexp-write without it refuses the hyphens", w.returncode == 1 and
          b"WRITE_VALUE at LOCALTEXT" in w.stderr, w.stderr)
    w = subprocess.run([WRITE, "--dictionary", os.path.join(d, "none.tsv")], input=j,
                       capture_output=True)
    check("adexp-write: missing dictionary is a usage error", w.returncode == 2, w.stderr)

# --help documents the option.
r = subprocess.run([EXE, "--help"], capture_output=True)
check("--help names --dictionary", b"--dictionary FILE" in r.stdout)

sys.exit(summary())
