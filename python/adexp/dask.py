"""The same parse on a Dask cluster: a bag of message dicts, or a table.

    >>> import adexp.dask
    >>> bag = adexp.dask.read(["archive/2025-01/"], files_per_partition=64)
    >>> bag.pluck("title").frequencies().compute()

Files are read through fsspec, so local paths, file:// URLs and, where
their fsspec backends are installed, s3:// or hdfs:// URLs work the same.
Each partition is a group of whole files, parsed on the worker that runs
it (adexp must be installed there) as adexp.parse_files parses them:
compressed files and archives too. With blocksize, a big plain file is
cut into byte ranges at message starts, one partition each, so that one
file spreads over the cluster. to_dataframe() makes the same partitions
into typed tables, their rows written in C. Each message is the dict that
Message.to_dict() gives, i.e. json.loads of adexp-parse's line for it,
with source the path or URL as listed.
"""
import contextlib
import gc
import re

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


def _partition_inputs(urls, storage_options):
    """What parse_files reads for the partition's files, one at a time: a
    local path as it is (the batch maps it, walks nothing, unpacks it), a
    URL's bytes read through fsspec, named by the URL."""
    for url in urls:
        if "://" not in url:
            yield url, None
            continue
        try:
            with fsspec.open(url, "rb", **storage_options) as f:
                yield url, f.read()
        except OSError as e:
            yield url, e


def _messages(urls, storage_options, errors, limits):
    """Messages of the partition's files, with adexp-parse's failures
    (adexp.FileError, or left out with errors='skip')."""
    for url, data in _partition_inputs(urls, storage_options):
        if isinstance(data, OSError):
            if errors == "skip":
                continue
            raise adexp.FileError(data.errno or 0, data.strerror or str(data), url) from data
        inputs = [("path", url)] if data is None else [("buffer", url, data)]
        yield from adexp._parse_files(inputs, 1, errors=errors, **limits)


@contextlib.contextmanager
def _no_gc():
    """A partition's dicts are many, acyclic and all kept: with the cyclic
    collector on, each of its full passes walks all those made so far
    (most of a partition's time on a 100 MB file). Off while they are made."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _dicts(urls, storage_options, errors, limits):
    with _no_gc():
        return [m.to_dict() for m in _messages(urls, storage_options, errors, limits)]


def _table(selection, limits):
    """The C table of the selection, and the limits with its dictionary."""
    dictionary = selection[4]
    if dictionary is not None:
        limits = dict(limits, dictionary=tables.load_dictionary(dictionary))
    return tables.table(*selection), limits


def _frame(urls, storage_options, errors, limits, selection):
    """The typed table of the partition's files (adexp.tables), its rows
    written by the batch as it reads them (no Message made); a file that
    fsspec cannot read raises in its place, or is left out with 'skip'."""
    t, limits = _table(selection, limits)
    inputs, failed = [], None
    for url, data in _partition_inputs(urls, storage_options):
        if isinstance(data, OSError):
            if errors == "skip":
                continue
            failed = adexp.FileError(data.errno or 0, data.strerror or str(data), url)
            break
        inputs.append(("path", url) if data is None else ("buffer", url, data))
    if inputs:
        t.add_files(inputs, 1, errors=errors, **limits)
    if failed is not None:
        raise failed
    return tables.frame(t)


def _check(files_per_partition, errors, blocksize=None):
    if not isinstance(files_per_partition, int) or isinstance(files_per_partition, bool):
        raise TypeError("files_per_partition must be an int")
    if files_per_partition < 1:
        raise ValueError("files_per_partition must be >= 1")
    if errors not in ("raise", "skip"):
        raise ValueError("errors must be 'raise' or 'skip'")
    if blocksize is None:
        return None
    from dask.utils import parse_bytes
    size = parse_bytes(blocksize) if isinstance(blocksize, str) else blocksize
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        raise ValueError("blocksize must be a positive number of bytes or a size "
                         "such as '64MiB'")
    return size


# ---------------------------------------------------------------- ranges
#
# A big plain file is cut into byte ranges at message starts with the
# batch's cut rule (adexp_batch_next_cut), one partition each, as
# adexp-parse cuts a big input among its threads. A cut is a guess (its
# -TITLE may lie in a text field), so range k is parsed from its start on
# past its end, up to the first message that starts at or after the end:
# where that is (real_end) is where the whole file's parse really crosses
# the cut. A small chain of tasks carries what the ranges before hold
# (their messages, line breaks, where they really end) from one range to
# the next; each range is then parsed from its real start (a wrong guess
# is scanned again from the real end of the one before), and its messages
# get the whole file's index, offsets, lines and columns. The result is
# adexp-parse's messages of the file, in order.

_LOOK = 64              # bytes read before a cut: a start depends on the byte before it
_WINDOW = 1 << 20       # bytes read past a cut (or a range's end) at first
_TAIL = 64 << 10        # bytes read past a range's real end, for a table, at first


def _read_range(fs, path, start, end):
    with fs.open(path, "rb") as f:
        f.seek(start)
        return f.read(end - start)


def _find_cut(fs, path, at, size, envelope):
    """The first message start at or after at, or size."""
    window = _WINDOW
    while True:
        lo = max(0, at - _LOOK)
        hi = min(size, at + window)
        data = _read_range(fs, path, lo, hi)
        cut = adexp._adexp._next_cut(data, at - lo, envelope)
        if cut < len(data) or hi == size:
            return lo + cut if cut < len(data) else size
        window *= 4


def _cuts(fs, path, size, blocksize, envelope):
    cuts = [0]
    for at in range(blocksize, size, blocksize):
        at = max(at, cuts[-1] + 1)
        c = _find_cut(fs, path, at, size, envelope)
        if c >= size:
            break
        if c > cuts[-1]:
            cuts.append(c)
    return cuts + [size]


def _messages_before(url, data, cut, limits, dicts):
    """The dicts (with dicts; else none kept) and the number of the
    messages of data that start before cut, and where the first at or
    after it starts (None when none does)."""
    if not dicts:              # counted in C, no Message made
        count, at = adexp._adexp._count_before(data, cut, **limits)
        return [], count, at if at < len(data) else None
    out = []
    with _no_gc():
        for m in adexp._parse_files([("buffer", url, data)], 1, **limits):
            if m.offset >= cut:
                return out, len(out), m.offset
            out.append(m.to_dict())
    return out, len(out), None


def _parse_range(url, so, start, cut, size, limits, dicts):
    """The messages parsed from start that start before cut (with dicts,
    their dicts, numbered from start; else none kept), and the range's
    summary: where it really ends, its messages and line breaks."""
    if start >= cut:           # the range before ends past all of this one
        return [], {"start": start, "real_end": start, "count": 0, "breaks": 0, "bol": 0}
    d = limits.get("dictionary")
    if d is not None and not isinstance(d, adexp._adexp._Dictionary):
        limits = dict(limits, dictionary=tables.load_dictionary(d))   # a table's paths
    fs, path = fsspec.core.url_to_fs(url, **so)
    extra = _WINDOW
    while True:
        end = min(size, cut + extra)
        data = _read_range(fs, path, start, end)
        out, count, at = _messages_before(url, data, cut - start, limits, dicts)
        real_end = start + at if at is not None else size if end == size else None
        if real_end is not None:
            breaks, bol = adexp._adexp._line_breaks(data, real_end - start)
            return out, {"start": start, "real_end": real_end, "count": count,
                         "breaks": breaks, "bol": bol}
        extra *= 4         # the last message goes past what was read


def _scan_range(url, so, start, cut, size, limits):
    return _parse_range(url, so, start, cut, size, limits, False)[1]


_FIRST = {"real_end": 0, "index": 0, "line": 1, "column0": 0}


def _chain(summary, before, url, so, cut, size, limits):
    """Where range k really ends, and the numbers there, from those where
    range k - 1 ends (before) and range k's summary."""
    if summary["start"] != before["real_end"]:   # a wrong guess: scan it again
        summary = _scan_range(url, so, before["real_end"], cut, size, limits)
    length = summary["real_end"] - summary["start"]
    if summary["breaks"]:
        column0 = length - summary["bol"]
    else:
        column0 = before["column0"] + length
    return {"real_end": summary["real_end"], "index": before["index"] + summary["count"],
            "line": before["line"] + summary["breaks"], "column0": column0}


def _rebase(d, before, start):
    d["index"] += before["index"]
    d["offset"] += start
    for e in d["errors"]:
        e["offset"] += start
        if e["line"] == 1:
            e["column"] += before["column0"]
        e["line"] += before["line"] - 1
    return d


def _range_dicts(before, url, so, cut, size, limits):
    """Range k's dicts, parsed from where range k - 1 really ends."""
    start = before["real_end"]
    out, _ = _parse_range(url, so, start, cut, size, limits, True)
    return [_rebase(d, before, start) for d in out]


def _big_plain(url, storage_options, blocksize):
    """(fs, path, size) of a plain file larger than blocksize, else None."""
    fs, path = fsspec.core.url_to_fs(url, **storage_options)
    size = fs.size(path)
    if not size or size <= blocksize:
        return None
    if adexp._adexp._is_packed(_read_range(fs, path, 0, 512)):
        return None
    return fs, path, size


_AT = re.compile(r" at (\d+):(\d+)")


def _range_frame(before, after, url, so, errors, limits, selection):
    """Range k's table: the messages from where range k - 1 really ends
    (before) to where range k does (after), read on past that end as the
    whole file's parse reads them (a message's end, and its errors, depend
    on what follows), its rows numbered and its errors' lines and columns
    moved on to the whole file's."""
    start, end = before["real_end"], after["real_end"]
    n = after["index"] - before["index"]
    t, limits = _table(selection, limits)
    fs, path = fsspec.core.url_to_fs(url, **so)
    size, extra = fs.size(path), _TAIL
    while n:
        hi = min(size, end + extra)
        data = _read_range(fs, path, start, hi)
        if t.add_files([("buffer", url, data)], 1, errors=errors, messages=n,
                       **limits) > n or hi == size:
            break
        t.take()               # the next message does not start in what was read
        extra *= 4
    df = tables.frame(t)
    df["index"] += before["index"]
    if before["line"] == 1 and before["column0"] == 0:
        return df

    def moved(m):
        line, column = int(m[1]), int(m[2])
        if line == 1:
            column += before["column0"]
        return f" at {line + before['line'] - 1}:{column}"

    has = df["errors"].notna()
    if has.any():
        df.loc[has, "errors"] = [_AT.sub(moved, c) for c in df["errors"][has]]
    return df


def _chain_nodes(url, so, size, cuts, limits):
    """Where each range of one file cut at cuts really starts, and the
    numbers there (delayed; one more than the ranges: the last is the
    file's end). Each range is scanned (parsed, its messages counted, none
    kept) from its cut side by side with the others; the chain of their
    summaries is small: nothing big is held between tasks or moved between
    workers."""
    import dask
    nodes = [dask.delayed(_FIRST)]
    for k in range(len(cuts) - 1):
        start, cut = cuts[k], cuts[k + 1]
        summary = dask.delayed(_scan_range, pure=True)(url, so, start, cut, size, limits)
        nodes.append(dask.delayed(_chain)(summary, nodes[-1], url, so, cut, size, limits))
    return nodes


def _range_dict_parts(url, so, size, cuts, errors, limits):
    """The bag's partitions of one file cut at cuts: each range parsed into
    its dicts from its real start (the scan costs a tenth of the dicts)."""
    import dask
    nodes = _chain_nodes(url, so, size, cuts, limits)
    return [dask.delayed(_range_dicts)(nodes[k], url, so, cuts[k + 1], size, limits)
            for k in range(len(cuts) - 1)]


def _range_frame_parts(selection):
    """The table's partitions of one file cut at cuts, for _plan."""
    def parts(url, so, size, cuts, errors, limits):
        import dask
        scan = limits if selection[4] is None else dict(limits, dictionary=selection[4])
        nodes = _chain_nodes(url, so, size, cuts, scan)    # the messages the table sees
        frame = dask.delayed(_range_frame)
        return [frame(nodes[k], nodes[k + 1], url, so, errors, limits, selection)
                for k in range(len(cuts) - 1)]
    return parts


def _plan(paths_or_urls, files_per_partition, so, include, blocksize, errors, limits,
          group_part, range_parts):
    """The delayed partitions: groups of whole files (group_part(urls)), and
    the ranges of each big plain file (range_parts(url, so, size, cuts,
    errors, limits)), in file order."""
    files = list_files(paths_or_urls, storage_options=so, include=include)
    parts, group = [], []

    def flush():
        if group:
            parts.append(group_part(list(group)))
            group.clear()

    for url in files:
        big = None
        if blocksize is not None:
            try:
                big = _big_plain(url, so, blocksize)
            except OSError:
                big = None         # read as a whole file: its error in place
        if big:
            fs, path, size = big
            flush()
            cuts = _cuts(fs, path, size, blocksize, True)   # AFTN envelopes on, as the parser
            parts.extend(range_parts(url, so, size, cuts, errors, limits))
            continue
        group.append(url)
        if len(group) == files_per_partition:
            flush()
    flush()
    return parts


def read(paths_or_urls, *, files_per_partition=64, blocksize=None, storage_options=None,
         include=None, errors="raise", **limits):
    """read(paths_or_urls, *, files_per_partition=64, blocksize=None,
    storage_options=None, include=None, errors='raise', **limits) -> dask.bag.Bag

    A bag of message dicts (Message.to_dict()), in file order: one
    partition per files_per_partition files, each read on its worker as
    adexp.parse_files reads it (compressed files and archives too). With
    blocksize (bytes, or a size such as "64MiB"), a plain file larger than
    that is cut into byte ranges of about blocksize at message starts, one
    partition each, as adexp-parse cuts a big file among its threads: the
    messages, their index, offsets, lines and columns are adexp-parse's.
    A compressed file or an archive stays one partition. storage_options
    go to fsspec; include is an fnmatch pattern for the names of files met
    in directories; limits as in adexp.parse().
    """
    import dask
    import dask.bag as db
    size = _check(files_per_partition, errors, blocksize)
    so = storage_options or {}
    parts = _plan(paths_or_urls, files_per_partition, so, include, size, errors, limits,
                  lambda urls: dask.delayed(_dicts)(urls, so, errors, limits), _range_dict_parts)
    if not parts:
        return db.from_sequence([], npartitions=1)
    return db.from_delayed(parts)


def to_dataframe(paths_or_urls, fields=None, rows=None, *, titles=None, validate=False,
                 dictionary=None, files_per_partition=64, blocksize=None, storage_options=None,
                 include=None, errors="raise", **limits):
    """to_dataframe(paths_or_urls, fields=None, rows=None, *, titles=None,
    validate=False, dictionary=None, files_per_partition=64, blocksize=None,
    ...) -> dask.dataframe.DataFrame

    The table adexp.to_pandas() makes (the rows and cells of adexp-parse
    --format csv, typed), over the same files and partitions as read():
    one per files_per_partition files, and with blocksize one per byte
    range of a big plain file (the whole file's rows, index and errors
    cells). Each partition's rows are written in C as the batch reads the
    files, with no Message made. meta has the typed columns (categories
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
    size = _check(files_per_partition, errors, blocksize)
    so = storage_options or {}
    frame = dask.delayed(_frame, pure=True)
    parts = _plan(paths_or_urls, files_per_partition, so, include, size, errors, limits,
                  lambda urls: frame(urls, so, errors, limits, selection),
                  _range_frame_parts(selection))
    if not parts:
        parts = [frame([], so, errors, limits, selection)]
    return dd.from_delayed(parts, meta=meta, verify_meta=True)
