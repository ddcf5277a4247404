"""The libraries as installed define only the API: every global symbol of
the static archive and every dynamic symbol the shared library exports is an
adexp_ name, both give the same set, and it holds every function the public
headers declare (each marked ADEXP_API).

    usage: symbols_test.py NM LIBADEXP.A LIBADEXP.SO HEADER..."""
import re
import subprocess
import sys


def defined(nm, args, path):
    out = subprocess.run([nm, *args, "--defined-only", path], check=True,
                         capture_output=True, text=True).stdout
    # "ADDRESS TYPE NAME"; the archive's "member.o:" headers have one column
    return {f[2] for f in (line.split() for line in out.splitlines()) if len(f) == 3}


def declared(header):
    text = open(header, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)
    return set(re.findall(r"\b(adexp_\w+)\s*\(", text))


def main():
    nm, archive, shared, headers = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    failed = False

    def fail(what, names):
        nonlocal failed
        failed = True
        print(f"{what} ({len(names)}): {' '.join(sorted(names))}")

    in_archive = defined(nm, ["-g"], archive)
    in_shared = defined(nm, ["-D"], shared)
    api = set().union(*(declared(h) for h in headers))
    for name, syms in (("static", in_archive), ("shared", in_shared)):
        if not syms:
            fail(f"{name} library defines nothing", set())
        other = {s for s in syms if not s.startswith("adexp_")}
        if other:
            fail(f"{name} library: globals outside the API", other)
    for what, names in (("only in the static library", in_archive - in_shared),
                        ("only in the shared library", in_shared - in_archive),
                        ("declared in the headers but not exported (ADEXP_API missing?)",
                         api - in_shared),
                        ("exported but declared in no public header", in_shared - api)):
        if names:
            fail(what, names)
    if failed:
        return 1
    print(f"{len(in_archive)} symbols, all adexp_, the same in both libraries and the headers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
