#!/usr/bin/env python3
"""adexp-parse on AFTN-framed feeds (doc/feeds.md): the same messages and
envelopes from a file, a stream on standard input (read in small pieces),
a .gz and a tar member, big files cut into pieces, --envelope none; and
written back in their envelopes by --format adexp --adexp-envelope and by
adexp-write.
Usage: feeds_test.py ADEXP_PARSE SOURCE_ROOT ADEXP_WRITE

Prints one line per check and "N passed, N failed"; exits 1 on any failure.
"""
import gzip
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

from checks import check, run_tests

EXE = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
WRITE = os.path.abspath(sys.argv[3])
FEEDS = os.path.join(ROOT, "testdata", "feeds")


def run(*args, stdin=None):
    p = subprocess.run([EXE, "-q", *args], input=stdin, capture_output=True, timeout=60)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def streamed(data, step, pause=0.0):
    """adexp-parse on standard input, data written to it in pieces of step
    bytes (pause seconds after each): (exit status, stdout, stderr)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen([EXE, "-q", "-"], stdin=subprocess.PIPE, stdout=out, stderr=err)
        for i in range(0, len(data), step):
            p.stdin.write(data[i:i + step])
            p.stdin.flush()
            if pause:
                time.sleep(pause)
        p.stdin.close()
        p.wait(timeout=60)
        out.seek(0)
        err.seek(0)
        return p.returncode, out.read().decode(), err.read().decode()


def written_and_back(tmp, path, layout):
    """path written with --format adexp --adexp-envelope in layout, and that
    text parsed again: (exit status, text, stderr, the text's JSON lines)."""
    rc, text, err = run("--format", "adexp", "--adexp-envelope", "--layout", layout, path)
    back = os.path.join(tmp, "back.adexp")
    with open(back, "w") as f:
        f.write(text)
    return rc, text, err, run(back)[1]


def records(out):
    """The JSON lines, less their source (which names the input)."""
    recs = []
    for line in out.splitlines():
        d = json.loads(line)
        d.pop("source")
        recs.append(d)
    return recs


def values(rec):
    """Every value of a record's fields, nested ones too."""
    stack, out = list(rec["fields"]), []
    while stack:
        f = stack.pop()
        if "value" in f:
            out.append(f["value"])
        stack.extend(f.get("fields", []) + f.get("items", []))
    return out


def framed(n):
    """n good ITA-2 messages, every other one IA-5 with CR LF."""
    parts = []
    for i in range(n):
        text = f"-TITLE CNL\n-ARCID F{i:04d}\n-ADEP LKPR\n-ADES EGLL\n-EOBT 1330\n"
        if i % 2:
            parts.append(f"\x01A{i:05d}\r\nFF LKPREPWC\r\n170001 EUCHZMFP\r\n\x02"
                         + text.replace("\n", "\r\n") + "\v\x03")
        else:
            parts.append(f"ZCZC A{i:05d} 170001\nFF LKPREPWC EUCHZMFP\n170001 EUCHZMFP\n"
                         + text + "\n\n\nNNNN\n")
    return "".join(parts).encode()


def parsed_feed(tmp, name, data, label, ids):
    """data written to tmp/name and parsed: exit 0, no diagnostics, and
    every message once, its ARCIDs ids in order. (path, records)"""
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(data)
    rc, out, err = run(path)
    recs = records(out)
    check(f"{label}: exit 0, no diagnostics", rc == 0 and err == "", err)
    check(f"{label}: every message once", [r["fields"][1]["value"] for r in recs] == ids)
    return path, recs


def test_good_feed(tmp):
    data = framed(40)
    path, recs = parsed_feed(tmp, "feed.adexp", data, "good feed",
                             [f"F{i:04d}" for i in range(40)])
    check("good feed: no envelope text in any value",
          not any(w in v for r in recs for v in values(r)
                  for w in ("NNNN", "ZCZC", "EUCHZMFP", "\x01", "\x03")))
    check("good feed: every envelope kept",
          all(r["envelope"]["originator"] == "EUCHZMFP" and r["envelope"]["priority"] == "FF"
              for r in recs))
    check("good feed: each envelope's form, ITA-2 and IA-5 by turns",
          [r["envelope"]["form"] for r in recs] == ["ita2", "ia5"] * 20)

    # a stream on standard input, written in small pieces with pauses
    rc, sout, _ = streamed(data, 97, 0.001)
    check("stream: the same records", rc == 0 and records(sout) == recs)

    gz = path + ".gz"
    with open(gz, "wb") as f:
        f.write(gzip.compress(data))
    rc, gout, _ = run(gz)
    check(".gz: the same records", rc == 0 and records(gout) == recs)

    tar = os.path.join(tmp, "feed.tar")
    with tarfile.open(tar, "w") as t:
        info = tarfile.TarInfo("day/feed.adexp")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    rc, tout, _ = run(tar)
    check("tar member: the same records", rc == 0 and records(tout) == recs)

    # a big file cut into pieces parsed side by side (the split follows
    # the envelopes' starts)
    big = os.path.join(tmp, "big.adexp")
    with open(big, "wb") as f:
        f.write(framed(20000))   # over 2 MiB: cut into 1 MiB pieces
    rc1, out1, _ = run("-j1", big)
    rc4, out4, _ = run("-j4", big)
    check("big feed: -j1 and -j4 byte-identical", rc1 == rc4 == 0 and out1 == out4)

    rc, vout, _ = run("--format", "view", path)
    check("--format view: the same envelopes",
          rc == 0 and [json.loads(l)["envelope"] for l in vout.splitlines()]
          == [r["envelope"] for r in recs])

    rc, out, err = run("--envelope", "none", path)
    check("--envelope none: the envelope read as ADEXP text (as before)",
          rc == 1 and "NO_TITLE" in err and "NNNN" in out and '"envelope"' not in out)
    rc, _, err = run("--envelope", "x400", path)
    check("--envelope x400: usage error", rc == 2 and "aftn or none" in err, err)


def bare(n):
    """n good messages after bare lines (no heading, no end), every third
    with CR LF lines, a second line of addressees and a blank line."""
    parts = []
    for i in range(n):
        lines = ["FF LKPREPWC EUCHZMFP", f"1700{i % 60:02d} EUCHZMFP",
                 "-TITLE CNL", f"-ARCID B{i:04d}", "-ADEP LKPR", "-ADES EGLL", "-EOBT 1330"]
        if i % 3 == 2:
            lines[1:1] = ["EDDFZQZX LSZHZQZX"]
            lines[3:3] = [""]
        end = "\r\n" if i % 3 == 1 else "\n"
        parts.append(end.join(lines) + end)
    return "".join(parts).encode()


def test_bare_feed(tmp):
    """Bare lines start a message and are its envelope, in a file, a
    stream, a .gz and a big file cut into pieces; lines not of their form
    stay text, as without recognition."""
    data = bare(30)
    path, recs = parsed_feed(tmp, "bare.adexp", data, "bare lines",
                             [f"B{i:04d}" for i in range(30)])
    check("bare lines: no envelope text in any value",
          not any(w in v for r in recs for v in values(r)
                  for w in ("LKPREPWC", "EUCHZMFP", "EDDFZQZX")))
    check("bare lines: each envelope kept, form bare",
          all(r["envelope"]["form"] == "bare" and r["envelope"]["transmission_id"] is None and
              r["envelope"]["priority"] == "FF" and r["envelope"]["originator"] == "EUCHZMFP"
              for r in recs) and
          recs[2]["envelope"]["addressees"] == ["LKPREPWC", "EUCHZMFP", "EDDFZQZX", "LSZHZQZX"])
    rc, sout, _ = streamed(data, 7)
    check("bare lines, stream in 7-byte pieces: the same records",
          rc == 0 and records(sout) == recs)
    # a live stream that pauses right after bare lines' "-TITLE": what
    # follows decides (-TITLEX is no title, and the lines are then text)
    for rest in (b"X -ARCID B2\n", b" CNL -ARCID B2\n"):
        head = b"-TITLE CNL -ARCID B1 -EOBT 1330\nFF LKPREPWC\n170001 EUCHZMFP\n-TITLE"
        p = subprocess.Popen([EXE, "-q", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        p.stdin.write(head)
        p.stdin.flush()
        time.sleep(0.3)
        p.stdin.write(rest)
        p.stdin.close()
        live = p.stdout.read().decode()
        p.wait()
        check(f"bare lines, a live stream paused after their -TITLE, then {rest[:3]!r}: "
              "as the whole input", records(live) == records(run("-", stdin=head + rest)[1]),
              live)
    with open(path + ".gz", "wb") as f:
        f.write(gzip.compress(data))
    rc, gout, _ = run(path + ".gz")
    check("bare lines, .gz: the same records", rc == 0 and records(gout) == recs)
    big = os.path.join(tmp, "big-bare.adexp")
    with open(big, "wb") as f:
        f.write(bare(30000))
    rc1, out1, _ = run("-j1", big)
    rc4, out4, _ = run("-j4", big)
    check("big file of bare lines: -j1 and -j4 byte-identical, every message once",
          rc1 == rc4 == 0 and out1 == out4 and out1.count('"form":"bare"') == 30000)
    rc, out, _ = run("--envelope", "none", path)
    check("bare lines, --envelope none: read as ADEXP text (as before)",
          '"envelope"' not in out and "LKPREPWC" in out)
    # not of the form: a priority that is none of the five, a day 32, a '-'
    # in the origin line, no -TITLE after them: text, as before
    for name, lines in (("priority QQ", b"QQ LKPREPWC\n170001 EUCHZMFP\n"),
                        ("day 32", b"FF LKPREPWC\n320001 EUCHZMFP\n"),
                        ("an addressee of 7 letters", b"FF LKPREPW\n170001 EUCHZMFP\n"),
                        ("a '-' in the origin line", b"FF LKPREPWC\n170001 EUCHZMFP A-B\n")):
        rc, out, _ = run("-", stdin=b"-TITLE CNL -ARCID A1 -EOBT 1330\n" + lines +
                         b"-TITLE CNL -ARCID A2\n")
        recs = records(out)
        check(f"not bare lines ({name}): two messages, no envelope, the lines kept as text",
              len(recs) == 2 and '"envelope"' not in out and
              "LKPREPW" in json.dumps(recs[0]["fields"]), out)
    rc, out, _ = run("-", stdin=b"-TITLE CNL -ARCID A1\nFF LKPREPWC\n170001 EUCHZMFP\n")
    check("bare lines with no -TITLE after them: the last value's text",
          '"envelope"' not in out and "LKPREPWC" in out, out)


def test_broken_feed(tmp):
    rc, out, err = run(os.path.join(FEEDS, "aftn-broken.adexp"))
    recs = records(out)
    check("broken feed: exit 1, each error with line and column",
          rc == 1 and err.count(": error: ENVELOPE: ") == 3 and ":9:1: error: ENVELOPE" in err, err)
    check("broken feed: the next message still found",
          [r["fields"][1]["value"] for r in recs] == ["CSA101", "CSA102", "CSA103", "CSA104"])
    check("broken feed: the good one has no error", recs[1]["errors"] == [])


def test_plain_unchanged(tmp):
    # unframed input: no "envelope" key anywhere
    rc, out, _ = run("--include", "*.adexp", os.path.join(ROOT, "testdata", "messages"))
    check("plain input: no envelope", rc == 0 and '"envelope"' not in out)


def instructions(tmp, data, stdin):
    """callgrind's instruction count of one run of adexp-parse on data."""
    f = os.path.join(tmp, "signals.adexp")
    with open(f, "wb") as o:
        o.write(data)
    out = os.path.join(tmp, "callgrind.out")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, EXE, "-q",
           "-j1", "-o", os.devnull, "-" if stdin else f]
    p = subprocess.run(cmd, stdin=open(f, "rb") if stdin else None,
                       capture_output=True, timeout=300)
    m = [l for l in p.stderr.decode().splitlines() if "Collected" in l]
    return int(m[-1].split()[-1]) if m else 0


def sanitized(exe):
    """Whether exe is built with a sanitizer, which valgrind cannot run."""
    with open(exe, "rb") as f:
        data = f.read()
    return b"__asan_init" in data or b"__tsan_init" in data


def test_signals_linear(tmp):
    """Many envelope signals with no '-' between them, in a file and a
    stream: twice the lines, at most 2.3 times the instructions (each
    signal's message was searched back from the input's far '-': 2.5 times
    at these sizes, and more the more lines)."""
    if sanitized(EXE):
        print("note: a sanitized build; its work is measured in the plain build")
        return
    if not shutil.which("valgrind"):
        print("note: no valgrind; the signals' work is not measured")
        return
    for name, line, stdin in (("ETX", b"\x03\n", False), ("SOH", b"\x01\n", True)):
        small, big = (instructions(tmp, line * n + b"-TITLE IFPL -ARCID A\n", stdin)
                      for n in (20000, 40000))
        check(f"{name} lines ({'stdin' if stdin else 'file'}): twice the lines, "
              "at most 2.3 times the instructions",
              small and big and big < 2.3 * small, (small, big))


def same_parts(recs):
    """What a round trip keeps: title, fields, envelope, error codes."""
    return [(r["title"], r["fields"], r.get("envelope"), [e["code"] for e in r["errors"]])
            for r in recs]


def envelopes_of(text):
    """The framed messages of a text written back, each from its ZCZC or
    SOH to its NNNN or ETX, and the bare lines (address, origin) before a
    -TITLE that no heading line comes before, as "bare"."""
    found = re.findall(r"(?:ZCZC|\x01).*?(?:NNNN|\x03)|(?:^|\n)[SDFGK]{2} [A-Z ]+\n"
                       r"(?:[A-Z ]+\n)*\d{6} [A-Z]{8}[^\n]*\n-TITLE", text, re.S)
    return [m if m.startswith(("ZCZC", "\x01")) else "bare" for m in found]


def test_write_back(tmp):
    """parse -> write in the envelope -> parse gives the same messages and
    envelopes, by --format adexp --adexp-envelope and by adexp-write; a
    broken envelope or a record with no title is not written by adexp-write
    (never repaired)."""
    gen = os.path.join(tmp, "gen.adexp")
    with open(gen, "wb") as f:
        f.write(framed(40))
    inputs = sorted(os.path.join(FEEDS, n) for n in os.listdir(FEEDS) if n.endswith(".adexp"))
    for path in inputs + [gen]:
        name = os.path.basename(path)
        rc, out, _ = run(path)
        recs = records(out)
        # adexp-write refuses a broken envelope and a record with no title
        good = [r for r in recs
                if not any(e["code"] in ("ENVELOPE", "NO_TITLE") for e in r["errors"])]
        for layout in ("line", "ifps"):
            rc1, text, _, out2 = written_and_back(tmp, path, layout)
            if name == "aftn-broken.adexp":   # garbled headings as they stood
                check(f"{name} --format adexp --adexp-envelope --layout {layout}: the same "
                      "envelopes and error codes",
                      [(r["title"], r.get("envelope"), [e["code"] for e in r["errors"]])
                       for r in records(out2)] ==
                      [(r["title"], r.get("envelope"), [e["code"] for e in r["errors"]])
                       for r in recs], out2)
                continue
            check(f"{name} --format adexp --adexp-envelope --layout {layout}: read back the same",
                  same_parts(records(out2)) == same_parts(recs), out2[:2000])
        p = subprocess.run([WRITE], input=out.encode(), capture_output=True, timeout=60)
        _, out3, _ = run("-", stdin=p.stdout)
        check(f"{name} adexp-write: read back the same", same_parts(records(out3)) ==
              same_parts(good), out3[:2000])
        check(f"{name} adexp-write: exit {1 if len(good) < len(recs) else 0}",
              p.returncode == (1 if len(good) < len(recs) else 0) and
              p.stderr.decode().count("not written: ") == len(recs) - len(good),
              p.stderr.decode())
        forms = [r["envelope"]["form"] for r in good if "envelope" in r]
        written = envelopes_of(p.stdout.decode())
        check(f"{name} adexp-write: each envelope in the form it came in",
              len(written) == len(forms) and
              all(m == "bare" if f == "bare" else
                  m.startswith("ZCZC" if f == "ita2" else "\x01") and
                  m.endswith("NNNN" if f == "ita2" else "\v\x03")
                  for f, m in zip(forms, written)), p.stdout[:2000])
        rc4, plain, _ = run("--format", "adexp", path)
        check(f"{name} --format adexp: the messages alone",
              "NNNN" not in plain and "ZCZC" not in plain.replace("-TITLE", ""), plain)
    # a JSON line from before the form was kept (no "form"): ITA-2; a form
    # that is neither is refused
    line = json.dumps({"fields": [{"name": "TITLE", "value": "CNL"}], "errors": [],
                       "envelope": {"transmission_id": "A1", "priority": "FF",
                                    "addressees": ["LKPREPWC"], "filing_time": "170001",
                                    "originator": "EUCHZMFP", "text": []}})
    p = subprocess.run([WRITE], input=line.encode(), capture_output=True, timeout=60)
    check("adexp-write: no \"form\" is ITA-2", p.returncode == 0 and
          p.stdout == b"ZCZC A1\nFF LKPREPWC\n170001 EUCHZMFP\n-TITLE CNL\nNNNN\n", p.stdout)
    p = subprocess.run([WRITE], input=line.replace('"envelope": {', '"envelope": {"form": "x",')
                       .encode(), capture_output=True, timeout=60)
    check("adexp-write: an unknown form refused", p.returncode != 0 and
          b'"form" is not' in p.stderr, p.stderr)
    # bare lines: written as they came, with no heading and no NNNN; parts
    # that would not read back as bare lines are refused
    bare_line = json.dumps({"fields": [{"name": "TITLE", "value": "CNL"}], "errors": [],
                            "envelope": {"form": "bare", "transmission_id": None,
                                         "priority": "GG", "addressees": ["LKPREPWC"],
                                         "filing_time": "170001", "originator": "EUCHZMFP",
                                         "text": ["MORE"]}})
    p = subprocess.run([WRITE], input=bare_line.encode(), capture_output=True, timeout=60)
    check("adexp-write: bare lines written as they came", p.returncode == 0 and
          p.stdout == b"GG LKPREPWC\n170001 EUCHZMFP MORE\n-TITLE CNL\n", p.stdout + p.stderr)
    for part, value in (("priority", "QQ"), ("filing_time", "171299"),
                        ("transmission_id", "A1")):
        d = json.loads(bare_line)
        d["envelope"][part] = value
        p = subprocess.run([WRITE], input=json.dumps(d).encode(), capture_output=True,
                           timeout=60)
        check(f"adexp-write: bare lines with {part} {value} refused",
              p.returncode == 1 and p.stdout == b"" and b"WRITE_VALUE at envelope" in p.stderr,
              p.stdout + p.stderr)
    rc, _, err = run("--adexp-envelope", gen)
    check("--adexp-envelope needs --format adexp", rc == 2 and "--format adexp" in err, err)


def test_written_envelope_reads_back(tmp):
    """--format adexp --adexp-envelope (no verify) never writes an envelope
    that reads back as another: an IA-5 transmission id that is the word
    ZCZC is written after SOH ZCZC; an envelope part the writer cannot put
    back is refused, the message named, and the others still written."""
    path = os.path.join(tmp, "zczc-id.adexp")
    with open(path, "wb") as f:
        f.write(b"\x01ZCZC ZCZC B\r\nFF LKPREPWC\r\n170012 EUCHZMFP\r\n"
                b"\x02-TITLE CNL -ARCID A9\r\n\v\x03")
    _, out, _ = run(path)
    for layout in ("line", "ifps"):
        rc, text, err, out2 = written_and_back(tmp, path, layout)
        check(f"IA-5 transmission id ZCZC, --layout {layout}: exit 0, read back the same",
              rc == 0 and same_parts(records(out2)) == same_parts(records(out)), out2 + err)
    # a garbled IA-5 heading whose text holds an STX at a line's start (the
    # text of a heading cut short at its address line): refused
    path = os.path.join(tmp, "refused.adexp")
    with open(path, "wb") as f:
        f.write(b"-TITLE CNL -ARCID A0\n\x01ABC124 QTA\r\nDD X\r\n\x02F\r\n\v\x03"
                b"-TITLE CNL -ARCID A2\n")
    rc, text, err = run("--format", "adexp", "--adexp-envelope", path)
    check("an envelope that cannot be written back: refused, the message named, exit 1",
          rc == 1 and "message 1 not written as ADEXP: WRITE_VALUE at envelope.text" in err and
          "-ARCID A0" in text and "-ARCID A2" in text and "ABC124" not in text, text + err)


def test_garbled_reads_back(tmp):
    """--format adexp --adexp-envelope writes a garbled heading so that it
    reads back with the same envelope and ENVELOPE error, folded or not: an
    IA-5 heading's text that starts with ZCZC or a second SOH keeps its own
    SOH before it, a heading's lines stay lines; what would read back as
    another envelope or none is left out, the others written."""
    path = os.path.join(tmp, "garbled.adexp")
    with open(path, "wb") as f:
        f.write(b"\x01ZCZC\n-TITLE CNL -ARCID A1\n\v\x03"
                b"\x01\x01X\n-TITLE CNL -ARCID A2\n\v\x03"
                b"ZCZC\n\t GON\n-TITLE CNL -ARCID A3\nNNNN\n")
    _, out, _ = run(path)
    recs = records(out)
    for layout in ("line", "ifps"):
        rc, text, err, out2 = written_and_back(tmp, path, layout)
        check(f"garbled headings, --layout {layout}: all written, the same envelopes and "
              "error codes",
              len(recs) == 3 and "not written" not in err and
              [(r.get("envelope"), [e["code"] for e in r["errors"]]) for r in records(out2)] ==
              [(r.get("envelope"), [e["code"] for e in r["errors"]]) for r in recs],
              out + out2 + err)
    # an NNNN after text that was no field would read back as nothing
    with open(path, "wb") as f:
        f.write(b"X\nNNNN\n-TITLE CNL -ARCID A2\n")
    rc, text, err = run("--format", "adexp", "--adexp-envelope", path)
    check("an NNNN after no field: refused, the message named, the next written, exit 1",
          rc == 1 and "message 0 not written as ADEXP: WRITE_VALUE at envelope:" in err and
          text == "-TITLE CNL -ARCID A2\n", text + err)


def clean_messages():
    """The text of every testdata message that parses as one message with
    no errors, and its fields."""
    out, d = [], os.path.join(ROOT, "testdata", "messages")
    for name in sorted(os.listdir(d)):
        if not name.endswith(".adexp"):
            continue
        path = os.path.join(d, name)
        rc, text, _ = run(path)
        recs = records(text)
        if rc == 0 and len(recs) == 1 and not recs[0]["errors"]:
            out.append((name, open(path, "rb").read(), recs[0]["fields"]))
    return out


def in_envelope(i, text):
    """text in the i-th of six envelopes: ITA-2, IA-5 and bare lines, each
    with LF and with CR LF lines; the text's own lines made to match."""
    end = b"\r\n" if i % 2 else b"\n"
    body = text.replace(b"\r\n", b"\n").rstrip(b"\n").replace(b"\n", end) + end
    form = ("ita2", "ia5", "bare")[i // 2 % 3]
    head = b"FF LKPREPWC EUCHZMFP" + end + b"170001 EUCHZMFP" + end
    if form == "ita2":
        return form, b"ZCZC A%05d 170001" % i + end + head + body + end * 4 + b"NNNN" + end
    if form == "ia5":
        return form, b"\x01A%05d" % i + end + head + b"\x02" + body + b"\v\x03"
    return form, head + body


def test_real_messages_framed(tmp):
    """Every real message of testdata that parses clean, framed in turn in
    each form, in one feed that starts with a byte order mark: each found
    once, with its envelope and the fields it has unframed, from a file and
    from a stream written in small pieces."""
    msgs = clean_messages()
    forms, data = [], bytearray(b"\xef\xbb\xbf")
    for i, (_, text, _) in enumerate(msgs):
        form, framed_text = in_envelope(i, text)
        forms.append(form)
        data += framed_text
    path = os.path.join(tmp, "real.adexp")
    with open(path, "wb") as f:
        f.write(data)
    rc, out, err = run(path)
    recs = records(out)
    check(f"{len(msgs)} real messages framed: exit 0, no diagnostics", rc == 0 and err == "", err)
    check("real messages framed: each found once, with its envelope in its form",
          [r.get("envelope", {}).get("form") for r in recs] == forms, f"{len(recs)} records")
    differ = [name for (name, _, fields), r in zip(msgs, recs) if r["fields"] != fields]
    check("real messages framed: the fields they have unframed", not differ and
          len(recs) == len(msgs), " ".join(differ[:5]))
    check("real messages framed: no errors", not any(r["errors"] for r in recs))
    rc, sout, err = streamed(bytes(data), 7)
    check("real messages framed, on standard input in 7-byte pieces (the mark split): "
          "the same records", rc == 0 and err == "" and records(sout) == recs, err)


def main():
    return run_tests((test_good_feed, test_bare_feed, test_broken_feed, test_plain_unchanged, test_signals_linear,
        test_real_messages_framed,
        test_write_back, test_written_envelope_reads_back, test_garbled_reads_back), "adexp-feeds-")


if __name__ == "__main__":
    sys.exit(main())
