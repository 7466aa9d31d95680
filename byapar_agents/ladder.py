"""The difficulty ladder: levels from a beginner to the expert, for a site that lets a person pick
an opponent by strength.

    from byapar_agents.ladder import LADDER, make_level
    make_level("casual", seed=7)        # a fresh player of that level

Each level is a player of this project, or a blend of two of them (``lapsing``):

| level | who plays |
|---|---|
| ``beginner`` | the easy player: a casual player's habits |
| ``novice`` | the medium player, lapsing into the easy player's habits at 4 decisions in 5 |
| ``casual`` | the medium player, lapsing into them at 9 decisions in 20 |
| ``club`` | the hard player, lapsing into the medium player's rules at 17 decisions in 20 |
| ``strong`` | the hard player (the learned policy), lapsing into medium's rules at 3 in 20 |
| ``master`` | the hard player |
| ``expert`` | the expert: the hard player checked by search (``byapar_agents.expert``) |

The shares were chosen so that the ratings step evenly from ``beginner`` to ``master``
(``bench/ladder.py`` measures them; the figures are in ``docs/serve.md``).

**Mistakes a person makes.** A weaker level is not a stronger one with random moves: its
lapses are the decisions of a weaker player with human habits, drawn decision by decision. The
easy player's habits are a casual player's (``byapar_agents.easy``): buying whatever leaves a small
reserve, bidding at most the list price, building whenever it can, judging a trade by list
prices without seeing that a place completes someone's group, never proposing a trade, paying
to leave jail at once. So a ``novice`` knows what a solid player knows but often forgets it
and does what a casual player does.
"""

from __future__ import annotations

import random

from byapar_env.action_table import ACTIONS
from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import Action, Game

from .base import EnginePlayer
from .easy import EasyPlayer
from .expert import ExpertPlayer
from .hard import DEFAULT_CHECKPOINT, LearnedPlayer
from .medium import MediumPlayer

# (name, what a person is told, sound player, habit player, share of decisions that lapse)
_LEVELS: tuple[tuple[str, str, str, str | None, float], ...] = (
    ("beginner", "Beginner: a casual player's habits", "easy", None, 0.0),
    ("novice", "Novice: knows the game, mostly plays on habit", "medium", "easy", 4 / 5),
    ("casual", "Casual: a fair player who slips about half the time", "medium", "easy", 9 / 20),
    ("club", "Club: a solid player who now and then sees deeper", "hard", "medium", 17 / 20),
    ("strong", "Strong: a learned player who sometimes plays by rule of thumb", "hard",
     "medium", 3 / 20),
    ("master", "Master: the learned player", "hard", None, 0.0),
    ("expert", "Expert: the learned player checked by search", "expert", None, 0.0),
)
LADDER: tuple[str, ...] = tuple(level[0] for level in _LEVELS)
LADDER_TEXT: dict[str, str] = {level[0]: level[1] for level in _LEVELS}
_SPEC = {level[0]: level[2:] for level in _LEVELS}
_LEARNED: list[LearnedPlayer] = []


def _hard() -> LearnedPlayer:
    """One loaded hard player per process (stateless: a forward pass holds nothing)."""
    if not _LEARNED:
        _LEARNED.append(LearnedPlayer(DEFAULT_CHECKPOINT, name="hard"))
    return _LEARNED[0]


def _base(kind: str, seed: int | None, budget_ms: float | None) -> object:
    if kind == "easy":
        return EasyPlayer()
    if kind == "medium":
        return MediumPlayer()
    if kind == "hard":
        return _hard()
    return ExpertPlayer(seed, budget_ms=budget_ms)  # expert: DEFAULT_SIMS without a budget


def make_level(name: str, seed: int | None = None, budget_ms: float | None = None) -> object:
    """A fresh player of ladder level ``name`` (``LADDER``), reset for a game from ``seed``.
    ``budget_ms`` is the expert's time budget a decision (the other levels take none)."""
    if name not in _SPEC:
        raise ValueError(f"unknown ladder level {name!r}: the levels are {', '.join(LADDER)}")
    sound, habit, lapse = _SPEC[name]
    player = _base(sound, seed, budget_ms)
    if habit is not None:
        player = lapsing(name, player, _base(habit, seed, None), lapse)
    if hasattr(player, "reset"):
        player.reset(seed)
    return player


class _Lapses:
    """``sound``, except at a share ``lapse`` of its decisions, drawn one by one from the
    seed given to ``reset``, where ``habit`` decides instead."""

    def __init__(self, name: str, sound: object, habit: object, lapse: float) -> None:
        super().__init__()
        if not 0.0 <= lapse <= 1.0:
            raise ValueError(f"lapse is a share of decisions from 0 to 1, got {lapse!r}")
        self.name = name
        self.sound = sound
        self.habit = habit
        self.lapse = lapse
        self.lapses = 0  # decisions taken by the habit this game
        self.decisions = 0
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        if isinstance(self, EnginePlayer):
            EnginePlayer.reset(self, seed)
        self._rng = random.Random(seed)
        self._composer: object | None = None
        self.lapses = self.decisions = 0
        for player in (self.sound, self.habit):
            if hasattr(player, "reset"):
                player.reset(seed)

    def _draw(self) -> object:
        self.decisions += 1
        if self._rng.random() < self.lapse:
            self.lapses += 1
            return self.habit
        return self.sound


class LapsingPlayer(_Lapses):
    """Lapses (``_Lapses``) through the environment, for any two players (a learned one
    among them): a trade offer is composed to its end by the player that started it."""

    def act(self, env: raw_env, seat: int) -> int:
        if env.draft is not None and self._composer is not None:
            return int(self._composer.act(env, seat))
        who = self._draw()
        i = int(who.act(env, seat))
        self._composer = who if ACTIONS[i].kind == "trade_start" else None
        return i


class LapsingEnginePlayer(_Lapses, EnginePlayer):
    """Lapses (``_Lapses``) between two hand-written players, drawn in ``choose``: a
    hand-written player itself, so it sits on engine tables and composes its offers as one."""

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        return self._draw().choose(game, seat, legal)


def lapsing(name: str, sound: object, habit: object, lapse: float) -> _Lapses:
    """``sound`` lapsing into ``habit`` at a share ``lapse`` of its decisions: a
    ``LapsingEnginePlayer`` when both are hand-written, a ``LapsingPlayer`` otherwise."""
    engine = all(isinstance(p, EnginePlayer) and p.engine_tables for p in (sound, habit))
    return (LapsingEnginePlayer if engine else LapsingPlayer)(name, sound, habit, lapse)


__all__ = ["LADDER", "LADDER_TEXT", "LapsingEnginePlayer", "LapsingPlayer", "lapsing",
           "make_level"]
