#!/usr/bin/env python3
"""A man page's OPTIONS against its program's --help.

  man_test.py PROGRAM PAGE.1

Every option that --help lists (the lines that start with blanks and an
option: "  -j, --jobs N", "      --format FORMAT") must be an item (.TP) of the
page's OPTIONS section, and every option an item there names must be in --help.
"""
import re
import subprocess
import sys

HELP_OPTION = re.compile(r"^ {2,}(?:(-[A-Za-z0-9]), )?(--[a-z0-9][a-z0-9-]*)|^ {2,}(-[A-Za-z0-9])\b")
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z0-9][a-z0-9-]*)")


def help_options(program):
    text = subprocess.run([program, "--help"], capture_output=True, text=True,
                          check=True).stdout
    found = set()
    for line in text.splitlines():
        m = HELP_OPTION.match(line)
        if m:
            found.update(o for o in m.groups() if o)
    return found


def page_options(page):
    """The options named on the tag line of each .TP item under .SH OPTIONS."""
    lines = open(page, encoding="utf-8").read().splitlines()
    found, inside, tag_next = set(), False, False
    for line in lines:
        if line.startswith(".SH"):
            inside = line.split(None, 1)[1].strip('"') == "OPTIONS"
            continue
        if not inside:
            continue
        if line.startswith(".TP"):
            tag_next = True
            continue
        if tag_next:
            plain = re.sub(r"\\f[BIRP]|\\f\[[A-Z]*\]", "", line).replace("\\-", "-")
            found.update(OPTION.findall(plain))
            tag_next = False
    return found


def main():
    program, page = sys.argv[1], sys.argv[2]
    want, have = help_options(program), page_options(page)
    if not want:
        print(f"no options found in {program} --help")
        return 1
    missing, extra = sorted(want - have), sorted(have - want)
    for o in missing:
        print(f"{page}: OPTIONS lacks {o}, which --help lists")
    for o in extra:
        print(f"{page}: OPTIONS has {o}, which --help does not list")
    print(f"{page}: {len(want)} options in --help, {len(have)} in OPTIONS")
    return 1 if missing or extra else 0


if __name__ == "__main__":
    sys.exit(main())
