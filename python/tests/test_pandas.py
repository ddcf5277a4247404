"""to_pandas: one row per message, the fields asked for."""
import pandas

import adexp
from conftest import cli_dicts


def first_value(d, keyword):
    for f in d["fields"]:
        if f["name"] == keyword and "fields" not in f and "items" not in f:
            return f["value"]
    return None


def test_to_pandas_from_paths_equals_cli(root):
    d = str(root / "testdata/messages")
    df = adexp.to_pandas([d], fields=["ARCID", "ADEP"])
    assert isinstance(df, pandas.DataFrame)
    assert list(df.columns) == ["source", "index", "title", "ARCID", "ADEP", "errors"]
    want = cli_dicts([d])
    assert len(df) == len(want)
    assert list(df["source"]) == [w["source"] for w in want]
    assert [None if pandas.isna(t) else t for t in df["title"]] == [w["title"] for w in want]
    assert list(df["index"]) == [w["index"] for w in want]
    assert [pandas.isna(e) for e in df["errors"]] == [not w["errors"] for w in want]
    got = [None if pandas.isna(v) else v for v in df["ARCID"]]
    assert got == [first_value(w, "ARCID") for w in want]


def test_to_pandas_from_messages_and_defaults():
    ms = adexp.parse(b"-TITLE IFPL -ARCID A1 -ADEP EDDM -TITLE ACK -ARCID A2")
    df = adexp.to_pandas(ms)
    assert list(df.columns)[3:-1] == list(adexp.DEFAULT_FIELDS)
    assert df.to_dict("records")[0]["ARCID"] == "A1" and len(df) == 2
    assert len(adexp.to_pandas(iter(ms))) == 2
    assert len(adexp.to_pandas([])) == 0
