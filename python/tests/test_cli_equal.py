"""to_dict() against json.loads of adexp-parse's lines, on every test file,
on tricky bytes, and on random mutations of real messages (differential)."""
import os
import random

import adexp
from conftest import cli_dicts


def parse_dicts(path):
    data = open(path, "rb").read()
    return [m.to_dict() for m in adexp.parse(data, source=path)]


def test_every_testdata_file_equals_cli(files):
    assert len(files) > 100
    for path in files:
        want = cli_dicts([path])
        assert [m.to_dict() for m in adexp.parse_files([path], errors="skip")] == want, path
        if want:                             # parse() refuses nothing
            assert parse_dicts(path) == want, path


def test_parse_files_equals_cli_on_all_files_at_once(files):
    want = cli_dicts(files)
    got = [m.to_dict() for m in adexp.parse_files(files, jobs=2, errors="skip")]
    assert got == want
    assert len(got) > 100


def test_big_file_in_pieces_equals_cli(files, tmp_path):
    """Every test file's bytes over and over, about 2 MB: parse_files(jobs=2)
    parses it in pieces side by side, whose messages (indexes, offsets,
    errors' lines and columns, none of them the piece's) come out as the
    CLI's and parse()'s, and its Messages outlive the iterator."""
    blob = b"\n".join(open(p, "rb").read() for p in files)
    big = tmp_path / "big.adexp"
    big.write_bytes(blob * (2_000_000 // len(blob) + 1))
    want = cli_dicts([str(big)])
    assert len(want) > 1000
    kept = list(adexp.parse_files([big], jobs=2))
    assert [m.to_dict() for m in kept] == want
    assert [m.to_dict() for m in adexp.parse_files([big], jobs=1)] == want
    assert parse_dicts(str(big)) == want


def test_parse_files_walks_directories_like_cli(root):
    dirs = [str(root / "testdata/messages"), str(root / "testdata/invalid")]
    want = cli_dicts(["--include", "*.adexp", *dirs])
    got = [m.to_dict() for m in
           adexp.parse_files(dirs, include="*.adexp", errors="skip")]
    assert got == want


def test_iter_file_equals_parse(files):
    for path in files:
        try:
            got = [m.to_dict() for m in adexp.iter_file(path)]
        except adexp.FileError:
            assert cli_dicts([path]) == [], path     # adexp-parse refuses it too
            continue
        assert got == parse_dicts(path), path


TRICKY = [
    b"-TITLE IFPL -ARCID A\xffB -COMMENT caf\xc3\xa9 \xe2\x82\xac \xed\xa0\x80 \xf0\x9f\x9b\xab\n",
    b"-TITLE SLC -COMMENT \"quoted\" back\\slash \x01\x02\x1f\x7f tab\there\r\n",
    b"-TITLE X -ARCID   spaced \t\r\n  out   -ADEP\n",
    b"-TITLE IFPL -BEGIN RTEPTS -PT -PTID A -END ADDR",
    b"-TITLE IFPL -MSGTXT (FPL-ABC-IS\n-A320/M-S/C\n-EDDM0800",
    b"-TITLE \xc0\xaf -\xc3\xa9 x -BEGIN \xff -END \xff",
    b"-TITLE A -B -C -D - -E -BEGIN -END",
    b"-TITLE IFPL -REFDATA -SENDER -FAC X -RECVR -FAC Y -SEQNUM 001 trailing",
]


def test_tricky_bytes_equal_cli():
    for data in TRICKY:
        want = cli_dicts(["-"], stdin=data)
        got = [m.to_dict() for m in adexp.parse(data)]
        assert got == want, data


def mutate(rng, data):
    b = bytearray(data)
    for _ in range(rng.randint(1, 12)):
        op = rng.random()
        i = rng.randrange(len(b) + 1)
        if op < 0.4 and b:
            b[min(i, len(b) - 1)] = rng.randrange(256)
        elif op < 0.7:
            b[i:i] = rng.choice([b"-", b" -BEGIN ", b" -END ", b"(", b")", b"\r\n",
                                 b"\xff", b"\xc3\xa9", b"-TITLE ", b"\x00"])
        elif b:
            del b[i:i + rng.randint(1, 40)]
    return bytes(b)


def test_random_mutations_equal_cli(files, tmp_path):
    rng = random.Random(18)
    seeds = [open(p, "rb").read() for p in files if os.path.getsize(p) > 0]
    paths = []
    for n in range(300):
        p = tmp_path / f"m{n:04d}.adexp"
        p.write_bytes(mutate(rng, rng.choice(seeds)))
        paths.append(str(p))
    want = cli_dicts(paths)
    got = [m.to_dict() for m in adexp.parse_files(paths, errors="skip")]
    assert got == want
    assert len(got) > 200
