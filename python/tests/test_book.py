"""Book chapter 11 (docs/src/11-python.md): its Python examples run, in order, in one namespace,
and every number they assert holds."""

import re
from pathlib import Path

import pytest

CHAPTER = Path(__file__).resolve().parents[2] / "docs" / "src" / "11-python.md"


def test_chapter_examples_run():
    pytest.importorskip("torch")
    blocks = re.findall(r"```python\n(.*?)```", CHAPTER.read_text(), flags=re.S)
    assert len(blocks) >= 5
    namespace: dict = {}
    for i, block in enumerate(blocks):
        exec(compile(block, f"{CHAPTER}:block{i}", "exec"), namespace)
