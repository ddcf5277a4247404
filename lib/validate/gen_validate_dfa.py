"""The fast path of validation: each field's value expression, with the
ranges of its terms, compiled into one minimal DFA over byte classes
(used by gen_validate.py). A value the DFA accepts is valid; only a value
it rejects goes to the backtracking matcher, which says why.

The ranges here (RANGES) are the same as the C checks of
lib/validate/validate_match.c, written as expressions: validate_test.c checks that
the DFA and the matcher agree on generated values of every rule, each changed
at one byte, and on every value of EOBT, EOBD and many of LATTD and LONGTD.
They differ only on a value that starts with a separator and whose first
part may be absent (the DFA skips the separators there); the parser never
gives such a value (fuzz_validate checks it).
"""

DIGIT = set(b"0123456789")


def _chars(s):
    return ("set", frozenset(ord(ch) for ch in s))


def _lits(words):
    return ("alt", [("lit", w) for w in sorted(words)])


def _days(year_leap):
    days = [31, 29 if year_leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return {"%02d%02d" % (m, d) for m in range(1, 13) for d in range(1, days[m - 1] + 1)}


def _date(leap_years, year_digits):
    """year ! month ! day whose day exists; leap_years: the years (as
    strings) with a 29 February."""
    any_year = ("cat", [("set", frozenset(DIGIT))] * year_digits)
    return ("alt", [("cat", [any_year, _lits(_days(False))]),
                    ("cat", [_lits(leap_years), ("lit", "0229")])])


def _angle(deg_max, deg_digits, mn, sn):
    """deg_digits degrees at most deg_max, then mn and sn digits of minutes
    and seconds at most 59 (0 or 2 each), deg_max itself only with zeros."""
    below = ["%0*d" % (deg_digits, d) for d in range(deg_max)]
    parts = [_lits(below)]
    for n in (mn, sn):
        if n:
            parts += [_chars("012345"), ("set", frozenset(DIGIT))]
    top = ("lit", "%0*d" % (deg_digits, deg_max) + "0" * (mn + sn))
    return ("alt", [("cat", parts), top])


RANGES = {
    "HOOK_HHMM": lambda: ("cat", [_lits(["%02d" % h for h in range(24)]),
                                  _chars("012345"), ("set", frozenset(DIGIT))]),
    "HOOK_MONTH": lambda: _lits(["%02d" % m for m in range(1, 13)]),
    "HOOK_DAY": lambda: _lits(["%02d" % d for d in range(1, 32)]),
    # two-digit years as adexp_decode_date reads them: 00-69 are 20xx
    "HOOK_DATE": lambda: _date(["%02d" % y for y in range(100)
                                if _leap(2000 + y if y < 70 else 1900 + y)], 2),
    "HOOK_FULLDATE": lambda: _date(["%04d" % y for y in range(10000) if _leap(y)], 4),
    "HOOK_LAT_DMS": lambda: _angle(90, 2, 2, 2),
    "HOOK_LONG_DMS": lambda: _angle(180, 3, 2, 2),
    "HOOK_LAT_DM": lambda: _angle(90, 2, 2, 0),
    "HOOK_LONG_DM": lambda: _angle(180, 3, 2, 0),
    "HOOK_LAT_D": lambda: _angle(90, 2, 0, 0),
    "HOOK_LONG_D": lambda: _angle(180, 3, 0, 0),
    "HOOK_DEGREES": lambda: _angle(360, 3, 0, 0),
}


def _leap(y):
    return (y % 4 == 0 and y % 100 != 0) or y % 400 == 0


class NFA:
    def __init__(self):
        self.eps = []
        self.moves = []            # per state: [(frozenset bytes, target)]

    def state(self):
        self.eps.append([])
        self.moves.append([])
        return len(self.eps) - 1


SEPS = frozenset(b" \r\n\t")


class Builder:
    """Thompson's construction from the expression trees of gen_validate,
    terms resolved through resolve(name) -> (tree, hook or None)."""

    def __init__(self, resolve, nullable, classes):
        self.resolve = resolve
        self.classes = classes
        self.nullable = nullable
        self.n = NFA()

    def frag(self, t):
        n = self.n
        op = t[0]
        if op == "class":
            t, op = ("set", self.classes[t[1]]), "set"
        s = n.state()
        if op == "set":
            e = n.state()
            n.moves[s].append((frozenset(t[1]), e))
            return s, e
        if op == "lit":
            cur = s
            for ch in t[1].encode("latin-1"):
                nxt = n.state()
                n.moves[cur].append((frozenset([ch]), nxt))
                cur = nxt
            return s, cur
        if op in ("nil", "empty"):
            return s, s
        if op == "ref":
            tree, hook = self.resolve(t[1])
            return self.frag(RANGES[hook]() if hook else tree)
        if op == "cat":
            cur = s
            for sub in t[1]:
                a, b = self.frag(sub)
                n.eps[cur].append(a)
                cur = b
            return s, cur
        if op == "alt":
            e = n.state()
            for sub in t[1]:
                a, b = self.frag(sub)
                n.eps[s].append(a)
                n.eps[b].append(e)
            return s, e
        if op == "rep":
            _, lo, hi, sub = t
            cur = s
            for _i in range(lo):
                a, b = self.frag(sub)
                n.eps[cur].append(a)
                cur = b
            if hi is None:
                a, b = self.frag(sub)
                n.eps[cur].append(a)
                n.eps[b].append(cur)
                e = n.state()
                n.eps[cur].append(e)
                return s, e
            e = n.state()
            for _i in range(hi - lo):
                n.eps[cur].append(e)
                a, b = self.frag(sub)
                n.eps[cur].append(a)
                cur = b
            n.eps[cur].append(e)
            return s, e
        if op == "seq":
            return self.seq(s, t[1])
        raise SystemExit("dfa: cannot build %r" % (t,))

    def seq(self, s, parts):
        """Separators between the parts present: the first part present
        starts at once, each later one after one or more separators."""
        n = self.n
        e = n.state()
        for k, first in enumerate(parts):
            if k and not self.nullable(parts[k - 1]):
                break
            a, cur = self.frag(first)
            # parts before k are all absent (nullable): skip them
            n.eps[s].append(a)
            for later in parts[k + 1:]:
                sep1, sep2 = n.state(), n.state()
                n.moves[cur].append((SEPS, sep1))
                n.moves[sep1].append((SEPS, sep1))
                n.eps[sep1].append(sep2)
                a, b = self.frag(later)
                n.eps[sep2].append(a)
                join = n.state()
                n.eps[b].append(join)
                if self.nullable(later):
                    n.eps[cur].append(join)
                cur = join
            n.eps[cur].append(e)
        if all(self.nullable(p) for p in parts):
            n.eps[s].append(e)
        return s, e


def _closure(nfa, states):
    stack, seen = list(states), set(states)
    while stack:
        for t in nfa.eps[stack.pop()]:
            if t not in seen:
                seen.add(t)
                stack.append(t)
    return frozenset(seen)


def byte_classes(sets):
    """A partition of 0..255 refined by every set: class id per byte."""
    key = {b: () for b in range(256)}
    for i, st in enumerate(sorted(sets, key=lambda x: sorted(x))):
        for b in range(256):
            key[b] = key[b] + ((b in st),)
    ids, cls = {}, [0] * 256
    for b in range(256):
        cls[b] = ids.setdefault(key[b], len(ids))
    return cls, len(ids)


def determinize(nfa, start, end, cls, ncls):
    reps = [cls.index(c) for c in range(ncls)]
    d0 = _closure(nfa, [start])
    index, order, trans = {d0: 0}, [d0], []
    i = 0
    while i < len(order):
        cur = order[i]
        row = []
        for c in range(ncls):
            b = reps[c]
            nxt = [t for s in cur for (bs, t) in nfa.moves[s] if b in bs]
            if not nxt:
                row.append(-1)
                continue
            d = _closure(nfa, nxt)
            if d not in index:
                index[d] = len(order)
                order.append(d)
            row.append(index[d])
        trans.append(row)
        i += 1
    accept = [end in d for d in order]
    return trans, accept


def minimize(trans, accept, ncls):
    """Moore's partition refinement; state 0 stays the start."""
    part = [1 if a else 0 for a in accept]
    while True:
        sig = {}
        new = []
        for s in range(len(trans)):
            key = (part[s],) + tuple(part[t] if t >= 0 else -1 for t in trans[s])
            new.append(sig.setdefault(key, len(sig)))
        if len(sig) == len(set(part)):
            break
        part = new
    # renumber so that the start's block is 0
    order, ren = [], {}
    for s in [0] + list(range(len(trans))):
        if part[s] not in ren:
            ren[part[s]] = len(order)
            order.append(s)
    mtrans = [[ren[part[t]] if t >= 0 else -1 for t in trans[s]] for s in order]
    macc = [accept[s] for s in order]
    return mtrans, macc


def collect_sets(tree, resolve, out, seen_terms, classes):
    op = tree[0]
    if op == "class":
        out.add(frozenset(classes[tree[1]]))
    elif op == "set":
        out.add(frozenset(tree[1]))
    elif op == "lit":
        for ch in tree[1].encode("latin-1"):
            out.add(frozenset([ch]))
    elif op == "ref":
        if tree[1] in seen_terms:
            return
        seen_terms.add(tree[1])
        sub, hook = resolve(tree[1])
        collect_sets(RANGES[hook]() if hook else sub, resolve, out, seen_terms, classes)
    elif op in ("cat", "alt", "seq"):
        for t in tree[1]:
            collect_sets(t, resolve, out, seen_terms, classes)
    elif op == "rep":
        collect_sets(tree[3], resolve, out, seen_terms, classes)


class Tables:
    """All the rules' DFAs in one table: state 0 is the dead state."""

    def __init__(self, cls, ncls):
        self.cls, self.ncls = cls, ncls
        self.trans = [[0] * ncls]
        self.accept = [False]
        self.memo = {}

    def add(self, key, build):
        if key in self.memo:
            return self.memo[key]
        trans, accept = build()
        base = len(self.trans)
        for row in trans:
            self.trans.append([base + t if t >= 0 else 0 for t in row])
        self.accept.extend(accept)
        self.memo[key] = base
        if len(self.trans) >= 0xFFFF:
            raise SystemExit("dfa: too many states")
        return base


def compile_rule(tables, tree, resolve, nullable, classes):
    b = Builder(resolve, nullable, classes)
    s, e = b.frag(tree)
    trans, accept = determinize(b.n, s, e, tables.cls, tables.ncls)
    return minimize(trans, accept, tables.ncls)
