"""Where the bundled games and schemas live: beside the package in a wheel, or at the
repository root in a source checkout."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_root() -> Path:
    """The folder holding `rules/`, `cards/` and `schema/`."""
    bundled = _PACKAGE / "_bundled"
    if (bundled / "schema").is_dir():
        return bundled
    checkout = _PACKAGE.parent.parent  # interpreter/ludex -> repository root
    if (checkout / "schema").is_dir():
        return checkout
    raise FileNotFoundError(
        f"no bundled content found next to {_PACKAGE} or in a source checkout"
    )


def schema_dir() -> Path:
    return data_root() / "schema"


def rules_dir() -> Path:
    return data_root() / "rules"


def cards_dir() -> Path:
    return data_root() / "cards"


def scenarios_dir() -> Path:
    """Bundled scenario files: `tests/scenarios/` in a checkout, `scenarios/` in a wheel."""
    root = data_root()
    return root / "scenarios" if (root / "scenarios").is_dir() else root / "tests" / "scenarios"


def bundled_games() -> list[str]:
    return sorted(p.name for p in rules_dir().iterdir() if (p / "game.yaml").is_file())


def display_path(path: Path) -> Path:
    """`path` relative to the working directory when it lies below it, for shorter messages."""
    try:
        return path.resolve().relative_to(Path.cwd())
    except ValueError:
        return path
