"""Any bytes at all give messages with errors: never a crash, a hang or a
leak. Random bytes, hostile shapes, and memory that must not grow."""
import random

import pytest

import adexp
from conftest import UNDER_ASAN


def walk(fields):
    for f in fields:
        (f.keyword, f.value, f.kind, f.offset, f.unknown, f.raw, repr(f))
        walk(f.children)


def use(messages):
    for m in messages:
        (m.title, m.errors, m.view, repr(m), m.get("ARCID"), "ARCID" in m)
        d = m.to_dict()
        # "envelope" only for a message that came in an AFTN envelope
        assert set(d) - {"envelope"} == {"source", "index", "offset", "title", "fields", "errors"}
        assert ("envelope" in d) == (m.envelope is not None)
        walk(m.fields)


def test_random_bytes():
    rng = random.Random(1818)
    alphabet = b"-- ()\n\r\t\x00\xff\xc3ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/BEGINENDTITLE"
    for n in range(400):
        size = rng.choice([0, 1, 2, 7, 64, 1000, 20000])
        if n % 2:
            data = bytes(rng.randrange(256) for _ in range(size))
        else:
            data = bytes(rng.choice(alphabet) for _ in range(size))
        use(adexp.parse(data))


HOSTILE = [
    b"-TITLE X " + b"-BEGIN A " * 5000,                 # deeper than max_depth
    b"-TITLE X " + b"-END A " * 5000,
    b"-TITLE X " + b"-A -B " * 20000,                   # compounds in compounds
    b"-TITLE X -MSGTXT " + b"(" * 50000,                # text never closed
    b"-TITLE X -MSGTXT " + b"(" * 5000 + b")" * 5000,
    b"-" + b"K" * 100000 + b" v",                       # keyword over the limit
    b"-TITLE " + b"\x00" * 10000,
    b"-" * 100000,
    b"- " * 50000,
    b"-TITLE X " * 20000,                               # many messages
    b"-TITLE X -BEGIN L " + b"-I 1 " * 120000 + b"-END L",   # over max_list_items
    bytes(range(256)) * 200,
    b"\xef\xbb\xbf-TITLE IFPL -ARCID BOM",
]


@pytest.mark.parametrize("data", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_shapes(data):
    ms = adexp.parse(data)
    use(ms)
    assert ms == [] or any(m.errors for m in ms) or ms[0].title is not None


def test_small_limits_on_hostile_input():
    for data in HOSTILE:
        use(adexp.parse(data, max_depth=2, max_fields=10, max_list_items=3,
                        max_keyword_len=4, max_errors=1, max_message_size=100))


def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4


@pytest.mark.skipif(UNDER_ASAN, reason="ASan's quarantine holds freed memory")
def test_memory_does_not_grow(tmp_path):
    data = b"".join(HOSTILE[:5]) + open(__file__, "rb").read()
    p = tmp_path / "h.adexp"
    p.write_bytes(b"-TITLE X -ARCID Y " * 1000 + data[:20000])

    def round_():
        use(adexp.parse(data[:200000]))
        for m in adexp.parse_files([str(p)] * 4, jobs=2):
            m.to_dict()
        list(adexp.iter_file(str(p)))

    # malloc's per-thread arenas and fragmentation settle within the first
    # rounds; a leak goes on growing: compare the last ten rounds' growth.
    for _ in range(5):
        round_()
    for _ in range(10):
        round_()
    mid = rss_kib()
    for _ in range(10):
        round_()
    assert rss_kib() - mid < 4096, "memory grew by more than 4 MiB in ten rounds"
