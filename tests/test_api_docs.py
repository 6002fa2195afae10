"""docs/api.md is true: its Python blocks run in order, as one program, and each prints exactly
the output block shown under it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "api.md"
# a Python block, and the text block right under it if there is one
EXAMPLE = re.compile(r"```python\n(.*?)```\s*(?:```text\n(.*?)```)?", re.DOTALL)
MARK = "=== next example ==="


def test_every_python_example_of_the_api_page_prints_what_the_page_shows(tmp_path):
    examples = EXAMPLE.findall(PAGE.read_text(encoding="utf-8"))
    assert len(examples) >= 5
    program = "".join(f"print({MARK!r})\n{code}" for code, _ in examples)
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                            cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr
    printed = result.stdout.split(MARK + "\n")[1:]
    assert len(printed) == len(examples)
    wrong = [(code.splitlines()[0], shown, out) for (code, shown), out in zip(examples, printed,
                                                                              strict=True)
             if shown and out != shown]
    assert wrong == []


def test_the_api_page_is_linked_from_the_readme():
    assert "(docs/api.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
