"""Where the bundled games and base schemas live: beside the package in a wheel, or at the
repository root in a source checkout."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_root() -> Path:
    """The folder holding `games/` and `schema/`."""
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


def games_dir() -> Path:
    """The bundled games, one game folder each (`games/<id>/game.yaml`)."""
    return data_root() / "games"


def bundled_games() -> list[str]:
    return sorted(p.name for p in games_dir().iterdir() if (p / "game.yaml").is_file())


def examples_dir() -> Path:
    """The example games kept outside the bundle (`examples/<id>/`), the tutorial's among
    them; they travel in the wheel too, for `ludex init DIR --example ID` to copy."""
    return data_root() / "examples"


def inside_package(path: Path) -> bool:
    """Whether `path` lies inside the installed package — a wheel's bundled games and
    examples: files pip owns, often read-only, replaced by the next upgrade, so no command
    writes there. In a checkout the bundled games are the repository's own `games/`, outside
    the package, and exporting into them is how they are regenerated."""
    return Path(path).resolve().is_relative_to(_PACKAGE)


def display_path(path: Path) -> Path:
    """`path` relative to the working directory when it lies below it, for shorter messages."""
    try:
        return path.resolve().relative_to(Path.cwd())
    except ValueError:
        return path
