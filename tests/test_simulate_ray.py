"""`ludex simulate --backend ray` on a local Ray bound to 127.0.0.1 gives the summary of a
local run, number for number (Ray is an optional extra: skipped where it is not installed)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("ray")


def _simulate(*extra: str) -> dict:
    run = subprocess.run([sys.executable, "-m", "ludex.cli", "simulate", "imperium", "--games",
                          "400", "--seed", "11", "--json", *extra], capture_output=True,
                         text=True)
    if run.returncode != 0 and "a local Ray did not start" in run.stderr:
        # Ray gives its node 30 s to register, three tries: a machine too busy for that says
        # nothing about the results
        pytest.skip(run.stderr.strip().splitlines()[-1])
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout)


def test_four_hundred_games_on_ray_sum_up_as_they_do_here():
    local = _simulate("--workers", "2")
    on_ray = _simulate("--backend", "ray", "--workers", "2")
    assert on_ray == local
    assert local["finished"] == 400
