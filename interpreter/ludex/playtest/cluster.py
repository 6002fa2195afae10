"""`ludex simulate --backend ray`: the same games on a Ray cluster (an optional extra:
`pip install 'ludex[ray]'`).

The game's content — the files of its folder, as bytes — goes to the cluster once; each worker
process writes it to a folder of its own and compiles it there (compiled closures do not
travel). Seeds go out in chunks, a few per CPU in flight; each chunk comes back as a tally of
counts (stats.py), merged here in any order to the same summary a local run gives. Ctrl-C
cancels what is in flight and returns the games finished so far.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import signal
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ..simulate import IN_FLIGHT, Interrupted, Plan, play_chunk
from .stats import Tally

CHUNK = 25  # games per task: big enough to hide a task's overhead, small enough to stop fast


def game_files(folder: Path) -> dict[str, bytes]:
    """Every file of a game folder, by path relative to it."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


_unpacked: dict[str, str] = {}  # content digest -> folder, per worker process


def unpack(files: dict[str, bytes]) -> str:
    """The content written to a folder of this process (once per content)."""
    digest = hashlib.sha256(b"".join(k.encode() + b"\0" + v for k, v in
                                     sorted(files.items()))).hexdigest()
    if digest not in _unpacked:
        root = Path(tempfile.mkdtemp(prefix="ludex-game-"))
        for name, data in files.items():
            target = root / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        _unpacked[digest] = str(root)
    return _unpacked[digest]


def _play_chunk(files: dict[str, bytes], plan: Plan, seeds: list[int]) -> Tally:
    return play_chunk(replace(plan, folder=unpack(files)), seeds)


def _ray(local: bool):
    """Ray, imported for a local run or for joining a cluster. A local Ray must listen on the
    loopback interface only: Ray swaps 127.0.0.1 for the machine's routable address unless it
    runs as a single-machine cluster, which this variable (read when Ray is imported) asks
    for. A cluster is joined as it is."""
    if local:
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    return importlib.import_module("ray")


class ClusterError(Exception):
    """Ray could not be started or reached."""


STARTS = 3  # tries at starting a local Ray: it gives its node 30 s, too few on a busy machine


def _children() -> set[int]:
    """This process's children (Linux; elsewhere none are known)."""
    path = Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children")
    return {int(p) for p in path.read_text().split()} if path.exists() else set()


def _start(ray, address: str | None, workers: int) -> None:
    if address:
        try:
            ray.init(address=address, log_to_driver=False)
        except Exception as exc:
            raise ClusterError(f"no Ray cluster at {address}: {exc}") from None
        return
    for attempt in range(1, STARTS + 1):
        before = _children()
        try:
            ray.init(address="local", _node_ip_address="127.0.0.1", include_dashboard=False,
                     log_to_driver=False, num_cpus=workers)
            return
        except Exception as exc:
            ray.shutdown()
            # a node that failed to start is not Ray's to stop: end what this try started
            for pid in _children() - before:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGTERM)
            if "timed out during startup" not in str(exc) or attempt == STARTS:
                raise ClusterError(f"a local Ray did not start: {exc}") from None


def simulate_on_ray(plan: Plan, workers: int = 1, address: str | None = None,
                    progress: Callable[[int], None] | None = None) -> Tally:
    """Play the plan's games on Ray: an existing cluster at `address`, else a local one
    bound to 127.0.0.1 for this run. Raises Interrupted with the partial tally on Ctrl-C."""
    ray = _ray(local=address is None)
    started = not ray.is_initialized()
    if started:
        _start(ray, address, workers)
    remote = ray.remote(_play_chunk)
    files = ray.put(game_files(Path(plan.folder)))
    seeds = list(plan.seeds())
    chunks = iter([seeds[i:i + CHUNK] for i in range(0, len(seeds), CHUNK)])
    tally, in_flight = Tally(), {}
    cpus = max(1, int(ray.cluster_resources().get("CPU", workers)))
    try:
        while True:
            while len(in_flight) < cpus * IN_FLIGHT:
                chunk = next(chunks, None)
                if chunk is None:
                    break
                in_flight[remote.remote(files, plan, chunk)] = len(chunk)
            if not in_flight:
                break
            done, _ = ray.wait(list(in_flight), num_returns=1, timeout=0.2)
            for ref in done:
                tally.merge(ray.get(ref))
                for _ in range(in_flight.pop(ref)):
                    if progress:
                        progress(1)
    except KeyboardInterrupt:
        for ref in in_flight:
            ray.cancel(ref, force=True)
        raise Interrupted(tally) from None
    finally:
        if started:
            ray.shutdown()
    return tally
