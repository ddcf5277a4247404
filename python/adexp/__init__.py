"""EUROCONTROL ADEXP messages into Python, parsed by libadexp (C).

    >>> import adexp
    >>> [m] = adexp.parse(b"-TITLE IFPL -ARCID DLH66T -ADEP EDDM -ADES EDDH")
    >>> m.title, m["ARCID"], m.get("RFL")
    ('IFPL', 'DLH66T', None)

parse() reads bytes or str; parse_files() every input adexp-parse reads
(files, directories, globs, file objects and streams, compressed files and
archives) on the library's threads with the GIL released, in its order;
iter_file() one of them; to_pandas() the table of adexp-parse --format csv,
typed (adexp.tables). Message.to_dict() is what json.loads gives for
adexp-parse's JSON line of the message. adexp.dask takes the same parse to
a Dask cluster.
"""
import atexit
import errno
import fnmatch
import glob
import io
import os
import stat

from ._adexp import (
    LIBADEXP_VERSION,
    Error,
    Field,
    FileError,
    Message,
    parse,
)
from ._adexp import _parse_files
from ._adexp import _stop_all

__version__ = LIBADEXP_VERSION
__all__ = [
    "Error", "Field", "FileError", "Message", "expand_paths", "iter_file",
    "load_dictionary", "parse", "parse_files", "to_pandas", "DEFAULT_FIELDS",
]

from .tables import DEFAULT_FIELDS, load_dictionary


# An iterator left alive at exit: its batch's threads stop before the
# interpreter tears down what they might touch.
atexit.register(_stop_all)


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


def _is_path(p):
    return isinstance(p, (str, bytes)) or hasattr(p, "__fspath__")


def _stream_input(f):
    """A file object as the batch reads it: its descriptor from where the
    object is (read as adexp-parse reads standard input: a regular file at
    its start as that file named, else as a stream), or, without one, its
    bytes."""
    name = getattr(f, "name", None)
    name = name if isinstance(name, str) else "-"
    try:
        fd = f.fileno()
    except (AttributeError, OSError, io.UnsupportedOperation):
        data = f.read()
        if isinstance(data, str):
            data = data.encode("utf-8")
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"read() of a file object must give bytes or str, "
                            f"not {type(data).__name__}") from None
        return ("buffer", name, bytes(data))
    try:
        if f.seekable():           # what the object buffered is not read twice
            os.lseek(fd, f.tell(), os.SEEK_SET)
    except (AttributeError, OSError):
        pass
    return ("fd", name, fd)


def _inputs(paths, func):
    """What the batch reads for paths: each path as given (a directory is
    walked by the library, as adexp-parse walks it), a glob that names no
    file expanded in sorted order, a file object's stream or bytes."""
    if _is_path(paths):
        raise TypeError(f"{func}() takes an iterable of paths, not one path: "
                        "wrap it in a list")
    out = []
    for p in paths:
        if _is_path(p):
            p = os.fspath(p)
            magic = glob.has_magic(p)
            found = sorted(glob.glob(p)) if magic and not os.path.lexists(p) else None
            out.extend(("path", m) for m in found) if found else out.append(("path", p))
        elif hasattr(p, "read"):
            out.append(_stream_input(p))
        else:
            raise TypeError(f"{func}() paths must be str, bytes, os.PathLike or "
                            f"file objects, not {type(p).__name__}")
    return out


def parse_files(paths, jobs=None, *, errors="raise", include=None, **limits):
    """parse_files(paths, jobs=None, *, errors='raise', include=None, **limits)
    -> Iterator[Message]

    The messages of every input, as adexp-parse reads them and in its
    order: files; directories, walked as adexp-parse walks them (include:
    an fnmatch pattern for the names of the files met); globs; "-" for
    standard input; file objects (their descriptor read as standard input is, or
    their bytes); gzip, zstd, xz and bzip2 files and tar and zip archives,
    each member's messages with the source ARCHIVE:MEMBER. Read and parsed
    by libadexp's batch driver on jobs threads (None: one per CPU) with the
    GIL released, a bounded window ahead of the caller. An input that fails
    as it fails for adexp-parse (cannot be read, empty, binary, no ADEXP
    message, a corrupt archive) raises adexp.FileError in its place, with
    adexp-parse's reason as strerror; the iterator goes on after it. With
    errors='skip' such inputs are passed over. Limits as in parse().
    """
    return _parse_files(_inputs(paths, "parse_files"), jobs, errors=errors,
                        include=include, **limits)


def iter_file(path, **limits):
    """iter_file(path, **limits) -> Iterator[Message]

    The messages of one file (or file object, or "-"), as parse_files
    reads it: compressed files and archives too. A directory, or a file
    that cannot be read or that adexp-parse refuses, raises adexp.FileError.
    """
    if _is_path(path):
        if os.path.isdir(path):
            raise FileError(errno.EISDIR, os.strerror(errno.EISDIR), os.fsdecode(path))
    elif not hasattr(path, "read"):
        raise TypeError(f"iter_file() path must be str, bytes, os.PathLike or a file "
                        f"object, not {type(path).__name__}")
    return parse_files([path], **limits)


def _fill(t, paths_or_messages, jobs, errors, include, limits):
    """Into table t: Messages as given, or the rows of paths (a path, or
    paths and directories) written by the batch as it reads them, with no
    Message made."""
    import itertools
    if _is_path(paths_or_messages):
        paths_or_messages = [paths_or_messages]
    it = iter(paths_or_messages)
    first = next(it, None)
    if first is None:
        return
    rest = itertools.chain([first], it)
    if isinstance(first, Message):
        t.add(rest)
    else:
        t.add_files(_inputs(rest, "to_pandas"), jobs, errors=errors, include=include,
                    **limits)


def to_pandas(paths_or_messages, fields=None, rows=None, *, titles=None, include=None,
              validate=False, dictionary=None, jobs=None, errors="raise", **limits):
    """to_pandas(paths_or_messages, fields=None, rows=None, *, titles=None,
    include=None, validate=False, dictionary=None, jobs=None, errors='raise',
    **limits) -> pandas.DataFrame

    The table adexp-parse --format csv writes with the same options, its
    columns typed (see adexp.tables.dtype_of): source, index, title, the
    fields (DEFAULT_FIELDS when None: keywords, paths such as ESTDATA.PTID,
    decoded suffixes _ft _m _utc _deg), errors, and warnings with
    validate=True. rows='RTEPTS': one row per item of that list, with
    item_index, item, item_value and the item's columns (RTEPTS.FL_ft).
    titles: keep only messages of these titles. paths_or_messages is a
    path, a list of paths and directories (read with parse_files; include
    is the file name pattern of the walk) or an iterable of Message.
    dictionary: extension files (a path or a list, see load_dictionary),
    for parsing, the names and validate (Messages given must have been
    parsed with it). An unknown field or list is a ValueError naming the
    closest ones.
    """
    from . import tables
    t = tables.table(fields, rows, titles, validate, dictionary)
    if dictionary is not None:
        limits["dictionary"] = tables.load_dictionary(dictionary)
    _fill(t, paths_or_messages, jobs, errors, include, limits)
    tables.warn_unseen_titles(t)
    return tables.frame(t)
