"""`python -m ludex.cli …`: the same as the `ludex` command."""

from . import main

main()
