"""Tables of messages: the rows and cells of adexp-parse --format csv, with
typed columns (adexp.to_pandas, adexp.dask.to_dataframe).

The selection (fields, rows, titles), the rows and the cells are the CSV
writer's own, in C (adexp._adexp._Table over lib/out); this module only
gives each column its dtype, by the one rule of dtype_of(). pandas is
imported only when a table is made.
"""
import os
import warnings

from . import _adexp

__all__ = ["DEFAULT_FIELDS", "dtype_of", "frame", "load_dictionary", "meta", "table"]

#: The columns --format csv has without --fields (besides source, index,
#: title and errors): those of the C writer, read from it.
DEFAULT_FIELDS = tuple(name for name, _, _ in _adexp._Table().columns[3:-1])

#: Value syntaxes (the dictionary's, before any '|') whose few distinct
#: values repeat over many rows: a column of them is a category.
CATEGORY_CLASSES = frozenset({"titleid", "icaoaerodrome", "icaoaircrafttype"})

def dtype_of(name, kind, value_class):
    """The dtype of a column: name as in the CSV header, kind what its
    cells decode to (from the C writer: text, count, int, float, date,
    datetime, time), value_class the dictionary's syntax of its field.

    - index: int64; item_index: Int64 (empty on the row of a failed
      message without the list)
    - _ft, _m (levels in feet, metres): Int64
    - _deg (degrees): float64
    - _utc of a date-time or a date: datetime64[ns, UTC] (a date at 00:00);
      EOBT_utc too, NaT where the message has no valid EOBD: a time
      without a date is no instant, and never gets today's date
    - _utc of a time of day alone (TO_utc): timedelta64[ns] since 00:00
    - source, item, and fields of title, aerodrome and aircraft type
      syntax (TITLE, ADEP, ADES, ALTRNT1, ARCTYP, ...): category
    - everything else (codes, raw times such as EOBT 0905 and ETO, errors,
      warnings): string, as written (leading zeros kept)
    """
    if kind == "count":
        return "int64" if name == "index" else "Int64"
    if kind == "int":
        return "Int64"
    if kind == "float":
        return "float64"
    if kind in ("date", "datetime"):
        return "datetime64[ns, UTC]"
    if kind == "time":
        return "timedelta64[ns]"
    if name in ("source", "item") or value_class.split("|")[0] in CATEGORY_CLASSES:
        return "category"
    return "string"


def _series(pandas, cells, name, kind, value_class):
    """The column in its dtype, from what the C table decoded (_Table.take):
    a list of str for text, else (values, na) buffers of 8 bytes a row. A
    cell that is not one value of its type (several fields joined,
    "25000 31000") is NA."""
    import numpy
    dtype = dtype_of(name, kind, value_class)
    if kind == "text":
        return pandas.Series(cells, dtype=object, name=name).astype(dtype)
    values, na = cells
    if dtype in ("int64", "Int64"):
        ints = numpy.frombuffer(values, dtype="int64")
        mask = numpy.frombuffer(na, dtype="bool")
        if dtype == "int64" and not mask.any():
            return pandas.Series(ints, name=name)
        return pandas.Series(pandas.arrays.IntegerArray(ints, mask), name=name, dtype=dtype)
    if dtype == "float64":
        return pandas.Series(numpy.frombuffer(values, dtype="float64"), name=name)
    ns = numpy.frombuffer(values, dtype="int64")
    if kind == "time":
        return pandas.Series(ns.view("timedelta64[ns]"), name=name)
    return pandas.Series(ns.view("datetime64[ns]"), name=name).dt.tz_localize("UTC")


def _list_arg(v, what):
    """A list of str joined by commas for the C selection, or None."""
    if v is None:
        return None
    if isinstance(v, (str, bytes)):
        raise TypeError(f"{what} must be a list of str, not one str: wrap it in a list")
    v = list(v)
    for x in v:
        if not isinstance(x, str):
            raise TypeError(f"{what} must be a list of str, not of {type(x).__name__}")
        if not x or "," in x:
            raise ValueError(f"{what}: {x!r} is not one entry")
    return ",".join(v)


_loaded = {}


def load_dictionary(paths):
    """The field dictionary extended by the extension file paths (a path or
    a list of them, each on top of the ones before), as adexp-parse
    --dictionary FILE ... extends it; for the dictionary= of parse,
    iter_file, parse_files and to_pandas. Loaded once per set of files (and
    again when one changes), kept for the life of the process. A bad file
    is a ValueError "PATH:LINE:COLUMN: message"."""
    if isinstance(paths, _adexp._Dictionary):
        return paths
    if isinstance(paths, (str, bytes)) or hasattr(paths, "__fspath__"):
        paths = [paths]
    paths = [os.fsdecode(p) for p in paths]
    key = []
    for p in paths:
        try:
            st = os.stat(p)
            key.append((p, st.st_mtime_ns, st.st_size))
        except OSError:
            key.append((p, None, None))      # the load says why
    key = tuple(key)
    if key not in _loaded:
        _loaded[key] = _adexp._Dictionary(paths)
    return _loaded[key]


def table(fields=None, rows=None, titles=None, validate=False, dictionary=None):
    """The C table of the selection; a bad or unknown name is a ValueError
    naming the closest known ones, as adexp-parse exits 2 for it.
    dictionary: None, or what load_dictionary() takes."""
    if rows is not None and not isinstance(rows, str):
        raise TypeError("rows must be a list keyword (rows='RTEPTS': one row per item) "
                        f"or None, not {type(rows).__name__}")
    if not isinstance(validate, bool):
        raise TypeError("validate must be a bool")
    d = None if dictionary is None else load_dictionary(dictionary)
    return _adexp._Table(_list_arg(fields, "fields"), rows, _list_arg(titles, "titles"),
                         validate, d)


def frame(t):
    """The rows t holds so far as a pandas.DataFrame of typed columns."""
    import pandas
    cells = t.take()
    return pandas.DataFrame({name: _series(pandas, c, name, kind, vc)
                             for (name, kind, vc), c in zip(t.columns, cells)})


def meta(t):
    """An empty DataFrame with t's columns and dtypes (for Dask); t must hold
    no rows."""
    return frame(t)


def warn_unseen_titles(t):
    """As adexp-parse warns at the end: a title no message had."""
    for title in t.unseen_titles():
        warnings.warn(f"titles: {title}: no message of this title", stacklevel=3)
