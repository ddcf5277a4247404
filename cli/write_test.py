#!/usr/bin/env python3
"""End-to-end tests of ADEXP output: adexp-parse --format adexp and adexp-write.

Usage: write_test.py ADEXP_PARSE ADEXP_WRITE SOURCE_ROOT

Every message of testdata/ and of a generated corpus that parses without error
is written back (both layouts, by adexp-parse and, from its JSON, by
adexp-write) and must parse to the same JSON fields again. Also: --help equals
doc/cli.md's copy, usage errors, bad JSON lines, files and standard input.
Prints one line per check and "N passed, N failed"; exits 1 on any failure.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

from checks import check, run_tests

PARSE = os.path.abspath(sys.argv[1])
WRITE = os.path.abspath(sys.argv[2])
ROOT = os.path.abspath(sys.argv[3])
LAYOUTS = ("line", "ifps")


def run(exe, *args, stdin=None):
    p = subprocess.run([exe, *args], input=stdin, capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def messages(ndjson):
    return [json.loads(line) for line in ndjson.splitlines() if line.strip()]


def doc_help(program):
    """doc/cli.md's copy of PROGRAM --help (the block after its heading)."""
    with open(os.path.join(ROOT, "doc", "cli.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"as printed by `" + re.escape(program) + r" --help`\)\n\n```\n(.*?)```",
                  text, re.S)
    return m.group(1) if m else None


def test_help_and_usage(tmp):
    for exe, name in ((PARSE, "adexp-parse"), (WRITE, "adexp-write")):
        rc, out, _ = run(exe, "--help")
        check(f"{name} --help equals doc/cli.md's copy",
              rc == 0 and out.decode() == doc_help(name))
    rc, out, _ = run(WRITE, "--version")
    check("adexp-write --version", rc == 0 and out.startswith(b"adexp-write "))
    for args in (["--bogus"], ["--layout"], ["--layout", "tree"], ["-o"]):
        rc, _, err = run(WRITE, *args)
        check(f"adexp-write usage error {args} exits 2", rc == 2 and "adexp-write:" in err)
    f = os.path.join(ROOT, "testdata", "messages", "IFPL-teivah-1.adexp")
    for args in (["--layout", "ifps", f], ["--format", "adexp", "--layout", "x", f],
                 ["--format", "adexp", "--layout"]):
        rc, _, err = run(PARSE, *args)
        check(f"adexp-parse usage error {args} exits 2", rc == 2 and "adexp-parse:" in err)


def same_fields(name, want, got):
    w = [m["fields"] for m in want]
    g = [m["fields"] for m in got]
    ok = w == g
    detail = ""
    if not ok:
        bad = next((i for i, (x, y) in enumerate(zip(w, g)) if x != y), min(len(w), len(g)))
        detail = f"message {bad} of {len(w)} (got {len(g)})"
    check(name, ok, detail)


def round_trip_file(path, tmp):
    """path's messages through --format adexp and adexp-write, both layouts."""
    rc, out, _ = run(PARSE, "-q", "-j1", path)
    want = messages(out.decode())
    clean = [m for m in want if not m["errors"]]
    short = os.path.relpath(path, ROOT)
    for layout in LAYOUTS:
        rc, adexp, err = run(PARSE, "-q", "-j1", "--format", "adexp", "--layout", layout, path)
        if len(clean) == len(want):
            back = os.path.join(tmp, "back.adexp")
            with open(back, "wb") as f:
                f.write(adexp)
            _, out2, _ = run(PARSE, "-q", "-j1", back)
            same_fields(f"{short} --format adexp --layout {layout}", want,
                        messages(out2.decode()))
        else:
            check(f"{short} (with errors) --format adexp --layout {layout} exits 1",
                  rc == 1, f"rc={rc}")
            back = messages(run(PARSE, "-q", "-j1", "-", stdin=adexp)[1].decode())
            left_open = [(m["fields"], codes(m)) for m in want if m["errors"] and
                         set(codes(m)) <= {"TEXT_UNCLOSED", "LIST_UNCLOSED"}]
            check(f"{short} (with errors) --format adexp --layout {layout}: "
                  "an open ICAO text or list written as it stands",
                  all(t in [(b["fields"], codes(b)) for b in back] for t in left_open),
                  f"{len(left_open)} left open")
        lines = "".join(json.dumps(m) + "\n" for m in clean).encode()
        rc, adexp, err = run(WRITE, "--layout", layout, stdin=lines)
        _, out3, _ = run(PARSE, "-q", "-j1", "-", stdin=adexp) if adexp else (0, b"", "")
        if clean:
            same_fields(f"{short} adexp-write --layout {layout}", clean,
                        messages(out3.decode()))
            check(f"{short} adexp-write --layout {layout} exits 0", rc == 0, err)
        if len(clean) < len(want):
            with_errors(short, layout, want, tmp)


def codes(m):
    return [e["code"] for e in m["errors"]]


def with_errors(short, layout, want, tmp):
    """Every line of a file with errors through adexp-write: each message is
    written as it stands (it parses to the same fields and the same errors)
    or refused with its first error; never written as a message without
    errors; exit 1. --format adexp writes every message whose errors the
    writer can keep (an ICAO text left open) the same way."""
    lines = "".join(json.dumps(m) + "\n" for m in want).encode()
    rc, adexp, err = run(WRITE, "--layout", layout, stdin=lines)
    back = messages(run(PARSE, "-q", "-j1", "-", stdin=adexp)[1].decode()) if adexp else []
    refused = [ln for ln in err.splitlines() if ": not written: " in ln]
    kept = [m for m in want if not m["errors"] or "TEXT_UNCLOSED" in codes(m)]
    same = [(m["fields"], codes(m)) for m in kept] == [(m["fields"], codes(m)) for m in back]
    check(f"{short} adexp-write --layout {layout}: written as they stand or refused",
          rc == 1 and same and len(refused) == len(want) - len(kept),
          f"rc={rc} {len(back)} back of {len(kept)}, {len(refused)} refused: {err}")
    for m, ln in zip([m for m in want if m not in kept], refused):
        check(f"{short} adexp-write: refused with its error {codes(m)[0]}",
              f": not written: {codes(m)[0]} at {m['errors'][0]['line']}:"
              f"{m['errors'][0]['column']}" in ln, ln)


def test_testdata(tmp):
    files = []
    for sub in ("messages", "invalid", "regress"):
        files += sorted(glob.glob(os.path.join(ROOT, "testdata", sub, "*.adexp")))
    for path in files:
        if os.path.getsize(path) > 0:
            round_trip_file(path, tmp)


def test_generated(tmp):
    corpus = os.path.join(tmp, "gen.adexp")
    subprocess.run([sys.executable, os.path.join(ROOT, "testdata", "gen_corpus.py"),
                    "--messages", "500", "--out", corpus, "--seed", "19"], check=True)
    round_trip_file(corpus, tmp)


def test_bad_lines_and_files(tmp):
    good = '{"fields":[{"name":"TITLE","value":"IFPL"},{"name":"ARCID","value":"A1"}]}\n'
    lines = (good + "not json\n\n" +
             '{"fields":[{"name":"TITLE","value":"X"},{"name":"ROUTE","value":"A-B"}]}\n' +
             '{"fields":[{"name":"TITLE","value":"X"},{"name":"ESTDATA","fields":'
             '[{"name":"ARCID","value":"A"}]}]}\n' +
             '{"fields":[{"name":"TITLE","value":"X"},{"name":"rte","items":[]}]}\n' +
             '{"fields":[{"name":"ARCID","value":"X"}]}\n' +
             '{"fields":[{"name":"TITLE"},{"name":"PT","fields":[{"name":7}]}]}\n' + good)
    rc, out, err = run(WRITE, stdin=lines.encode())
    want = ["-:2: bad JSON at column",
            "-:4: WRITE_VALUE at ROUTE: ",
            "-:5: WRITE_SHAPE at ESTDATA/ARCID: ",
            "-:6: fields[1]: rte: WRITE_KEYWORD: ",
            "-:7: fields[0]: the first field is not a basic TITLE",
            "-:8: fields[1].fields[0]: \"name\" is missing or not a string"]
    got = err.splitlines()
    check("bad lines: one error each, with the line and the field", len(got) == len(want) and
          all(g.startswith(w) for g, w in zip(got, want)), err)
    check("bad lines: exit 1, the good lines written",
          rc == 1 and out == b"-TITLE IFPL -ARCID A1\n" * 2, out)

    a = os.path.join(tmp, "a.ndjson")
    with open(a, "w") as f:
        f.write(good)
    missing = os.path.join(tmp, "missing.ndjson")
    rc, out, err = run(WRITE, a, missing, "-", stdin=good.encode())
    check("files and -: each read in turn, a missing one reported",
          rc == 1 and out == b"-TITLE IFPL -ARCID A1\n" * 2 and
          err.startswith(missing + ": No such file"), err)
    o = os.path.join(tmp, "out.adexp")
    rc, out, err = run(WRITE, "-o", o, "--layout=ifps", a)
    with open(o, "rb") as f:
        check("-o FILE --layout=ifps", rc == 0 and f.read() == b"-TITLE IFPL\n-ARCID A1\n")


def test_bytes(tmp):
    """Bytes that are not UTF-8 are \\udcXX in the JSON (surrogateescape),
    which Python keeps through loads and dumps; adexp-write gives the bytes
    back: parse, write, parse is the identity, bytes included."""
    text = (b"-TITLE IFPL -ARCID A1 -COMMENT caf\xe9 \xff\xfe \xc3\xa9t\xc3 \x80Z\n"
            b"-TITLE ACK -ARCID A2 -MSGTXT (FPL-\xe9\xe8-IS)\n"
            b"-TITLE \xbcI3 -ARCID A3\n")
    _, out, _ = run(PARSE, "-q", "-", stdin=text)
    check("bytes that are not UTF-8 are \\udcXX in JSON",
          b"caf\\udce9 \\udcff\\udcfe \xc3\xa9t\\udcc3 \\udc80Z" in out, out)
    for how, lines in (("as written", out),
                       ("through Python's json", "".join(json.dumps(m) + "\n" for m in
                                                         messages(out.decode())).encode())):
        rc, adexp, err = run(WRITE, "--layout", "ifps", stdin=lines)
        check(f"adexp-write gives the bytes back ({how})",
              rc == 0 and b"caf\xe9 \xff\xfe \xc3\xa9t\xc3 \x80Z" in adexp and
              b"(FPL-\xe9\xe8-IS)" in adexp and b"-TITLE \xbcI3\n" in adexp,
              adexp + err.encode())
        _, again, _ = run(PARSE, "-q", "-", stdin=adexp)
        check(f"parse, write, parse: the same JSON ({how})",
              [m["fields"] for m in messages(again.decode())] ==
              [m["fields"] for m in messages(out.decode())], again)


def sh(script, *args, stdin=None):
    """script run by sh -c, $0 being adexp-write and $1... args."""
    return subprocess.run(["sh", "-c", script, WRITE, *args], input=stdin,
                          capture_output=True, timeout=60)


def test_output_safety(tmp):
    """adexp-parse's protections: the output is never an input, and std
    descriptors closed by the caller are never taken by a file."""
    good = b'{"fields":[{"name":"TITLE","value":"IFPL"},{"name":"ARCID","value":"A1"}]}\n'
    bad = b'{"fields":[{"name":"TITLE","value":"X"},{"name":"ROUTE","value":"A-B"}]}\n'
    d = os.path.join(tmp, "safety")
    os.makedirs(d)
    a = os.path.join(d, "a.ndjson")
    with open(a, "wb") as f:
        f.write(good * 2)
    p = sh('exec "$0" -o "$1" "$1"', a)
    check("-o naming an input: refused with exit 2, input untouched",
          p.returncode == 2 and open(a, "rb").read() == good * 2 and
          b"is the input" in p.stderr, p.stderr)
    p = sh('exec "$0" -o "$1" < "$1"', a)
    check("-o naming standard input's file: refused, untouched",
          p.returncode == 2 and open(a, "rb").read() == good * 2, p.stderr)
    p = sh('exec "$0" "$1" >> "$1"', a)
    check("stdout appended to an input: refused, untouched",
          p.returncode == 2 and open(a, "rb").read() == good * 2, p.stderr)
    o = os.path.join(d, "out.adexp")
    with open(o, "wb") as f:
        f.write(b"old contents, longer than the new ones\n" * 10)
    p = sh('exec 2>&-; exec "$0" -o "$1"', o, stdin=good + bad + good)
    check("2>&-: exit 1, diagnostics never go into the -o file, old contents gone",
          p.returncode == 1 and open(o, "rb").read() == b"-TITLE IFPL -ARCID A1\n" * 2,
          open(o, "rb").read()[:200])
    for close in ("1>&-", "0<&- 1>&-"):
        p = sh(f'exec {close}; exec "$0" "$1"', a)
        check(f"{close}: exit 1, standard output closed, nothing read",
              p.returncode == 1 and b"standard output is closed" in p.stderr, p.stderr)
    p = sh('exec 0<&-; exec "$0" -o "$1"', o)
    check("0<&-: reading standard input fails (exit 1), the output is not read",
          p.returncode == 1 and b"-: Bad file descriptor" in p.stderr and
          open(o, "rb").read() == b"", p.stderr)
    for args in (["--help"], ["--version"]):
        p = sh('exec 1>&-; exec "$0" "$@"', *args)
        check(f"1>&- {args[0]}: exit 1, the text could not be written",
              p.returncode == 1 and b"standard output" in p.stderr, p.stderr)


def path_work(tmp, n):
    """Instructions spent in adexp_field_path naming the last of n + 1 ROUTE
    fields (its value cannot be written), and the error line."""
    f = os.path.join(tmp, f"siblings{n}.ndjson")
    fields = ([{"name": "TITLE", "value": "X"}] + [{"name": "ROUTE", "value": "A"}] * n +
              [{"name": "ROUTE", "value": "A-B"}])
    with open(f, "w") as fh:
        fh.write(json.dumps({"fields": fields}) + "\n")
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                        "--toggle-collect=adexp_field_path", WRITE, "-o", os.devnull, f],
                       capture_output=True, timeout=300)
    m = re.search(rb"Collected : (\d+)", p.stderr)
    return (int(m.group(1)) if m else None), p.stderr


def sanitized(exe):
    """Whether exe is built with a sanitizer, which valgrind cannot run."""
    with open(exe, "rb") as f:
        data = f.read()
    return b"__asan_init" in data or b"__tsan_init" in data


def test_path_is_linear(tmp):
    """Naming a field after n siblings is linear in n (it was quadratic:
    hours for a message of a million fields). Instructions, not time."""
    if sanitized(WRITE):
        print("note: a sanitized build; its work is measured in the plain build")
        return
    if not shutil.which("valgrind"):
        print("note: no valgrind; the path's work is not measured")
        return
    small, err1 = path_work(tmp, 3000)
    big, err2 = path_work(tmp, 6000)
    check("the path after 6000 siblings is named ROUTE[6001]",
          b"WRITE_VALUE at ROUTE[6001]:" in err2, err2[-300:])
    check("twice the siblings, at most 2.5 times the path's instructions",
          small and big and big < 2.5 * small, (small, big))


def test_edit_with_json(tmp):
    """What jq would do: change a value in the JSON, write, parse again."""
    path = os.path.join(ROOT, "testdata", "messages", "IFPL-teivah-1.adexp")
    _, out, _ = run(PARSE, "-q", path)
    m = json.loads(out)
    for f in m["fields"]:
        if f["name"] == "ARCID":
            f["value"] = "EDITED1"
    rc, adexp, _ = run(WRITE, stdin=(json.dumps(m) + "\n").encode())
    _, back, _ = run(PARSE, "-q", "-", stdin=adexp)
    arcid = [f["value"] for f in json.loads(back)["fields"] if f["name"] == "ARCID"]
    check("an edited value is written back", rc == 0 and arcid == ["EDITED1"], arcid)


def main():
    return run_tests((test_help_and_usage, test_testdata, test_generated,
        test_bad_lines_and_files, test_bytes, test_output_safety,
        test_path_is_linear, test_edit_with_json), "adexp-write-")


if __name__ == "__main__":
    sys.exit(main())
