"""The share exchange in Businessman's engine: the session's choices, the Exchange cards' effects
and costs, the cards a seat may play, and playing one.

``ExchangeRules`` is a part of ``Game`` (one of its bases): its methods work on the game's
fields (``prices``, ``shares``, ``supply``, ``hands`` and the rest) like the game's own.
"""

from __future__ import annotations

from ..core.schema import BANK
from . import actions, board
from .actions import Action
from .board import FIGURES
from .state import (
    T_DEBT,
    T_SESSION_TRADE,
)

_COLOURS = range(board.NUM_COLOURS)
_POINT = FIGURES.point
_PMIN, _PMAX = FIGURES.price_min, FIGURES.price_max
_money = board.money


class ExchangeRules:
    """The share exchange's part of ``Game``."""

    def _session_actions(self, p: int) -> list[Action]:
        acts = []
        cash = self.cash[p]
        sh = self.shares[p]
        prices = self.prices
        bought = self.session_bought
        supply = self.supply
        limit = FIGURES.session_buy_limit
        for c in _COLOURS:
            if bought[c] < limit and supply[c] and cash >= prices[c] * _POINT:
                acts.append(actions._BUY_SHARE[c])
            if sh[c]:
                acts.append(actions._SELL_SHARE[c])
        acts.append(actions.END_SESSION)
        return acts

    def card_effect(self, kind: int, colour: int, down: bool) -> tuple[list[int], list[int]]:
        """The raw targets q and the new prices of playing Exchange card ``kind`` on
        ``colour`` (``down``: halve with a Deuce) at the current prices."""
        ex = board.EXCHANGE_KINDS[kind]
        old = self.prices
        q = list(old)
        if ex.kind == "double":
            q[colour] = old[colour] // 2 if down else old[colour] * 2
        elif ex.kind == "fall":
            q[colour] = old[colour] - ex.down
        else:  # boom, rise: the chosen colour up, the others down
            for c in _COLOURS:
                q[c] = old[c] + ex.up if c == colour else old[c] - ex.down
        new = [_PMIN if x < _PMIN else _PMAX if x > _PMAX else x for x in q]
        return q, new

    def card_cost(self, seat: int, kind: int, colour: int, down: bool) -> int:
        """What ``seat`` pays the bank (negative: is paid) for the price moves of the card."""
        _, new = self.card_effect(kind, colour, down)
        sh = self.shares[seat]
        old = self.prices
        return sum((new[c] - old[c]) * sh[c] for c in _COLOURS) * _POINT

    def _card_actions(self, p: int) -> list[Action]:
        acts = []
        cash = self.cash[p]
        seen = -1
        for slot, kind in enumerate(self.hands[p]):
            if kind == seen:  # a slot holding the same card as the one before: the same play
                continue
            seen = kind
            play = actions._PLAY[slot]
            downs = (False, True) if board.EXCHANGE_KINDS[kind].kind == "double" else (False,)
            for c in _COLOURS:
                for d in downs:
                    if self.card_cost(p, kind, c, d) <= cash:
                        acts.append(play[c][d])
        acts.append(actions.SKIP_CARD)
        return acts

    def _play_card(self, p: int, slot: int, colour: int, down: bool) -> None:
        kind = self.hands[p].pop(slot)
        self.played.append(kind)
        q, new = self.card_effect(kind, colour, down)
        old = self.prices
        ex = board.EXCHANGE_KINDS[kind]
        crash = ex.kind == "double" and down and old[colour] == _PMIN
        how = " (halve)" if down else ""
        self.log.append(f"seat {p} plays {ex.code} on {board.COLOURS[colour]}{how}")
        cost = sum((new[c] - old[c]) * self.shares[p][c] for c in _COLOURS) * _POINT
        if cost > 0:
            self._pay_bank(p, cost)
            self.log.append(f"seat {p} pays the bank {_money(cost)} for the rise")
        elif cost < 0:
            self._bank_pays(p, -cost)
            self.log.append(f"seat {p} is paid {_money(-cost)} for the fall")
        debts = []
        for s in self._others_in_order(p):
            sh = self.shares[s]
            gain = owe = 0
            for c in _COLOURS:
                h = sh[c]
                if not h:
                    continue
                if q[c] > _PMAX:
                    gain += (q[c] - _PMAX) * h * _POINT
                elif crash and c == colour:
                    owe += FIGURES.crash_per_share * h
                elif q[c] < _PMIN:
                    owe += (_PMIN - q[c]) * h * _POINT
            if gain:
                self._bank_pays(s, gain)
                self.log.append(f"seat {s} is paid {_money(gain)} for the overshoot")
            if owe:
                debts.append((T_DEBT, s, BANK, owe))
        self.prices = new
        self.log.append("prices now " + ", ".join(f"{board.COLOURS[c]} {new[c]}" for c in _COLOURS))
        self.tasks.append((T_SESSION_TRADE,))
        self.tasks.extend(reversed(debts))
        self._run()
