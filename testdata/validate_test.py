#!/usr/bin/env python3
"""Golden files of validation: adexp-parse --validate on each
testdata/validate/X.adexp must print on stderr exactly the finding lines of
X.warnings (none for a valid message), and on the specification's examples
shipped in testdata/messages and testdata/invalid exactly those of
validate/spec-examples.warnings (each justified in validate/README.md). The
JSON lines' "warnings" must say the same (code, field, line, column), and
--strict must exit 1 exactly when there is a warning.

    validate_test.py ADEXP_PARSE TESTDATA [--update]
"""
import glob
import json
import os
import subprocess
import sys

LINE_PREFIX = ("BAD_VALUE", "OUT_OF_RANGE", "MISSING_SUBFIELD", "NOT_ALLOWED",
               "MISPLACED", "UNEXPECTED_VALUE", "NOT_CHECKED")


def run(exe, testdata, paths, *opts):
    p = subprocess.run([exe, "--validate", "-q", "-j1", *opts, *paths],
                       cwd=testdata, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def findings(stderr):
    out = []
    for line in stderr.splitlines():
        parts = line.split(": ")
        if len(parts) > 2 and parts[1] == "warning" and parts[2] in LINE_PREFIX:
            out.append(line)
    return out


def same_json(stdout, lines):
    """The JSON warnings, as (source, line, col, code, field) in order."""
    got = []
    for row in stdout.splitlines():
        obj = json.loads(row)
        for w in obj["warnings"]:
            got.append("%s:%d:%d: warning: %s: %s" % (obj["source"], w["line"], w["column"],
                                                     w["code"], w["field"]))
    want = [": ".join(l.split(": ")[:4]) for l in lines]
    return got == want


def check(exe, testdata, name, paths, golden, update):
    rc, out, err = run(exe, testdata, paths)
    lines = findings(err)
    if update:
        with open(golden, "w") as f:
            f.write("".join(l + "\n" for l in lines))
        return []
    with open(golden) as f:
        want = f.read().splitlines()
    bad = []
    if lines != want:
        bad.append("%s: findings differ from %s:\n  got:  %s\n  want: %s" % (
            name, golden, "\n        ".join(lines), "\n        ".join(want)))
    if rc != 0:
        bad.append("%s: exit %d without --strict" % (name, rc))
    if not same_json(out, lines):
        bad.append("%s: JSON warnings differ from the stderr lines" % name)
    src, _, _ = run(exe, testdata, paths, "--strict", "--format", "summary")
    if src != (1 if lines else 0):
        bad.append("%s: --strict exit %d with %d findings" % (name, src, len(lines)))
    return bad


def main():
    exe, testdata = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    update = "--update" in sys.argv[3:]
    problems = []
    cases = sorted(glob.glob(os.path.join(testdata, "validate", "*.adexp")))
    if not cases:
        problems.append("no testdata/validate/*.adexp")
    for path in cases:
        rel = os.path.relpath(path, testdata)
        problems += check(exe, testdata, rel, [rel], path[:-len(".adexp")] + ".warnings",
                          update)
    spec = sorted(os.path.relpath(p, testdata) for d in ("messages", "invalid")
                  for p in glob.glob(os.path.join(testdata, d, "*eurocontrol-spec31*.adexp")))
    problems += check(exe, testdata, "spec examples", spec,
                      os.path.join(testdata, "validate", "spec-examples.warnings"), update)
    p = subprocess.run([exe, "--strict", os.path.join("validate", "ifpl-valid.adexp")],
                       cwd=testdata, capture_output=True, text=True)
    if p.returncode != 2 or "--strict needs --validate" not in p.stderr:
        problems.append("--strict without --validate: exit %d, not a usage error" % p.returncode)
    # --help tells what doc/cli.md says it prints (its --validate and --strict)
    doc = open(os.path.join(testdata, os.pardir, "doc", "cli.md"), encoding="utf-8").read()
    mark = "## Options (as printed by `adexp-parse --help`)\n\n```\n"
    if mark not in doc:
        problems.append("doc/cli.md has no copy of adexp-parse --help")
    else:
        start = doc.index(mark) + len(mark)
        copy = doc[start:doc.index("```", start)]
        helptext = subprocess.run([exe, "--help"], capture_output=True, text=True).stdout
        if copy != helptext:
            problems.append("doc/cli.md's copy of --help differs from adexp-parse --help")
    for p in problems:
        print(p)
    print("%d golden checks, %d problems" % (len(cases) + 1, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
