"""EUROCONTROL ADEXP messages into Python, parsed by libadexp (C).

    >>> import adexp
    >>> [m] = adexp.parse(b"-TITLE IFPL -ARCID DLH66T -ADEP EDDM -ADES EDDH")
    >>> m.title, m["ARCID"], m.get("RFL")
    ('IFPL', 'DLH66T', None)

parse() reads bytes or str; iter_file() one file lazily; parse_files() many
files on a pool of threads with the GIL released, in input order;
to_pandas() a table of chosen fields. Message.to_dict() is what json.loads
gives for adexp-parse's JSON line of the message. adexp.dask takes the
same parse to a Dask cluster.
"""
import fnmatch
import os
import stat

from ._adexp import (
    LIBADEXP_VERSION,
    Error,
    Field,
    FileError,
    Message,
    iter_file,
    parse,
)
from ._adexp import parse_files as _parse_files

__version__ = LIBADEXP_VERSION
__all__ = [
    "Error", "Field", "FileError", "Message", "expand_paths", "iter_file",
    "parse", "parse_files", "to_pandas", "DEFAULT_FIELDS",
]

#: The columns to_pandas() gives when fields is None.
DEFAULT_FIELDS = ("ARCID", "ADEP", "ADES", "EOBD", "EOBT", "ARCTYP")


def _check_paths(paths, func):
    if isinstance(paths, (str, bytes)) or hasattr(paths, "__fspath__"):
        raise TypeError(f"{func}() takes an iterable of paths, not one path: "
                        "wrap it in a list")


def _walk(path, include, above=frozenset()):
    """The files under directory path as adexp-parse walks them: names in
    byte order, depth first, hidden and non-regular entries left out, a
    directory that leads back to one above it not followed."""
    st = os.stat(path)
    key = (st.st_dev, st.st_ino)
    if key in above:
        return
    above = above | {key}
    with os.scandir(path) as entries:
        names = sorted((e.name for e in entries), key=os.fsencode)
    for name in names:
        if name.startswith("."):
            continue
        full = os.path.join(path, name)
        try:
            mode = os.stat(full).st_mode
        except OSError:
            yield full                 # a dangling link: FileError when read
            continue
        if stat.S_ISDIR(mode):
            yield from _walk(full, include, above)
        elif stat.S_ISREG(mode) and (include is None or fnmatch.fnmatchcase(name, include)):
            yield full


def expand_paths(paths, include=None):
    """The files that adexp-parse would read for paths, in its order:
    files as given, directories walked (see adexp-parse --help); include
    is an fnmatch pattern for the names of files met in a walk."""
    _check_paths(paths, "expand_paths")
    for p in paths:
        p = os.fsdecode(p)
        if os.path.isdir(p):
            yield from _walk(p, include)
        else:
            yield p


def parse_files(paths, jobs=None, *, errors="raise", include=None, **limits):
    """parse_files(paths, jobs=None, *, errors='raise', include=None, **limits)
    -> Iterator[Message]

    The messages of many files and directories (walked as adexp-parse walks
    them), read and parsed on jobs threads (None: one per CPU) with the GIL
    released, handed out in input order. A file that cannot be read or that
    adexp-parse refuses (empty, binary, no '-') raises adexp.FileError in
    its place, or is passed over with errors='skip'. Limits as in parse().
    """
    _check_paths(paths, "parse_files")
    return _parse_files(list(expand_paths(paths, include)), jobs, errors=errors, **limits)


def row(msg, fields=DEFAULT_FIELDS):
    """One table row for msg: source, index, offset, title, errors (their
    count), then msg.get(f) for each f of fields."""
    r = {"source": msg.source, "index": msg.index, "offset": msg.offset,
         "title": msg.title, "errors": msg.error_count}
    for f in fields:
        r[f] = msg.get(f)
    return r


def _check_fields(fields):
    if fields is None:
        return DEFAULT_FIELDS
    if isinstance(fields, (str, bytes)):
        raise TypeError("fields must be a list of keywords, not one keyword")
    fields = tuple(fields)
    for f in fields:
        if not isinstance(f, str):
            raise TypeError(f"fields must be str keywords, not {type(f).__name__}")
    return fields


def to_pandas(paths_or_messages, fields=None, rows=None, *, jobs=None, errors="raise"):
    """to_pandas(paths_or_messages, fields=None, rows=None) -> pandas.DataFrame

    One row per message: source, index, offset, title, errors (count), and
    one column per keyword of fields (DEFAULT_FIELDS when None) holding the
    first top-level value of that field, or None. paths_or_messages is a
    path, a list of paths and directories (read with parse_files) or an
    iterable of Message. rows: at most that many rows (None: all).
    pandas is imported only here.
    """
    import itertools
    import pandas

    fields = _check_fields(fields)
    if rows is not None and (not isinstance(rows, int) or isinstance(rows, bool)):
        raise TypeError("rows must be an int or None")
    if rows is not None and rows < 0:
        raise ValueError("rows must be >= 0")
    if isinstance(paths_or_messages, (str, bytes)) or hasattr(paths_or_messages, "__fspath__"):
        paths_or_messages = [paths_or_messages]
    it = iter(paths_or_messages)
    first = next(it, None)
    if first is None:
        messages = iter(())
    elif isinstance(first, Message):
        messages = itertools.chain([first], it)
    else:
        messages = parse_files(itertools.chain([first], it), jobs, errors=errors)
    if rows is not None:
        messages = itertools.islice(messages, rows)
    data = []
    for m in messages:
        if not isinstance(m, Message):
            raise TypeError(f"to_pandas() takes paths or Messages, not {type(m).__name__}")
        data.append(row(m, fields))
    columns = ["source", "index", "offset", "title", "errors", *fields]
    return pandas.DataFrame(data, columns=columns)
