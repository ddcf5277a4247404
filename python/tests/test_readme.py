"""The README's Python examples: the ```python blocks run as doctests from
the project folder; those marked "not run" (they need a cluster) are
compiled, so that at least their syntax holds."""
import doctest
import re

from conftest import ROOT

BLOCK = re.compile(r"(<!-- readme-python: (?P<mark>[^>]*)-->\n)?```python\n(?P<code>.*?)```",
                   re.S)


def blocks():
    text = (ROOT / "README.md").read_text()
    found = [(m.group("mark") or "", m.group("code")) for m in BLOCK.finditer(text)]
    assert len(found) >= 4
    return found


def test_readme_python(monkeypatch):
    """One session, block after block, as a reader would type them."""
    monkeypatch.chdir(ROOT)
    globs = {}
    ran = 0
    for mark, code in blocks():
        if mark.startswith("not run"):
            compile(code, "README.md", "exec")
            continue
        assert ">>> " in code
        test = doctest.DocTestParser().get_doctest(code, globs, "README", "README.md", 0)
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
        runner.run(test, clear_globs=False)
        globs = test.globs             # the next block sees its names
        assert runner.failures == 0, code
        ran += runner.tries
    assert ran >= 10
