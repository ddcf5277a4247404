"""The Python API: Message, Field, Error, FileError, argument checks, order."""
import gc
import os
import threading

import pytest

import adexp

TEXT = (b"-TITLE IFPL -ARCID DLH66T -ADEP EDDM -ADES EDDH -EOBT 0746\n"
        b"-BEGIN RTEPTS -PT -PTID EDDM -FL F000 -ETO 181023074600\n"
        b"              -PT -PTID INPUD -FL F280 -ETO 181023075900 -END RTEPTS\n"
        b"-TITLE ACK -ARCID DLH66T -MSGTXT (FPL-DLH66T-IS -A343/H-SDFG/S -EDDM0746)\n"
        b"-TITLE REJ -ARCID X -BEGIN ADDR -FAC A\n")


def test_messages_and_fields():
    ms = adexp.parse(TEXT)
    assert [m.title for m in ms] == ["IFPL", "ACK", "REJ"]
    assert [m.index for m in ms] == [0, 1, 2]
    m = ms[0]
    assert m.source == "-" and m.offset == 0 and m.ok and m.errors == []
    assert m["ARCID"] == "DLH66T" and m.get("ADES") == "EDDH"
    assert m.get("NOPE") is None and m.get("NOPE", "x") == "x"
    assert "ARCID" in m and "NOPE" not in m
    with pytest.raises(KeyError):
        m["NOPE"]
    with pytest.raises(KeyError):
        m["RTEPTS"]                        # a list, not a basic field
    kinds = [(f.keyword, f.kind) for f in m.fields]
    assert kinds[0] == ("TITLE", "basic") and ("RTEPTS", "list") in kinds
    rtepts = next(f for f in m.fields if f.keyword == "RTEPTS")
    assert rtepts.value is None and len(rtepts.children) == 2
    pt = rtepts.children[1]
    assert pt.kind == "compound" and pt["PTID"] == "INPUD"
    assert [c.keyword for c in pt.children] == ["PTID", "FL", "ETO"]
    assert TEXT[pt.offset:pt.offset + 3] == b"-PT"
    assert pt.children[0].unknown is False and pt.children[0].raw == b"INPUD"
    assert m.view["arcid"] == "DLH66T"
    assert m.view["rtepts"][1] == {"ptid": "INPUD", "fl": "F280", "fl_ft": 28000,
                                  "eto": "181023075900", "eto_utc": "2018-10-23T07:59:00Z"}
    assert "INPUD" in repr(pt.children[0]) and "IFPL" in repr(m)


def test_envelope_form():
    """The envelope says the form it came in: ITA-2 (ZCZC ... NNNN),
    IA-5 (SOH ... STX ... VT ETX) or bare lines (address and origin lines
    alone); unframed messages have none."""
    ms = adexp.parse(b"ZCZC AAA001\nFF LKPREPWC\n170001 EUCHZMFP\n-TITLE CNL -ARCID A1\nNNNN\n"
                     b"\x01AAA002\r\nFF LKPREPWC\r\n170002 EUCHZMFP\r\n\x02-TITLE CNL -ARCID A2"
                     b"\r\n\x0b\x03-TITLE CNL -ARCID A3\n"
                     b"GG EDDFZQZX\n170003 EUCHZMFP\n-TITLE CNL -ARCID A4\n")
    assert [m.envelope and m.envelope["form"] for m in ms] == ["ita2", "ia5", None, "bare"]
    assert ms[1].to_dict()["envelope"]["form"] == "ia5"
    assert ms[2].fields[-1].value == "A3"
    assert ms[3].envelope["transmission_id"] is None and ms[3].envelope["priority"] == "GG"
    assert not any(m.errors for m in ms)


def test_errors_are_objects():
    rej = adexp.parse(TEXT)[2]
    assert not rej.ok and rej.error_count == 1
    e = rej.errors[0]
    assert isinstance(e, adexp.Error)
    assert e.code == "LIST_UNCLOSED" and e.line == 5 and e.column >= 1
    assert e.offset >= rej.offset and e.message
    assert rej.to_dict()["errors"][0] == {"code": e.code, "message": e.message,
                                         "line": e.line, "column": e.column,
                                         "offset": e.offset}


def test_fields_outlive_their_message():
    f = adexp.parse(bytes(TEXT))[0].fields[1]
    gc.collect()
    assert f.keyword == "ARCID" and f.value == "DLH66T"


def test_str_bytearray_memoryview_and_source():
    for data in (TEXT.decode(), bytearray(TEXT), memoryview(TEXT)):
        assert [m.to_dict() for m in adexp.parse(data, source="x")] == \
               [m.to_dict() for m in adexp.parse(TEXT, source="x")]
    assert adexp.parse(TEXT, source="feed")[0].to_dict()["source"] == "feed"
    assert adexp.parse(b"") == [] and adexp.parse("") == []


def test_limits():
    deep = b"-TITLE X " + b"-BEGIN A " * 10 + b"-END A " * 10
    [m] = adexp.parse(deep, max_depth=4)
    assert m.errors[0].code == "DEPTH_LIMIT"
    [m] = adexp.parse(b"-TITLE X -A 1 -B 2 -C 3", max_fields=2)
    assert m.errors[0].code == "FIELD_LIMIT"
    [m] = adexp.parse(b"-TITLE X -END A -END B -END C", max_errors=1)
    assert len(m.errors) == 1 and m.error_count == 3


@pytest.mark.parametrize("call, exc", [
    (lambda: adexp.parse(123), TypeError),
    (lambda: adexp.parse(None), TypeError),
    (lambda: adexp.parse(b"", source=1), TypeError),
    (lambda: adexp.parse(b"", bogus=1), TypeError),
    (lambda: adexp.parse(b"", max_depth="4"), TypeError),
    (lambda: adexp.parse(b"", max_depth=True), TypeError),
    (lambda: adexp.parse(b"", max_depth=0), ValueError),
    (lambda: adexp.parse(b"", max_fields=-1), ValueError),
    (lambda: adexp.parse(b"", max_errors=2 ** 40), ValueError),
    (lambda: adexp.parse(b"", max_errors=0), ValueError),
    (lambda: adexp.parse(b"", max_depth=1025), ValueError),
    (lambda: adexp.parse("\ud800"), ValueError),
    (lambda: adexp.parse_files("one/path"), TypeError),
    (lambda: adexp.parse_files([1]), TypeError),
    (lambda: adexp.parse_files([], jobs=0), ValueError),
    (lambda: adexp.parse_files([], jobs="2"), TypeError),
    (lambda: adexp.parse_files([], errors="ignore"), ValueError),
    (lambda: adexp.parse_files([], nope=1), TypeError),
    (lambda: adexp.iter_file(3), TypeError),
    (lambda: adexp.parse(TEXT)[0][1], TypeError),
    (lambda: adexp.parse(TEXT)[0].get(), TypeError),
    (lambda: adexp.to_pandas([], fields="ARCID"), TypeError),
    (lambda: adexp.to_pandas([], rows=-1), TypeError),
    (lambda: adexp.to_pandas([], fields=["ARCDI"]), ValueError),
])
def test_bad_arguments(call, exc):
    with pytest.raises(exc):
        call()


def test_file_errors(tmp_path):
    empty = tmp_path / "empty.adexp"
    empty.write_bytes(b"")
    good = tmp_path / "good.adexp"
    good.write_bytes(TEXT)
    missing = str(tmp_path / "missing.adexp")
    with pytest.raises(adexp.FileError) as e:
        list(adexp.parse_files([str(good), missing]))
    assert e.value.filename == missing and isinstance(e.value, OSError)
    with pytest.raises(adexp.FileError, match="empty file"):
        list(adexp.iter_file(empty))
    with pytest.raises(adexp.FileError):
        list(adexp.parse_files([str(tmp_path)]) if False else adexp.iter_file(tmp_path))
    got = list(adexp.parse_files([missing, str(good), str(empty), str(good)], errors="skip"))
    assert [m.title for m in got] == ["IFPL", "ACK", "REJ"] * 2
    it = adexp.parse_files([missing, str(good)])
    with pytest.raises(adexp.FileError):
        next(it)
    assert next(it).title == "IFPL"        # the iterator goes on past a failure


def test_parse_files_keeps_input_order(tmp_path):
    paths = []
    for n in range(300):
        p = tmp_path / f"{n:03d}.adexp"
        body = b"-TITLE IFPL -ARCID N%d " % n + b"-COMMENT x " * (n % 7 * 500)
        p.write_bytes(body)
        paths.append(p)
    for jobs in (1, 2, 5):
        got = [m["ARCID"] for m in adexp.parse_files(reversed(paths), jobs=jobs)]
        assert got == [f"N{n}" for n in reversed(range(300))]


def test_parse_files_abandoned_and_in_threads(tmp_path):
    p = tmp_path / "a.adexp"
    p.write_bytes(TEXT * 200)
    it = adexp.parse_files([str(p)] * 50, jobs=3)
    next(it)
    del it                                  # workers stop, memory is freed
    out = {}

    def run(k):
        out[k] = sum(1 for _ in adexp.parse_files([str(p)] * 20, jobs=2))

    threads = [threading.Thread(target=run, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == {k: 20 * 600 for k in range(3)}


def test_expand_paths_skips_hidden(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "x.adexp").write_bytes(TEXT)
    (tmp_path / ".hidden.adexp").write_bytes(TEXT)
    (tmp_path / "a.adexp").write_bytes(TEXT)
    (tmp_path / "c.txt").write_bytes(TEXT)
    got = list(adexp.expand_paths([str(tmp_path)], include="*.adexp"))
    assert got == [os.path.join(tmp_path, "a.adexp"), os.path.join(tmp_path, "b", "x.adexp")]
