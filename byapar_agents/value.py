"""A learned value: each seat's chance of winning from a position, as numpy alone.

The network reads one seat's observation (``byapar_env.observation.encode``, the policy's own
input) and gives that seat a score; a softmax of the scores over the seats still in is the
table's win chances, which sum to one as the win shares do. It was trained on the outcomes of
games between the hard policy and the hand-written players (``byapar_training.value``), and the
expert's rollouts end on it at their horizon in place of the net-worth share
(``byapar_agents.search``).

A value checkpoint folder is a policy checkpoint's twin: ``weights.npz`` and ``meta.json`` with
``"format": "byapar-value"`` and one output; a folder made for another observation layout or
board, or a damaged one, is refused with ``CheckpointError``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from byapar_checkpoints import shipped
from byapar_env.driver import PRE_ROLL_CAP, TRADE_STEP_CAP
from byapar_env.engine import Game
from byapar_env.observation import OBSERVATION_SIZE, PlaceBlocks, encode

from .network import NumpyPolicy, load_checkpoint

VALUE_FORMAT = "byapar-value"
DEFAULT_VALUE = shipped("value")


class ValueNet:
    """Win chances of every seat of a game, from the seats' own observations."""

    def __init__(self, network: NumpyPolicy, meta: dict | None = None) -> None:
        self.network = network
        self.meta = meta or {}

    @classmethod
    def load(cls, folder: str | Path = DEFAULT_VALUE) -> ValueNet:
        network, meta = load_checkpoint(folder, fmt=VALUE_FORMAT, outputs=1)
        return cls(network, meta)

    def save(self, folder: str | Path, meta: dict) -> None:
        self.network.save(folder, meta, fmt=VALUE_FORMAT)

    def chances(self, observations: np.ndarray) -> np.ndarray:
        """Win chances of the seats whose observations are the rows (a softmax of scores)."""
        return _softmax(self.network.logits(observations)[:, 0])

    def win_chances(self, game: Game) -> list[float]:
        """Every seat's chance of winning ``game`` (0 for a seat that is out; the true shares
        once the game is over)."""
        if game.is_over:
            return win_shares(game)
        seats = game.active_seats()
        out = [0.0] * game.num_players
        for seat, chance in zip(seats, self.chances(_observations(game, seats)), strict=True):
            out[seat] = float(chance)
        return out

    def seat_chances(self, games: list[Game], seat: int) -> np.ndarray:
        """``seat``'s chance of winning in each of ``games`` (as ``win_chances(game)[seat]``),
        in one forward pass over every seat still in of every game."""
        blocks, spans, out = [], [], np.zeros(len(games))
        at = 0
        for k, game in enumerate(games):
            if game.is_over or game.bankrupt[seat]:
                out[k] = win_shares(game)[seat] if game.is_over else 0.0
                continue
            seats = game.active_seats()
            blocks.append(_observations(game, seats))
            spans.append((k, at, at + len(seats), seats.index(seat)))
            at += len(seats)
        if blocks:
            scores = self.network.logits(np.concatenate(blocks))[:, 0]
            for k, lo, hi, row in spans:
                out[k] = _softmax(scores[lo:hi])[row]
        return out


    def table_chances(self, games: list[Game]) -> list[list[float]]:
        """Every seat's chance of winning in each of ``games`` (as ``win_chances``), in one
        forward pass over every seat still in of every game."""
        blocks, spans, out = [], [], []
        at = 0
        for game in games:
            out.append(win_shares(game) if game.is_over else [0.0] * game.num_players)
            if game.is_over:
                continue
            seats = game.active_seats()
            blocks.append(_observations(game, seats))
            spans.append((len(out) - 1, at, seats))
            at += len(seats)
        if blocks:
            scores = self.network.logits(np.concatenate(blocks))[:, 0]
            for k, lo, seats in spans:
                for seat, chance in zip(seats, _softmax(scores[lo:lo + len(seats)]),
                                        strict=True):
                    out[k][seat] = float(chance)
        return out


def _observations(game: Game, seats: list[int]) -> np.ndarray:
    """The value network's input for ``seats`` of ``game``: each seat's own observation, a row
    a seat. A fresh array each call (a few microseconds): one shipped network serves every
    expert of a process, and byapar serve decides for several tables at once on its threads."""
    obs = np.empty((len(seats), OBSERVATION_SIZE), np.float32)
    places = PlaceBlocks()  # the board's rows once for every seat of the game
    for row, seat in enumerate(seats):
        encode(game, seat, obs[row], None, 0, PRE_ROLL_CAP, TRADE_STEP_CAP, places=places)
    return obs


def _softmax(scores: np.ndarray) -> np.ndarray:
    scores = np.exp(scores - scores.max())
    return scores / scores.sum()


def win_shares(game: Game) -> list[float]:
    """Each seat's share of the win of a finished game: 1, 1/k for a k-way shared win, or 0."""
    return [1.0 / len(game.winners) if s in game.winners else 0.0
            for s in range(game.num_players)]


@cache
def shipped_value() -> ValueNet:
    """The shipped value network, loaded once per process (stateless: safe to share)."""
    return ValueNet.load(DEFAULT_VALUE)


@cache
def value_at(folder: str | None) -> ValueNet:
    """The value network of checkpoint ``folder`` (None: the shipped one), loaded once per
    process; ``CheckpointError`` says why a folder cannot be used."""
    return shipped_value() if folder is None else ValueNet.load(folder)
