"""adexp.dask on a distributed.LocalCluster of two worker processes, against
adexp-parse on the same files: same messages, same order after sorting by
source and index."""
import gzip
import hashlib
import json
import pathlib
import subprocess
import sys

import fsspec
import pandas
import pytest

import adexp
import adexp.dask
from conftest import ADEXP_PARSE, ROOT, adexp_files, cli_dicts

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
    (tmp_path / "sam.adexp").write_bytes(b"".join(
        b"-TITLE SAM -ARCID A%d -TTO -PTID P%d -FL F%03d\n" % (i, i, i) for i in range(300)))
    ddf = adexp.dask.to_dataframe([str(tmp_path)], blocksize=500, **sel)
    assert ddf.npartitions > 10
    df = ddf.compute().reset_index(drop=True)
    assert df.astype(object).equals(adexp.to_pandas([str(tmp_path)], **sel).astype(object))
    assert df["TTO.FL_ft"].tolist() == [i * 100 for i in range(300)]


# ---------------------------------------------------------------- blocksize

def line_digest(d):
    """The digest of adexp-parse's JSON line for d: for the generated corpus
    json.dumps writes the CLI's bytes, and the CLI's side is then hashed as
    it is, with no json.loads of 250 MB."""
    line = json.dumps(d, separators=(",", ":"), ensure_ascii=False).encode()
    return hashlib.sha1(line).hexdigest()


@pytest.fixture(scope="module")
def mixed(root, tmp_path_factory):
    """Every .adexp of testdata in one file: quoted messages (a cut's
    -TITLE in a text), AFTN envelopes, errors with lines and columns."""
    p = tmp_path_factory.mktemp("mixed") / "mixed.adexp"
    p.write_bytes(b"".join(open(f, "rb").read() for f in adexp_files()))
    return p


def test_blocksize_cuts_at_messages(client, mixed):
    want = cli_dicts([str(mixed)])
    bag = adexp.dask.read([str(mixed)], blocksize=200)
    assert bag.npartitions > 100            # many cuts, some inside a quoted message
    assert bag.compute() == want
    bag = adexp.dask.read([str(mixed)], blocksize="4KiB")
    assert 10 < bag.npartitions < 100
    assert bag.compute() == want


def test_blocksize_leaves_packed_files_whole(client, mixed, tmp_path):
    gz = tmp_path / "mixed.adexp.gz"
    gz.write_bytes(gzip.compress(mixed.read_bytes()))
    bag = adexp.dask.read([str(gz), str(mixed)], blocksize="8KiB", files_per_partition=1)
    assert bag.npartitions > 3
    assert bag.compute() == cli_dicts([str(gz), str(mixed)])
    assert adexp.dask.read([str(gz)], blocksize=100).npartitions == 1


def test_blocksize_through_fsspec(mixed):
    import dask
    want = cli_dicts([str(mixed)])
    url = mixed.as_uri()
    got = adexp.dask.read([url], blocksize="4KiB").compute(scheduler="threads")
    assert [dict(d, source=str(mixed)) for d in got] == want
    assert all(d["source"] == url for d in got)
    fs = fsspec.filesystem("memory")
    fs.pipe("/adexp-test/mixed.adexp", mixed.read_bytes())
    with dask.config.set(scheduler="threads"):     # memory:// lives in this process
        bag = adexp.dask.read(["memory://adexp-test/"], blocksize="4KiB")
        got = bag.compute()
    assert bag.npartitions > 10
    assert [dict(d, source=str(mixed)) for d in got] == want


@pytest.mark.parametrize("sel", [{}, {"rows": "RTEPTS", "validate": True,
                                     "fields": ["ARCID", "RTEPTS.PTID", "RTEPTS.ETO_utc"]}])
def test_to_dataframe_blocksize_equals_to_pandas(client, mixed, sel):
    """Ranges of one file made into tables: the whole file's rows, its
    indexes and the lines and columns in its errors cells."""
    local = adexp.to_pandas([str(mixed)], **sel)
    assert local["errors"].str.contains(" at ").sum() > 10
    for blocksize in (200, "4KiB"):
        ddf = adexp.dask.to_dataframe([str(mixed)], blocksize=blocksize, **sel)
        assert ddf.npartitions > 10
        assert dict(ddf.dtypes.astype(str)) == dict(local.dtypes.astype(str))
        df = ddf.compute().reset_index(drop=True)
        pandas.testing.assert_frame_equal(df.astype(object), local.astype(object))


def test_to_dataframe_blocksize_through_fsspec(mixed, monkeypatch):
    """Through fsspec, and with a range's tail read short at first (read
    again, longer, until the next message starts in it)."""
    import dask
    monkeypatch.setattr(adexp.dask, "_TAIL", 16)
    fs = fsspec.filesystem("memory")
    fs.pipe("/adexp-table/mixed.adexp", mixed.read_bytes())
    local = adexp.to_pandas([str(mixed)]).drop(columns="source")
    with dask.config.set(scheduler="threads"):     # memory:// lives in this process
        ddf = adexp.dask.to_dataframe(["memory://adexp-table/"], blocksize="4KiB")
        df = ddf.compute().reset_index(drop=True)
    assert ddf.npartitions > 10
    assert set(df["source"]) == {"memory://adexp-table/mixed.adexp"}
    pandas.testing.assert_frame_equal(df.drop(columns="source").astype(object),
                                      local.astype(object))


def test_big_file_spreads_over_workers(client, tmp_path):
    """About 100 MB in 16 MiB ranges: several partitions on two worker
    processes, adexp-parse's messages in order (their digests)."""
    one = tmp_path / "one.adexp"
    subprocess.run([sys.executable, str(ROOT / "testdata/gen_corpus.py"), "--messages",
                    "17000", "--out", str(one), "--seed", "7", "--bad-every", "97"],
                   check=True, capture_output=True)
    big = tmp_path / "big.adexp"
    with open(big, "wb") as out:
        for _ in range(4):
            out.write(one.read_bytes())
    assert big.stat().st_size > 90e6
    r = subprocess.run([ADEXP_PARSE, "-q", str(big)], capture_output=True)
    want = [hashlib.sha1(line).hexdigest() for line in r.stdout.splitlines()]
    bag = adexp.dask.read([str(big)], blocksize="16MiB")
    assert bag.npartitions >= 5
    got = bag.map(line_digest).compute()
    assert len(got) == len(want) == 68000
    assert got == want


def test_line_breaks_rule():
    """_line_breaks: LF, CRLF and a lone CR each one break, as the parser counts them."""
    import random
    rng = random.Random(5)
    for _ in range(2000):
        d = bytes(rng.choice(b"ab\r\n") for _ in range(rng.randrange(30)))
        end = rng.randrange(len(d) + 1)
        n = d.count(b"\n", 0, end) + d.count(b"\r", 0, end) - d.count(b"\r\n", 0, end)
        bol = max(d.rfind(b"\n", 0, end), d.rfind(b"\r", 0, end)) + 1
        assert adexp._adexp._line_breaks(d, end) == (n, bol), (d, end)
