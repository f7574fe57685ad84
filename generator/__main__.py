"""`python -m generator` is `pnp`."""

from .cli import main

main()
