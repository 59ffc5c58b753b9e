"""The Python examples of README.md and docs/python.md run as written, each ```python
block in a scratch directory of its own, and every `print(...)  # comment` line prints
its comment."""

import contextlib
import io
import os
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "python.md"


def blocks(path=README):
    text = path.read_text(encoding="utf-8")
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def expected_output(code):
    out = []
    for line in code.splitlines():
        if line.startswith("print(") and "  # " in line:
            out.append(line.split("  # ", 1)[1].strip())
    return out


@pytest.mark.parametrize(
    "code", blocks() + blocks(GUIDE), ids=lambda code: code.splitlines()[0][:40]
)
def test_readme_python_block(code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, str(README), "exec"), {"__name__": "readme"})
    lines = [line.strip() for line in printed.getvalue().splitlines()]
    assert lines == expected_output(code)
    for written in re.findall(r'"([\w.-]+\.(?:png|table))"', code):
        assert os.path.isfile(written), written


def test_readme_has_python_examples():
    assert len(blocks()) >= 2
    assert blocks(GUIDE), "docs/python.md has no example"
    assert "pip install ./python" in README.read_text(encoding="utf-8")
