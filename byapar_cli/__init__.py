"""The ``byapar`` command: the top floor, which nothing in the project imports.

Each subcommand's parser and dispatch live in :mod:`byapar_cli.command`; the jobs they run
live on the floors below (the environment's ``simulate``, the harnesses' arena, gauntlet and
analyse, training's jobs, the server). ``python -m byapar_cli`` runs the same command as ``byapar``.
"""

from .command import main

__all__ = ["main"]
