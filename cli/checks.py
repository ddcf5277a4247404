"""The CLI test scripts' checks: one line per check, then "N passed, N failed".

A script does `from checks import check, summary` (its own folder is on
sys.path when meson runs it) and ends with `sys.exit(summary())`, or hands
its tests to `run_tests`, which ends the same way.
"""
import shutil
import tempfile

passed = 0
failed = []


def check(name, cond, detail=""):
    """Record one check and print it; the detail is printed only on failure."""
    global passed
    if cond:
        passed += 1
        print(f"ok   {name}")
    else:
        failed.append(name)
        print(f"FAIL {name} {detail}")
    return bool(cond)


def summary():
    """Print the counts; the exit status: 1 if any check failed."""
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if failed else 0


def run_tests(tests, prefix):
    """Run each test(tmp) in one scratch folder named after prefix; a test
    that raises (a crash, a timeout) counts as one failed check and the next
    still runs. The folder is removed after; returns summary()."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    try:
        for t in tests:
            try:
                t(tmp)
            except Exception as e:
                check(t.__name__, False, repr(e))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return summary()
