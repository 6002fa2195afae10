"""docs/table.md's HTTP API section is real: it names every endpoint the server routes and
the page calls, and its curl examples, run against `ludex serve` started as the page says,
answer what the page shows."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "table.md"
ANY = "…"


def api_section() -> str:
    text = PAGE.read_text(encoding="utf-8")
    return re.search(r"^## The HTTP API\n(.*?)(?=^## )", text, re.DOTALL | re.MULTILINE).group(1)


def documented_endpoints() -> set[str]:
    return set(re.findall(r"^\| `(?:GET|POST) (/api/\w+)`", api_section(), re.MULTILINE))


def is_excerpt(shown, real) -> bool:
    """`shown` is `real` with things left out: an object's keys are some of its keys, a
    list's items the first of its items, `"…"` any value."""
    if shown == ANY:
        return True
    if isinstance(shown, dict):
        return isinstance(real, dict) and all(
            key in real and is_excerpt(value, real[key]) for key, value in shown.items())
    if isinstance(shown, list):
        return isinstance(real, list) and len(shown) <= len(real) and all(
            is_excerpt(a, b) for a, b in zip(shown, real, strict=False))
    return shown == real and type(shown) is type(real)


def test_the_api_section_names_every_endpoint_the_server_has_and_the_page_calls(tmp_path):
    from ludex.engine import load_definition
    from ludex.table.server import create_app
    from ludex.table.session import Table

    folder = ROOT / "tests" / "games" / "tiny"
    definition, start = load_definition(folder)
    app = create_app(Table(folder, definition, start, tmp_path))
    routed = {r.path for r in app.routes if r.path.startswith("/api/")}
    script = (ROOT / "interpreter/ludex/table/static/table.js").read_text(encoding="utf-8")
    called = set(re.findall(r'"(/api/\w+)"|`(/api/\w+)', script))
    called = {a or b for a, b in called}
    assert routed == documented_endpoints()
    assert called <= routed and "/api/replay" in called


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_the_api_sections_curl_examples_answer_what_the_page_shows(tmp_path):
    section = api_section()
    blocks = re.findall(r"```(sh|json)\n(.*?)```", section, re.DOTALL)
    serve = next(code for kind, code in blocks if kind == "sh" and "ludex serve" in code)
    argv = shlex.split(serve.strip())
    assert argv[:2] == ["ludex", "serve"] and argv[argv.index("--port") + 1] == "8000"
    argv[argv.index("--port") + 1] = "0"  # any free port: tests run side by side
    shutil.copytree(ROOT / "tests" / "games", tmp_path / "tests" / "games")
    server = subprocess.Popen([sys.executable, "-m", "ludex.cli", *argv[1:]], cwd=tmp_path,
                              stderr=subprocess.PIPE, text=True)
    try:
        started = server.stderr.readline()
        port = re.search(r"http://127\.0\.0\.1:(\d+)/", started)
        assert port, started
        url = f"http://127.0.0.1:{port.group(1)}/api/state"
        deadline = time.monotonic() + 30  # bound at once, listening once uvicorn has started
        while subprocess.run(["curl", "-s", "-o", "/dev/null", url]).returncode != 0:
            assert time.monotonic() < deadline and server.poll() is None, "no table"
            time.sleep(0.1)
        pairs = [(code, blocks[i + 1][1]) for i, (kind, code) in enumerate(blocks)
                 if kind == "sh" and code.startswith("curl")]
        assert len(pairs) == 3
        for command, shown in pairs:
            command = command.strip().replace("127.0.0.1:8000", f"127.0.0.1:{port.group(1)}")
            printed = subprocess.run(shlex.split(command), capture_output=True, text=True,
                                     timeout=60, check=True).stdout
            assert is_excerpt(json.loads(shown), json.loads(printed)), (command, printed)
    finally:
        server.terminate()
        server.wait(timeout=30)
        server.stderr.close()


def test_an_excerpt_leaves_out_but_never_changes():
    assert is_excerpt({"a": [1], "b": ANY}, {"a": [1, 2], "b": {"c": 3}, "d": 4})
    assert not is_excerpt({"a": [2]}, {"a": [1, 2]})
    assert not is_excerpt({"a": 1}, {"a": True})
    assert not is_excerpt({"e": 1}, {"a": 1})
