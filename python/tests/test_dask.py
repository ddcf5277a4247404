"""adexp.dask on a distributed.LocalCluster of two worker processes, against
adexp-parse on the same files: same messages, same order after sorting by
source and index."""
import pathlib

import pandas
import pytest

import adexp
import adexp.dask
from conftest import cli_dicts

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        assert len(c.scheduler_info()["workers"]) == 2
        yield c


def key(d):
    return (d["source"], d["index"])


def test_read_equals_cli(client, root):
    dirs = [str(root / "testdata/messages"), str(root / "testdata/invalid")]
    want = cli_dicts(["--include", "*.adexp", *dirs])
    bag = adexp.dask.read(dirs, include="*.adexp", files_per_partition=16, errors="skip")
    assert bag.npartitions > 2
    got = bag.compute()
    assert sorted(got, key=key) == sorted(want, key=key)
    assert got == want                     # partitions keep the files' order
    assert len(got) > 100


def test_file_urls_and_globs(client, root):
    d = root / "testdata/messages"
    url = pathlib.Path(d).as_uri()
    got = adexp.dask.read([url], include="*.adexp", files_per_partition=32).compute()
    want = cli_dicts(["--include", "*.adexp", str(d)])
    assert [g["fields"] for g in got] == [w["fields"] for w in want]
    assert all(g["source"].startswith("file://") for g in got)
    n = adexp.dask.read(str(d / "IFPL-*.adexp")).count().compute()
    assert n == sum(1 for w in want if "/IFPL-" in w["source"])


def test_bag_over_parse_files(client, files):
    import dask.bag as db
    bag = db.from_sequence(files, npartitions=4).map_partitions(
        lambda fs: [m.to_dict() for m in adexp.parse_files(list(fs), errors="skip")])
    assert sorted(bag.compute(), key=key) == sorted(cli_dicts(files), key=key)


def test_to_dataframe(client, root):
    d = str(root / "testdata/messages")
    ddf = adexp.dask.to_dataframe([d], fields=["ARCID"], files_per_partition=20)
    df = ddf.compute()
    local = adexp.to_pandas([d], fields=["ARCID"])
    assert len(df) == len(local) == len(cli_dicts([d]))
    assert list(df["source"]) == list(local["source"])
    assert list(df["ARCID"].fillna("-")) == list(local["ARCID"].fillna("-"))


def test_to_dataframe_typed_meta_and_selection(client, root):
    d = str(root / "testdata/messages")
    sel = {"fields": ["ARCID", "ADEP", "RTEPTS.FL_ft", "RTEPTS.ETO_utc"], "rows": "RTEPTS",
           "titles": ["IFPL"], "validate": True}
    ddf = adexp.dask.to_dataframe([d], files_per_partition=7, include="*.adexp", **sel)
    local = adexp.to_pandas([d], include="*.adexp", **sel)
    assert ddf.npartitions > 2
    assert dict(ddf.dtypes.astype(str)) == dict(local.dtypes.astype(str))
    df = ddf.compute().reset_index(drop=True)
    pandas.testing.assert_frame_equal(df.astype(object), local.astype(object))
    with pytest.raises(ValueError, match="ARCDI"):
        adexp.dask.to_dataframe([d], fields=["ARCDI"])


def test_refused_file_raises(client, tmp_path):
    (tmp_path / "empty.adexp").write_bytes(b"")
    with pytest.raises(adexp.FileError):
        adexp.dask.read([str(tmp_path)]).compute()
    assert adexp.dask.read([str(tmp_path)], errors="skip").compute() == []


def test_to_dataframe_with_a_dictionary(client, root, tmp_path):
    ext = [str(root / "lib/dict/extensions/etfms.tsv")]
    (tmp_path / "sam.adexp").write_bytes(b"-TITLE SAM -ARCID AFR1234 -TTO -PTID VEULE -FL F300\n")
    sel = {"fields": ["ARCID", "TTO.PTID", "TTO.FL_ft"], "dictionary": ext, "validate": True}
    df = adexp.dask.to_dataframe([str(tmp_path)], **sel).compute()
    assert df[["TTO.PTID", "TTO.FL_ft"]].values.tolist() == [["VEULE", 30000]]
    assert df.astype(object).equals(adexp.to_pandas([str(tmp_path)], **sel).astype(object))
    with pytest.raises(TypeError, match="paths"):
        adexp.dask.to_dataframe([str(tmp_path)], dictionary=adexp.load_dictionary(ext))
