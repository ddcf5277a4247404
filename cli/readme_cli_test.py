#!/usr/bin/env python3
"""The adexp-parse examples of the README and doc/, kept honest.

  readme_cli_test.py ADEXP_PARSE TESTDATA_DIR FILE.md...

- Each ```sh block after a <!-- readme-cli --> marker in a FILE: every "$ command" is run
  by bash in TESTDATA_DIR with adexp-parse first on PATH, and what it writes
  (standard output, then standard error) must be the lines shown under it; in a
  summary line (MB/s) the numbers may differ. Commands piped to jq are skipped
  with a note where jq is not installed.
- The ```python block whose marker says "run by the test readme_cli" (the
  README's pandas example; exactly one among the FILEs) is run the same way and
  must print the block that follows it; skipped with a note without python3-pandas.
- `adexp-parse --help` must equal its copy, the block under the heading
  "Options (as printed by `adexp-parse --help`)" (in exactly one FILE: doc/cli.md).
"""
import os
import re
import shutil
import subprocess
import sys

from checks import check, summary

EXE, TESTDATA = (os.path.abspath(a) for a in sys.argv[1:3])
DOCS = [os.path.abspath(a) for a in sys.argv[3:]]
ENV = dict(os.environ, PATH=os.path.dirname(EXE) + os.pathsep + os.environ.get("PATH", ""))


def blocks_after(text, marker, lang):
    """The bodies of the ```lang blocks that follow each marker."""
    out = []
    for m in re.finditer(re.escape(marker), text):
        b = re.compile(r"```" + lang + r"\n(.*?)```", re.S).search(text, m.end())
        out.append((b.group(1), b.end()))
    return out


def same_line(got, want):
    """Equal, or for a summary line (MB/s) equal but for its numbers."""
    if "MB/s" not in want:
        return got == want
    parts = re.split(r"[0-9]+(?:\.[0-9]+)?", want)
    pattern = r"[0-9]+(?:\.[0-9]+)?".join(re.escape(p) for p in parts)
    return re.fullmatch(pattern, got) is not None


def shell_examples(name, text):
    for body, _ in blocks_after(text, "<!-- readme-cli", "sh"):
        cmd, want = None, []
        for line in body.splitlines() + ["$ "]:
            if line.startswith("$ "):
                if cmd and "| jq" in cmd and not shutil.which("jq"):
                    print(f"SKIP {name} (jq is not installed): " + cmd[:80])
                elif cmd:
                    p = subprocess.run(["bash", "-c", cmd], cwd=TESTDATA, env=ENV,
                                       capture_output=True, text=True)
                    got = (p.stdout + p.stderr).replace("\r\n", "\n").splitlines()
                    ok = len(got) == len(want) and all(map(same_line, got, want))
                    check(f"{name}: " + cmd[:90], ok,
                          "got:\n" + "\n".join(got) + f"\n{name} shows:\n" + "\n".join(want))
                cmd, want = line[2:], []
            elif cmd:
                want.append(line)


def pandas_python():
    for py in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(py) and subprocess.run([py, "-c", "import pandas"],
                                                 capture_output=True).returncode == 0:
            return py
    return None


def pandas_example(texts):
    found = [(name, text, b) for name, text in texts for b in
             blocks_after(text, "run by the test readme_cli, and prints the block after it", "python")]
    check("one pandas example", len(found) == 1, f"found {len(found)}")
    if not found:
        return
    name, text, (code, end) = found[0]
    want = re.compile(r"```\n(.*?)```", re.S).search(text, end).group(1).splitlines()
    py = pandas_python()
    if not py:
        print("SKIP README pandas example: python3-pandas is not installed "
              "(apt-get install python3-pandas)")
        return
    p = subprocess.run([py, "-c", code], cwd=TESTDATA, env=ENV, capture_output=True, text=True)
    got = p.stdout.splitlines()
    check(f"{name}: the pandas example prints what it shows", p.returncode == 0 and got == want,
          "got:\n" + "\n".join(got) + p.stderr[-800:] + f"\n{name} shows:\n" + "\n".join(want))


def help_copy(texts):
    heading = "Options (as printed by `adexp-parse --help`)\n"
    found = [(name, text) for name, text in texts if re.search(r"^#+ " + re.escape(heading), text, re.M)]
    check("one copy of --help", len(found) == 1, f"found {len(found)}")
    if not found:
        return
    name, text = found[0]
    i = re.search(r"^#+ " + re.escape(heading), text, re.M).end()
    copy = re.compile(r"```\n(.*?)```", re.S).search(text, i).group(1)
    got = subprocess.run([EXE, "--help"], capture_output=True, text=True).stdout
    check(f"--help equals {name}'s copy", got == copy,
          "\n".join(l for l in __import__("difflib").unified_diff(
              copy.splitlines(), got.splitlines(), name, "--help", lineterm="")))


def main():
    texts = [(os.path.relpath(d, os.path.dirname(TESTDATA)), open(d, encoding="utf-8").read())
             for d in DOCS]
    for name, text in texts:
        shell_examples(name, text)
    pandas_example(texts)
    help_copy(texts)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
