"""to_pandas against adexp-parse --format csv: the same rows and cells on
every file of testdata/ for several selections, the typed columns read
back to the CSV's text; and the dtype rule."""
import csv
import io
import math
import re
import subprocess
import warnings

import pandas
import pytest

import adexp
from adexp import tables
from conftest import ADEXP_PARSE, ROOT

EXT = str(ROOT / "lib/dict/extensions") + "/"

SELECTIONS = [
    ("default columns", {}, []),
    ("paths and suffixes",
     {"fields": ["ARCID", "ESTDATA.PTID", "ESTDATA.ETO_utc", "ESTDATA.FL_ft", "RFL_ft", "RFL_m",
                 "EOBD_utc", "EOBT", "EOBT_utc", "EETFIR", "ADDR.FAC", "REFDATA.SENDER.FAC",
                 "RTEPTS.PTID"]},
     ["--fields", "ARCID,ESTDATA.PTID,ESTDATA.ETO_utc,ESTDATA.FL_ft,RFL_ft,RFL_m,EOBD_utc,EOBT,"
      "EOBT_utc,EETFIR,ADDR.FAC,REFDATA.SENDER.FAC,RTEPTS.PTID"]),
    ("rows RTEPTS", {"rows": "RTEPTS"}, ["--rows", "RTEPTS"]),
    ("rows RTEPTS with paths",
     {"rows": "RTEPTS", "fields": ["ARCID", "RTEPTS.PTID", "RTEPTS.FL_ft", "RTEPTS.ETO_utc",
                                   "RTEPTS.LATTD_deg"]},
     ["--rows", "RTEPTS", "--fields",
      "ARCID,RTEPTS.PTID,RTEPTS.FL_ft,RTEPTS.ETO_utc,RTEPTS.LATTD_deg"]),
    ("rows ADDR", {"rows": "ADDR", "titles": ["IFPL", "ACK"]},
     ["--rows", "ADDR", "--title", "IFPL,ACK"]),
    ("titles IFPL", {"titles": ["IFPL"]}, ["--title", "IFPL"]),
    ("validate", {"validate": True, "fields": ["ARCID", "RFL", "EOBT"]},
     ["--validate", "--fields", "ARCID,RFL,EOBT"]),
    ("dictionary",
     {"validate": True, "dictionary": [EXT + "etfms.tsv", EXT + "local-route-points.tsv"],
      "fields": ["ARCID", "TTO.PTID", "TTO.FL_ft", "CTOT"]},
     ["--validate", "--dictionary", EXT + "etfms.tsv", "--dictionary",
      EXT + "local-route-points.tsv", "--fields", "ARCID,TTO.PTID,TTO.FL_ft,CTOT"]),
]


def every_file():
    return sorted(str(p) for p in (ROOT / "testdata").rglob("*") if p.is_file())


def cli_csv(args, files):
    r = subprocess.run([ADEXP_PARSE, "-q", "--format", "csv", *args, *files],
                       capture_output=True, check=False)
    assert r.returncode in (0, 1), r.stderr
    return list(csv.reader(io.StringIO(r.stdout.decode("utf-8"), newline="")))


def as_text(v, dtype, kind):
    """A typed cell as the CSV writes it ("" for NA)."""
    if pandas.isna(v):
        return ""
    if kind == "datetime":
        return v.strftime("%Y-%m-%dT%H:%M:%SZ")
    if kind == "date":
        return v.strftime("%Y-%m-%d")
    if kind == "time":
        minutes = int(v.total_seconds()) // 60
        return f"{minutes // 60:02d}:{minutes % 60:02d}"
    return str(v)


def typed_na_ok(cell, name):
    """A typed column is NA where the CSV's cell is empty or not one value
    of the type: several fields joined, or EOBT_utc's bare time when the
    message has no EOBD."""
    return cell == "" or " " in cell or (name.endswith("EOBT_utc") and
                                         re.fullmatch(r"\d\d:\d\d", cell) is not None)


def check_equal(df, want, columns):
    assert list(df.columns) == want[0]
    assert len(df) == len(want) - 1
    for (name, kind, vclass), col in zip(columns, want[0]):
        dtype = tables.dtype_of(name, kind, vclass)
        assert str(df[col].dtype) == dtype, col
        got = df[col].tolist()
        for i, cell in enumerate(r[want[0].index(col)] for r in want[1:]):
            v = got[i]
            if kind == "float" and not pandas.isna(v):
                assert math.isclose(v, float(cell), abs_tol=1e-9), (col, i, cell, v)
            elif kind in ("int", "float", "date", "datetime", "time") and pandas.isna(v):
                assert typed_na_ok(cell, name), (col, i, cell)
            else:
                assert as_text(v, dtype, kind) == cell, (col, i, cell, v)


@pytest.mark.parametrize("what,kwargs,args", SELECTIONS, ids=[s[0] for s in SELECTIONS])
def test_to_pandas_equals_cli_csv_on_every_file(what, kwargs, args):
    files = every_file()
    assert len(files) > 200
    want = cli_csv(args, files)
    assert len(want) > 50, what
    df = adexp.to_pandas(files, errors="skip", jobs=2, **kwargs)
    columns = tables.table(kwargs.get("fields"), kwargs.get("rows"), kwargs.get("titles"),
                           kwargs.get("validate", False), kwargs.get("dictionary")).columns
    check_equal(df, want, columns)


SAM = (b"-TITLE SAM -ARCID AFR1234 -ADEP LFPG -TTO -PTID VEULE -TO 1050 -FL F300 "
       b"-REGUL LFFUA12 -CTOT 1043\n-TITLE SAM -ARCID X -TTO -PTID A -GEOID 1 -CTOT 2599\n")


def test_dictionary_extends_parse_names_and_validate(tmp_path):
    ext = [EXT + "etfms.tsv"]
    fields = ["ARCID", "TTO.PTID", "TTO.FL_ft", "CTOT"]
    with pytest.raises(ValueError, match="unknown field TTO in TTO.PTID"):
        adexp.to_pandas([], fields=fields)
    d = adexp.load_dictionary(ext)
    assert adexp.load_dictionary(ext[0]) is d
    sam = tmp_path / "sam.adexp"
    sam.write_bytes(SAM)
    df = adexp.to_pandas(adexp.parse(SAM, source=str(sam), dictionary=d), fields=fields,
                         dictionary=ext, validate=True)
    want = cli_csv(["--validate", "--dictionary", ext[0], "--fields", ",".join(fields)],
                   [str(sam)])
    check_equal(df, want, tables.table(fields, None, None, True, d).columns)
    assert df["TTO.FL_ft"][0] == 30000 and not pandas.isna(df["warnings"][1])


def test_bad_dictionary_files(tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("NEWKW\tprimary\tb\n")
    with pytest.raises(ValueError, match=r"bad.tsv:1:\d+: "):
        adexp.load_dictionary(bad)
    with pytest.raises(adexp.FileError):
        adexp.to_pandas([], dictionary=[str(tmp_path / "missing.tsv")])
    with pytest.raises(TypeError, match="dictionary"):
        adexp.parse(b"-TITLE A", dictionary="etfms.tsv")


def test_typed_columns():
    [m] = adexp.parse(b"-TITLE IFPL -ARCID AB12 -ADEP EDDM -ADES EGLL -EOBD 250314 -EOBT 0905"
                      b" -RFL F390 -BEGIN RTEPTS -PT -PTID EVX -FL F170 -ETO 250314092930"
                      b" -TO 0931 -LATTD 503000N -END RTEPTS")
    df = adexp.to_pandas([m], fields=["ADEP", "EOBT", "EOBT_utc", "RFL_ft", "RFL_m",
                                      "RTEPTS.PTID", "RTEPTS.TO_utc", "RTEPTS.LATTD_deg"],
                         rows="RTEPTS")
    r = df.iloc[0]
    assert df["ADEP"].dtype == "category" and df["title"].dtype == "category"
    assert r["EOBT"] == "0905"                   # leading zero kept
    assert r["EOBT_utc"] == pandas.Timestamp("2025-03-14 09:05", tz="UTC")
    assert df["RFL_ft"].dtype == "Int64" and r["RFL_ft"] == 39000 and r["RFL_m"] == 11887
    assert r["RTEPTS.PTID"] == "EVX" and r["item"] == "PT"
    assert r["RTEPTS.TO_utc"] == pandas.Timedelta(hours=9, minutes=31)
    assert r["RTEPTS.LATTD_deg"] == 50.5


def test_eobt_utc_without_eobd_is_no_instant():
    [m] = adexp.parse(b"-TITLE IFPL -ARCID AB12 -EOBT 0905")
    df = adexp.to_pandas([m], fields=["EOBT", "EOBT_utc"])
    assert pandas.isna(df["EOBT_utc"][0]) and df["EOBT"][0] == "0905"
    assert str(df["EOBT_utc"].dtype) == "datetime64[ns, UTC]"


def test_rows_one_per_item_and_failed_message_kept():
    ms = adexp.parse(b"-TITLE IFPL -ARCID A1 -BEGIN RTEPTS -PT -PTID X -PT -PTID Y -END RTEPTS"
                     b" -TITLE IFPL -ARCID A2 -BEGIN RTEPTS -PT -PTID Z\n")
    df = adexp.to_pandas(ms, fields=["ARCID", "RTEPTS.PTID"], rows="RTEPTS")
    assert df["RTEPTS.PTID"].tolist() == ["X", "Y", "Z"]
    assert df["item_index"].tolist() == [0, 1, 0]
    assert df["errors"].isna().tolist() == [True, True, False]
    [bad] = adexp.parse(b"-TITLE IFPL -ARCID A3 -BEGIN ADDR -FAC X\n")
    one = adexp.to_pandas([bad], rows="RTEPTS")
    assert len(one) == 1 and pandas.isna(one["item_index"][0])


def test_titles_filter_and_unseen_title_warns():
    ms = adexp.parse(b"-TITLE IFPL -ARCID A1 -TITLE ACK -ARCID A2")
    with pytest.warns(UserWarning, match="IFLP: no message of this title"):
        df = adexp.to_pandas(ms, titles=["ACK", "IFLP"])
    assert df["ARCID"].tolist() == ["A2"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(adexp.to_pandas(ms, titles=["IFPL"])) == 1


def test_validate_gives_a_warnings_column():
    ms = adexp.parse(b"-TITLE IFPL -ARCID A1 -RFL F999X -EOBT 2599 -TITLE IFPL -ARCID A2")
    df = adexp.to_pandas(ms, fields=["ARCID"], validate=True)
    assert list(df.columns)[-2:] == ["errors", "warnings"]
    assert df["warnings"][0] == "BAD_VALUE:RFL;BAD_VALUE:EOBT" and pandas.isna(df["warnings"][1])


@pytest.mark.parametrize("kwargs,words", [
    ({"fields": ["ARCDI"]}, "unknown field ARCDI (did you mean ACDI, ARCID or ARDI?)"),
    ({"fields": ["RFL_fx"]}, "unknown suffix"),
    ({"rows": "RTEPT"}, "rows: unknown field RTEPT (did you mean RTEPTS?)"),
    ({"fields": ["A,B"]}, "is not one entry"),
])
def test_typos_are_value_errors_naming_the_closest(kwargs, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        adexp.to_pandas([], **kwargs)


def test_wrong_types():
    with pytest.raises(TypeError):
        adexp.to_pandas([], fields="ARCID")
    with pytest.raises(TypeError, match="rows must be a list keyword"):
        adexp.to_pandas([], rows=1)
    with pytest.raises(TypeError):
        adexp.to_pandas(["x"], fields=[1])
    with pytest.raises(TypeError, match="paths or Messages"):
        adexp.to_pandas([adexp.parse(b"-TITLE A")[0], 3])


def test_empty_table_has_the_typed_columns():
    df = adexp.to_pandas([], fields=["ARCID", "RFL_ft", "ETO_utc"])
    assert len(df) == 0
    assert [str(t) for t in df.dtypes] == ["category", "int64", "category", "string", "Int64",
                                          "datetime64[ns, UTC]", "string"]


def test_message_view_is_the_view_line_on_every_file(files):
    import json
    for path in files:
        r = subprocess.run([ADEXP_PARSE, "-q", "--format", "view", path], capture_output=True,
                           check=False)
        want = [json.loads(line) for line in r.stdout.splitlines()]
        for w in want:
            for k in ("source", "index", "offset", "errors", "envelope"):
                w.pop(k, None)
        assert [m.view for m in adexp.parse_files([path], errors="skip")] == want, path


def test_message_view_has_the_decoded_companions():
    [m] = adexp.parse(b"-TITLE IFPL -EOBD 250314 -EOBT 0905 -RFL F390 -BEGIN RTEPTS"
                      b" -PT -PTID EVX -FL F170 -ETO 250314092930 -END RTEPTS")
    v = m.view
    assert v["eobt_utc"] == "2025-03-14T09:05:00Z" and v["rfl_ft"] == 39000
    assert v["rtepts"][0] == {"ptid": "EVX", "fl": "F170", "fl_ft": 17000,
                              "eto": "250314092930", "eto_utc": "2025-03-14T09:29:30Z"}


def test_random_mutations_equal_cli_csv(files, tmp_path):
    """Hostile bytes (the mutations of test_cli_equal) through every decoder."""
    import random
    from test_cli_equal import mutate
    rng = random.Random(31)
    seeds = [open(p, "rb").read() for p in files if (ROOT / p).stat().st_size > 0]
    paths = []
    for n in range(300):
        p = tmp_path / f"m{n:04d}.adexp"
        p.write_bytes(mutate(rng, rng.choice(seeds)))
        paths.append(str(p))
    for what, kwargs, args in SELECTIONS[1:4]:
        df = adexp.to_pandas(paths, errors="skip", validate=True, **kwargs)
        want = cli_csv(["--validate", *args], paths)
        columns = tables.table(kwargs.get("fields"), kwargs.get("rows"), None, True).columns
        check_equal(df, want, columns)
        assert len(df) > 200, what
