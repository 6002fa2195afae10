"""`--no-cache`: run one command without reading or writing the content cache
(content_cache.py). Taken before the command (`ludex --no-cache play …`) or after `validate`,
`test` and `check`; LUDEX_NO_CACHE=1 says the same for every command."""

from __future__ import annotations

import click

HELP = "Neither read nor write the content cache (also LUDEX_NO_CACHE=1)."


def _switch(ctx: click.Context, param: click.Parameter, off: bool) -> None:
    from .. import content_cache

    if param.name == "no_cache_everywhere":  # parsed first: says it for the whole command
        content_cache.switched_off = off
    elif off:
        content_cache.switched_off = True


def before_command(group):
    """The option on the `ludex` group: it holds for whichever command follows."""
    return click.option("--no-cache", "no_cache_everywhere", is_flag=True, expose_value=False,
                        callback=_switch, help=HELP)(group)


def on_command(command):
    """The option on one command."""
    return click.option("--no-cache", "no_cache", is_flag=True, expose_value=False,
                        callback=_switch, help=HELP)(command)
