"""Stand-in networks for tests of the trade finder, the guard and the offer test: a policy that
always gives one answer and a value network that reads a seat's own cash alone; and a check that
a player composes an offer step by step."""

from __future__ import annotations

import numpy as np
from scenario import new_game

from byapar_agents.network import NumpyPolicy
from byapar_agents.value import ValueNet
from byapar_env.action_table import ACTIONS, fixed_action_id
from byapar_env.driver import offer_steps
from byapar_env.engine import actions
from byapar_env.observation import OBSERVATION_SIZE, encode


def answering(answer: actions.Action = actions.ACCEPT_TRADE) -> NumpyPolicy:
    """A policy whose most likely action is always ``answer`` (accept or reject)."""
    bias = np.zeros(len(ACTIONS), np.float32)
    bias[fixed_action_id(answer)] = 5.0
    return NumpyPolicy([(np.zeros((OBSERVATION_SIZE, len(ACTIONS)), np.float32), bias)])


def cash_value(weight: float = 0.5) -> ValueNet:
    """A value network that reads each seat's own cash alone: more cash, a better chance
    (``weight`` on the cash entry of the seat's own view)."""
    game = new_game(3, seed=0)
    before = encode(game, 0, np.zeros(OBSERVATION_SIZE, np.float32))
    game.cash[0] += 1_000
    after = encode(game, 0, np.zeros(OBSERVATION_SIZE, np.float32))
    weights = np.zeros((OBSERVATION_SIZE, 1), np.float32)
    weights[np.flatnonzero(after != before)[0]] = weight  # the seat's own cash, its first entry
    return ValueNet(NumpyPolicy([(weights, np.zeros(1, np.float32))]))


class JudgedValue(ValueNet):
    """A value network whose win chances are ``chances(game)`` (a list, a seat each) for any
    game not over: exact figures for tests of the deal judgement."""

    def __init__(self, chances) -> None:
        super().__init__(answering())
        self._chances = chances

    def win_chances(self, game):
        return list(self._chances(game))

    def table_chances(self, games):
        return [list(self._chances(g)) for g in games]

    def seat_chances(self, games, seat):
        return np.array([self._chances(g)[seat] for g in games])


def group_value(game) -> list[float]:
    """Each seat's chance in proportion to 1 + 2 a colour group it holds whole + its cash in
    units of Rs 20,000 (0 for a seat that is out): groups and money, as a stub judge sees them."""
    from byapar_env.engine import board

    scores = []
    for seat in range(game.num_players):
        if game.bankrupt[seat]:
            scores.append(0.0)
            continue
        whole = sum(all(game.owner[s] == seat for s in group) for group in board.GROUPS.values())
        scores.append(1 + 2 * whole + game.cash[seat] / 20_000)
    total = sum(scores)
    return [s / total for s in scores]


def assert_composes(player, env, seat: int, offer) -> None:
    """``player``, asked to act for ``seat`` in ``env`` again and again, takes exactly the
    environment's steps that compose ``offer``, leaves it pending and remembers it (a hard
    player's deal memory: never made again while its places stand)."""
    steps = offer_steps(seat, env.game.num_players, offer)
    taken = []
    for _ in steps:
        taken.append(player.act(env, seat))
        env.step(taken[-1])
    assert taken == steps
    assert env.game.offer == (seat, offer)
    assert player.seat_state(env.game, seat).memory.is_repeat(env.game, offer)
