"""The command line's shared argument parser: each flag's default in its help, and a bad value
refused in one line with exit status 2; and the table options' flags, whose defaults and
figures are ``FIGURES``'s. Here, in the lowest layer that has a command
(``byapar simulate``), so that the ``byapar`` command's parsers can share them (all but
``byapar serve``'s, which ``byapar_serve/cli.py`` still builds on plain ``argparse``);
``tests/test_cli.py`` checks every flag's help and default and the table flags' defaults."""

from __future__ import annotations

import argparse

from .engine.board import FIGURES
from .games import GAMES


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Every flag's default after its help: tuples as the flag takes them (2,3,4), empty text
    as ``empty``. A flag whose default is None says in its help what happens without it."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if ("%(default)" in text or default is None or default is argparse.SUPPRESS
                or not action.option_strings):
            return text
        if isinstance(default, tuple):
            shown = ",".join(map(str, default))
        elif default == "":
            shown = "empty"
        else:
            shown = "%(default)s"
        return f"{text} (default: {shown})"


class ArgumentParser(argparse.ArgumentParser):
    """Defaults in the help, and a bad value in one line (not the whole usage), exit status 2."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(**kwargs)

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def add_table_flags(ap: argparse.ArgumentParser, players: bool = False,
                    any_game: bool = False) -> None:
    """The table options (``engine.rules.Rules``) as flags, with ``FIGURES``'s defaults:
    ``--rounds`` or ``--until-one-left``, ``--starting-cash``, ``--no-auctions``, and with
    ``players`` a ``--players`` count. The values are checked where the ``Rules`` are made.
    With ``any_game`` (a command with ``--game``), ``--rounds`` defaults to None: each game's
    own round limit (``byapar_env.games``)."""
    f = FIGURES
    if players:
        ap.add_argument("--players", type=int, default=f.default_num_players,
                        help=f"players at the table, from {f.min_players} to {f.max_players}")
    length = ap.add_mutually_exclusive_group()
    if any_game:
        own = ", ".join(f"{g.default_rounds} for {g.name}" for g in GAMES.values())
        length.add_argument("--rounds", type=int, default=None,
                            help=f"rounds a game lasts (the richest player wins after the last; "
                                 f"default: the game's own, {own})")
    else:
        length.add_argument("--rounds", type=int, default=f.default_rounds,
                            help="rounds a game lasts (the richest player wins after the last)")
    length.add_argument("--until-one-left", action="store_true",
                        help=f"play until one player is left (the richest wins after "
                             f"{f.until_one_left_round_cap} rounds)")
    ap.add_argument("--starting-cash", type=int, default=f.default_starting_cash,
                    help=f"each player's cash at the start, a positive multiple of "
                         f"{f.starting_cash_step}")
    ap.add_argument("--no-auctions", action="store_true", default=not f.default_auctions,
                    help="a place nobody buys stays with the bank instead of going to auction")
