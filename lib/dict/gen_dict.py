#!/usr/bin/env python3
"""Generate the ADEXP field dictionary (EUROCONTROL ADEXP Specification,
Edition 3.1) for the C parser.

Default run (no options): read lib/dict/fields.tsv and write
    lib/dict/dict_table.c   the entry table, subfield arrays, perfect hash,
                          subfield bitmaps, dict_lookup() and dict_allows()
    lib/dict/dict_ids.h     DICT_ID_<KEYWORD> for every keyword,
                          DICT_COUNT, DICT_MAX_KEYWORD_LEN
    fuzz/adexp.dict       libFuzzer dictionary of the keywords

With --from-csv PATH the TSV is first rebuilt from fields.csv (the table
extracted from the specification: Annex A.3 primary fields, A.4 subfields,
D.4 reserved primary fields, D.5 reserved subfields), then the C is
generated from it.  --check regenerates in memory and fails if any output
file differs from what is on disk.

fields.tsv columns (tab-separated, '#' lines are comments, one header line):
    keyword      upper case
    level        primary | subfield | reserved_primary | reserved_subfield
                 | syntax (BEGIN and END only)
    kind         b (basic) | c (compound/structured) | l (list)
    flags        TEXT, MSG_LIST (comma-separated) or '-'
    subfields    allowed subfields (c) or list elements (l), space-separated
                 keywords, or '-'
    value_class  the value syntax in short, from the syntax column, or '-'

Rules used when building fields.tsv from fields.csv
---------------------------------------------------
* kind is the derived `kind` column of fields.csv (b/c/l), not `kind_spec`,
  except for the fixes listed in FIXES below.
* subfields are the `subfield_refs` column (field names) mapped to their
  keywords, plus/minus the fixes in FIXES.
* Duplicate keywords (the same keyword defined in two annexes: EVENT, REF,
  REFID) are merged into one line:
    - level: the first of primary > subfield > reserved_primary >
      reserved_subfield;
    - kind: l > c > b (a structured definition wins over a basic one);
    - subfields: the union of all definitions;
    - flags: the union;
    - value_class: the one of the row that gave the level.
* flags: TEXT for basic fields whose value is any-character text that may
  contain '-' (the syntax names CHARACTER, icaomsg or adexpmsg);
  MSG_LIST for lists whose content is whole ADEXP messages (adexpmsg).
* value_class: the syntax after '-' "KEYWORD", rewritten mechanically:
  quotes dropped from literals, n{X}m written X{n,m} (X* X+ X? X{n}),
  '!' kept as concatenation, runs of 3 or more one-character literals as a
  [class], cut at about 40 characters ('...' marks a cut).  '-' for
  compound fields and lists (their content is given by subfields), except
  MSG_LIST lists, whose class is adexpmsg.
* BEGIN and END are added with level `syntax`, kind b.
"""

import argparse
import csv
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TSV = os.path.join(HERE, "fields.tsv")
DEFAULT_C = os.path.join(HERE, "dict_table.c")
DEFAULT_H = os.path.join(HERE, "dict_ids.h")
DEFAULT_FUZZ = os.path.join(HERE, os.pardir, os.pardir, "fuzz", "adexp.dict")

SOURCE = "EUROCONTROL ADEXP Specification Edition 3.1"

LEVELS = ["primary", "subfield", "reserved_primary", "reserved_subfield",
          "syntax"]
LEVEL_C = {
    "primary": "DICT_PRIMARY",
    "subfield": "DICT_SUBFIELD",
    "reserved_primary": "DICT_RESERVED_PRIMARY",
    "reserved_subfield": "DICT_RESERVED_SUBFIELD",
    "syntax": "DICT_SYNTAX",
}
KIND_C = {"b": "ADEXP_BASIC", "c": "ADEXP_COMPOUND", "l": "ADEXP_LIST"}
KIND_RANK = {"l": 0, "c": 1, "b": 2}
FLAG_C = {"TEXT": "DICT_TEXT", "MSG_LIST": "DICT_MSG_LIST"}

VALUE_CLASS_MAX = 40

# Corrections to the extracted table, each with its reason.  Applied per
# CSV row (level, keyword) before duplicates are merged.
#   kind:     replaces the derived kind
#   add:      keywords added to the subfields
#   set:      replaces the subfields
#   flags:    added flags
#   value:    replaces the value class
FIXES = {
    ("primary", "ADDR"): dict(
        add=["FAC"],
        why="list of FAC; the spec's typo '- \"BEGIN\" (missing quote) "
            "hid the reference from the extraction"),
    ("subfield", "IFPDLONG"): dict(
        set=[], flags=["MSG_LIST"], value="adexpmsg",
        why="holds a whole ADEXP message (adexpmsg), not fields"),
    ("subfield", "RFPDLONG"): dict(
        set=[], flags=["MSG_LIST"], value="adexpmsg",
        why="holds whole ADEXP messages ({adexpmsg}), not fields"),
    ("reserved_subfield", "QFULIST"): dict(
        kind="l", add=["QFUL"],
        why="list of QFUL; typo '-' BEGIN\" (missing quote) made the "
            "extraction read it as basic"),
    ("reserved_primary", "FPLLIST"): dict(
        kind="l",
        why="list (BEGIN FPLLIST ... END, BEGIN unquoted in the spec)"),
    ("reserved_primary", "LALGLIST"): dict(
        kind="l",
        why="list (BEGIN/END unquoted in the spec)"),
    ("reserved_subfield", "ACT"): dict(
        add=["FIELDID"],
        why="list of FIELDID; 'fieldid' was taken for the auxiliary term "
            "of the same name"),
    ("reserved_subfield", "MOD"): dict(
        add=["FIELDID"], why="as ACT"),
    ("reserved_subfield", "MODH"): dict(
        add=["FIELDID"], why="as ACT"),
    ("reserved_subfield", "MVT"): dict(
        add=["FIELDID"], why="as ACT"),
    ("reserved_subfield", "RET"): dict(
        add=["FIELDID"], why="as ACT"),
    ("reserved_subfield", "FIELDID"): dict(
        add=["CFLCHG"],
        why="'cflch g': CFLCHG split by a line wrap in the PDF"),
    ("reserved_subfield", "AIN"): dict(
        add=["IFPLID"], why="spec typo 'ifpld' for ifplid"),
    ("reserved_subfield", "AITTT"): dict(
        add=["IFPLID"], why="spec typo 'ifpld' for ifplid"),
    ("reserved_subfield", "SSS"): dict(
        add=["SEPTYPE"], why="spec typo 'septyp' for septype"),
}

TEXT_MARKERS = ("CHARACTER", "icaomsg", "adexpmsg")

SYNTAX_ENTRIES = [
    # keyword, value class (the list name that follows)
    ("BEGIN", "fieldid"),
    ("END", "fieldid"),
]


# --------------------------------------------------------------- value class

_TOKEN_RE = re.compile(r"""
      (?P<ws>\s+)
    | (?P<quote>['"])
    | (?P<num>\d+)
    | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<op>[{}\[\]()|!])
    | (?P<other>.)
""", re.X)


def _tokenize(text):
    """Tokens of a BNF fragment, tolerant of the spec's broken quotes:
    a quote opens a literal that runs to the next quote or metacharacter."""
    toks = []
    i = 0
    n = len(text)
    while i < n:
        m = _TOKEN_RE.match(text, i)
        kind = m.lastgroup
        if kind == "ws":
            i = m.end()
        elif kind == "quote":
            j = i + 1
            while j < n and text[j] not in "'\"{}[]()|!":
                j += 1
            lit = text[i + 1:j].strip()
            if j < n and text[j] in "'\"":
                j += 1
            if lit:
                toks.append(("lit", lit))
            i = j
        elif kind == "num":
            toks.append(("num", int(m.group())))
            i = m.end()
        elif kind == "word":
            w = m.group()
            if w == "I":
                toks.append(("op", "|"))   # '|' misread as 'I' in the PDF
            else:
                toks.append(("id" if w[0].islower() else "lit", w))
            i = m.end()
        elif kind == "op":
            toks.append(("op", m.group()))
            i = m.end()
        elif m.group() == "/":
            toks.append(("op", "|"))       # SECCARCT writes choices with '/'
            i = m.end()
        else:
            i = m.end()   # stray punctuation ('.', ':', ...)
    return toks


class _Parser:
    """alt := seq ('|' seq)* ; seq := item (('!')? item)* ;
    item := [num] '{' alt '}' [num] | '[' alt ']' | '(' alt ')' | atom.
    Unbalanced brackets are tolerated."""

    def __init__(self, toks):
        self.t = toks
        self.i = 0

    def peek(self, k=0):
        j = self.i + k
        return self.t[j] if j < len(self.t) else (None, None)

    def alt(self, close=None):
        alts = [self.seq(close)]
        while self.peek() == ("op", "|"):
            self.i += 1
            alts.append(self.seq(close))
        alts = [a for a in alts if a[1]]
        if len(alts) == 1:
            return alts[0]
        return ("alt", alts)

    def seq(self, close):
        items = []   # list of (joiner, node)
        joiner = " "
        while True:
            kind, val = self.peek()
            if kind is None:
                break
            if kind == "op" and val == "|":
                break
            if kind == "op" and val in ")]}":
                if val == close:
                    break
                self.i += 1   # stray closer
                continue
            if kind == "op" and val == "!":
                self.i += 1
                joiner = "!"
                continue
            node = self.item()
            if node is not None:
                items.append((joiner if items else "", node))
            joiner = " "
        return ("seq", items)

    def item(self):
        kind, val = self.peek()
        if kind == "num" and self.peek(1) == ("op", "{"):
            self.i += 2
            return self.rep(val)
        if kind == "op" and val == "{":
            self.i += 1
            return self.rep(None)
        if kind == "op" and val in "[(":
            self.i += 1
            close = "]" if val == "[" else ")"
            body = self.alt(close)
            if self.peek() == ("op", close):
                self.i += 1
            return ("opt", body) if val == "[" else ("grp", body)
        self.i += 1
        if kind == "num":
            return ("atom", str(val))
        return ("atom", val)

    def rep(self, lo):
        body = self.alt("}")
        hi = None
        if self.peek() == ("op", "}"):
            self.i += 1
            if self.peek()[0] == "num":
                hi = self.peek()[1]
                self.i += 1
        return ("rep", body, lo, hi)


def _simplify(node):
    """Drop empty/one-element sequences and groups."""
    t = node[0]
    if t == "seq":
        items = [(j, _simplify(n)) for j, n in node[1]]
        items = [(j, n) for j, n in items if n is not None]
        if not items:
            return None
        if len(items) == 1:
            return items[0][1]
        return ("seq", items)
    if t == "alt":
        alts = [_simplify(a) for a in node[1]]
        alts = [a for a in alts if a is not None]
        if not alts:
            return None
        if len(alts) == 1:
            return alts[0]
        return ("alt", alts)
    if t == "grp":
        return _simplify(node[1])
    if t == "opt":
        b = _simplify(node[1])
        return None if b is None else ("opt", b)
    if t == "rep":
        b = _simplify(node[1])
        return None if b is None else ("rep", b, node[2], node[3])
    return node


def _char_class(chars):
    out = []
    i = 0
    while i < len(chars):
        j = i
        while j + 1 < len(chars) and ord(chars[j + 1]) == ord(chars[j]) + 1:
            j += 1
        if j - i >= 2:
            out.append(chars[i] + "-" + chars[j])
        else:
            out.extend(chars[i:j + 1])
        i = j + 1
    return "[" + "".join(out) + "]"


def _needs_parens(node, text):
    """An alternation inside a sequence or under a quantifier needs
    brackets unless it was written as a [character class]."""
    while node[0] == "rep" and node[2] == 1 and node[3] == 1:
        node = node[1]
    return node[0] == "alt" and not text.startswith("[")


def _render(node, top=False):
    t = node[0]
    if t == "atom":
        return node[1]
    if t == "seq":
        out = ""
        for j, n in node[1]:
            s = _render(n)
            if _needs_parens(n, s):
                s = "(" + s + ")"
            out += (j if out else "") + s
        return out
    if t == "alt":
        alts = node[1]
        if (len(alts) >= 3 and all(a[0] == "atom" and len(a[1]) == 1
                                   for a in alts)):
            return _char_class([a[1] for a in alts])
        return "|".join(_render(a) for a in alts)
    if t == "opt":
        return "[" + _render(node[1]) + "]"
    if t == "rep":
        body, lo, hi = node[1], node[2], node[3]
        s = _render(body)
        lo = lo or 0
        if lo == 1 and hi == 1:
            return s                        # exactly once: just the body
        if body[0] == "seq" or _needs_parens(body, s):
            s = "(" + s + ")"
        if hi is None:
            q = {0: "*", 1: "+"}.get(lo, "{%d,}" % lo)
        elif lo == hi:
            q = "" if lo == 1 else "{%d}" % lo
        elif lo == 0 and hi == 1:
            q = "?"
        else:
            q = "{%d,%d}" % (lo, hi)
        return s + q
    raise ValueError(node)


_HEAD_RE = re.compile(r"""^\s*'?\s*-\s*'?\s*"?\s*[A-Z][A-Z0-9]*\s*"?""")


def _value_part(syntax):
    """The BNF after '-' "KEYWORD"."""
    m = _HEAD_RE.match(syntax)
    return syntax[m.end():] if m else syntax


def value_class(syntax):
    """Short value syntax of a basic field, from its BNF."""
    rest = _value_part(syntax)
    # Remarks glued to the BNF in a few reserved rows ("ALPHA := P|N ...").
    k = rest.find(":=")
    if k >= 0:
        rest = re.sub(r"\S+\s*$", "", rest[:k])
    rest = rest.strip().rstrip(".").strip()
    tree = _simplify(_Parser(_tokenize(rest)).alt())
    if tree is None:
        return "-"
    s = _render(tree, top=True)
    if len(s) > VALUE_CLASS_MAX:
        cut = VALUE_CLASS_MAX - 3
        stops = [i for i in range(1, cut + 1)
                 if i == len(s) or s[i] in " |!(){}[]"]
        s = s[:stops[-1] if stops else cut].rstrip(" |!(") + "..."
    return s


# ----------------------------------------------------------------- CSV -> TSV

def build_from_csv(csv_path):
    with open(csv_path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    name_to_kw = {r["field"]: r["keyword"] for r in rows}
    rank = {lv: i for i, lv in enumerate(LEVELS)}
    used_fixes = set()
    per_row = []
    for r in rows:
        level, kw = r["level"], r["keyword"]
        if level not in rank or not re.fullmatch(r"[A-Z0-9]+", kw):
            raise SystemExit("bad row: %r" % (r,))
        kind = r["kind"]
        subs = {name_to_kw[n] for n in r["subfield_refs"].split()}
        syntax = r["syntax"]
        flags = set()
        if kind == "b" and any(t in _value_part(syntax)
                               for t in TEXT_MARKERS):
            flags.add("TEXT")
        vclass = value_class(syntax) if kind == "b" else "-"
        fix = FIXES.get((level, kw))
        if fix:
            used_fixes.add((level, kw))
            kind = fix.get("kind", kind)
            if "set" in fix:
                subs = set(fix["set"])
            subs |= set(fix.get("add", []))
            flags |= set(fix.get("flags", []))
            if kind != "b":
                vclass = "-"
            vclass = fix.get("value", vclass)
        if re.search(r"BEGIN", syntax) and kind != "l":
            raise SystemExit("%s %s: syntax is a list but kind is %s"
                             % (level, kw, kind))
        if kind in "cl" and not subs and "MSG_LIST" not in flags:
            raise SystemExit("%s %s: kind %s without subfields"
                             % (level, kw, kind))
        if kind == "b" and subs:
            raise SystemExit("%s %s: basic with subfields" % (level, kw))
        per_row.append(dict(keyword=kw, level=level, kind=kind, flags=flags,
                            subs=subs, value_class=vclass))
    missing = set(FIXES) - used_fixes
    if missing:
        raise SystemExit("fixes for rows not in the CSV: %s" % sorted(missing))

    merged = {}
    for e in per_row:
        kw = e["keyword"]
        if kw not in merged:
            merged[kw] = e
            continue
        m = merged[kw]
        best = m if rank[m["level"]] <= rank[e["level"]] else e
        kind = min(m["kind"], e["kind"], key=lambda k: KIND_RANK[k])
        merged[kw] = dict(keyword=kw, level=best["level"], kind=kind,
                          flags=m["flags"] | e["flags"],
                          subs=m["subs"] | e["subs"],
                          value_class=best["value_class"]
                          if kind == "b" else "-")
    for kw, vc in SYNTAX_ENTRIES:
        if kw in merged:
            raise SystemExit("%s is already a field" % kw)
        merged[kw] = dict(keyword=kw, level="syntax", kind="b", flags=set(),
                          subs=set(), value_class=vc)
    for e in merged.values():
        for s in e["subs"]:
            if s not in merged:
                raise SystemExit("%s: unknown subfield %s" % (e["keyword"], s))
    return [merged[k] for k in sorted(merged)]


def write_tsv(entries, path, csv_name):
    lines = [
        "# ADEXP field dictionary: facts derived from the field tables of the",
        "# %s (Annexes A.3, A.4, D.4, D.5)." % SOURCE,
        "# Source: EUROCONTROL. Built by gen_dict.py --from-csv %s;" % csv_name,
        "# the rules and hand corrections are documented in gen_dict.py.",
        "keyword\tlevel\tkind\tflags\tsubfields\tvalue_class",
    ]
    for e in entries:
        lines.append("\t".join([
            e["keyword"], e["level"], e["kind"],
            ",".join(sorted(e["flags"])) or "-",
            " ".join(sorted(e["subs"])) or "-",
            e["value_class"] or "-",
        ]))
    _write(path, "\n".join(lines) + "\n")


# ----------------------------------------------------------------- TSV

def read_tsv(path):
    entries = []
    header = None
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if header is None:
                header = cols
                if header != ["keyword", "level", "kind", "flags",
                              "subfields", "value_class"]:
                    raise SystemExit("%s:%d: bad header" % (path, lineno))
                continue
            if len(cols) != 6:
                raise SystemExit("%s:%d: expected 6 columns" % (path, lineno))
            kw, level, kind, flags, subs, vclass = cols
            if not re.fullmatch(r"[A-Z0-9]{1,255}", kw):
                raise SystemExit("%s:%d: bad keyword %r" % (path, lineno, kw))
            if level not in LEVEL_C or kind not in KIND_C:
                raise SystemExit("%s:%d: bad level or kind" % (path, lineno))
            flags = [] if flags == "-" else flags.split(",")
            for fl in flags:
                if fl not in FLAG_C:
                    raise SystemExit("%s:%d: bad flag %r" % (path, lineno, fl))
            entries.append(dict(keyword=kw, level=level, kind=kind,
                                flags=flags,
                                subs=[] if subs == "-" else subs.split(),
                                value_class="" if vclass == "-" else vclass))
    kws = [e["keyword"] for e in entries]
    if len(set(kws)) != len(kws):
        raise SystemExit("%s: duplicate keywords" % path)
    entries.sort(key=lambda e: e["keyword"])
    ids = {e["keyword"]: i for i, e in enumerate(entries)}
    for e in entries:
        for s in e["subs"]:
            if s not in ids:
                raise SystemExit("%s: unknown subfield %s" % (e["keyword"], s))
        e["sub_ids"] = sorted({ids[s] for s in e["subs"]})
    if len(entries) >= 0xFFFF:
        raise SystemExit("too many entries for uint16 ids")
    return entries


# ----------------------------------------------------------------- hashing

M64 = 0xFFFFFFFFFFFFFFFF
WORD_MUL = 0x9E3779B97F4A7C15
MIX_MUL = 0xC2B2AE3D27D4EB4F


def _words(key):
    """The two words keyword_words loads (little-endian): the
    first and last 8 bytes (they overlap), 4 for a keyword of 4 to 7, or
    the bytes at 0, len/2 and len-1 packed. Together they hold every byte."""
    n = len(key)
    w = 8 if n >= 8 else 4 if n >= 4 else 0
    if w:
        return (int.from_bytes(key[:w], "little"),
                int.from_bytes(key[n - w:], "little"))
    return key[0] | key[n >> 1] << 8 | key[n - 1] << 16, 0


def _hash(key, seed):
    a, b = _words(key)
    x = ((a ^ (seed * WORD_MUL & M64)) * WORD_MUL) & M64
    x = ((x ^ b ^ len(key)) * MIX_MUL) & M64
    return x >> 32


def build_hash(keys):
    """Hash and displace: bucket = top bits of h, slot = (h + disp[bucket])
    mod table size.  Tries seeds 1, 2, ... until every keyword gets its own
    slot; the result is deterministic."""
    keys = [k.encode("ascii") for k in keys]
    size = 1                        # power of two, load factor <= 0.8
    while size * 4 < len(keys) * 5:
        size <<= 1
    nbuckets = max(1, size // 4)
    bbits = nbuckets.bit_length() - 1
    for seed in range(1, 100000):
        hs = [_hash(k, seed) for k in keys]
        buckets = {}
        for i, h in enumerate(hs):
            buckets.setdefault(h >> (32 - bbits) if bbits else 0, []).append(i)
        ok = True
        for b in buckets.values():
            if len({hs[i] & (size - 1) for i in b}) != len(b):
                ok = False
                break
        if not ok:
            continue
        slots = [0xFFFF] * size
        disp = [0] * nbuckets
        for b, members in sorted(buckets.items(),
                                 key=lambda kv: (-len(kv[1]), kv[0])):
            for d in range(size):
                pos = [(hs[i] + d) & (size - 1) for i in members]
                if all(slots[p] == 0xFFFF for p in pos):
                    for i, p in zip(members, pos):
                        slots[p] = i
                    disp[b] = d
                    break
            else:
                ok = False
                break
        if ok:
            return dict(seed=seed, size=size,
                        nbuckets=nbuckets, bbits=bbits, slots=slots,
                        disp=disp)
    raise SystemExit("no perfect hash found")


# ----------------------------------------------------------------- output

def _banner(what):
    return ("/* %s: GENERATED by lib/dict/gen_dict.py from lib/dict/fields.tsv\n"
            " * (source: %s). Do not edit: change\n"
            " * fields.tsv or gen_dict.py and run `python3 lib/dict/gen_dict.py`. */\n"
            % (what, SOURCE))


def _c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _wrap(items, indent="    ", width=79):
    lines = []
    cur = indent
    for it in items:
        piece = it + ","
        if len(cur) + len(piece) + 1 > width and cur.strip():
            lines.append(cur.rstrip())
            cur = indent
        cur += piece + " "
    if cur.strip():
        lines.append(cur.rstrip())
    return "\n".join(lines)


SUB_WORDS = 4                  # bits per row: 256
SUB_BIT_NONE = SUB_WORDS * 64 - 1


def sub_bitmaps(entries):
    """Bits for the keywords that are ever subfields or elements (in id
    order), and the distinct rows of allowed bits (row 0 empty) with each
    entry's row."""
    used = sorted({i for e in entries for i in e["sub_ids"]})
    if len(used) > SUB_BIT_NONE:
        raise SystemExit("too many subfield keywords for %d-bit rows"
                         % (SUB_WORDS * 64))
    bits = {i: b for b, i in enumerate(used)}
    rows, index, row_of = [()], {(): 0}, []
    for e in entries:
        r = tuple(bits[i] for i in e["sub_ids"])
        if r not in index:
            index[r] = len(rows)
            rows.append(r)
        row_of.append(index[r])
    return bits, rows, row_of


def gen_ids_h(entries):
    maxlen = max(len(e["keyword"]) for e in entries)
    out = [_banner("dict_ids.h"),
           "#ifndef ADEXP_DICT_IDS_H",
           "#define ADEXP_DICT_IDS_H",
           "",
           "#define DICT_COUNT %d" % len(entries),
           "#define DICT_MAX_KEYWORD_LEN %d" % maxlen,
           ""]
    for i, e in enumerate(entries):
        out.append("#define DICT_ID_%s %d" % (e["keyword"], i))
    out += ["", "#endif", ""]
    return "\n".join(out)


def gen_table_c(entries):
    keys = [e["keyword"] for e in entries]
    hp = build_hash(keys)
    maxlen = max(len(k) for k in keys)
    out = [_banner("dict_table.c"),
           '#include <string.h>',
           '',
           '#include "adexp.h"',
           '#include "dict.h"',
           '#include "dict_ids.h"',
           '',
           '/* Allowed subfields (compound) or elements (list), ascending ids. */']
    for e in entries:
        if e["sub_ids"]:
            out.append("static const uint16_t sub_%s[] = {" % e["keyword"])
            out.append(_wrap(["DICT_ID_" + keys[i] for i in e["sub_ids"]]))
            out.append("};")
    bits, rows, row_of = sub_bitmaps(entries)
    out += ["",
            "/* dict_allows in O(1): every keyword that is ever a subfield or",
            " * element has a bit (sub_bit, in id order; the others have bit",
            " * %d, clear in every row), every entry with subfields a row of" % SUB_BIT_NONE,
            " * dict_sub_rows (row; identical rows shared, row 0 empty). */",
            "const uint64_t dict_sub_rows[%d][DICT_SUB_WORDS] = {" % len(rows)]
    for r in rows:
        words = [0] * SUB_WORDS
        for b in r:
            words[b >> 6] |= 1 << (b & 63)
        out.append("    {%s}," % ", ".join("0x%016Xu" % w for w in words))
    out += ["};",
            "_Static_assert(DICT_SUB_WORDS == %d, \"dict.h and gen_dict.py disagree\");"
            % SUB_WORDS,
            "", "const dict_entry dict_table[] = {"]
    for i, e in enumerate(entries):
        kw = e["keyword"]
        flags = " | ".join(FLAG_C[f] for f in e["flags"]) or "0"
        sub = ("sub_%s" % kw) if e["sub_ids"] else "NULL"
        out.append("    {%s, %d, %s, %s, %s, %d, %d, %d, %s, dict_sub_rows[%d], %s}," % (
            _c_string(kw), len(kw), LEVEL_C[e["level"]], KIND_C[e["kind"]],
            flags, len(e["sub_ids"]), bits.get(i, SUB_BIT_NONE), i, sub,
            row_of[i], _c_string(e["value_class"])))
    out += ["};",
            "",
            "const size_t dict_count = sizeof dict_table / sizeof dict_table[0];",
            "",
            "_Static_assert(sizeof dict_table / sizeof dict_table[0] == DICT_COUNT,",
            "               \"dict_ids.h and dict_table.c disagree\");",
            "",
            "/* Perfect hash (hash and displace), found by gen_dict.py:",
            " *   h      = two multiplies of the keyword's two words (keyword_words)",
            " *            and its length",
            " *   bucket = top %d bits of h" % hp["bbits"],
            " *   slot   = (h + dict_disp[bucket]) mod %d" % hp["size"],
            " * Every keyword has its own slot; its words compared confirm a hit. */",
            "#define DICT_HASH_SEED 0x%08Xu" % hp["seed"],
            "#define DICT_SLOTS %d" % hp["size"],
            "#define DICT_BUCKET_SHIFT %d" % (32 - hp["bbits"]),
            "#define DICT_EMPTY 0xFFFFu",
            "",
            "static const uint16_t dict_disp[%d] = {" % hp["nbuckets"],
            _wrap([str(d) for d in hp["disp"]]),
            "};",
            "",
            "static const uint16_t dict_slots[DICT_SLOTS] = {",
            _wrap(["0x%04X" % s for s in hp["slots"]]),
            "};",
            "",
            "/* The 8 or 4 bytes at p as a little-endian word: the hash is the",
            " * generator's on every host. */",
            "#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__",
            "static inline uint64_t load_le8(const unsigned char *p)",
            "{",
            "    uint64_t w;",
            "    memcpy(&w, p, 8);",
            "    return w;",
            "}",
            "",
            "static inline uint64_t load_le4(const unsigned char *p)",
            "{",
            "    uint32_t w;",
            "    memcpy(&w, p, 4);",
            "    return w;",
            "}",
            "#else",
            "static inline uint64_t load_le_bytes(const unsigned char *p, size_t n)",
            "{",
            "    uint64_t w = 0;",
            "    for (size_t i = n; i-- > 0;)",
            "        w = w << 8 | p[i];",
            "    return w;",
            "}",
            "#define load_le8(p) load_le_bytes(p, 8)",
            "#define load_le4(p) load_le_bytes(p, 4)",
            "#endif",
            "",
            "/* The keyword's two words: its first and last 8 bytes (they overlap),",
            " * 4 for one of 4 to 7, or the bytes at 0, len/2 and len-1 packed; every",
            " * byte is in one (len is 1..DICT_MAX_KEYWORD_LEN, at most 16). */",
            "static inline void keyword_words(const unsigned char *k, size_t len, uint64_t *a,",
            "                                 uint64_t *b)",
            "{",
            "    if (len >= 8) {",
            "        *a = load_le8(k);",
            "        *b = load_le8(k + len - 8);",
            "    } else if (len >= 4) {",
            "        *a = load_le4(k);",
            "        *b = load_le4(k + len - 4);",
            "    } else {",
            "        *a = k[0] | (uint64_t)k[len >> 1] << 8 | (uint64_t)k[len - 1] << 16;",
            "        *b = 0;",
            "    }",
            "}",
            "",
            "/* The hash of a keyword's two words. */",
            "static uint32_t dict_hash(uint64_t a, uint64_t b, size_t len)",
            "{",
            "    uint64_t x = (a ^ (uint64_t)DICT_HASH_SEED * 0x%016Xu) * 0x%016Xu;" % (WORD_MUL, WORD_MUL),
            "    x = (x ^ b ^ len) * 0x%016Xu;" % MIX_MUL,
            "    return (uint32_t)(x >> 32);",
            "}",
            "",
            "/* The keyword's words are hashed, and the entry's of the same length",
            " * compared with them: equal words, equal bytes (no call of memcmp: a",
            " * quarter of a cold keyword's lookup, measured). */",
            "const dict_entry *dict_lookup(const char *keyword, size_t len)",
            "{",
            "    if (keyword == NULL || len == 0 || len > DICT_MAX_KEYWORD_LEN)",
            "        return NULL;",
            "    uint64_t a, b, x, y;",
            "    keyword_words((const unsigned char *)keyword, len, &a, &b);",
            "    uint32_t h = dict_hash(a, b, len);",
            "    uint16_t idx = dict_slots[(h + dict_disp[h >> DICT_BUCKET_SHIFT])",
            "                              & (DICT_SLOTS - 1)];",
            "    if (idx == DICT_EMPTY)",
            "        return NULL;",
            "    const dict_entry *e = &dict_table[idx];",
            "    if (e->len != len)",
            "        return NULL;",
            "    keyword_words((const unsigned char *)e->keyword, len, &x, &y);",
            "    return ((a ^ x) | (b ^ y)) == 0 ? e : NULL;",
            "}",
            "",
            "int dict_allows(const dict_entry *parent, uint16_t child_id)",
            "{",
            "    if (parent == NULL || child_id >= DICT_COUNT)",
            "        return 0;",
            "    return dict_allows_entry(parent, &dict_table[child_id]);",
            "}",
            ""]
    if max(len(e["sub_ids"]) for e in entries) > 255:
        raise SystemExit("too many subfields of one keyword for uint8_t nsub")
    if maxlen > 255:
        raise SystemExit("keyword too long for uint8_t len")
    if maxlen > 16:
        raise SystemExit("keyword longer than keyword_words covers")
    if hp["bbits"] == 0:
        raise SystemExit("table too small for the bucket scheme")
    return "\n".join(out)


def gen_fuzz_dict(entries):
    out = ["# libFuzzer dictionary for ADEXP: GENERATED by lib/dict/gen_dict.py",
           "# from lib/dict/fields.tsv (source: %s). Do not edit." % SOURCE]
    for e in entries:
        if e["level"] != "syntax":
            out.append('"-%s "' % e["keyword"])
    out += ['"-BEGIN "', '"-END "', '"("', '")"', '"\\x0D\\x0A"',
            # FF, VT and a byte order mark (separators and a start met in
            # real files), a local field, -END with text after its name
            '"\\x0C"', '"\\x0B"', '"\\xEF\\xBB\\xBF"', '"-ISPASS Y "', '"-END RTEPTS NNNN"',
            # AFTN envelopes: a heading, the end, and bare lines
            '"\\x0AZCZC AAA001\\x0A"', '"\\x0ANNNN\\x0A"', '"\\x0AFF LKPREPWC EUCHZMFP\\x0A"',
            '"\\x0AGG EDDFZQZX\\x0A"', '"\\x0A170001 EUCHZMFP\\x0A"',
            '"\\x0A311259 EUCHZMFP 1\\x0A-TITLE"', ""]
    return "\n".join(out)


def _write(path, text):
    path = os.path.normpath(path)
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--from-csv", metavar="PATH",
                    help="rebuild fields.tsv from this fields.csv first")
    ap.add_argument("--tsv", default=DEFAULT_TSV)
    ap.add_argument("--out-c", default=DEFAULT_C)
    ap.add_argument("--out-h", default=DEFAULT_H)
    ap.add_argument("--out-fuzz", default=DEFAULT_FUZZ,
                    help="libFuzzer dictionary ('' to skip)")
    ap.add_argument("--check", action="store_true",
                    help="fail if the outputs on disk are not up to date")
    args = ap.parse_args(argv)

    if args.from_csv:
        if args.check:
            raise SystemExit("--check and --from-csv do not go together")
        write_tsv(build_from_csv(args.from_csv), args.tsv,
                  os.path.basename(args.from_csv))
    entries = read_tsv(args.tsv)
    outputs = [(args.out_h, gen_ids_h(entries)),
               (args.out_c, gen_table_c(entries))]
    if args.out_fuzz:
        outputs.append((args.out_fuzz, gen_fuzz_dict(entries)))
    stale = []
    for path, text in outputs:
        if args.check:
            try:
                with open(path, encoding="utf-8") as f:
                    if f.read() != text:
                        stale.append(path)
            except OSError:
                stale.append(path)
        else:
            _write(path, text)
    if stale:
        sys.stderr.write("out of date: %s\n" % ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
