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


def via_messages(paths, **kwargs):
    """The table filled from parse_files' Messages: the route that to_pandas
    on paths (rows written by the batch, no Message made) must equal."""
    from adexp import tables
    t = tables.table()
    t.add(adexp.parse_files(paths, **kwargs))
    return tables.frame(t)


def test_paths_and_messages_give_one_table(root, files):
    dirs = [str(root / "testdata/messages"), str(root / "testdata/invalid")]
    for jobs in (1, 2):
        got = adexp.to_pandas(dirs, jobs=jobs, errors="skip")
        pandas.testing.assert_frame_equal(got, via_messages(dirs, jobs=jobs, errors="skip"))
    assert len(got) > 100


def test_a_failed_input_raises_in_its_place(tmp_path):
    import pytest
    (tmp_path / "a.adexp").write_bytes(b"-TITLE IFPL -ARCID A1\n")
    (tmp_path / "b.adexp").write_bytes(b"")
    (tmp_path / "c.adexp").write_bytes(b"-TITLE IFPL -ARCID C1\n")
    (tmp_path / "d.adexp").write_bytes(b"\x7fELF\x00\x00")
    paths = [str(tmp_path / n) for n in ("a.adexp", "b.adexp", "c.adexp", "d.adexp")]
    with pytest.raises(adexp.FileError, match="empty file") as e:
        adexp.to_pandas(paths)
    assert e.value.filename == paths[1]
    with pytest.raises(adexp.FileError, match="binary file"):
        adexp.to_pandas([paths[0], paths[3], paths[2]])
    df = adexp.to_pandas(paths, errors="skip")
    assert df["ARCID"].tolist() == ["A1", "C1"]
    with open(paths[0], "rb") as f1, open(paths[2], "rb") as f2:   # streams: read once
        assert adexp.to_pandas([f1, f2])["ARCID"].tolist() == ["A1", "C1"]
    with open(paths[1], "rb") as f, pytest.raises(adexp.FileError, match="empty file"):
        adexp.to_pandas([paths[0], f])


def test_titles_on_paths_filter_and_warn(root):
    import warnings
    import pytest
    d = str(root / "testdata/messages")
    with pytest.warns(UserWarning, match="IFLP: no message of this title"):
        df = adexp.to_pandas([d], titles=["IFPL", "IFLP"], include="*.adexp")
    assert set(df["title"]) == {"IFPL"} and len(df) > 10
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(adexp.to_pandas([d], titles=["IFPL"], include="*.adexp")) == len(df)
