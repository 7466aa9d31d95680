"""Engine-level play of engine players, fused into one loop for search.

``play_on`` plays a Byapar game on with one player object per seat, exactly as a bare
``SeatDriver`` does through ``engine_choices`` and ``take_engine`` (the arena's and the
rollouts' way), to a stopping point. Same game, same choices, same count toward the pre-roll
cap; ``tests/test_fast_play.py`` plays both ways from many seeded positions and compares whole
saved games. What it saves:

- no driver: the pre-roll count is one local number, and a trade offer is counted as its
  composition steps (``driver.offer_steps``) instead of being composed id by id;
- actions are taken with ``Game.apply_legal``: each comes from ``legal_actions`` or is a
  player's answer to a decision whose every answer is legal (buy or not, accept or not, a bid
  the player keeps within the legal range), and a trade offer is checked once by
  ``trade_error`` unless its player says it checked it (``OFFERS_CHECKED``);
- no list of legal actions where none can be trivial and the player reads none: a buy, an
  auction bid (the engine never asks a bidder who cannot beat the bid) and a trade answer
  always have two or more; a player that never reads ``legal`` in those phases says so with
  ``LEGAL_READ = frozenset({Phase.PRE_ROLL, Phase.RAISE_CASH})`` and gets None there.

Both flags are read from the player's own class, never inherited: a subclass that changes
``choose`` says again what it reads and checks.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from .action_table import legal_ids
from .driver import PRE_ROLL_CAP, check_offer, offer_steps
from .engine import ActionKind, Game, Phase, actions

_ROLL_ONLY = [actions.ROLL]
_OFFER = ActionKind.OFFER_TRADE
_PRE_ROLL = Phase.PRE_ROLL
_NEVER_TRIVIAL = (Phase.BUY, Phase.AUCTION, Phase.TRADE_ANSWER)


class PlayStop(Exception):
    """The deadline passed before the stopping point (``play_on``)."""


def play_on(game: Game, players: Sequence[Any], stop: tuple[int, int],
            pre_roll_actions: int = 0, first: Any = None, deadline: float = math.inf,
            cap: int = PRE_ROLL_CAP) -> None:
    """Play ``game`` on: ``first`` (if given, for the seat deciding now), then each deciding
    seat's ``players[seat].choose(game, seat, legal)``, while ``(game.round, game.turn)`` is
    before ``stop`` and the game is not over; trivial decisions in between are taken for the
    seats as the driver takes them. ``pre_roll_actions``: those already taken before rolling
    this turn. Raises ``PlayStop`` once ``deadline`` (``time.perf_counter`` time, checked
    before each decision a player is asked) has passed, and ``IllegalActionError`` for an offer
    the engine refuses or cannot compose, as the driver does."""
    clock = time.perf_counter
    state = [pre_roll_actions, game.turn_count]  # this turn's pre-roll count, and its turn
    # Each seat's choose, whether it reads ``legal`` in every phase, whether it checks offers.
    seats = []
    for player in players:
        own = vars(type(player))
        seats.append((player.choose, own.get("LEGAL_READ") is None,
                      own.get("OFFERS_CHECKED", False)))
    if first is not None and not game.is_over:
        _take(game, first, state, cap, False)
    round_, turn = stop
    while game.round < round_ or (game.round == round_ and game.turn < turn):
        legal = _choices(game, state, cap)
        if legal is False:
            return
        if clock() > deadline:
            raise PlayStop
        seat = game.current_player
        choose, reads_all, checked = seats[seat]
        if legal is None and reads_all:
            legal = game.legal_actions()
        _take(game, choose(game, seat, legal), state, cap, checked)


def _choices(game: Game, state: list[int], cap: int) -> list | None | bool:
    """``SeatDriver.engine_choices``: take every decision that has no choice, then the legal
    actions of the seat to decide (None in a phase that always has a choice, for the caller to
    list if its player reads them), or False once the game is over."""
    while not game.is_over:
        ph = game.phase
        if ph in _NEVER_TRIVIAL:
            return None
        capped = ph == _PRE_ROLL and state[0] >= cap
        legal = _ROLL_ONLY if capped else game.legal_actions()
        if len(legal) != 1:
            return legal
        if ph == _PRE_ROLL and not capped and len(legal_ids(game, None, 1, False)) != 1:
            return legal  # rolling, or starting a trade offer: a real choice
        _apply(game, legal[0], state)
    return False


def _apply(game: Game, action: Any, state: list[int]) -> None:
    if game.phase == _PRE_ROLL:
        state[0] += 1
    game.apply_legal(action)
    if game.turn_count != state[1]:
        state[1] = game.turn_count
        state[0] = 0


def _take(game: Game, action: Any, state: list[int], cap: int, checked: bool) -> None:
    """``SeatDriver.take_engine``: a trade offer counts its composition steps, and is dropped
    (not made) when the pre-roll cap is reached before its last step."""
    if action.kind != _OFFER:
        _apply(game, action, state)
        return
    if not checked:
        check_offer(game, action)
    steps = len(offer_steps(game.current_player, game.num_players, action))  # money checked
    done = state[0]
    if done + steps - 1 >= cap:
        # The cap is reached before the submit step: the draft is dropped at the first step
        # that reaches it (the first step, when the count is at the cap already).
        state[0] = done + max(1, cap - done)
        return
    state[0] = done + steps - 1  # the steps before submitting; submitting counts in _apply
    _apply(game, action, state)
