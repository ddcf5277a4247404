"""adexp-parse --format sqlite: typed tables read back with Python's sqlite3.

Numbers compare as numbers and count what the CSV counts; the route points
are the CSV's --rows RTEPTS rows; a second run appends (ids go on); errors
and warnings have their tables; -j 1 and -j 2 write the same rows; -o is
required and the output guard applies; doc/sqlite.md's schema is the
database's, and its PostgreSQL load is run on a server started here when
PostgreSQL is installed (else its CREATE statements run in SQLite).

Run: python3 cli/sqlite_test.py BUILD/cli/adexp-parse SOURCE_ROOT
"""
import csv
import io
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

from checks import check, summary

EXE, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
TESTDATA = os.path.join(ROOT, "testdata")
DOC = os.path.join(ROOT, "doc", "sqlite.md")
INPUTS = ["messages", "invalid"]


def run(*args, cwd=TESTDATA):
    return subprocess.run([EXE, "-q", *args], cwd=cwd, capture_output=True)


def make_db(path, *args, inputs=INPUTS):
    return run("--format", "sqlite", "-o", path, *args, *inputs)


def one(db, sql, *params):
    with sqlite3.connect(db) as c:
        return c.execute(sql, params).fetchone()[0]


def csv_rows(*args):
    out = run("--format", "csv", *args, *INPUTS).stdout.decode()
    return list(csv.DictReader(io.StringIO(out)))


def first_number(cell):
    return int(cell.split()[0]) if cell else None


def dump(db):
    """Every table's rows, in order."""
    with sqlite3.connect(db) as c:
        return {t: c.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall()
                for t in ("messages", "route_points", "errors", "warnings")}


def test_typed(d):
    db = os.path.join(d, "typed.db")
    r = make_db(db)
    check("typed: runs (exit 1: invalid/ has failed messages)", r.returncode == 1,
          r.stderr[-300:])
    rows = csv_rows()
    check("typed: a row per CSV row", one(db, "SELECT count(*) FROM messages") == len(rows))
    want = sum(1 for x in rows if x["RFL_ft"] and first_number(x["RFL_ft"]) > 30000)
    got = one(db, "SELECT count(*) FROM messages WHERE RFL_ft > 30000")
    check("typed: RFL_ft > 30000 counts numbers as the CSV's", got == want and want > 0,
          f"{got} != {want}")
    text = one(db, "SELECT count(*) FROM messages WHERE CAST(RFL_ft AS TEXT) > '30000'")
    check("typed: and not as text would", text != got, f"{text}")
    check("typed: RFL_ft holds integers only", one(
        db, "SELECT count(*) FROM messages WHERE typeof(RFL_ft) NOT IN ('integer', 'null')") == 0)
    check("typed: coordinates are REAL", one(
        db, "SELECT count(*) FROM route_points WHERE typeof(LATTD_deg) = 'real'") > 0)
    check("typed: EOBT keeps its leading zero, EOBT_utc is ISO 8601", one(
        db, "SELECT count(*) FROM messages WHERE EOBT LIKE '0%' AND EOBT_utc LIKE '20__-__-__T__:__:00Z'") > 0)
    eobt = [x["EOBT_utc"] for x in rows]
    with sqlite3.connect(db) as c:
        got = [v or "" for (v,) in c.execute("SELECT EOBT_utc FROM messages ORDER BY id")]
    check("typed: EOBT_utc equals the CSV's, row by row", got == eobt)
    js = one(db, "SELECT json FROM messages WHERE id = 1")
    line = run("--format", "json", INPUTS[0]).stdout.decode().split("\n")[0]
    check("typed: json is the message's --format json line", js == line)
    pts = csv_rows("--rows", "RTEPTS")
    npts = sum(1 for x in pts if x["item_index"] != "")
    got = one(db, "SELECT count(*) FROM route_points")
    check("points: as many as the CSV's --rows RTEPTS rows", got == npts and npts > 0,
          f"{got} != {npts}")
    fl = [first_number(x["RTEPTS.FL_ft"]) for x in pts if x["item_index"] != ""]
    with sqlite3.connect(db) as c:
        got = [v for (v,) in c.execute("SELECT FL_ft FROM route_points ORDER BY rowid")]
    check("points: FL_ft equals the CSV's, point by point", got == fl)
    return db


def test_errors(d):
    db = os.path.join(d, "errors.db")
    make_db(db, inputs=["invalid"])
    out = run("--format", "json", "invalid").stdout.decode()
    want = sum(out.count('"code":') for out in [out])
    got = one(db, "SELECT count(*) FROM errors")
    check("errors: one row per error of the JSON lines", got == want and want > 0,
          f"{got} != {want}")
    check("errors: code, line, col, message", one(
        db, "SELECT count(*) FROM errors WHERE code = 'LIST_UNCLOSED' AND line > 0 AND col > 0 "
            "AND message <> ''") > 0)
    db = os.path.join(d, "warnings.db")
    r = make_db(db, "--validate", inputs=["messages"])
    got = one(db, "SELECT count(*) FROM warnings")
    want = len([ln for ln in r.stderr.decode(errors="replace").splitlines() if ": warning: " in ln])
    check("warnings: --validate fills the warnings table", got == want and want > 0,
          f"{got} != {want}")


def test_append(d, typed):
    db = os.path.join(d, "append.db")
    make_db(db)
    n = one(db, "SELECT count(*) FROM messages")
    p = one(db, "SELECT count(*) FROM route_points")
    make_db(db)
    check("append: twice doubles the messages",
          one(db, "SELECT count(*) FROM messages") == 2 * n)
    check("append: and the points", one(db, "SELECT count(*) FROM route_points") == 2 * p)
    check("append: ids go on", one(db, "SELECT max(id) FROM messages") == 2 * n and
          one(db, "SELECT min(id) FROM messages") == 1)
    check("append: the second run's points point at its messages", one(
        db, "SELECT count(*) FROM route_points WHERE message_id > ?", n) == p)


def test_jobs(d):
    a, b = os.path.join(d, "j1.db"), os.path.join(d, "j2.db")
    make_db(a, "-j", "1")
    make_db(b, "-j", "2")
    check("-j 1 and -j 2 write the same rows", dump(a) == dump(b))


def test_refusals(d):
    r = run("--format", "sqlite", "messages")
    check("no -o: exit 2", r.returncode == 2 and b"needs -o FILE" in r.stderr, r.stderr)
    r = run("--format", "sqlite", "-o", "-", "messages")
    check("-o -: exit 2", r.returncode == 2)
    r = run("--format", "sqlite", "--fields", "ARCID", "-o", os.path.join(d, "f.db"),
            "messages")
    check("--fields: exit 2", r.returncode == 2 and b"--fields" in r.stderr)
    src = os.path.join(d, "in.adexp")
    shutil.copy(os.path.join(TESTDATA, "messages", "IFPL-teivah-1.adexp"), src)
    before = open(src, "rb").read()
    r = run("--format", "sqlite", "-o", src, src)
    check("-o an input: refused (exit 2), the input untouched",
          r.returncode == 2 and open(src, "rb").read() == before, r.stderr)
    other = os.path.join(d, "notes.txt")
    with open(other, "wb") as f:
        f.write(b"not a database\n" * 100)
    r = run("--format", "sqlite", "-o", other, "messages")
    check("-o a file that is not a database: exit 1, said, the file as it was",
          r.returncode == 1 and b"SQLite" in r.stderr and
          b"the database holds 0 messages of it" in r.stderr and
          open(other, "rb").read() == b"not a database\n" * 100, r.stderr)


def test_library_loaded(d):
    """libsqlite3 is opened with dlopen by --format sqlite alone: the other
    formats do not pay for its dynamic linking; when it cannot be loaded
    (ADEXP_LIBSQLITE names a file that does not exist) the run fails,
    naming it and the loader's error, and writes nothing."""
    needed = subprocess.run(["readelf", "-d", EXE], capture_output=True).stdout
    check("adexp-parse is not linked against libsqlite3",
          b"NEEDED" in needed and b"libsqlite3" not in needed)
    db = os.path.join(d, "nolib.db")
    env = dict(os.environ, ADEXP_LIBSQLITE="libadexp-no-such-library.so.0")
    r = subprocess.run([EXE, "-q", "--format", "sqlite", "-o", db,
                        os.path.join("messages", "IFPL-teivah-1.adexp")],
                       cwd=TESTDATA, capture_output=True, env=env)
    check("no libsqlite3: exit 1, the library and the loader's error named, nothing written",
          r.returncode == 1 and b"needs libsqlite3 (libadexp-no-such-library.so.0), "
          b"which cannot be loaded: " in r.stderr and
          b"cannot open shared object file" in r.stderr and
          (not os.path.exists(db) or os.path.getsize(db) == 0),
          r.stderr[-300:])


def test_walked(d):
    walked = os.path.join(d, "walked")
    shutil.copytree(os.path.join(TESTDATA, "messages"), walked,
                    ignore=shutil.ignore_patterns("*.json"))
    db = os.path.join(walked, "new.db")
    r = run("--format", "sqlite", "-o", db, walked)
    files = run("--format", "csv", walked).stdout.count(b"\n") - 1
    check("a new database in the walked directory: left out, no journal file read",
          r.returncode == 0 and one(db, "SELECT count(*) FROM messages") == files and
          sorted(os.listdir(walked))[-1:] != ["new.db-journal"], r.stderr[-300:])
    r = run("--format", "sqlite", "-o", db, walked)
    check("an existing one there: refused (exit 2), as the other formats' outputs",
          r.returncode == 2 and one(db, "SELECT count(*) FROM messages") == files, r.stderr)


def test_live(d):
    """A live stream's message is committed as it comes: readers see it while
    the stream stays open."""
    db = os.path.join(d, "live.db")
    msg = b"-TITLE IFPL -ARCID ABC123 -ADEP EGLL -ADES LFPG -RFL F350\n"
    p = subprocess.Popen([EXE, "-q", "--format", "sqlite", "--flush-idle", "50", "-o", db, "-"],
                         stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdin.write(msg)
    p.stdin.flush()
    seen = 0
    for _ in range(100):
        time.sleep(0.1)
        try:
            seen = one(db, "SELECT count(*) FROM messages")
        except sqlite3.Error:
            seen = 0
        if seen:
            break
    p.stdin.close()
    p.wait(timeout=60)
    check("a live stream's message is in the database while the stream is open", seen == 1)
    check("and stays there at the end", one(db, "SELECT count(*) FROM messages") == 1)


def normal(sql):
    sql = re.sub(r"\s+", " ", sql)
    return re.sub(r"\( ", "(", sql).strip()


def doc_block(marker):
    text = open(DOC).read()
    m = re.search(r"<!-- " + marker + r" -->\n```sql\n(.*?)```", text, re.S)
    return m.group(1) if m else ""


def test_doc_schema(typed):
    with sqlite3.connect(typed) as c:
        db = [s + ";" for (s,) in c.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")]
    doc = [normal(s) + ";" for s in doc_block("sqlite-schema").split(";") if s.strip()]
    check("doc/sqlite.md's schema is the database's", [normal(s) for s in db] == doc,
          "\n".join(normal(s) for s in db))


def test_doc_queries(typed):
    text = open(DOC).read()
    block = re.search(r"## Queries\n\n```sql\n(.*?)```", text, re.S).group(1)
    stmts = [s for s in block.split(";") if s.strip()]
    got = []
    with sqlite3.connect(typed) as c:
        for stmt in stmts:
            try:
                got.append(len(c.execute(stmt).fetchall()))
            except sqlite3.Error as e:
                got.append(str(e))
    check("doc/sqlite.md's queries run and find rows", stmts and
          all(isinstance(n, int) and n > 0 for n in got), got)


def pg_tools():
    tools = {}
    for name in ("initdb", "pg_ctl", "psql"):
        path = shutil.which(name)
        for v in ("17", "16", "15", "14", "13"):
            alt = f"/usr/lib/postgresql/{v}/bin/{name}"
            path = path or (alt if os.path.exists(alt) else None)
        tools[name] = path
    return tools if all(tools.values()) else None


def as_user(cmd):
    """PostgreSQL refuses to run as root: as the postgres user then."""
    if os.geteuid() == 0 and shutil.which("runuser"):
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


def test_postgresql(d, typed):
    load = doc_block("postgresql-load")
    tools = pg_tools()
    if tools is None or (os.geteuid() == 0 and subprocess.run(
            ["id", "postgres"], capture_output=True).returncode != 0):
        with sqlite3.connect(":memory:") as c:
            for stmt in load.split(";"):
                if "CREATE TABLE" in stmt:
                    c.execute(stmt[stmt.index("CREATE TABLE"):])
            cols = [r[1] for r in c.execute("PRAGMA table_info(messages)")]
        check("PostgreSQL DDL (no server: its CREATEs run in SQLite)", "RFL_ft" in cols)
        return
    pg = os.path.join(d, "pg")
    os.makedirs(pg)
    fields = re.search(r"-o messages.csv --fields (\S+)", open(DOC).read()).group(1)
    run("--format", "csv", "-o", os.path.join(pg, "messages.csv"), "--fields", fields, *INPUTS)
    run("--format", "csv", "-o", os.path.join(pg, "route_points.csv"), "--rows", "RTEPTS",
        *INPUTS)
    with open(os.path.join(pg, "load.sql"), "w") as f:
        f.write(load)
    if os.geteuid() == 0:
        shutil.chown(d, "postgres")
        for root, dirs, files in os.walk(d):
            for n in dirs + files:
                shutil.chown(os.path.join(root, n), "postgres")
    data = os.path.join(pg, "data")
    ok = subprocess.run(as_user([tools["initdb"], "-A", "trust", "-U", "test", "-D", data]),
                        capture_output=True).returncode == 0
    ok = ok and subprocess.run(as_user(
        [tools["pg_ctl"], "-D", data, "-w", "-l", os.path.join(pg, "log"), "-o",
         f"-k {pg} -c listen_addresses='' -p 54329", "start"]), capture_output=True
    ).returncode == 0
    try:
        psql = as_user([tools["psql"], "-h", pg, "-p", "54329", "-U", "test", "-d", "postgres",
                        "-v", "ON_ERROR_STOP=1", "-qAt"])
        r = subprocess.run(psql + ["-f", "load.sql"], cwd=pg, capture_output=True) if ok else None
        check("PostgreSQL: the load of doc/sqlite.md runs", ok and r.returncode == 0,
              r.stderr[-500:] if r else "server not started")
        q = subprocess.run(psql + ["-c", 'SELECT count(*) FROM messages WHERE "RFL_ft" > 30000;'
                                         'SELECT count(*) FROM route_points;'],
                           capture_output=True, text=True)
        got = q.stdout.split()
        want = [str(one(typed, "SELECT count(*) FROM messages WHERE RFL_ft > 30000")),
                str(one(typed, "SELECT count(*) FROM route_points"))]
        check("PostgreSQL: RFL_ft > 30000 and the points count as in SQLite", got == want,
              f"{got} != {want} {q.stderr[-300:]}")
    finally:
        subprocess.run(as_user([tools["pg_ctl"], "-D", data, "-m", "immediate", "stop"]),
                       capture_output=True)


def main():
    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o755)
        typed = test_typed(d)
        test_errors(d)
        test_append(d, typed)
        test_jobs(d)
        test_refusals(d)
        test_library_loaded(d)
        test_walked(d)
        test_live(d)
        test_doc_schema(typed)
        test_doc_queries(typed)
        test_postgresql(d, typed)
    sys.exit(summary())


main()
