#!/usr/bin/env python3
"""The parser's grammar has one home, parser/grammar.h: every question the
parser asks of the dictionary (is this keyword a subfield of that one, a
list, text, -BEGIN or -END...) is a named predicate there. This test fails,
naming FILE:LINE, where a C source of the parser layer (parser/, fast/,
ref/) outside grammar.h asks the dictionary directly.

A raw dictionary test is, outside comments and strings:
- a subfield bitmap: dict_row_allows, dict_allows, dict_allows_entry,
  dict_sub_rows, DICT_SUB_WORDS, grammar_any_row, or an entry's row,
  sub_bit, nsub or sub member;
- a level: DICT_PRIMARY, DICT_SUBFIELD, DICT_RESERVED_PRIMARY,
  DICT_RESERVED_SUBFIELD, DICT_SYNTAX, or an entry's level member;
- a flag: DICT_TEXT, DICT_MSG_LIST;
- an entry's kind or flags: E->kind or E->flags where E is one of the names
  the parser gives an entry (e, x, le, ce, te, entry) or dict_table[...].
  (A node's or a token's kind, n->kind or t->kind, is no dictionary test.)

The layers above and below the parser read the dictionary for rules of
their own (the lexer: which values are text; the writer; the validator,
which checks a tree against its generated tables): they are not scanned.

usage: grammar_home_test.py SOURCE_ROOT
"""
import pathlib
import re
import sys

RAW = [
    (re.compile(r"\b(dict_row_allows|dict_allows_entry|dict_allows|dict_sub_rows|"
                r"DICT_SUB_WORDS|grammar_any_row)\b"), "a subfield bitmap"),
    (re.compile(r"(->|\.)\s*(row|sub_bit|nsub|sub)\b"), "an entry's subfields"),
    (re.compile(r"\bDICT_(PRIMARY|SUBFIELD|RESERVED_PRIMARY|RESERVED_SUBFIELD|SYNTAX)\b"),
     "a dictionary level"),
    (re.compile(r"(->|\.)\s*level\b"), "an entry's level"),
    (re.compile(r"\bDICT_(TEXT|MSG_LIST)\b"), "a dictionary flag"),
    (re.compile(r"(\b(e|x|le|ce|te|entry)\s*->|\bdict_table\s*\[[^]]*\]\s*\.)\s*(kind|flags)\b"),
     "an entry's kind or flags"),
]

HOME = pathlib.PurePosixPath("parser/grammar.h")


def code_only(text):
    """text with comments, string and character literals blanked (newlines
    kept, so that line numbers stay)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + c if j - i >= 2 else text[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def raw_tests(root):
    found = []
    for path in sorted((root / "parser").rglob("*")):
        if path.suffix not in (".c", ".h"):
            continue
        rel = pathlib.PurePosixPath(path.relative_to(root).as_posix())
        if rel == HOME:
            continue
        code = code_only(path.read_text(encoding="utf-8"))
        for lineno, line in enumerate(code.split("\n"), 1):
            what = [w for pattern, w in RAW if pattern.search(line)]
            if what:
                found.append(f"{rel}:{lineno}: {', '.join(what)}: {line.strip()}")
    return found


def self_check():
    """The patterns catch what they are meant to, and no node or token."""
    hits = ["if (dict_row_allows(crow, e))", "e->level == DICT_SYNTAX",
            "n->flags = e->flags & DICT_TEXT ? 1 : 0", "x && x->kind == ADEXP_LIST",
            "crow = e->row;", "fr->entry->kind", "dict_table[id].flags",
            "t.e->kind == ADEXP_BASIC"]
    misses = ["n->kind == ADEXP_COMPOUND", "t->kind == FT_BEGIN", "f->kind == FR_LIST",
              "is_subfield_in(crow, e)", "/* e->row */ x", "s = \"DICT_TEXT\";",
              "a->flags == b->flags", "crow = subfield_row(e);"]
    for line in hits:
        code = code_only(line)
        assert any(p.search(code) for p, _ in RAW), line
    for line in misses:
        code = code_only(line)
        assert not any(p.search(code) for p, _ in RAW), line


def main():
    self_check()
    root = pathlib.Path(sys.argv[1])
    found = raw_tests(root)
    for f in found:
        print(f)
    if found:
        print(f"{len(found)} raw dictionary test(s) outside {HOME}: "
              f"call its named predicates instead", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
