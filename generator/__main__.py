"""`python -m generator` is `pnp`."""

from .entry import run

run()
