#!/usr/bin/env python3
"""The README's adexp-parse examples, kept honest.

  readme_cli_test.py ADEXP_PARSE README.md TESTDATA_DIR

- Each ```sh block after a <!-- readme-cli --> marker: every "$ command" is run
  by bash in TESTDATA_DIR with adexp-parse first on PATH, and what it writes
  (standard output, then standard error) must be the lines shown under it; in a
  summary line (MB/s) the numbers may differ. Commands piped to jq are skipped
  with a note where jq is not installed.
- The ```python block whose marker says "run by the test readme_cli" (the
  pandas example) is run the same way and must print the block that follows
  it; skipped with a note without python3-pandas.
- `adexp-parse --help` must equal the README's copy.
"""
import os
import re
import shutil
import subprocess
import sys

EXE, README, TESTDATA = (os.path.abspath(a) for a in sys.argv[1:4])
ENV = dict(os.environ, PATH=os.path.dirname(EXE) + os.pathsep + os.environ.get("PATH", ""))
FAILED = []


def check(name, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + name + ("" if cond else "\n" + detail))
    if not cond:
        FAILED.append(name)


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


def shell_examples(text):
    for body, _ in blocks_after(text, "<!-- readme-cli", "sh"):
        cmd, want = None, []
        for line in body.splitlines() + ["$ "]:
            if line.startswith("$ "):
                if cmd and "| jq" in cmd and not shutil.which("jq"):
                    print("SKIP README (jq is not installed): " + cmd[:80])
                elif cmd:
                    p = subprocess.run(["bash", "-c", cmd], cwd=TESTDATA, env=ENV,
                                       capture_output=True, text=True)
                    got = (p.stdout + p.stderr).replace("\r\n", "\n").splitlines()
                    ok = len(got) == len(want) and all(map(same_line, got, want))
                    check("README: " + cmd[:90], ok,
                          "got:\n" + "\n".join(got) + "\nREADME shows:\n" + "\n".join(want))
                cmd, want = line[2:], []
            elif cmd:
                want.append(line)


def pandas_python():
    for py in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(py) and subprocess.run([py, "-c", "import pandas"],
                                                 capture_output=True).returncode == 0:
            return py
    return None


def pandas_example(text):
    found = blocks_after(text, "run by the test readme_cli, and prints the block after it", "python")
    check("README has a pandas example", len(found) == 1)
    if not found:
        return
    code, end = found[0]
    want = re.compile(r"```\n(.*?)```", re.S).search(text, end).group(1).splitlines()
    py = pandas_python()
    if not py:
        print("SKIP README pandas example: python3-pandas is not installed "
              "(apt-get install python3-pandas)")
        return
    p = subprocess.run([py, "-c", code], cwd=TESTDATA, env=ENV, capture_output=True, text=True)
    got = p.stdout.splitlines()
    check("README: the pandas example prints what it shows", p.returncode == 0 and got == want,
          "got:\n" + "\n".join(got) + p.stderr[-800:] + "\nREADME shows:\n" + "\n".join(want))


def help_copy(text):
    i = text.index("### Options (as printed by `adexp-parse --help`)")
    copy = re.compile(r"```\n(.*?)```", re.S).search(text, i).group(1)
    got = subprocess.run([EXE, "--help"], capture_output=True, text=True).stdout
    check("--help equals the README's copy", got == copy,
          "\n".join(l for l in __import__("difflib").unified_diff(
              copy.splitlines(), got.splitlines(), "README", "--help", lineterm="")))


def main():
    text = open(README, encoding="utf-8").read()
    shell_examples(text)
    pandas_example(text)
    help_copy(text)
    print(f"{len(FAILED)} failed")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
