"""Trade proposals in Businessman's engine: the choices while one is composed, each step of it,
whether it can still be carried out, its text and the answer to it.

``TradeRules`` is a part of ``Game`` (one of its bases): its methods work on the game's fields
(``trade``, ``owner``, ``shares``, ``cash`` and the rest) like the game's own.
"""

from __future__ import annotations

from ..core.members import member_lookup
from . import actions, board
from .actions import Action, ActionKind
from .board import FIGURES
from .state import Phase, Trade

K = member_lookup(ActionKind)
_P = member_lookup(Phase)
_CELLS = board.CELLS
_OWNABLES = board.OWNABLES
_COLOURS = range(board.NUM_COLOURS)
_CASH_ACTIONS = tuple((x, actions._GIVE_CASH[x], actions._TAKE_CASH[x])
                      for x in FIGURES.trade_cash_steps)
_GIVE_SHARE = actions._GIVE_SHARE
_TAKE_SHARE = actions._TAKE_SHARE
_money = board.money


class TradeRules:
    """The trade proposals' part of ``Game``."""

    def _compose_actions(self, p: int) -> list[Action]:
        t = self.trade
        s = t.target
        net = t.shares
        if t.steps < FIGURES.max_compose_steps:
            toggles = t.toggles
            if toggles is None:  # nothing changes lots while composing: listed once
                toggles = t.toggles = []
                owner, mort, lv = self.owner, self.mortgaged, self.level
                for c in _OWNABLES:
                    o = owner[c]
                    if o in (p, s) and not mort[c] and not lv[c]:
                        toggles.append(actions._GIVE_LOT[c] if o == p else actions._TAKE_LOT[c])
            acts = list(toggles)
            append = acts.append
            mine, theirs = self.shares[p], self.shares[s]
            for c in _COLOURS:
                n = net[c]
                if n < mine[c]:
                    append(_GIVE_SHARE[c])
                if 1 - n <= theirs[c]:
                    append(_TAKE_SHARE[c])
            cash, have, they_have = t.cash, self.cash[p], self.cash[s]
            for x, give, take in _CASH_ACTIONS:
                if cash + x <= have:
                    append(give)
                if x - cash <= they_have:
                    append(take)
        else:
            acts = []
        if t.give or t.take or any(net):
            acts.append(actions.SUBMIT_TRADE)
        acts.append(actions.CANCEL_TRADE)
        return acts

    def _trade_error(self) -> str | None:
        """Why the proposal could not be carried out now, or None."""
        t = self.trade
        p, s = self.turn, t.target
        for seat, cells in ((p, t.give), (s, t.take)):
            for c in cells:
                if self.owner[c] != seat or self.mortgaged[c] or self.level[c]:
                    return f"seat {seat} no longer holds {_CELLS[c].name} bare and unpledged"
        for c in _COLOURS:
            net = t.shares[c]
            if net > self.shares[p][c] or -net > self.shares[s][c]:
                return f"the shares of {board.COLOURS[c]} are no longer there"
        if t.cash > self.cash[p] or -t.cash > self.cash[s]:
            return "the cash is no longer there"
        return None

    def trade_text(self, t: Trade) -> str:
        parts = []
        if t.give:
            parts.append("gives " + ", ".join(_CELLS[c].name for c in t.give))
        if t.take:
            parts.append("takes " + ", ".join(_CELLS[c].name for c in t.take))
        for c in _COLOURS:
            if t.shares[c] > 0:
                parts.append(f"gives {t.shares[c]} {board.COLOURS[c]}")
            elif t.shares[c] < 0:
                parts.append(f"takes {-t.shares[c]} {board.COLOURS[c]}")
        if t.cash > 0:
            parts.append(f"pays {_money(t.cash)}")
        elif t.cash < 0:
            parts.append(f"asks {_money(-t.cash)}")
        return "; ".join(parts) or "nothing"

    def _compose(self, k: int, arg: int, colour: int) -> None:
        t = self.trade
        t.steps += 1
        if k == K.TRADE_GIVE_LOT or k == K.TRADE_TAKE_LOT:
            side = t.give if k == K.TRADE_GIVE_LOT else t.take
            if arg in side:
                side.remove(arg)
            else:
                side.append(arg)
                side.sort()
        elif k == K.TRADE_GIVE_SHARE:
            t.shares[colour] += 1
        elif k == K.TRADE_TAKE_SHARE:
            t.shares[colour] -= 1
        elif k == K.TRADE_GIVE_CASH:
            t.cash += arg
        else:
            t.cash -= arg

    def _answer_trade(self, accept: bool) -> None:
        t = self.trade
        p, s = self.turn, t.target
        if accept:
            for c in t.give:
                self.owner[c] = s
            for c in t.take:
                self.owner[c] = p
            for c in _COLOURS:
                self.shares[p][c] -= t.shares[c]
                self.shares[s][c] += t.shares[c]
            self.cash[p] -= t.cash
            self.cash[s] += t.cash
            self.log.append(f"seat {s} accepts the trade")
        else:
            self.log.append(f"seat {s} rejects the trade")
        self.trade = None
        self.phase = _P.PRE_ROLL
        self.current_player = p
