#!/usr/bin/env python3
"""Generate the value and structure checks of ADEXP validation from the
syntax expressions of the EUROCONTROL ADEXP Specification, Edition 3.1.

Default run (no options): read lib/validate/syntax.tsv (the expressions as the
specification prints them) and lib/dict/fields.tsv (the dictionary, for the
ids and the allowed subfields), apply CORRECTIONS, compile every expression
and write
    lib/validate/validate_table.c   the matcher's nodes, character sets, literals
                              and one rule per dictionary entry
    lib/validate/validate_table.h   the node format and the semantic checks' ids

With --from-csv DIR syntax.tsv is first rebuilt from DIR/fields.csv (column
`syntax`) and DIR/auxiliary_terms.csv; --check regenerates in memory and fails
if an output on disk differs.

The notation (Annex A.1): 'x' and "x" literals; `a ! b` a then b with nothing
between; `a b` a then b separated by one or more separators (space, CR, LF,
and TAB as the lexer reads it) where both are present; `a | b` either;
`[ a ]` optional; `n{ a }m` n to m times (n defaults to 0, m to no bound),
repetitions concatenated; ( ) groups. Precedence: ! over juxtaposition over |.
DIGIT, ALPHA (A-Z), ALPHANUM, LIM_CHAR (the ADEXP character set but '-'),
CHARACTER (the ADEXP character set: S31 5.1.1's A-Z, 0-9, space,
( ) - ? : . , ' = + /, CR and LF, and TAB, which the lexer reads as a space),
NIL (nothing). Upper-case words of a field's syntax are literals only in the
"-" "KEYWORD" head, which is dropped.

A basic field's rule is its value expression. A compound's or list's rule is
a presence formula over its subfields (juxtaposition and ! mean all, | any,
[ ] and 0{ } none): the structure check. Terms listed in HOOKS also run a
semantic check on the text they matched (ranges the syntax cannot say).
"""

import argparse
import csv
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, os.pardir, "dict"))
import gen_dict  # noqa: E402  (the dictionary's reader and ids)
import gen_validate_dfa as dfa  # noqa: E402  (the fast path)

DEFAULT_SYNTAX = os.path.join(HERE, "syntax.tsv")
DEFAULT_C = os.path.join(HERE, "validate_table.c")
DEFAULT_H = os.path.join(HERE, "validate_table.h")
SOURCE = gen_dict.SOURCE

# ------------------------------------------------------------ corrections

# Damage done to the source text by its extraction from the PDF, and the
# specification's own typos, corrected before compiling. Each entry:
# (row name, text printed, text meant, why). Row names: auxiliary terms in
# lower case, fields as LEVEL:KEYWORD. "text printed" None: the whole row is
# replaced (or added, when the row does not exist).
CORRECTIONS = [
    ("icaoaerodromewld", None, "1{ ALPHA | '+' | '?' }4",
     "the name icaoaerodromewldcrd was split over two rows by a line wrap "
     "(row 'crd' holds the end of the name); renamed below"),
    ("performancecatego", None, "1 { [ \"A\" | \"B\" | \"C\" | \"D\" | \"E\" | \"H\" ] } 1",
     "name and expression split over two rows by a line wrap (row 'ry')"),
    ("timehhmm_elapse", None,
     "DIGIT ! DIGIT ! ('0' | '1' | '2' | '3' | '4' | '5' ) ! DIGIT",
     "the name timehhmm_elapsed lost its last letter in the extraction"),
    ("datewldcrd", "'?' )6", "'?' }6", "mismatched bracket: ) for }"),
    ("atfmmodeltype", "' CAL' | ' ACT'", "'CAL' | 'ACT'",
     "stray spaces inside literals"),
    ("atfmreasonclass", "' REG' | ' MAN'", "'REG' | 'MAN'",
     "stray spaces inside literals"),
    ("flightplanstatus", None,
     "[ \"ALTRV\" | \"ATFMX\" | \"FFR\" | \"FLTCK\" | \"HAZMAT\" | \"HEAD\" | "
     "\"HOSP\" | \"HUM\" | \"MARSA\" | \"MEDEVAC\" | \"NONRVSM\" | \"SAR\" | "
     "\"STATE\" ]",
     "stray letters T t F A i from the page's margin, a stray space in "
     "\" HAZMAT\""),
    ("surequipment", None,
     "\"N\" | ( 1{ \"I\" | \"P\" | \"X\" | \"A\" | \"C\" }3 ) | "
     "( 1{ \"A\" | \"C\" | \"E\" | \"H\" | \"L\" | \"S\" }6 ! "
     "[ 1{ \"B1\" | \"B2\" | \"D1\" | \"G1\" | \"U1\" | \"U2\" | \"V1\" | \"V2\" }8 ] )",
     "quotes lost around N and S, a } lost before 3, a | lost between G1 and "
     "U1, a note merged into the cell; the modes and the ADS codes are "
     "written one after the other (as in SEQPT SB1)"),
    ("regulationreason", "'V'| 'W'", "'V'| 'W' ]", "closing ] lost"),
    ("hexadecimal", None,
     "'0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | 'A' | 'B' "
     "| 'C' | 'D' | 'E' | 'F'",
     "printed in [ ], which would make every digit of 6{hexadecimal}6 "
     "optional; one hex digit is meant"),
    ("timeyyyymmddhhmmss", None,
     "fulldate ! timehhmm ! seconds",
     "used by ALDT, ASAT and ETIME but missing from the extracted Annex A.2; "
     "written from its name"),
    ("primary:UNIT", "[addrinfo] I a i", "[addrinfo]",
     "stray letters from the page's margin"),
    ("reserved_subfield:FIELDID", "'COD E'", "'CODE'",
     "stray space inside a literal"),
    ("reserved_subfield:FIELDID", "cflch g", "cflchg",
     "the name cflchg split by a line wrap"),
    ("reserved_subfield:AIN", "ifpld", "ifplid", "the spec's typo for ifplid"),
    ("reserved_subfield:AITTT", "ifpld", "ifplid", "the spec's typo for ifplid"),
    ("reserved_subfield:SSS", "septyp ", "septype ",
     "the spec's typo for septype"),
    ("reserved_primary:SSRCODES", "(code1 code2) | code | codep)",
     "(code1 code2) | code | codep", "unbalanced )"),
    ("primary:REGCAUSE", "regulationreason iatalocationcat",
     "regulationreason ! iatalocationcat",
     "the ! lost: the specification's own examples write the reason and the "
     "location together (-REGCAUSE WA 84)"),
    ("primary:RWYDEP", "2{DIGIT}2 [", "2{DIGIT}2 ! [",
     "the ! lost: a runway is written 27L, as RWYID's syntax has it"),
    ("primary:RWYARR", "2{DIGIT}2 [", "2{DIGIT}2 ! [", "as RWYDEP"),
    ("subfield:ADSQVLTSP", "adsaddress'", "adsaddress", "stray quote"),
    ("subfield:APPNAME", "'ADS' I 'ATC'", "'ADS' | 'ATC'",
     "| read as the letter I"),
    ("primary:RTEPTS", "pt I ad", "pt | ad", "| read as the letter I"),
    ("subfield:CPDLCADDRESS", "36{hexadecimal}36) |",
     "(36{hexadecimal}36) |", "opening ( lost"),
    ("reserved_primary:DCS1TXT", "'ERROR IN MESSAGE'.", "'ERROR IN MESSAGE'",
     "the sentence's full stop"),
    ("primary:DEPZ", "\" (adname", "(adname", "stray quote"),
    ("primary:DESTZ", "\" (adname", "(adname", "stray quote"),
    ("reserved_primary:FPLLIST", "'-' \"END\"", "'-' \"END\" \"FPLLIST\"",
     "the list's name lost after END"),
    ("reserved_primary:FPSRC", None,
     "'-' \"FPSRC\" (\"FICTOT\"|\"FICEVL\"|\"FICMOD\"|\"FICABI\"|\"FICACT\"|"
     "\"FICPAC\"|\"FPL\"|\"RPL\"|\"NKW\")",
     "quotes lost or doubled, a stray space in FICACT"),
    ("reserved_primary:FREETXT", "1{txt}3 '-' \"FREETXT\"",
     "1{txt}3 '-' \"END\" \"FREETXT\"", "END lost"),
    ("reserved_primary:FTXID", "\"FLXID\"", "\"FTXID\"",
     "the head's keyword misprinted"),
    ("reserved_primary:FTXNAME", "\"FLXNAME\"", "\"FTXNAME\"",
     "the head's keyword misprinted"),
    ("reserved_primary:FTXNUM", "\"FLXNUM\"", "\"FTXNUM\"",
     "the head's keyword misprinted"),
    ("reserved_subfield:PTCID", "\"PTICD\"", "\"PTCID\"",
     "the head's keyword misprinted"),
    ("primary:TFV", "\"TFCVOL\"", "\"TFV\"", "the head's keyword misprinted"),
    ("primary:TWYDEP", "\"VALIDEND\"", "\"TWYDEP\"",
     "the head's keyword misprinted (VALIDEND's row)"),
    ("primary:RALT", "(1 {LIM_CHAR} 100", "1 {LIM_CHAR} 100", "unbalanced ("),
    ("primary:TALT", "(1 {LIM_CHAR} 100", "1 {LIM_CHAR} 100", "unbalanced ("),
    ("reserved_subfield:SECCARCT", "/", "|", "| printed as /"),
    ("subfield:SUREQPT", "[! \"/\" ! sureqptcode]", "! [ \"/\" ! sureqptcode ]",
     "the ! printed inside the brackets"),
    ("reserved_subfield:VXPIST", "ALPHA 1{DIGIT}5 ALPHA := P|N P := Positif N := Negative",
     "('P' | 'N') 1{DIGIT}5", "a definition of ALPHA (P or N) merged into the cell"),
    ("reserved_subfield:VYPIST", "ALPHA 1{DIGIT}5 ALPHA := P|N P := Positif N := Negative",
     "('P' | 'N') 1{DIGIT}5", "as VXPIST"),
    ("reserved_subfield:XPIST", "'P'|'N' 1{DIGIT}6 P := Positif N := Negative",
     "('P' | 'N') 1{DIGIT}6", "definitions merged into the cell; the sign's "
     "choice grouped as the other *PIST fields"),
    ("reserved_subfield:YPIST", "'P'|'N' 1{DIGIT}6 ALPHA := P/N P := Positif N := Negative",
     "('P' | 'N') 1{DIGIT}6", "as XPIST"),
]
# Compounds that may also be written as a basic field, where the
# specification's field table (Annex A) and its own examples or definitions
# disagree: keyword -> (the plain value's syntax, why). A plain value is
# checked against that syntax instead of being reported as UNEXPECTED_VALUE;
# a plain value beside subfields still is. Each decision and its count on
# real messages: doc/validation-decisions.md. (Not here: RFL inside a route
# point, which S31 4.3.7 allows for every primary field in a list's element,
# and LATTD/LONGTD inside PT, which no text of the specification allows: see
# validate.c's element_takes and the doc.)
PLAIN_FORMS = {
    "CFL": ("flightlevel",
            "A.3 writes '-' \"CFL\" fl [ptid] [sfl], but the examples of E.4.3 "
            "write '-CFL F190' (HOP) and the OLDI messages of E.4 use the plain "
            "level throughout; the definition is 'Cleared Flight Level. The "
            "level currently assigned by ATC to the flight': a plain value is "
            "checked as that level"),
    "ALTNZ": ("1{LIM_CHAR}50",
              "A.3 writes '-' \"ALTNZ\" [adname ( [ geoid | refid ] ) | ptid], "
              "but the definition is 'Name of destination alternate aerodrome "
              "if no ICAO location indicator exists' and IFPS writes that name "
              "as plain text (-ALTNZ EASTERN CREEK): a plain value is checked "
              "as ADNAME's 1{LIM_CHAR}50"),
    "DEPZ": ("1{LIM_CHAR}50", "as ALTNZ: 'Name of departure aerodrome if no ICAO "
             "location indicator exists'"),
    "DESTZ": ("1{LIM_CHAR}50", "as ALTNZ: 'Name of destination aerodrome if no "
              "ICAO location indicator exists'"),
}

RENAMES = {"icaoaerodromewld": "icaoaerodromewldcrd",
           "performancecatego": "performancecategory",
           "timehhmm_elapse": "timehhmm_elapsed"}
DROPPED_ROWS = {"crd": "end of icaoaerodromewldcrd's name (see above)",
                "ry": "end of performancecategory (see above)"}

# Semantic checks: term -> the C check run on the text the term matched.
HOOKS = {
    "timehhmm": "HOOK_HHMM",             # hours 00-23
    "month": "HOOK_MONTH",               # 01-12
    "day": "HOOK_DAY",                   # 01-31
    "date": "HOOK_DATE",                 # YYMMDD: the day exists
    "fulldate": "HOOK_FULLDATE",         # CCYYMMDD: the day exists
    "latitudelong": "HOOK_LAT_DMS",      # DDMMSS <= 90 degrees
    "longitudelong": "HOOK_LONG_DMS",    # DDDMMSS <= 180 degrees
    "latitude": "HOOK_LAT_DM",           # DDMM
    "longitude": "HOOK_LONG_DM",         # DDDMM
    "latitudeshort": "HOOK_LAT_D",       # DD
    "longitudeshort": "HOOK_LONG_D",     # DDD
    "heading": "HOOK_DEGREES",           # 000-360
    "refbearing": "HOOK_DEGREES",
}
HOOK_NAMES = ["HOOK_NONE", "HOOK_HHMM", "HOOK_MONTH", "HOOK_DAY", "HOOK_DATE",
              "HOOK_FULLDATE", "HOOK_LAT_DMS", "HOOK_LONG_DMS", "HOOK_LAT_DM",
              "HOOK_LONG_DM", "HOOK_LAT_D", "HOOK_LONG_D", "HOOK_DEGREES"]

# S31 5.1.1: "the character set ... A to Z, 0 to 9, space, ( ) - ? : . , '
# = + / and carriage return and line feed"; TAB is added, as the lexer and
# the separators of a value's parts read it as a space. A value with any
# other byte (*, lower case, an EN DASH) does not match its syntax.
ADEXP_CHARS = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ()-?:.,'=+/\r\n\t")
CLASSES = {
    "DIGIT": set(b"0123456789"),
    "ALPHA": set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    "ALPHANUM": set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
    "LIM_CHAR": ADEXP_CHARS - {ord("-")},
    "CHARACTER": ADEXP_CHARS,
}
ANY = frozenset(range(256))

# ------------------------------------------------------------ source rows


def rows_from_csv(src):
    rows = []
    with open(os.path.join(src, "auxiliary_terms.csv"), encoding="utf-8") as f:
        for r in csv.DictReader(f):
            rows.append(("aux", r["level"], r["term"], r["syntax"]))
    with open(os.path.join(src, "fields.csv"), encoding="utf-8") as f:
        for r in csv.DictReader(f):
            rows.append(("field", r["level"], r["keyword"], r["syntax"]))
    return rows


def write_syntax_tsv(rows, path):
    out = ["# ADEXP syntax expressions as printed in the EUROCONTROL ADEXP",
           "# Specification Edition 3.1 (Annex A.2 auxiliary terms, A.3, A.4,",
           "# D.4, D.5 fields). Source: EUROCONTROL. Extracted with",
           "# gen_validate.py --from-csv; corrections are applied by",
           "# gen_validate.py (CORRECTIONS), not here.",
           "what\tlevel\tname\tsyntax"]
    for what, level, name, syntax in rows:
        syntax = " ".join(syntax.split())
        out.append("\t".join((what, level, name, syntax or "-")))
    gen_dict._write(path, "\n".join(out) + "\n")


def read_syntax_tsv(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        header = None
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if header is None:
                header = cols
                continue
            what, level, name, syntax = cols
            rows.append([what, level, name, "" if syntax == "-" else syntax])
    return rows


def apply_corrections(rows):
    by_name = {}
    for r in rows:
        key = r[2] if r[0] == "aux" else "%s:%s" % (r[1], r[2])
        by_name.setdefault(key, []).append(r)
    for name, printed, meant, _why in CORRECTIONS:
        targets = by_name.get(name)
        if not targets:
            if printed is not None:
                raise SystemExit("correction for a missing row: %s" % name)
            r = ["aux", "auxiliary", name, meant]
            rows.append(r)
            by_name[name] = [r]
            continue
        for r in targets:
            if printed is None:
                r[3] = meant
            elif printed in r[3]:
                r[3] = r[3].replace(printed, meant)
            else:
                raise SystemExit("%s: %r not found" % (name, printed))
    out = []
    for r in rows:
        if r[0] == "aux" and r[2] in DROPPED_ROWS:
            continue
        if r[0] == "aux":
            r[2] = RENAMES.get(r[2], r[2])
        out.append(r)
    return out


# ------------------------------------------------------------ parsing

_TOK = re.compile(r"""\s*(?:
      (?P<lit>'[^']*'|"[^"]*")
    | (?P<num>\d+)
    | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<op>[{}\[\]()|!]))""", re.X)


def tokenize(text, where):
    toks, i = [], 0
    text = text.rstrip()
    while i < len(text):
        m = _TOK.match(text, i)
        if not m:
            raise SystemExit("%s: cannot read %r" % (where, text[i:]))
        i = m.end()
        kind = m.lastgroup
        val = m.group(kind)
        toks.append((kind, val[1:-1] if kind == "lit" else val))
    return toks


class Parser:
    """Recursive descent over the notation; trees are tuples:
    ('lit', s) ('class', name) ('ref', name) ('cat', [..]) ('seq', [..])
    ('alt', [..]) ('rep', lo, hi, node) ('nil',)."""

    def __init__(self, toks, where):
        self.t, self.i, self.where = toks, 0, where

    def peek(self, k=0):
        j = self.i + k
        return self.t[j] if j < len(self.t) else (None, None)

    def take(self, val):
        if self.peek()[1] != val:
            raise SystemExit("%s: expected %r at token %d" % (self.where, val, self.i))
        self.i += 1

    def parse(self):
        node = self.alt()
        if self.i != len(self.t):
            raise SystemExit("%s: unexpected %r" % (self.where, self.peek()[1]))
        return node

    def alt(self):
        items = [self.seq()]
        while self.peek()[1] == "|":
            self.i += 1
            items.append(self.seq())
        return items[0] if len(items) == 1 else ("alt", items)

    def seq(self):
        items = [self.cat()]
        while self.peek()[0] and self.peek()[1] not in ("|", ")", "]", "}"):
            items.append(self.cat())
        return items[0] if len(items) == 1 else ("seq", items)

    def cat(self):
        items = [self.post()]
        while self.peek()[1] == "!":
            self.i += 1
            items.append(self.post())
        return items[0] if len(items) == 1 else ("cat", items)

    def post(self):
        kind, val = self.peek()
        if kind == "num" and self.peek(1)[1] == "{":
            self.i += 1
            return self.rep(int(val))
        if val == "{":
            return self.rep(0)
        self.i += 1
        if val == "(":
            node = self.alt()
            self.take(")")
            return node
        if val == "[":
            node = self.alt()
            self.take("]")
            return ("rep", 0, 1, node)
        if kind == "lit":
            return ("lit", val)
        if kind == "word":
            if val in CLASSES:
                return ("class", val)
            if val == "NIL":
                return ("nil",)
            if val.islower() or "_" in val:
                return ("ref", val)
        raise SystemExit("%s: unexpected %r" % (self.where, val))

    def rep(self, lo):
        self.take("{")
        node = self.alt()
        self.take("}")
        hi = None
        if self.peek()[0] == "num" and self.peek(1)[1] != "{":
            hi = int(self.peek()[1])
            self.i += 1
        return ("rep", lo, hi, node)


_HEAD = r"""^\s*'?\s*-\s*'?\s*"?%s"?"""


def value_part(syntax, kw, kind):
    """The expression after '-' "KEYWORD" (or inside BEGIN/END for lists)."""
    if kind == "l":
        m = re.match(_HEAD % "BEGIN" + r"""\s*"?%s"?(.*?)'?\s*-\s*'?\s*"?END"?\s*"?%s"?\s*$"""
                     % (kw, kw), syntax)
    else:
        m = re.match(_HEAD % kw + r"(?![A-Z0-9])(.*)$", syntax)
    if not m:
        raise SystemExit("%s: no head in %r" % (kw, syntax))
    return " ".join(m.group(1).split())


# ------------------------------------------------------------ compiling


class Compiler:
    def __init__(self, terms, ids):
        self.terms = terms            # name -> expression text
        self.ids = ids                # keyword -> dict id
        self.nodes = [("nil",)]       # node 0: no rule
        self.kids = []
        self.sets = []
        self.strings = [""]
        self.term_root = {}
        self.term_busy = set()
        self.memo = {}

    def string(self, s):
        if s not in self.strings:
            self.strings.append(s)
        return self.strings.index(s)

    def charset(self, chars):
        chars = frozenset(chars)
        if chars not in self.sets:
            self.sets.append(chars)
        return self.sets.index(chars)

    def add(self, node):
        key = repr(node)
        if key not in self.memo:
            self.nodes.append(node)
            self.memo[key] = len(self.nodes) - 1
        return self.memo[key]

    def group(self, op, ids):
        key = repr((op, tuple(ids)))
        if key not in self.memo:
            start = len(self.kids)
            self.kids.extend(ids)
            self.nodes.append((op, start, len(ids), tuple(ids)))
            self.memo[key] = len(self.nodes) - 1
        return self.memo[key]

    def single_chars(self, tree):
        """The byte set of a tree that always matches one byte, or None."""
        op = tree[0]
        if op == "lit" and len(tree[1]) == 1:
            return {ord(tree[1])}
        if op == "class":
            return CLASSES[tree[1]]
        if op == "alt":
            out = set()
            for t in tree[1]:
                s = self.single_chars(t)
                if s is None:
                    return None
                out |= s
            return out
        if op == "ref" and tree[1] in self.terms and tree[1] not in HOOKS:
            return self.single_chars(self.term_tree(tree[1]))
        return None

    def term_tree(self, name):
        return Parser(tokenize(self.terms[name], name), name).parse()

    def term(self, name):
        if name not in self.terms:
            raise SystemExit("unknown term %s" % name)
        if name in self.term_root:
            return self.term_root[name]
        if name in self.term_busy:
            raise SystemExit("recursive term %s" % name)
        self.term_busy.add(name)
        root = self.value(self.term_tree(name))
        self.term_busy.discard(name)
        if name in HOOKS:
            root = self.add(("hook", root, HOOKS[name], name))
        self.term_root[name] = root
        return root

    def value(self, tree):
        """Node id of a value expression."""
        chars = self.single_chars(tree)
        if chars is not None:
            return self.add(("set", self.charset(chars)))
        op = tree[0]
        if op == "lit":
            return self.add(("lit", self.string(tree[1]), len(tree[1])))
        if op == "nil":
            return self.add(("empty",))
        if op == "ref":
            return self.term(tree[1])
        if op in ("cat", "seq", "alt"):
            return self.group(op, [self.value(t) for t in tree[1]])
        if op == "rep":
            _, lo, hi, sub = tree
            return self.add(("rep", self.value(sub), lo, 0xFFFF if hi is None else hi))
        raise SystemExit("cannot compile %r" % (tree,))

    def presence(self, tree, allowed):
        """Node id of a compound's or list's presence formula (0: none)."""
        op = tree[0]
        if op == "ref" and tree[1].upper() in allowed:
            return self.add(("field", self.ids[tree[1].upper()], tree[1].upper()))
        if op in ("cat", "seq", "alt"):
            subs = [self.presence(t, allowed) for t in tree[1]]
            if op != "alt":
                subs = [s for s in subs if s]
                if not subs:
                    return 0
                return subs[0] if len(subs) == 1 else self.group("all", subs)
            if 0 in subs:
                return 0            # one branch needs nothing
            return subs[0] if len(subs) == 1 else self.group("any", subs)
        if op == "rep":
            _, lo, hi, sub = tree
            return self.presence(sub, allowed) if lo > 0 else 0
        return 0                    # literals and terms: not a subfield

    def flat_fields(self, node):
        """The dict ids of a formula that is all of some subfields, or None."""
        n = self.nodes[node]
        if n[0] == "field":
            return [n[1]]
        if n[0] == "all":
            out = []
            for k in n[3]:
                sub = self.flat_fields(k)
                if sub is None:
                    return None
                out += sub
            return out
        return None

    def sufficient(self, node):
        """A test that implies the formula, for the formulas that are not all
        of some subfields: (all, some), the ids of the subfields all of which
        and of those one of which are enough; None when the formula is not
        all of some subfields and at most one choice with subfields among
        its branches (the formula itself then says)."""
        n = self.nodes[node]
        if n[0] == "field":
            return [n[1]], None
        if n[0] == "any":
            some = [self.nodes[k][1] for k in n[3] if self.nodes[k][0] == "field"]
            return ([], some) if some else None
        if n[0] == "all":
            every, some = [], None
            for k in n[3]:
                sub = self.sufficient(k)
                if sub is None or (sub[1] is not None and some is not None):
                    return None
                every += sub[0]
                some = sub[1] if sub[1] is not None else some
            return every, some
        return None

    def describe(self, node):
        """A formula in keywords, for the missing-subfield message."""
        n = self.nodes[node]
        if n[0] == "field":
            return n[2]
        sep = " | " if n[0] == "any" else " "
        text = sep.join(self.describe(k) for k in n[3])
        return "(" + text + ")"


def build(rows, entries):
    ids = {e["keyword"]: i for i, e in enumerate(entries)}
    terms = {r[2]: r[3] for r in rows if r[0] == "aux" and r[3]}
    c = Compiler(terms, ids)
    fields = {}
    for what, level, name, syntax in rows:
        if what == "field":
            fields.setdefault(name, []).append((level, syntax))
    rules, errors = [], []
    for e in entries:
        try:
            rules.append(entry_rule(e, fields, c))
        except SystemExit as err:
            errors.append(str(err))
            rules.append((0, 0, "", None))
    for r in rows:
        if r[0] == "aux" and r[3]:
            try:
                c.term(r[2])
            except SystemExit as err:
                errors.append(str(err))
    if errors:
        raise SystemExit("\n".join(errors))
    return c, rules, fast_paths(c, rules)


def text_bounds(tree, c):
    """(min, max) for a value that is any text of LIM_CHAR of bounded length
    ({ LIM_CHAR }, 1{ LIM_CHAR }m), checked without a DFA (vlim_char); None
    otherwise."""
    if tree[0] != "rep" or tree[1] > 1:
        return None
    sub = c.single_chars(tree[3])
    if sub is None or set(sub) != CLASSES["LIM_CHAR"]:
        return None
    return tree[1], 0xFFFF if tree[2] is None else tree[2]


def fast_paths(c, rules):
    """Per rule: (dfa start, text min, text max, the start of the DFA of its
    syntax without the ranges, the range checks of a value of one layout),
    and the DFA tables."""
    def resolve(name):
        return c.term_tree(name), HOOKS.get(name)

    memo = {}

    def nullable(t):
        op = t[0]
        if op in ("nil", "empty"):
            return True
        if op in ("lit", "class", "set"):
            return op == "lit" and t[1] == ""
        if op == "ref":
            if t[1] not in memo:
                memo[t[1]] = False if t[1] in HOOKS else nullable(c.term_tree(t[1]))
            return memo[t[1]]
        if op in ("cat", "seq"):
            return all(nullable(x) for x in t[1])
        if op == "alt":
            return any(nullable(x) for x in t[1])
        if op == "rep":
            return t[1] == 0 or nullable(t[3])
        return False

    def resolve_syntax(name):          # the syntax alone: no range
        return c.term_tree(name), None

    hooked = {}

    def has_hook(t):
        op = t[0]
        if op == "ref":
            if t[1] not in hooked:
                hooked[t[1]] = False
                hooked[t[1]] = t[1] in HOOKS or has_hook(c.term_tree(t[1]))
            return hooked[t[1]]
        if op in ("cat", "alt", "seq"):
            return any(has_hook(x) for x in t[1])
        if op == "rep":
            return has_hook(t[3])
        return False

    def fixed(t):
        """(width, [(start, length, hook)] in the order the matcher checks
        them) of a tree that matches one layout of bytes, or None."""
        op = t[0]
        if op == "lit":
            return len(t[1]), []
        if op in ("class", "set"):
            return 1, []
        if op in ("nil", "empty"):
            return 0, []
        if op == "ref":
            sub = fixed(c.term_tree(t[1]))
            if sub is None:
                return None
            if t[1] in HOOKS:              # checked once its text has matched
                return sub[0], sub[1] + [(0, sub[0], HOOKS[t[1]])]
            return sub
        if op == "cat" or (op == "rep" and t[1] == t[2]):
            parts = t[1] if op == "cat" else [t[3]] * t[1]
            width, hooks = 0, []
            for x in parts:
                sub = fixed(x)
                if sub is None:
                    return None
                hooks += [(width + a, n, h) for a, n, h in sub[1]]
                width += sub[0]
            return width, hooks
        if op == "alt":
            subs = [fixed(x) for x in t[1]]
            if any(x is None or x[1] or x[0] != subs[0][0] for x in subs):
                return None
            return subs[0][0], []
        return None

    sets = set()
    for r in rules:
        if r[3] is not None:
            dfa.collect_sets(r[3], resolve, sets, set(), CLASSES)
            dfa.collect_sets(r[3], resolve_syntax, sets, set(), CLASSES)
    sets.add(dfa.SEPS)
    cls, ncls = dfa.byte_classes(sets)
    tables = dfa.Tables(cls, ncls)
    fast = []
    for r in rules:
        tree = r[3]
        if tree is None:
            fast.append((0, 0, 0, 0, None))
            continue
        bounds = text_bounds(tree, c)
        if bounds:
            fast.append((0, bounds[0], bounds[1], 0, None))
            continue
        start = tables.add(repr(tree), lambda: dfa.compile_rule(
            tables, tree, resolve, nullable, CLASSES))
        syntax, layout = start, None
        if has_hook(tree):
            syntax = tables.add("syntax " + repr(tree), lambda: dfa.compile_rule(
                tables, tree, resolve_syntax, nullable, CLASSES))
            layout = fixed(tree)
        fast.append((start, 0, 0, syntax, layout[1] if layout and layout[1] else None))
    return fast, tables


# Specialised matchers (lib/validate/validate_fast.h) for the most frequent value
# classes, each the same language as the rule's DFA (validate_test.c checks
# it on every rule that gets one): kind -> the C name. A run (lo to hi bytes
# of one class) and a text of any length (VK_CHARS) are found in the DFA
# itself; the others by their expression.
FAST_KINDS = ["VK_NONE", "VK_DFA", "VK_TEXT", "VK_DT12", "VK_FLEVEL",
              "VK_ALPHA", "VK_DIGIT", "VK_ALNUM", "VK_HHMM", "VK_DATE",
              "VK_DT10", "VK_DDHHMM", "VK_FIRTIME", "VK_LEVEL_PT",
              "VK_SPEED_PT", "VK_ACTYPE", "VK_IFPLID", "VK_GEONAME", "VK_SSR",
              "VK_LAT", "VK_LONG", "VK_ATSRT", "VK_DCT", "VK_CHARS",
              "VK_ELAPSED", "VK_BYTE"]
FAST_TREES = {
    # digits whose pairs have ranges: a time, a date, a date and time
    repr(("ref", "timehhmm")): "VK_HHMM",                      # HHMM
    repr(("ref", "date")): "VK_DATE",                          # YYMMDD
    repr(("ref", "timehhmm_elapsed")): "VK_ELAPSED",           # HHMM, any hours
    repr(("ref", "datetime")): "VK_DT10",                      # YYMMDDHHMM
    repr(("cat", [("ref", "date"), ("ref", "timehhmm"), ("ref", "seconds")])): "VK_DT12",
    repr(("cat", [("ref", "day"), ("ref", "timehhmm")])): "VK_DDHHMM",
    # flightlevel: F or A and 3 digits, S or M and 4 digits
    repr(("ref", "flightlevel")): "VK_FLEVEL",
    # EETFIR: the usual value (one space between) tested, any other by the
    # DFA, whose start is the parameter
    repr(("seq", [("ref", "firindicator"), ("ref", "timehhmm_elapsed")])): "VK_FIRTIME",
    # RFL, SPEED: a level or a speed without a point
    repr(("seq", [("ref", "flightlevel"), ("rep", 0, 1, ("ref", "point"))])): "VK_LEVEL_PT",
    repr(("seq", [("ref", "spd"), ("rep", 0, 1, ("ref", "point"))])): "VK_SPEED_PT",
    # ARCTYP: a letter and one to three letters or digits (ZZZZ among them)
    repr(("alt", [("ref", "icaoaircrafttype"), ("lit", "ZZZZ")])): "VK_ACTYPE",
    # IFPLID: two letters, eight digits
    repr(("cat", [("rep", 2, 2, ("class", "ALPHA")), ("rep", 8, 8, ("class", "DIGIT"))])): "VK_IFPLID",
    repr(("ref", "geoname")): "VK_GEONAME",                    # GEO and two digits
    # LATTD, LONGTD: degrees, minutes, seconds and a side
    repr(("cat", [("ref", "latitudelong"), ("ref", "latitudeside")])): "VK_LAT",
    repr(("cat", [("ref", "longitudelong"), ("ref", "longitudeside")])): "VK_LONG",
    # SSRCODE: A and four octal digits (REQ by the DFA)
    repr(("alt", [("cat", [("lit", "A"), ("rep", 4, 4, ("alt", [("lit", c) for c in "01234567"]))]),
                  ("lit", "REQ")])): "VK_SSR",
    # ATSRT, DCT: a route and two points, two points, each of letters and
    # digits, one space between (other separators by the DFA)
    repr(("seq", [("ref", "atsroute"), ("ref", "point"), ("ref", "point")])): "VK_ATSRT",
    repr(("seq", [("ref", "point"), ("ref", "point")])): "VK_DCT",
}
# Kinds whose matcher tests the usual values only: any other goes to the
# DFA, whose start is the parameter.
WITH_DFA = {"VK_FIRTIME", "VK_LEVEL_PT", "VK_SPEED_PT", "VK_ACTYPE", "VK_IFPLID",
            "VK_GEONAME", "VK_SSR", "VK_ATSRT", "VK_DCT"}
RUN_KINDS = [("VK_ALPHA", "ALPHA"), ("VK_DIGIT", "DIGIT"), ("VK_ALNUM", "ALPHANUM")]
RUN_MAX = 16                   # lib/validate/validate_fast.h reads at most two words


def dfa_run(tables, start):
    """(kind, lo, hi) if the DFA from start accepts exactly the strings of
    lo to hi bytes (1 <= lo, hi <= RUN_MAX) of one of RUN_KINDS' classes,
    else None."""
    reps = [tables.cls.index(k) for k in range(tables.ncls)]
    s, seen, accepts, byteset = start, set(), [], None
    while True:
        if s in seen:
            return None
        seen.add(s)
        accepts.append(tables.accept[s])
        row = tables.trans[s]
        live = {k for k in range(tables.ncls) if row[k]}
        if not live:
            break
        targets = {row[k] for k in live}
        bs = frozenset(b for b in range(256) if tables.cls[b] in live)
        if len(targets) != 1 or (byteset is not None and bs != byteset):
            return None
        byteset = bs
        s = targets.pop()
    hi = len(accepts) - 1
    lo = accepts.index(True) if True in accepts else None
    if lo is None or lo < 1 or hi > RUN_MAX or not all(accepts[lo:]):
        return None
    for kind, cls in RUN_KINDS:
        if byteset == frozenset(CLASSES[cls]):
            return kind, lo, hi
    return None


def dfa_one_byte(tables, start):
    """Whether the DFA from start accepts only strings of one byte (a flight
    rule, a wake turbulence category): VK_BYTE, the DFA's one step."""
    if tables.accept[start]:
        return False
    row = tables.trans[start]
    targets = {row[k] for k in range(tables.ncls) if row[k]}
    return bool(targets) and all(
        tables.accept[t] and not any(tables.trans[t]) for t in targets)


# The unbounded texts whose DFA is found to be one of these classes:
# (class, the parameter's bit for it).
CHARS_CLASSES = [("LIM_CHAR", None), ("CHARACTER", "VR_CHARS_DASH")]


def dfa_chars(tables, start):
    """(class, lo) if the DFA from start accepts exactly the strings of at
    least lo bytes (0 or 1) of one of CHARS_CLASSES' classes, else None: the
    language compared with that text's automaton state by state, whatever
    the DFA's own states (ERROR's optional code, for one)."""
    for name, _bit in CHARS_CLASSES:
        members = {tables.cls[b] for b in CLASSES[name]}
        if any(tables.cls[b] in members for b in range(256) if b not in CLASSES[name]):
            continue                   # a byte class half in it, half out
        for lo in (0, 1):
            # the text's states: 0 dead, 1 "lo bytes read", 2 "one byte to go"
            seen, todo, same = set(), [(start, 1 if lo == 0 else 2)], True
            while todo and same:
                s, t = todo.pop()
                if (s, t) in seen:
                    continue
                seen.add((s, t))
                if tables.accept[s] != (t == 1):
                    same = False
                    break
                for k in range(tables.ncls):
                    todo.append((tables.trans[s][k], 1 if t and k in members else 0))
            if same:
                return name, lo
    return None


def fast_kind(rule, fp, tables):
    """(kind, parameter) of a rule's fast path: the parameter is the DFA's
    start (VK_DFA) or a run's length bounds, as C."""
    if rule[3] is None:
        return "VK_NONE", ""
    if fp[2]:
        # vf_text reads the highest length from the parameter, the lowest
        # (0 or 1: { LIM_CHAR }, 1{ LIM_CHAR }m) from VR_TEXT_EMPTY
        if fp[1] not in (0, 1):
            raise SystemExit("a text of at least %d bytes: VK_TEXT wants 0 or 1" % fp[1])
        return "VK_TEXT", "%du << VR_PARAM_SHIFT%s" % (
            fp[2], " | VR_TEXT_EMPTY" if fp[1] == 0 else "")
    special = FAST_TREES.get(repr(rule[3]))
    if special in WITH_DFA:
        return special, "%du << VR_PARAM_SHIFT" % fp[0]
    if special:
        return special, ""
    run = dfa_run(tables, fp[0])
    if run:
        return run[0], "VR_RUN(%d, %d)" % (run[1], run[2])
    if dfa_one_byte(tables, fp[0]):
        return "VK_BYTE", "%du << VR_PARAM_SHIFT" % fp[0]
    chars = dfa_chars(tables, fp[0])
    if chars:
        bits = [dict(CHARS_CLASSES)[chars[0]], "VR_TEXT_EMPTY" if chars[1] == 0 else None]
        return "VK_CHARS", " | ".join(b for b in bits if b)
    return "VK_DFA", "%du << VR_PARAM_SHIFT" % fp[0]


def entry_rule(e, fields, c):
    if True:
        kw = e["keyword"]
        if e["level"] == "syntax" or kw not in fields:
            return (0, 0, "", None)
        bodies = [value_part(s, kw, e["kind"]) for _lvl, s in fields[kw]]
        trees = [Parser(tokenize(b, kw), kw).parse() if b else ("nil",) for b in bodies]
        tree = trees[0] if len(trees) == 1 else ("alt", trees)
        text = " | ".join(bodies)
        if e["kind"] == "b":
            if "ASCII_SUP" in text:
                # XFPLTXT's 1{CHARACTER | ASCII_SUP}768: the specification
                # defines no ASCII_SUP, so its text is not checked
                return (0, 0, text, None)
            return (c.value(tree), 0, text, tree)
        allowed = set(e["subs"])
        p = c.presence(tree, allowed)
        described = c.describe(p) if p else ""
        if kw in PLAIN_FORMS and e["kind"] == "c":
            plain = PLAIN_FORMS[kw][0]
            ptree = Parser(tokenize(plain, kw), kw).parse()
            return (c.value(ptree), p, described + " | " + plain if described else plain, ptree)
        return (0, p, described, None)


# ------------------------------------------------------------ output

OPS = {"nil": "VN_NONE", "set": "VN_SET", "lit": "VN_LIT", "empty": "VN_EMPTY",
       "cat": "VN_CAT", "seq": "VN_SEQ", "alt": "VN_ALT", "rep": "VN_REP",
       "hook": "VN_HOOK", "field": "VN_FIELD", "all": "VN_ALL", "any": "VN_ANY"}


def c_node(n, text=0):
    op = n[0]
    if op == "any":
        return "{VN_ANY, 0, %d, %d, %d}" % (n[1], n[2], text)
    if op == "set":
        return "{VN_SET, 0, %d, 0, 0}" % n[1]
    if op == "lit":
        return "{VN_LIT, 0, %d, %d, 0}" % (n[1], n[2])
    if op in ("cat", "seq", "alt", "all", "any"):
        return "{%s, 0, %d, %d, 0}" % (OPS[op], n[1], n[2])
    if op == "rep":
        return "{VN_REP, 0, %d, %d, %d}" % (n[1], n[2], n[3])
    if op == "hook":
        return "{VN_HOOK, %s, %d, 0, 0}" % (n[2], n[1])
    if op == "field":
        return "{VN_FIELD, 0, %d, 0, 0}" % n[1]
    return "{%s, 0, 0, 0, 0}" % OPS[op]


def gen_h(tables, walks):
    hooks = ",\n".join("    %s" % h for h in HOOK_NAMES)
    return """/* validate_table.h: GENERATED by lib/validate/gen_validate.py from
 * lib/validate/syntax.tsv (source: %s). Do not edit. */
#ifndef ADEXP_VALIDATE_TABLE_H
#define ADEXP_VALIDATE_TABLE_H

#include <stdint.h>

/* The matcher's node kinds. Value nodes: a byte of a set, a literal,
 * nothing, a sequence (CAT: no gap; SEQ: separators between the parts
 * present), a choice, a bounded repetition, a term with a semantic check.
 * Presence nodes (compounds and lists): a subfield, all of, any of. */
enum vnode_op {
    VN_NONE, VN_SET, VN_LIT, VN_EMPTY, VN_CAT, VN_SEQ, VN_ALT, VN_REP,
    VN_HOOK, VN_FIELD, VN_ALL, VN_ANY
};

enum vhook {
%s
};

typedef struct vnode {
    uint8_t op;                /* enum vnode_op */
    uint8_t hook;              /* VN_HOOK: enum vhook */
    uint16_t a;                /* SET: set; LIT: string; CAT..ALT, ALL, ANY:
                                  first kid; REP, HOOK: node; FIELD: dict id */
    uint16_t b;                /* LIT: length; CAT..ALT, ALL, ANY: kids; REP: min */
    uint16_t c;                /* REP: max (0xFFFF: no bound); ANY: its
                                  description, an index of vstrings */
} vnode;

typedef struct vrule {
    uint16_t value;            /* value expression's node (0: not checked) */
    uint16_t presence;         /* subfields' formula node (0: none needed) */
    uint16_t syntax;           /* the expression as the dictionary writes it,
                                  an index of vstrings */
    uint16_t dfa;              /* the value's DFA, ranges included: its start
                                  state (0: none, see text_max) */
    uint16_t text_min, text_max;   /* text_max > 0: the value is any text
                                  without '-' of text_min to text_max bytes
                                  (0xFFFF: no bound) */
    uint16_t req;              /* presence is all of some subfields: their
                                  bits (dict_entry.sub_bit), a row of vreq */
    uint16_t req_word;         /* the one word of vreq[req] that is not 0
                                  (VREQ_WORDS: more than one) */
    uint16_t dfa_syntax;       /* the DFA of the value's syntax without its
                                  ranges (dfa itself when it has none): it
                                  tells a value out of range from a bad one */
    uint16_t hooks_at;         /* a value of one layout: its range checks,
                                  from vhooks_at[hooks_at] (0: none, or the
                                  matcher says) */
    uint16_t suff_all, suff_any;   /* req 0, suff_any not 0: all the subfields
                                  of vreq[suff_all] and one of vreq[suff_any]
                                  present imply the formula (gen_validate.py's
                                  sufficient); when they are not, it says */
} vrule;

/* A range check at a fixed place of a value: start, length, enum vhook. */
typedef struct vhook_at {
    uint8_t at, len, hook;
} vhook_at;
extern const vhook_at vhooks_at[];

#define VREQ_WORDS 4

/* What the walk reads for every field, one word per dictionary entry:
 * the entry's sub_bit (VR_SUB_BIT), VR_STRUCTURED (a compound or list),
 * VR_SUBFIELD (a subfield or reserved subfield), the value's fast path
 * (VR_KIND_SHIFT up: enum vkind) and its parameter (VR_PARAM_SHIFT up: the DFA's
 * start state, or a run's lowest and highest length, a byte each). */
#define VR_SUB_BIT 0xFFu
#define VR_STRUCTURED 0x100u
#define VR_SUBFIELD 0x200u
#define VR_TEXT_EMPTY 0x8000u      /* VK_TEXT, VK_CHARS: the empty value is valid too */
#define VR_CHARS_DASH 0x10000u     /* VK_CHARS: CHARACTER's bytes ('-' too), not LIM_CHAR's */
#define VR_KIND_SHIFT 10
#define VR_KIND_MASK 0x1Fu
#define VR_PARAM_SHIFT 16
#define VR_RUN(lo, hi) ((uint32_t)(lo) << VR_PARAM_SHIFT | (uint32_t)(hi) << 24)
enum vkind {
%s
};
extern const uint32_t vwalk[];     /* one per dictionary entry, by id */
/* vwalk's words of the subfields of the usual compounds' shapes (validate.c's
 * usual_shape), as constants: their fast paths fold where they are used. */
%s

extern const uint64_t vreq[][4];

/* The DFAs of all values: byte -> class, state x class -> state (0 dead),
 * accepting states. vdfa_next holds each next state as its row's offset
 * (state x VDFA_STRIDE): a step is one add and one load. */
#define VDFA_CLASSES %d
#define VDFA_STRIDE 64             /* a row's size (gen_validate.py's VDFA_STRIDE) */
extern const uint8_t vdfa_class[256];
extern const uint32_t vdfa_next[][VDFA_STRIDE];
extern const uint8_t vdfa_accept[];
/* 1 for the bytes of LIM_CHAR (the ADEXP character set but '-'), by byte:
 * a text rule's check, and with '-' the set every value is read against. */
extern const uint8_t vlim_char[256];

#define VSET_WORDS 4
extern const vnode vnodes[];
extern const uint16_t vkids[];
extern const uint64_t vsets[][VSET_WORDS];
extern const char *const vstrings[];
extern const vrule vrules[];       /* one per dictionary entry, by id */

/* Auxiliary terms by name, for the tests: each term's node. */
typedef struct vterm {
    const char *name;
    uint16_t node;
} vterm;
extern const vterm vterms[];
extern const unsigned vterm_count;

#endif
""" % (SOURCE, hooks, ",\n".join("    %s" % k for k in FAST_KINDS),
       "\n".join("#define VWALK_%s (%s)" % (k, walks[k]) for k in USUAL_SUBFIELDS),
       tables.ncls)


VDFA_STRIDE = 64               # validate_table.h's: a row of vdfa_next

# The subfields of the usual shapes of route points, GEO and ESTDATA
# (validate.c's usual_shape), whose vwalk words (gen_c's) gen_h writes as
# constants.
USUAL_SUBFIELDS = ["PTID", "FL", "ETO", "GEOID", "LATTD", "LONGTD"]


def check_stride(tables):
    if tables.ncls > VDFA_STRIDE:
        raise SystemExit("dfa: %d byte classes, more than VDFA_STRIDE" % tables.ncls)


def gen_c(c, rules, fast, tables):
    out = ["/* validate_table.c: GENERATED by lib/validate/gen_validate.py from",
           " * lib/validate/syntax.tsv and lib/dict/fields.tsv (source: %s)." % SOURCE,
           " * Do not edit: change those or gen_validate.py and run",
           " * `python3 lib/validate/gen_validate.py`. */",
           "#include \"validate_table.h\"", "#include \"dict_ids.h\"", ""]
    syntax_ids = []
    for r in rules:
        syntax_ids.append(c.string(r[2]))
    any_text = {i: c.string(c.describe(i)) for i, n in enumerate(c.nodes)
                if n[0] == "any"}
    out.append("const vnode vnodes[] = {")
    for i, n in enumerate(c.nodes):
        note = ""
        if n[0] == "hook":
            note = "  /* %s */" % n[3]
        elif n[0] == "lit":
            note = "  /* \"%s\" */" % c.strings[n[1]].replace("*/", "* /")
        elif n[0] == "field":
            note = "  /* %s */" % n[2]
        out.append("    %s,%s" % (c_node(n, any_text.get(i, 0)), note))
    out.append("};")
    out.append("")
    out.append("const uint16_t vkids[] = {")
    out.append(gen_dict._wrap([str(k) for k in c.kids] or ["0"]))
    out.append("};")
    out.append("")
    out.append("const uint64_t vsets[][VSET_WORDS] = {")
    for s in c.sets:
        words = [0, 0, 0, 0]
        for b in s:
            words[b >> 6] |= 1 << (b & 63)
        out.append("    {%s}," % ", ".join("0x%016xu" % w for w in words))
    out.append("};")
    out.append("")
    out.append("const char *const vstrings[] = {")
    for s in c.strings:
        out.append("    %s," % gen_dict._c_string(s))
    out.append("};")
    out.append("")
    out.append("/* By dictionary id: value node, presence node, syntax, DFA start,")
    out.append(" * text length bounds, required subfields and their one word, the DFA")
    out.append(" * without ranges, the range checks of its layout, the subfields that")
    out.append(" * are enough (all of one row, one of another). The comment is the")
    out.append(" * expression the rule came from (corrected). */")
    hook_rows, hook_index = [], {}
    for fp in fast:
        if fp[4] and repr(fp[4]) not in hook_index:
            hook_index[repr(fp[4])] = 1 + len(hook_rows)
            hook_rows.extend(fp[4] + [None])
    out.append("/* The range checks of the values of one layout, in the order the")
    out.append(" * matcher makes them: start, length, hook; a list ends at hook 0. */")
    out.append("const vhook_at vhooks_at[] = {")
    out.append("    {0, 0, 0},")
    for h in hook_rows:
        out.append("    {%d, %d, %s}," % h if h else "    {0, 0, 0},")
    out.append("};")
    out.append("")
    out.append("const vrule vrules[DICT_COUNT] = {")
    bits = gen_dict.sub_bitmaps(c_entries)[0]
    masks, mask_index = [(0, 0, 0, 0)], {(0, 0, 0, 0): 0}
    def mask_of(ids):
        words = [0, 0, 0, 0]
        for i in ids:
            words[bits[i] >> 6] |= 1 << (bits[i] & 63)
        key = tuple(words)
        if key not in mask_index:
            mask_index[key] = len(masks)
            masks.append(key)
        return mask_index[key]

    reqs = []
    for r in rules:
        ids = c.flat_fields(r[1]) if r[1] else None
        reqs.append(mask_of(ids) if ids else 0)
    suffs = []
    for r, rq in zip(rules, reqs):
        sf = c.sufficient(r[1]) if r[1] and not rq else None
        suffs.append((mask_of(sf[0]), mask_of(sf[1])) if sf and sf[1] else (0, 0))
    walks = []
    walk_of = {}                 # keyword: its vwalk word, as C (for gen_h)
    for i, (e, r, sid, fp, rq, sf) in enumerate(zip(c_entries, rules, syntax_ids, fast, reqs,
                                                    suffs)):
        comment = r[2].replace("*/", "* /")
        if len(comment) > 50:
            comment = comment[:47] + "..."
        nonzero = [k for k, x in enumerate(masks[rq]) if x]
        rw = nonzero[0] if len(nonzero) == 1 else "VREQ_WORDS"
        out.append("    {%d, %d, %d, %d, %d, %d, %d, %s, %d, %d, %d, %d},  /* %s: %s */" % (
            r[0], r[1], sid, fp[0], fp[1], fp[2], rq, rw, fp[3],
            hook_index[repr(fp[4])] if fp[4] else 0, sf[0], sf[1], e["keyword"], comment))
        walk = "%d" % bits.get(i, gen_dict.SUB_BIT_NONE)
        if e["kind"] != "b":
            walk += " | VR_STRUCTURED"
        if e["level"] in ("subfield", "reserved_subfield"):
            walk += " | VR_SUBFIELD"
        kind, param = fast_kind(r, fp, tables)
        walk += " | %s << VR_KIND_SHIFT" % kind
        if param:
            walk += " | " + param
        walks.append("    %s,  /* %s */" % (walk, e["keyword"]))
        walk_of[e["keyword"]] = walk
    out.append("};")
    out.append("")
    out.append("/* By dictionary id: sub_bit, structure, the value's fast path and")
    out.append(" * its parameter (gen_validate.py's fast_kind). */")
    out.append("const uint32_t vwalk[DICT_COUNT] = {")
    out.extend(walks)
    out.append("};")
    out.append("")
    out.append("const uint64_t vreq[][4] = {")
    for m in masks:
        out.append("    {%s}," % ", ".join("0x%016xu" % w for w in m))
    out.append("};")
    out.append("")
    out.append("const uint8_t vdfa_class[256] = {")
    out.append(gen_dict._wrap([str(x) for x in tables.cls]))
    out.append("};")
    out.append("")
    out.append("/* State 0 is dead; a rule's start state is in vrules. Each entry is")
    out.append(" * the next state's row offset, state x VDFA_STRIDE. */")
    out.append("const uint32_t vdfa_next[][VDFA_STRIDE] = {")
    for row in tables.trans:
        out.append("    {%s}," % ",".join(str(x * VDFA_STRIDE) for x in row))
    out.append("};")
    out.append("")
    out.append("const uint8_t vdfa_accept[] = {")
    out.append(gen_dict._wrap(["1" if a else "0" for a in tables.accept]))
    out.append("};")
    out.append("")
    out.append("/* 1 for the bytes of LIM_CHAR: the ADEXP character set but '-'. */")
    out.append("const uint8_t vlim_char[256] = {")
    out.append(gen_dict._wrap(["1" if b in CLASSES["LIM_CHAR"] else "0" for b in range(256)]))
    out.append("};")
    out.append("")
    out.append("const vterm vterms[] = {")
    for name in sorted(c.term_root):
        out.append("    {%s, %d}," % (gen_dict._c_string(name), c.term_root[name]))
    out.append("};")
    out.append("const unsigned vterm_count = %d;" % len(c.term_root))
    out.append("")
    return "\n".join(out), walk_of


c_entries = []


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--from-csv", metavar="DIR",
                    help="rebuild syntax.tsv from DIR/fields.csv and "
                         "DIR/auxiliary_terms.csv first")
    ap.add_argument("--syntax", default=DEFAULT_SYNTAX)
    ap.add_argument("--fields", default=gen_dict.DEFAULT_TSV)
    ap.add_argument("--out-c", default=DEFAULT_C)
    ap.add_argument("--out-h", default=DEFAULT_H)
    ap.add_argument("--check", action="store_true",
                    help="fail if the outputs on disk are not up to date")
    args = ap.parse_args(argv)
    if args.from_csv:
        write_syntax_tsv(rows_from_csv(args.from_csv), args.syntax)
    entries = gen_dict.read_tsv(args.fields)
    c_entries[:] = entries
    rows = apply_corrections(read_syntax_tsv(args.syntax))
    c, rules, (fast, tables) = build(rows, entries)
    if len(c.nodes) >= 0xFFFF or len(c.kids) >= 0xFFFF:
        raise SystemExit("too many nodes for uint16 ids")
    check_stride(tables)
    text_c, walk_of = gen_c(c, rules, fast, tables)
    outputs = [(args.out_h, gen_h(tables, walk_of)), (args.out_c, text_c)]
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
            gen_dict._write(path, text)
    if stale:
        sys.stderr.write("out of date: %s\n" % ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
