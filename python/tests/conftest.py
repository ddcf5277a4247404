"""Shared fixtures: the CLI to compare with, and the test data."""
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(os.environ.get("ADEXP_SOURCE_ROOT",
                                   pathlib.Path(__file__).resolve().parents[2]))
ADEXP_PARSE = os.environ.get("ADEXP_PARSE", str(ROOT / "build/cli/adexp-parse"))
UNDER_ASAN = os.environ.get("ADEXP_UNDER_ASAN") == "1"


def adexp_files():
    """Every .adexp file of testdata/, sorted."""
    return sorted(str(p) for p in (ROOT / "testdata").rglob("*.adexp"))


def cli_dicts(args, stdin=None):
    """json.loads of each line adexp-parse -q prints for args."""
    r = subprocess.run([ADEXP_PARSE, "-q", *args], input=stdin,
                       capture_output=True, check=False)
    assert r.returncode in (0, 1), r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def files():
    return adexp_files()
