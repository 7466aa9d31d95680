"""Computer players for Businessman (``byapar_env.businessman``): random, easy, medium, hard
(the shipped policy of ``byapar train --game businessman``, ``byapar_checkpoints/businessman_hard``,
with its Exchange card worked out by sums: ``hard.py``),
expert (hard's choices checked by search on sampled deals, ``expert.py``) and learned policies
from any such checkpoint folder.

>>> from byapar_agents.businessman import make_agent
>>> player = make_agent("medium")

Each answers ``choose(game, seat, legal)`` with one of the engine's legal actions and reads only
what its seat may know; ``act(env, seat)`` seats it in ``businessman_v0``. ``play_game`` plays a
table of them on the engine, as the environment would.
"""

from __future__ import annotations

import re
from pathlib import Path

from byapar_env.businessman import Game, Rules

from ..callables import is_callable_name, load_callable
from ..errors import UnknownAgentError
from .base import BusinessmanPlayer, play_game
from .expert import DEFAULT_ROLLOUT, ExpertBusinessmanPlayer, ExpertOptionError
from .hard import HardBusinessmanPlayer
from .learned import CallableBusinessmanPlayer, LearnedBusinessmanPlayer
from .medium import MediumPlayer
from .simple import EasyPlayer, RandomPlayer

# Every player class by the same names as Byapar's, namespaced by this module
# (byapar_agents.businessman.LearnedPlayer); the names suffixed with the game stay as well.
LearnedPlayer = LearnedBusinessmanPlayer
HardPlayer = HardBusinessmanPlayer
ExpertPlayer = ExpertBusinessmanPlayer
CallablePlayer = CallableBusinessmanPlayer

AGENT_NAMES = ("random", "easy", "medium", "hard", "expert")
# "hard:FOLDER": the hard player (its sums in three phases) over the network of FOLDER, to measure
# a checkpoint as it would be shipped; a bare FOLDER seats the network alone.
HARD_OVER = "hard:"
# The expert's variants: "-medium", "-hard" or "-mixed" names who plays the rollouts (medium by
# default); "-hN" the horizon in rounds, "-end" rollouts to the game's end; "-share" or "-rent"
# how a simulation is scored at its horizon (net-worth share by default, or with the rent the
# lots should still bring); "@SIMS" the simulations per candidate. E.g. "expert@48",
# "expert-mixed-h5-rent@12".
_EXPERT_NAME = re.compile(r"expert(?:-(medium|hard|mixed))?(?:-h([0-9]{1,4})|-(end))?"
                          r"(?:-(share|rent))?(?:@([0-9]{1,5}))?")


def expert_options(name: object) -> dict | None:
    """The options an expert name asks for (``rollout``, and ``horizon_rounds``, ``value`` and
    ``sims`` when it names them), or None for a name that is not the expert's."""
    parts = _EXPERT_NAME.fullmatch(name) if isinstance(name, str) else None
    if parts is None:
        return None
    options: dict = {"rollout": parts.group(1) or DEFAULT_ROLLOUT}
    if parts.group(2) is not None:
        options["horizon_rounds"] = int(parts.group(2))
    elif parts.group(3) is not None:
        options["horizon_rounds"] = None
    if parts.group(4) is not None:
        options["value"] = parts.group(4)
    if parts.group(5) is not None:
        options["sims"] = int(parts.group(5))
    return options


def make_agent(name: str, seed: int | None = None) -> BusinessmanPlayer:
    """A fresh Businessman player by name (``random`` and the expert take the seed), the
    player of a Businessman policy checkpoint folder, or ``hard:FOLDER``, the hard player over
    that folder's network (``CheckpointError`` if the folder cannot be used)."""
    if name == "random":
        return RandomPlayer(seed)
    if name == "easy":
        return EasyPlayer()
    if name == "medium":
        return MediumPlayer()
    if name == "hard":  # the policy trained by byapar train --game businessman, and sums
        return HardBusinessmanPlayer()
    if isinstance(name, str) and name.startswith(HARD_OVER):  # hard's sums over another network
        folder = name[len(HARD_OVER):]
        if not folder or not Path(folder).is_dir():
            raise UnknownAgentError(f"{name!r}: {HARD_OVER}FOLDER needs a Businessman checkpoint "
                                    f"folder after the colon, got {folder!r}")
        return HardBusinessmanPlayer(folder, name=name)
    options = expert_options(name)
    if options is not None:  # ExpertOptionError (a ValueError) for sims or a horizon out of range
        player = ExpertBusinessmanPlayer(seed=seed, **options)
        player.name = name
        return player
    if isinstance(name, str) and name and Path(name).is_dir():
        return LearnedBusinessmanPlayer(name)
    if is_callable_name(name):  # module:callable, (observation, mask) -> action id
        return CallableBusinessmanPlayer(load_callable(name), name)
    raise UnknownAgentError(f"unknown Businessman player {name!r}: expected one of "
                     f"{', '.join(AGENT_NAMES)} (expert@SIMS and other expert variants), "
                     f"{HARD_OVER}FOLDER, a checkpoint folder or module:callable")


def seat_player(name: str, seed: int) -> BusinessmanPlayer:
    """A fresh player for one seat of one game (the arena's), seeded."""
    return make_agent(name, seed)


def learned_player(folder: str | Path) -> LearnedBusinessmanPlayer:
    """The player of a Businessman policy checkpoint folder (``CheckpointError`` if not)."""
    return LearnedBusinessmanPlayer(folder)


def play_seated(rules: Rules, seed: int, players: list) -> tuple[Game, int]:
    """One game of ``rules`` and ``seed`` played on the engine as ``businessman_v0`` plays it
    (a decision with a single legal action taken without asking), to the end: the finished
    game and the decisions taken."""
    game = Game(rules, seed=seed)
    return game, play_game(game, players)


__all__ = ["AGENT_NAMES", "BusinessmanPlayer", "CallableBusinessmanPlayer", "CallablePlayer",
           "EasyPlayer", "ExpertPlayer", "HardPlayer", "LearnedPlayer",
           "ExpertBusinessmanPlayer",
           "ExpertOptionError", "HardBusinessmanPlayer", "LearnedBusinessmanPlayer", "MediumPlayer",
           "RandomPlayer", "UnknownAgentError", "expert_options", "learned_player", "make_agent",
           "play_game", "play_seated", "seat_player"]
