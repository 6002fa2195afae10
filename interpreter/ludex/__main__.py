"""`python -m ludex …`: the same as the `ludex` command."""

from .cli import main

main()
