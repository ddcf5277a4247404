"""adexp-parse on a big file that another program cuts short while it is
parsed: no crash, every line written is a whole message read from the
file's own bytes, and the file is reported as cut short (exit 1).

A big file is mapped; reading a page past a truncated file's end raises
SIGBUS, which adexp-parse catches (lib/batch/batch_map.c). The test makes the
truncation happen mid-parse: standard output is a pipe that is not read
until the file has been cut, so the parse stops at its first full output
block, with most of the file still unread.

Run: python3 cli/truncate_test.py BUILD/cli/adexp-parse
"""
import json
import os
import subprocess
import sys
import tempfile
import time

from checks import check, summary

EXE = sys.argv[1]


MSG = (b"-TITLE IFPL -ARCID AFR%06d -ADEP LFPG -ADES EGLL -EOBT 1005 "
       b"-BEGIN RTEPTS " + b"-PT -PTID ABCDE -FL F350 -ETO 231012010000 " * 40 +
       b"-END RTEPTS\n")


def cut_while_parsing(jobs, messages, keep):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "day.adexp")
        with open(path, "wb") as f:
            for i in range(messages):
                f.write(MSG % i)
        size = os.path.getsize(path)
        p = subprocess.Popen([EXE, "-q", "-j", str(jobs), path],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(0.5)                # it blocks on the full pipe
        os.truncate(path, keep)
        out, err = p.communicate(timeout=120)
        return p.returncode, out, err, size


for jobs, messages in ((1, 3000), (2, 12000)):
    rc, out, err, size = cut_while_parsing(jobs, messages, 100_000)
    name = f"-j{jobs}"
    check(f"{name}: exits 1, not killed by a signal", rc == 1, f"rc={rc} err={err[-300:]!r}")
    check(f"{name}: the file is reported as cut short",
          b"day.adexp: error: the file was cut short while it was read" in err, err[-300:])
    lines = out.decode("utf-8", "replace").splitlines()
    try:
        msgs = [json.loads(l) for l in lines]
    except ValueError as e:
        msgs = None
        check(f"{name}: every line is JSON", False, str(e))
    if msgs is not None:
        whole = all(not m["errors"] and m["fields"][1]["value"] == "AFR%06d" % m["index"]
                    for m in msgs)
        check(f"{name}: every line written is a whole message of the file", whole)
        check(f"{name}: the messages read before the cut are written, in order",
              0 < len(msgs) < messages and [m["index"] for m in msgs] == list(range(len(msgs))),
              f"{len(msgs)} of {messages}")

sys.exit(summary())
