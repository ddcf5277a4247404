"""The same parse on a Dask cluster: a bag of message dicts, or a table.

    >>> import adexp.dask
    >>> bag = adexp.dask.read(["archive/2025-01/"], files_per_partition=64)
    >>> bag.pluck("title").frequencies().compute()

Files are read through fsspec, so local paths, file:// URLs and, where
their fsspec backends are installed, s3:// or hdfs:// URLs work the same.
Each partition is a group of whole files, parsed on the worker that runs
it (adexp must be installed there). Big files are not cut into pieces:
a file is the smallest unit of work. Each message is the dict that
Message.to_dict() gives, i.e. json.loads of adexp-parse's line for it,
with source the path or URL as listed.
"""
import fsspec

import adexp
from adexp import tables

__all__ = ["list_files", "read", "to_dataframe"]

_MAGIC = set("*?[")


def _rel_key(rel):
    # adexp-parse's walk order: depth first, names in byte order per level.
    return [part.encode("utf-8", "surrogateescape") for part in rel.split("/")]


def _files_of(url, storage_options, include):
    import fnmatch
    fs, path = fsspec.core.url_to_fs(url, **storage_options)
    if any(c in _MAGIC for c in path):
        found = sorted(fs.glob(path))
        return [fs.unstrip_protocol(p) if "://" in url else p for p in found]
    if not fs.isdir(path):
        return [url]
    root = path.rstrip("/")
    rels = []
    for p in fs.find(path):
        rel = p[len(root):].lstrip("/")
        parts = rel.split("/")
        if any(part.startswith(".") for part in parts):
            continue
        if include is not None and not fnmatch.fnmatchcase(parts[-1], include):
            continue
        rels.append(rel)
    rels.sort(key=_rel_key)
    base = url.rstrip("/")
    return [base + "/" + rel for rel in rels]


def list_files(paths_or_urls, *, storage_options=None, include=None):
    """The files that read() takes for paths_or_urls, in order: files as
    given, directories walked (hidden entries left out, names in byte order
    depth first, like adexp-parse), globs expanded and sorted."""
    if isinstance(paths_or_urls, str):
        paths_or_urls = [paths_or_urls]
    out = []
    for u in paths_or_urls:
        if not isinstance(u, str):
            raise TypeError(f"paths and URLs must be str, not {type(u).__name__}")
        out.extend(_files_of(u, storage_options or {}, include))
    return out


def _read_one(url, storage_options):
    with fsspec.open(url, "rb", **storage_options) as f:
        return f.read()


def _messages(urls, storage_options, errors, limits):
    """Messages of the partition's files, refused files as adexp-parse
    refuses them (adexp.FileError, or left out with errors='skip')."""
    for url in urls:
        try:
            data = _read_one(url, storage_options)
        except OSError as e:
            if errors == "skip":
                continue
            raise adexp.FileError(e.errno or 0, e.strerror or str(e), url) from e
        why = adexp._adexp._refuse_content(data)
        if why is not None:
            if errors == "skip":
                continue
            raise adexp.FileError(0, why, url)
        yield from adexp.parse(data, source=url, **limits)


def _dicts(urls, storage_options, errors, limits):
    return [m.to_dict() for m in _messages(urls, storage_options, errors, limits)]


def _frame(urls, storage_options, errors, limits, selection):
    """The typed table of the partition's files (adexp.tables)."""
    t = tables.table(*selection)
    dictionary = selection[4]
    if dictionary is not None:
        limits = dict(limits, dictionary=tables.load_dictionary(dictionary))
    t.add(_messages(urls, storage_options, errors, limits))
    return tables.frame(t)


def _check(files_per_partition, errors):
    if not isinstance(files_per_partition, int) or isinstance(files_per_partition, bool):
        raise TypeError("files_per_partition must be an int")
    if files_per_partition < 1:
        raise ValueError("files_per_partition must be >= 1")
    if errors not in ("raise", "skip"):
        raise ValueError("errors must be 'raise' or 'skip'")


def _partitions(paths_or_urls, files_per_partition, storage_options, include):
    files = list_files(paths_or_urls, storage_options=storage_options, include=include)
    return [files[i:i + files_per_partition]
            for i in range(0, len(files), files_per_partition)]


def read(paths_or_urls, *, files_per_partition=64, storage_options=None,
         include=None, errors="raise", **limits):
    """read(paths_or_urls, *, files_per_partition=64, storage_options=None,
    include=None, errors='raise', **limits) -> dask.bag.Bag

    A bag of message dicts (Message.to_dict()), one partition per
    files_per_partition files, in file order. storage_options go to
    fsspec; include is an fnmatch pattern for the names of files met in
    directories; limits as in adexp.parse().
    """
    import dask.bag as db
    _check(files_per_partition, errors)
    so = storage_options or {}
    parts = _partitions(paths_or_urls, files_per_partition, so, include)
    if not parts:
        return db.from_sequence([], npartitions=1)
    return db.from_sequence(parts, npartitions=len(parts)).map_partitions(
        lambda chunk: _dicts([u for group in chunk for u in group], so, errors, limits))


def to_dataframe(paths_or_urls, fields=None, rows=None, *, titles=None, validate=False,
                 dictionary=None, files_per_partition=64, storage_options=None, include=None,
                 errors="raise", **limits):
    """to_dataframe(paths_or_urls, fields=None, rows=None, *, titles=None,
    validate=False, dictionary=None, ...) -> dask.dataframe.DataFrame

    The table adexp.to_pandas() makes (the rows and cells of adexp-parse
    --format csv, typed), over the same files as read(), one partition per
    files_per_partition files; meta has the typed columns (categories
    unknown until computed). A bad or unknown field is a ValueError here,
    before any partition runs. dictionary: paths of extension files, which
    every worker must see at the same paths (each loads them once).
    """
    import dask
    import dask.dataframe as dd

    if isinstance(dictionary, adexp._adexp._Dictionary):
        raise TypeError("dictionary: give the extension files' paths, which the workers load")
    selection = (fields, rows, titles, validate, dictionary)
    meta = dd.utils.clear_known_categories(tables.meta(tables.table(*selection)))
    _check(files_per_partition, errors)
    so = storage_options or {}
    parts = _partitions(paths_or_urls, files_per_partition, so, include) or [[]]
    frame = dask.delayed(_frame, pure=True)
    return dd.from_delayed([frame(urls, so, errors, limits, selection) for urls in parts],
                           meta=meta, verify_meta=True)
