"""The interface every computer player implements, and the random player.

A player is asked for one action id at a time. It gets the acting seat's observation vector and
action mask (what a learned policy reads) and the engine's game and its seat (what a hand-written
player reads), so both kinds can sit at one table. A player with its own randomness also has
``reseed(seed)``, which tables call at each new game so that the same seed gives the same game.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

import numpy as np

from .engine import Game


@runtime_checkable
class Player(Protocol):
    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game,
            seat: int) -> int:
        """A legal action id (``action_mask[id] == 1``) for ``seat``."""
        ...


class RandomPlayer:
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def reseed(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game,
            seat: int) -> int:
        return self.rng.choice(np.flatnonzero(action_mask).tolist())


class PolicyPlayer:
    """A frozen policy: any function from (observation, action mask) to an action id."""

    name = "policy"

    def __init__(self, policy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game,
            seat: int) -> int:
        return int(self.policy(observation, action_mask))
