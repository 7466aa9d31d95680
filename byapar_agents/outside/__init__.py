"""The outside panel: computer players ported from public Monopoly-family AIs written outside
this project, each keeping its source's own model of what a place is worth (docs/outside_panel.md).

The split below is the one place that says which of them training may see. ``SEEN_OUTSIDE`` may
be used for training or selection; ``UNSEEN_OUTSIDE`` may not: no training run, checkpoint
selection, blend weight or tuning may name them (tests/test_outside_panel.py checks that no
module under byapar_training/ does). The unseen set is fixed at these three and new ports join
the seen set: the unseen players must not change, so that every unseen figure stays comparable
across releases, while the seen set grows to give training and selection more kinds of
competent opponent. ``SEEN_OUTSIDE`` keeps its first three players first, in this order (the
rival reader's portfolio reads those three, ``SEEN_OUTSIDE[:3]``, so that it does not change as
ports join).
"""

from __future__ import annotations

from ..base import EnginePlayer
from .bradderz import BradderzHardPlayer
from .chrisaacson import AggressiveTradingPlayer, StrategicPlayer, TradingPlayer
from .harveyxia import DarlingBenchmarkPlayer
from .intrepid import IntrepidTestPlayer
from .monopyly import HuwPlayer, SophiePlayer
from .usama import UsamaAIPlayer

_PLAYERS: dict[str, type[EnginePlayer]] = {
    cls.name: cls for cls in (TradingPlayer, AggressiveTradingPlayer, HuwPlayer, SophiePlayer,
                              IntrepidTestPlayer, DarlingBenchmarkPlayer, BradderzHardPlayer,
                              UsamaAIPlayer)
}
OUTSIDE_NAMES: tuple[str, ...] = tuple(_PLAYERS)
SEEN_OUTSIDE: tuple[str, ...] = ("outside-chrisaacson-trading", "outside-monopyly-sophie",
                                 "outside-harveyxia-benchmark", "outside-bradderz-hard",
                                 "outside-usama8800")
UNSEEN_OUTSIDE: tuple[str, ...] = ("outside-chrisaacson-aggressive", "outside-monopyly-huw",
                                   "outside-intrepid-aitest")


def make_outside(name: str) -> EnginePlayer:
    """A fresh outside player by name (one of ``OUTSIDE_NAMES``)."""
    if name not in _PLAYERS:
        raise ValueError(f"unknown outside player {name!r}: expected one of "
                         f"{', '.join(OUTSIDE_NAMES)}")
    return _PLAYERS[name]()


__all__ = ["OUTSIDE_NAMES", "SEEN_OUTSIDE", "UNSEEN_OUTSIDE", "AggressiveTradingPlayer",
           "BradderzHardPlayer", "DarlingBenchmarkPlayer", "HuwPlayer", "IntrepidTestPlayer",
           "SophiePlayer", "StrategicPlayer", "TradingPlayer", "UsamaAIPlayer", "make_outside"]
