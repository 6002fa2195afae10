"""Every benchmark in one run, in the one format of report.py: `make bench`.

Runs validate, engine, game, legal_actions and suite (in that order) and prints their cases as
one table, or with --json as one {"cases": […]}; --output also writes that JSON to a file (the
one scripts/update_docs.py makes the README's speed table from). --quick runs each benchmark in
its tiny mode (the tests'): the same checks that both sides do the same work, meaningless times.
Usage: python benchmarks/all.py [--json] [--quick] [--output FILE]
"""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import engine
import game
import legal_actions
import suite
import validate
from report import emit

BENCHMARKS = (validate, engine, game, legal_actions, suite)


def run(quick: bool = False) -> list[dict]:
    cases = []
    for module in BENCHMARKS:
        cases += module.run(**(module.QUICK if quick else {}))
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true", help="each benchmark's tiny mode")
    parser.add_argument("--output", type=Path, help="also write the JSON to this file")
    args = parser.parse_args()
    cases = run(args.quick)
    emit(cases, args.json)
    if args.output:
        text = io.StringIO()
        emit(cases, True, text)
        args.output.write_text(text.getvalue(), encoding="utf-8")
        json.loads(args.output.read_text(encoding="utf-8"))  # what was written reads back


if __name__ == "__main__":
    main()
