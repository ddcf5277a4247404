"""The CLI test scripts' checks: one line per check, then "N passed, N failed".

A script does `from checks import check, summary` (its own folder is on
sys.path when meson runs it) and ends with `sys.exit(summary())`.
"""

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
