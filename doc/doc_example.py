#!/usr/bin/env python3
"""The C examples of doc/library.md, kept honest.

  doc_example.py FILE.md OUT.c      write the C block after the marker
  doc_example.py FILE.md --run EXE  run EXE; its output must be the lines
                                    quoted on the "It prints" line after it
  ... --marker=NAME                 the example after <!-- NAME: instead
"""
import re
import subprocess
import sys

MARKER = "<!-- doc-example:"


def example_and_output(doc, marker=MARKER):
    text = open(doc, encoding="utf-8").read()
    after = text[text.index(marker):]
    code = re.search(r"```c\n(.*?)```", after, re.S).group(1)
    rest = after[after.index("```", after.index("```c") + 4) + 3:]
    prints = next(l for l in rest.splitlines() if l.startswith("It prints"))
    return code, re.findall(r"`([^`]*)`", prints)


def main():
    marker = MARKER
    if sys.argv[-1].startswith("--marker="):
        marker = "<!-- " + sys.argv.pop()[len("--marker="):] + ":"
    doc, arg = sys.argv[1], sys.argv[2]
    code, expected = example_and_output(doc, marker)
    if arg != "--run":
        open(arg, "w", encoding="utf-8").write(code)
        return 0
    out = subprocess.run([sys.argv[3]], capture_output=True, text=True, check=True)
    got = out.stdout.splitlines()
    if got != expected:
        print(f"{doc}: the example printed {got!r}, the text says {expected!r}")
        return 1
    print(f"{doc}: the example printed its {len(got)} lines as documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
