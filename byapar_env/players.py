"""The interface every computer player implements, and the two simplest players.

A player is asked for one action id at a time, for one seat, and gets the raw environment: a
hand-written player reads the engine's game (``env.game``) and the legal ids
(``env.legal_action_ids()``); a learned policy reads the seat's observation and mask
(``env.observe(agent)``), which the environment only computes when asked. Both kinds can sit at
one table. A player with a memory or randomness of its own also has ``reset(seed)``, which
tables call at the start of each game so that the same seed gives the same game.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from .byapar_v0 import raw_env


@runtime_checkable
class Player(Protocol):
    def act(self, env: raw_env, seat: int) -> int:
        """A legal action id for ``seat``, the seat that must decide in ``env`` now."""
        ...


class RandomPlayer:
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, env: raw_env, seat: int) -> int:
        return self.rng.choice(env.legal_action_ids())


class PolicyPlayer:
    """A frozen policy: any function from (observation vector, action mask) to an action id."""

    def __init__(self, policy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name

    def act(self, env: raw_env, seat: int) -> int:
        obs = env.observe(env.possible_agents[seat])
        return int(self.policy(obs["observation"], obs["action_mask"]))
