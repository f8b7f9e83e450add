"""The README's Python example runs as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_python_example() -> str:
    usage = README.read_text().split("## Usage", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", usage, flags=re.S)
    assert len(blocks) == 1, "the Usage section holds one Python example"
    return blocks[0]


def test_readme_python_example_runs():
    code = readme_python_example()
    assert len(code.strip().splitlines()) <= 12
    exec(compile(code, str(README), "exec"), {})
