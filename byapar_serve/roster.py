"""The players this server offers: the difficulty ladder (``byapar_agents.ladder``), the levels, the
panel and the checkpoint folders it was started with, Businessman's players
(``byapar_agents.businessman``), and nothing else.

A client names a player; only names on the roster are ever built, so no request can make the
server read a folder of its choosing. Learned players are stateless, so each is loaded once
per process and shared by every table and request (numpy's forward pass holds no state).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from byapar_agents import (
    LEVEL_NAMES,
    PANEL_NAMES,
    SEARCH_NAMES,
    LearnedPlayer,
    UnknownAgentError,
    make_agent,
)
from byapar_agents.businessman import BusinessmanPlayer, ExpertBusinessmanPlayer
from byapar_agents.businessman import make_agent as make_businessman_agent
from byapar_agents.ladder import LADDER, LADDER_TEXT, make_level

from .errors import UnknownPlayer
from .limits import EXPERT_BUDGET_MS, MAX_NAME_CHARS

PERSON = "person"
_LEARNED: dict[str, LearnedPlayer] = {}
_LEARNED_LOCK = threading.Lock()
_BUSINESSMAN_HARD: list[BusinessmanPlayer] = []  # Businessman's learned player, loaded once
# Businessman's players offered: each decides in about a millisecond, so a table plays them in
# the request (no search player: it would need the slow pool).
BUSINESSMAN_NAMES = ("random", "easy", "medium", "hard", "expert")


def learned(name: str) -> LearnedPlayer:
    """The process's one instance of a learned player (``hard`` or a checkpoint folder)."""
    player = _LEARNED.get(name)
    if player is None:
        with _LEARNED_LOCK:
            player = _LEARNED.get(name)
            if player is None:
                player = make_agent(name)
                _LEARNED[name] = player
    return player


class Roster:
    """Names a seat or a decide call may use. ``checkpoints``: folders given at start-up; each
    is loaded now, so a bad one stops the server before it serves (``CheckpointError``)."""

    def __init__(self, checkpoints: Sequence[str] = ()) -> None:
        builtin = set(LEVEL_NAMES) | set(PANEL_NAMES) | set(SEARCH_NAMES)
        extra = []
        for name in checkpoints:
            if name in builtin or name in extra:
                continue
            if len(name) > MAX_NAME_CHARS:
                raise UnknownAgentError(f"checkpoint folder names are at most {MAX_NAME_CHARS} "
                                        f"characters, got {len(name)}")
            player = learned(name)
            if not isinstance(player, LearnedPlayer):
                raise UnknownAgentError(f"{name!r} is not a checkpoint folder")
            extra.append(name)
        self.levels: tuple[str, ...] = LEVEL_NAMES
        self.panel: tuple[str, ...] = PANEL_NAMES
        self.search: tuple[str, ...] = SEARCH_NAMES
        self.checkpoints: tuple[str, ...] = tuple(extra)
        # The ladder, beginner to expert; its top rung is the expert itself (a search name).
        self.ladder: tuple[str, ...] = LADDER
        self.ladder_text: dict[str, str] = dict(LADDER_TEXT)
        own = tuple(n for n in LADDER if n not in builtin)
        self.names: tuple[str, ...] = (own + self.levels + self.panel + self.search
                                       + self.checkpoints)
        # Businessman's players (byapar_agents.businessman); checkpoints are Byapar's only.
        self.businessman: tuple[str, ...] = BUSINESSMAN_NAMES
        # The players offered for each game, by its name (byapar_env.games).
        self.offered: dict[str, tuple[str, ...]] = {"byapar": self.names,
                                                     "businessman": self.businessman}
        learned("hard")  # the first decide call should not pay for loading it
        make_agent("expert", budget_ms=EXPERT_BUDGET_MS)  # nor the first expert its policy

    def check(self, name: object, field: str, person_ok: bool = False,
              game: str = "byapar") -> str:
        """``name`` if this server offers it for ``game`` ("byapar" or "businessman"), else
        ``UnknownPlayer`` listing what it offers."""
        names = self.offered[game]
        allowed = ([PERSON] if person_ok else []) + list(names)
        if isinstance(name, str) and len(name) <= MAX_NAME_CHARS and name in allowed:
            return name
        if isinstance(name, str) and len(name) > MAX_NAME_CHARS:
            shown = f"a name of {len(name)} characters (at most {MAX_NAME_CHARS})"
        else:
            shown = repr(name)
        raise UnknownPlayer(f"{field}: unknown player {shown}; known players: "
                            f"{', '.join(allowed)}", field=field, allowed=allowed)

    def make(self, name: str, seed: int | None = None,
             budget_ms: float = EXPERT_BUDGET_MS) -> object:
        """A computer player for one seat: a fresh one for hand-written levels (they remember
        the offers they tried) and the expert (a time budget here, ``budget_ms`` a decision:
        a web table waits for it, it need not be reproducible), the shared instance for
        learned ones."""
        if name == "hard" or name in self.checkpoints:
            return learned(name)
        if name in self.search:
            return make_agent(name, seed=seed, budget_ms=budget_ms)
        if name == "master":  # the hard player
            return learned("hard")
        if name in self.ladder:
            return make_level(name, seed)
        return make_agent(name, seed=seed)

    def make_businessman(self, name: str, seed: int | None = None) -> BusinessmanPlayer:
        """A Businessman player for one seat: a fresh one, started with ``seed``, for the
        hand-written players (they may remember a plan), the one shared instance for ``hard``
        (a learned policy holds no memory)."""
        if name == "expert":  # a time budget here, as Byapar's seated expert
            return ExpertBusinessmanPlayer(budget_ms=EXPERT_BUDGET_MS, seed=seed)
        if name == "hard":
            if not _BUSINESSMAN_HARD:
                with _LEARNED_LOCK:
                    if not _BUSINESSMAN_HARD:
                        _BUSINESSMAN_HARD.append(make_businessman_agent("hard"))
            return _BUSINESSMAN_HARD[0]
        player = make_businessman_agent(name, seed=seed)
        player.reset(seed)
        return player
