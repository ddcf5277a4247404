"""parse_files and iter_file on every kind of input adexp-parse reads: the
same messages (source, index, title, fields, errors: to_dict() against
json.loads of adexp-parse's lines), in the same order, from files,
directories, globs, file objects, streams, .gz, .zst, .xz, .bz2, .tar.gz
and .zip; the same failures, raised in place or skipped."""
import bz2
import errno
import gzip
import io
import lzma
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

import adexp
from conftest import ADEXP_PARSE, cli_dicts


@pytest.fixture()
def tree(root, tmp_path):
    """A copy of testdata/messages (the .adexp files), sorted names."""
    src = root / "testdata/messages"
    d = tmp_path / "messages"
    d.mkdir()
    for p in sorted(src.glob("*.adexp")):
        shutil.copy(p, d / p.name)
    return d


@pytest.fixture()
def joined(tree, tmp_path):
    """All of the tree's messages in one file."""
    p = tmp_path / "all.adexp"
    p.write_bytes(b"\n".join(f.read_bytes() for f in sorted(tree.iterdir())))
    return p


def dicts(inputs, **kw):
    return [m.to_dict() for m in adexp.parse_files(inputs, **kw)]


def same(paths, **kw):
    want = cli_dicts([str(p) for p in paths])
    got = dicts([str(p) for p in paths], **kw)
    assert len(want) > 10
    assert got == want


def test_directory(tree):
    same([tree])
    same([tree], jobs=1)


def test_gzip(joined, tmp_path):
    gz = tmp_path / "all.adexp.gz"
    gz.write_bytes(gzip.compress(joined.read_bytes()))
    same([gz])
    assert [m.to_dict() for m in adexp.iter_file(gz)] == cli_dicts([str(gz)])


@pytest.mark.parametrize("ext,pack", [
    ("xz", lzma.compress),
    ("bz2", bz2.compress),
    ("zst", lambda data: subprocess.run(["zstd", "-q", "-c"], input=data,
                                        capture_output=True, check=True).stdout),
])
def test_other_compressions(joined, tmp_path, ext, pack):
    if ext == "zst" and not shutil.which("zstd"):
        pytest.skip("no zstd to make the file")
    p = tmp_path / f"all.adexp.{ext}"
    p.write_bytes(pack(joined.read_bytes()))
    same([p])


def test_tar_gz(tree, tmp_path):
    t = tmp_path / "messages.tar.gz"
    with tarfile.open(t, "w:gz") as tf:
        for p in sorted(tree.iterdir()):
            tf.add(p, arcname=p.name)
    same([t])
    got = list(adexp.parse_files([t]))
    assert got[0].source == f"{t}:{sorted(tree.iterdir())[0].name}"


def test_zip(tree, tmp_path):
    z = tmp_path / "messages.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        for p in sorted(tree.iterdir()):
            zf.write(p, arcname=p.name)
    same([z])


def test_glob(tree):
    want = cli_dicts(sorted(str(p) for p in tree.glob("I*.adexp")))
    assert dicts([str(tree / "I*.adexp")]) == want
    assert len(want) > 3


def test_file_objects_and_streams(joined, tmp_path):
    data = joined.read_bytes()
    want = cli_dicts(["-"], stdin=data)
    with open(joined, "rb") as f:          # its descriptor, read as the file named
        assert [dict(d, source="-") for d in dicts([f])] == want
    with open(joined, "rb") as f:
        f.read(1)
        f.seek(0)                          # read from where the object is
        assert len(dicts([f])) == len(want)
    assert dicts([io.BytesIO(data)]) == want       # no descriptor: its bytes
    assert dicts([io.BytesIO(gzip.compress(data))]) == want
    p = subprocess.Popen(["cat", str(joined)], stdout=subprocess.PIPE)
    try:
        assert dicts([p.stdout]) == want   # a pipe: read as it comes
    finally:
        p.stdout.close()
        p.wait()
    assert [d["index"] for d in dicts([io.BytesIO(data)])] == list(range(len(want)))


def test_big_file_object_across_workers(joined, tmp_path):
    """A regular file object at its start over 1 MiB, read with jobs=2 (as
    its path is: mapped, cut across the workers): its path's messages, in
    order, and the object left read to its end."""
    big = tmp_path / "big.adexp"
    data = joined.read_bytes()
    big.write_bytes(data * (2 * (1 << 20) // len(data) + 1))
    want = cli_dicts([str(big)])
    with open(big, "rb") as f:
        assert dicts([f], jobs=2) == want
        assert f.read() == b""


def test_failures_in_place(tree, tmp_path):
    (tmp_path / "empty.adexp").write_bytes(b"")
    (tmp_path / "bad.gz").write_bytes(gzip.compress(b"-TITLE IFPL -ARCID X\n")[:-6])
    inputs = [str(tmp_path / "empty.adexp"), str(tree), str(tmp_path / "bad.gz"),
              str(tmp_path / "missing")]
    r = subprocess.run([ADEXP_PARSE, "-q", *inputs], capture_output=True)
    cli_failed = [line.split(": error: ")[0] for line in r.stderr.decode().splitlines()
                  if ": error: " in line and line.split(": error: ")[0] in inputs]
    assert dicts(inputs, errors="skip") == cli_dicts(inputs)   # nothing else left out
    it = adexp.parse_files(inputs)
    failed, n = [], 0
    while True:
        try:
            next(it)
            n += 1
        except adexp.FileError as e:
            failed.append(e.filename)
            assert e.strerror in r.stderr.decode()
        except StopIteration:
            break
    assert failed == cli_failed == [inputs[0], inputs[2], inputs[3]]
    assert n == len(cli_dicts(inputs))
    with pytest.raises(adexp.FileError) as e:
        list(adexp.parse_files([inputs[3]]))
    assert e.value.errno == errno.ENOENT


def test_consumer_that_stops(tmp_path):
    """A consumer that drops the iterator early stops the batch (waiting in
    its window) and frees it; a whole big input still comes through."""
    p = tmp_path / "big.adexp"
    p.write_bytes(b"-TITLE IFPL -ARCID ABC -ADEP EDDM -ADES EDDH\n" * 200000)
    it = adexp.parse_files([p] * 20, jobs=2)
    assert next(it).index == 0
    del it
    assert sum(1 for _ in adexp.parse_files([p], jobs=2)) == 200000


def test_exit_with_a_live_iterator(tmp_path):
    """The batch of an iterator still alive at exit stops first: the
    interpreter exits cleanly, whatever its threads were doing."""
    p = tmp_path / "big.adexp"
    p.write_bytes(b"-TITLE IFPL -ARCID ABC -ADEP EDDM -ADES EDDH\n" * 100000)
    code = (f"import adexp\nit = adexp.parse_files([{str(p)!r}] * 30, jobs=2)\n"
            "next(it)\nkept = [it]\n")
    for _ in range(3):
        r = subprocess.run([sys.executable, "-c", code], capture_output=True)
        assert r.returncode == 0, r.stderr
