"""The Python examples of README.md and doc/python.md: the ```python blocks of
each file run as doctests from the project folder, one session per file; those
marked "not run" (they need a cluster) are compiled, so that at least their
syntax holds. (The README's pandas block, marked "not run by the test python",
is run by the test readme_cli.)"""
import doctest
import re

import pytest

from conftest import ROOT

BLOCK = re.compile(r"(<!-- readme-python: (?P<mark>[^>]*)-->\n)?```python\n(?P<code>.*?)```",
                   re.S)

# file: (blocks at least, doctest examples run at least)
FILES = {"README.md": (2, 4), "doc/python.md": (4, 10)}


def blocks(name):
    text = (ROOT / name).read_text()
    return [(m.group("mark") or "", m.group("code")) for m in BLOCK.finditer(text)]


@pytest.mark.parametrize("name", sorted(FILES))
def test_readme_python(monkeypatch, name):
    """One session per file, block after block, as a reader would type them."""
    monkeypatch.chdir(ROOT)
    found = blocks(name)
    least_blocks, least_run = FILES[name]
    assert len(found) >= least_blocks
    globs = {}
    ran = 0
    for mark, code in found:
        if mark.startswith("not run"):
            compile(code, name, "exec")
            continue
        assert ">>> " in code
        test = doctest.DocTestParser().get_doctest(code, globs, name, name, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
        runner.run(test, clear_globs=False)
        globs = test.globs             # the next block sees its names
        assert runner.failures == 0, code
        ran += runner.tries
    assert ran >= least_run
