#!/usr/bin/env python3
"""The bash completion of adexp-parse, sourced in bash: it completes
--format's values, field names after --fields (from --list-fields), options
(from --help); the zsh one is checked by zsh -n when zsh is there.

Usage: completion_test.py ADEXP_PARSE adexp-parse.bash _adexp-parse
"""
import os
import shutil
import subprocess
import sys

from checks import check, summary

EXE, BASH_SCRIPT, ZSH_SCRIPT = (os.path.abspath(a) for a in sys.argv[1:4])


def complete(*words):
    """COMPREPLY for the command line 'adexp-parse WORDS', the last word
    being completed."""
    line = ["adexp-parse", *words]
    script = (f"source {BASH_SCRIPT}\n"
              f"COMP_WORDS=({' '.join(repr(w) for w in line)})\n"
              f"COMP_CWORD={len(line) - 1}\n"
              "_adexp_parse\n"
              "printf '%s\\n' \"${COMPREPLY[@]}\"\n")
    env = dict(os.environ, PATH=os.path.dirname(EXE) + os.pathsep + os.environ["PATH"])
    p = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], capture_output=True,
                       text=True, env=env, timeout=20)
    return [l for l in p.stdout.splitlines() if l], p.stderr


got, err = complete("--format", "")
check("--format completes the formats",
      sorted(got) == ["adexp", "csv", "json", "sqlite", "summary", "tsv", "view"], (got, err))
got, err = complete("--format", "c")
check("--format c completes csv", got == ["csv"], (got, err))
got, err = complete("--fields", "AR")
check("--fields AR completes field names from the dictionary",
      "ARCID" in got and "ARCTYP" in got and all(g.startswith("AR") for g in got), (got, err))
got, err = complete("--fields", "ADEP,AR")
check("--fields ADEP,AR completes the list's last entry",
      "ADEP,ARCID" in got and all(g.startswith("ADEP,AR") for g in got), (got, err))
got, err = complete("--rows", "RTEP")
check("--rows RTEP completes RTEPTS", "RTEPTS" in got, (got, err))
got, err = complete("--col")
check("options come from --help", got == ["--color"], (got, err))
got, err = complete("--ex")
check("--exclude is an option", got == ["--exclude"], (got, err))
p = subprocess.run([EXE, "--list-fields"], capture_output=True, text=True)
names = p.stdout.split()
check("--list-fields: the dictionary's keywords, not BEGIN or END",
      p.returncode == 0 and "ARCID" in names and "RTEPTS" in names and "BEGIN" not in names
      and len(names) > 500, p.stderr)
if shutil.which("zsh"):
    p = subprocess.run(["zsh", "-n", ZSH_SCRIPT], capture_output=True, text=True)
    check("zsh -n accepts _adexp-parse", p.returncode == 0, p.stderr)
sys.exit(summary())
