"""The table's web server (Starlette, run by uvicorn): the page, its script and style, and a
small JSON API over one `Table`.

Safety for a server on a designer's machine: it binds 127.0.0.1 unless told otherwise; only
requests naming this machine as their host are served (a web page elsewhere cannot reach it
through DNS rebinding); every request that changes something must be JSON (`Content-Type:
application/json`), which a page on another site cannot send here without the browser asking
first, and no such permission is ever given; saves are names inside the table's own folder,
never paths; every answer is an index among the legal options, checked again by the engine.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .session import AGENT_RUN_LIMIT, RUN_SLICE_SECONDS, Table, TableError, agent_kinds
from .words import worded

STATIC = Path(__file__).parent / "static"
LOCAL_HOSTS = ["127.0.0.1", "localhost", "[::1]", "::1"]
MAX_BODY = 5_000_000


def create_app(table: Table, host: str = "127.0.0.1") -> Starlette:
    definition = table.definition
    localizers: dict[str, Any] = {}

    def text_for(request: Request):
        lang = request.query_params.get("lang") or definition.language
        if lang not in definition.languages:
            raise TableError(f"no `{lang}` locale (there are: {', '.join(definition.languages)})")
        if lang not in localizers:
            localizers[lang] = definition.localizer(lang)
        return localizers[lang]

    def viewer_of(request: Request) -> int | None:
        """`seat=N` (from 0), `seat=all` for the designer's view of everything, or
        `seat=auto`: the person to answer (hot-seat), else the only person at the table."""
        seat = request.query_params.get("seat", "all")
        if seat == "all":
            return None
        if seat == "auto":
            return table.auto_viewer()
        if not _is_count(seat) or int(seat) >= len(table.game.state["seats"]):
            raise TableError(f"no seat `{seat}`")
        return int(seat)

    def snapshot(request: Request) -> dict:
        text = text_for(request)
        with table.lock:
            viewer = viewer_of(request)
            view = table.view(viewer, text)
            return worded({"viewer": viewer, "game": {"id": definition.game_id,
                                             "name": text.game_name(definition.game_id)},
                           "lang": text.lang, "languages": definition.languages,
                           "seat_kinds": agent_kinds(),
                           "player_counts": sorted(int(n) for n in definition.manifest["seats"]),
                           "saves": table.save_names(), "scenarios": table.scenario_names(),
                           **view}, text)

    def refusal(exc: TableError, request: Request) -> JSONResponse:
        """A refusal, in the page's language when a player can meet it in play (its engine
        message), else as the table says it."""
        said = str(exc)
        # no such language: the refusal is still told, in English
        with contextlib.suppress(TableError):
            if exc.key:
                said = text_for(request).filled(exc.key, exc.values)
        return JSONResponse({"error": said}, status_code=exc.status)

    async def body_of(request: Request) -> dict:
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            raise TableError("send JSON (Content-Type: application/json)")
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_BODY:
            raise TableError("request too large")
        # read a piece at a time, and stop past the bound: a body sent in chunks (no length
        # given) is not held whole in memory first (a 2 GB one took 3.8 GB)
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise TableError("request too large")
            chunks.append(chunk)
        raw = b"".join(chunks)
        try:
            data = json.loads(raw or b"{}")
        except (ValueError, RecursionError):  # RecursionError: nested deeper than JSON may be
            raise TableError("the request is not JSON") from None
        if not isinstance(data, dict):
            raise TableError("the request is a JSON object")
        return data

    def endpoint(work):
        """A JSON endpoint: TableError is its status (400 unless it says otherwise) with its
        message; the work runs in a thread (replays and agents can take a moment) under the
        table's lock; the answer is the table as the asking page sees it."""
        async def handle(request: Request) -> JSONResponse:
            try:
                data = await body_of(request) if request.method == "POST" else {}

                def run() -> dict:
                    with table.lock:
                        extra = work(request, data)
                        return {**snapshot(request), **(extra or {})}

                return JSONResponse(await run_in_threadpool(run))
            except TableError as exc:
                return refusal(exc, request)
            except ClientDisconnect:
                # the client went away mid-body (or sent a chunked body the server refused):
                # no one is left to answer, and nothing was done; the server drops what is sent
                return Response(status_code=400)
        return handle

    def state(request, data):
        return None

    def answer(request, data):
        era = None if data.get("era") is None else _int(data, "era")
        table.answer(_int(data, "seat"), data.get("picks"), _int(data, "moment"), era)

    def run(request, data):
        # a slice at a time: agents playing on to the end would hold the lock for minutes
        table.run_agents(min(max(1, _int(data, "count", 1)), AGENT_RUN_LIMIT),
                         seconds=RUN_SLICE_SECONDS)

    def undo(request, data):
        table.undo()

    def new(request, data):
        players = data.get("players")
        table.new_game(None if players is None else _int(data, "players"),
                       _int(data, "seed", 0), _kinds(data))
        if any(k == "human" for k in table.kinds):
            table.run_agents()

    def seats(request, data):
        table.set_seats(_kinds(data))
        if any(k == "human" for k in table.kinds):
            table.run_agents()

    def save(request, data):
        table.save(data.get("name"))

    def load(request, data):
        table.load(data.get("name"))
        if any(k == "human" for k in table.kinds):
            table.run_agents()

    def upload(request, data):
        table.upload(data.get("name"), data.get("text"))

    async def replay(request: Request) -> JSONResponse:
        try:
            source = request.query_params.get("source", "current")
            moment = request.query_params.get("step", "0")
            if not _is_count(moment.removeprefix("-")):
                raise TableError("`step` is a number")

            def work() -> dict:
                with table.lock:
                    return table.replay_view(source, int(moment), text_for(request))

            return JSONResponse(await run_in_threadpool(work))
        except TableError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)

    async def page(request: Request) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    routes = [
        Route("/", page),
        Route("/api/state", endpoint(state)),
        Route("/api/answer", endpoint(answer), methods=["POST"]),
        Route("/api/run", endpoint(run), methods=["POST"]),
        Route("/api/undo", endpoint(undo), methods=["POST"]),
        Route("/api/new", endpoint(new), methods=["POST"]),
        Route("/api/seats", endpoint(seats), methods=["POST"]),
        Route("/api/save", endpoint(save), methods=["POST"]),
        Route("/api/load", endpoint(load), methods=["POST"]),
        Route("/api/upload", endpoint(upload), methods=["POST"]),
        Route("/api/replay", replay),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    hosts = ["*"] if host not in LOCAL_HOSTS else LOCAL_HOSTS
    return Starlette(routes=routes,
                     middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)])


def _is_count(text: str) -> bool:
    """Whether a query value is a plain whole number: ASCII digits (`isdigit` takes `²`), and
    not so many that Python refuses to read them."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def _int(data: dict, key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise TableError(f"`{key}` is a whole number")
    return value


def _kinds(data: dict) -> list[str]:
    kinds = data.get("seats") or ["human"]
    if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
        raise TableError("`seats` is a list of seat kinds")
    return kinds
