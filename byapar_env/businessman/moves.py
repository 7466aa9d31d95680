"""Moving on Businessman's board: passing Start and counting laps, the forks between tracks,
landing on a cell, the Surprise and Notice cards, the Hotel's options and spins.

``BoardMoves`` is a part of ``Game`` (one of its bases): its methods work on the game's fields
(``track``, ``position``, ``tasks``, ``decks`` and the rest) like the game's own.
"""

from __future__ import annotations

from ..core.members import member_lookup
from ..core.schema import BANK
from . import board
from .board import FIGURES
from .state import (
    T_DEBT,
    T_LAND,
    T_OFFER,
    T_PICK,
    T_SESSION,
    T_SPIN,
    Phase,
)

_P = member_lookup(Phase)
_CELLS = board.CELLS
_KIND = tuple(c.kind for c in _CELLS)
_OWNABLES = board.OWNABLES
_LOTS = board.LOTS
_COLOURS = range(board.NUM_COLOURS)
_POINT = FIGURES.point
_SUPER_OWNER_SHARE = FIGURES.supermarket_fee * FIGURES.supermarket_owner_percent // 100
_money = board.money


class BoardMoves:
    """The moves' part of ``Game``."""

    def _place(self, p: int, track: int, cell: int) -> None:
        self.track[p] = track
        self.position[p] = cell

    def _pass_start(self, p: int) -> None:
        self._bank_pays(p, FIGURES.start_pay)
        self.log.append(f"seat {p} reaches Start: {_money(FIGURES.start_pay)}")
        self._add_lap(p)

    def _add_lap(self, p: int) -> None:
        self.laps[p] += 1
        lap = self.laps[p]
        owner, mort, pl = self.owner, self.mortgaged, self.pledge_lap
        for c in _OWNABLES:
            if owner[c] == p and mort[c] and lap >= pl[c] + FIGURES.forfeit_laps:
                owner[c] = BANK
                mort[c] = False
                pl[c] = -1
                self.log.append(f"seat {p} forfeits the pledged {_CELLS[c].name} to the bank")

    def _move(self, roll: int) -> None:
        p = self.turn
        tr = self.track[p]
        pos = self.position[p]
        if tr == board.BIG:
            new = pos + roll
            if new >= board.BIG_CELLS:
                new -= board.BIG_CELLS
                self._pass_start(p)
        elif tr == board.ABROAD:
            j = pos - board.ABROAD_FIRST + roll
            if j < board.ABROAD_CELLS:
                new = board.ABROAD_FIRST + j
            else:
                self.log.append(f"seat {p} comes home from abroad")
                self._add_lap(p)
                new = FIGURES.customs_cell + j - (board.ABROAD_CELLS - 1)
                if new >= board.BIG_CELLS:
                    new -= board.BIG_CELLS
                    self._pass_start(p)
                tr = board.BIG
        elif tr == board.MOTORWAY:
            k = 0 if pos == FIGURES.motorway_entry_cell else pos - board.MOTORWAY_FIRST + 1
            new = board.MOTORWAY_FIRST - 1 + min(k + roll, board.MOTORWAY_CELLS)
        else:
            new = board.ROULETTE_FIRST + (pos - board.ROULETTE_FIRST + roll) % board.ROULETTE_CELLS
        self.track[p] = tr
        self.position[p] = new
        self.log.append(f"seat {p} moves to {_CELLS[new].name}")
        self.tasks.append((T_LAND,))

    def _ask_fork(self, p: int, fork: int) -> bool:
        self.fork = fork
        self.phase = _P.FORK
        self.current_player = p
        return True

    def _land(self) -> bool:
        """The effect of the cell the turn's player stands on; True when a decision is pending."""
        p = self.turn
        c = self.position[p]
        kind = _KIND[c]
        tasks = self.tasks
        cell = _CELLS[c]
        if kind == board.LOT:
            o = self.owner[c]
            if o == BANK:
                tasks.append((T_OFFER, c))
            elif o == p:
                pass
            elif self.mortgaged[c]:
                self.log.append(f"{cell.name} is pledged: no rent")
            else:
                tasks.append((T_DEBT, p, o, self.rent(c)))
        elif kind == board.SURPRISE or kind == board.NOTICE:
            self._draw(board.SURPRISE_DECK if kind == board.SURPRISE else board.NOTICE_DECK, p)
        elif kind == board.PENALTY or kind == board.M_ACCIDENT or kind == board.R_LOSS:
            tasks.append((T_DEBT, p, BANK, cell.amount))
        elif kind == board.WIN or kind == board.PROFIT:
            self._bank_pays(p, cell.amount)
            self.log.append(f"seat {p} receives {_money(cell.amount)}")
        elif kind == board.SUPERMARKET:
            o = self.owner[c]
            fee = FIGURES.supermarket_fee
            if o == BANK:
                tasks.append((T_OFFER, c))
                tasks.append((T_DEBT, p, BANK, fee))
            elif o == p:
                pass
            elif self.mortgaged[c]:
                tasks.append((T_DEBT, p, BANK, fee))
            else:
                tasks.append((T_DEBT, p, o, _SUPER_OWNER_SHARE, BANK, fee - _SUPER_OWNER_SHARE))
        elif kind == board.EXCHANGE:
            tasks.append((T_SESSION,))
        elif kind == board.GIFT:
            tasks.append((T_PICK, cell.amount))
        elif kind == board.MOTORWAY_ENTRY:
            return self._ask_fork(p, board.FORK_MOTORWAY)
        elif kind == board.ROULETTE_ENTRY:
            return self._ask_fork(p, board.FORK_ROULETTE)
        elif kind == board.CUSTOMS:
            if self.rules.abroad_enabled:
                return self._ask_fork(p, board.FORK_CUSTOMS)
        elif kind == board.BROKER:
            return self._ask_fork(p, board.FORK_BROKER)
        elif kind == board.HOTEL:
            self.phase = _P.HOTEL_MENU
            self.current_player = p
            return True
        elif kind == board.M_SHARES:
            tasks.append((T_SESSION,))
            tasks.append((T_PICK, cell.amount))
        elif kind == board.M_HALF:
            half = self.cash[p] // 2
            if half:
                tasks.append((T_DEBT, p, BANK, half))
        elif kind == board.M_INTERSECTION:
            self._place(p, board.BIG, FIGURES.motorway_exit_cell)
            self.log.append(f"seat {p} leaves the motorway at the intersection")
            tasks.append((T_DEBT, p, BANK, cell.amount))
        elif kind == board.R_EXIT or kind == board.R_BANK:
            if kind == board.R_BANK:
                self._bank_pays(p, cell.amount)
                self.log.append(f"seat {p} wins {_money(cell.amount)} at the roulette")
            self._place(p, board.BIG, FIGURES.roulette_exit_cell)
            self.log.append(f"seat {p} leaves the roulette")
        return False

    def _card_label(self, deck: str, card: board.Card) -> str:
        return card.code

    def _draw(self, deck: str, p: int) -> None:
        card = self._draw_card(deck, p)
        if card is None:  # an exchange pass, kept
            return
        effect = card.effect
        tasks = self.tasks
        amount = card.amount
        if effect == "cash":
            if amount > 0:
                self._bank_pays(p, amount)
            else:
                tasks.append((T_DEBT, p, BANK, -amount))
        elif effect == "move_to":
            self._move_to(p, amount)
        elif effect == "move_back":
            pos = self.position[p]
            if self.track[p] == board.ABROAD:
                new = board.ABROAD_FIRST + (pos - board.ABROAD_FIRST - amount) % board.ABROAD_CELLS
            else:
                new = (pos - amount) % board.BIG_CELLS
            self.position[p] = new
            self.log.append(f"seat {p} goes back to {_CELLS[new].name}")
            tasks.append((T_LAND,))
        elif effect == "collect_each":
            for s in reversed(self._others_in_order(p)):
                tasks.append((T_DEBT, s, p, amount))
        elif effect == "pay_each":
            for s in reversed(self._others_in_order(p)):
                tasks.append((T_DEBT, p, s, amount))
        elif effect == "shares":
            tasks.append((T_PICK, amount))
        elif effect == "dividend":
            total = sum(self.shares[p]) * amount
            if total:
                self._bank_pays(p, total)
        elif effect == "share_fee":
            total = sum(self.shares[p]) * amount
            if total:
                tasks.append((T_DEBT, p, BANK, total))
        elif effect == "pct_cash":
            fee = self.cash[p] * amount // 100 // card.amount2 * card.amount2
            if fee:
                tasks.append((T_DEBT, p, BANK, fee))
        elif effect == "lose_shares":
            sh = self.shares[p]
            for c in _COLOURS:
                lose = min(sh[c], amount)
                sh[c] -= lose
                self.supply[c] += lose
        elif effect == "repairs":
            total = 0
            for c in _LOTS:
                if self.owner[c] == p and self.level[c]:
                    total += amount + (card.amount2 if self.level[c] == 2 else 0)
            if total:
                tasks.append((T_DEBT, p, BANK, total))
        elif effect == "per_lot":
            total = sum(1 for c in _OWNABLES if self.owner[c] == p) * amount
            if total:
                tasks.append((T_DEBT, p, BANK, total))

    def _move_to(self, p: int, t: int) -> None:
        """A card's move to the big cell ``t``: walk forward on the big perimeter (START paid if
        passed or reached); from another track, placed there (START paid only on ``t == 0``)."""
        if self.track[p] == board.BIG:
            pos = self.position[p]
            steps = (t - pos) % board.BIG_CELLS
            if steps and pos + steps >= board.BIG_CELLS:
                self._pass_start(p)
        elif t == 0:
            self._pass_start(p)
        self._place(p, board.BIG, t)
        self.log.append(f"seat {p} goes to {_CELLS[t].name}")
        self.tasks.append((T_LAND,))

    def _answer_fork(self, p: int, fork: int, yes: bool) -> None:
        self.fork = -1
        log = self.log
        if not yes:
            log.append(f"seat {p} says no at the {board.FORK_NAMES[fork]}")
        elif fork == board.FORK_MOTORWAY:
            self._place(p, board.MOTORWAY, FIGURES.motorway_entry_cell)
            log.append(f"seat {p} enters the motorway")
        elif fork == board.FORK_ROULETTE:
            self._place(p, board.ROULETTE, board.ROULETTE_FIRST)
            log.append(f"seat {p} enters the roulette")
        elif fork == board.FORK_CUSTOMS:
            sh = self.shares[p]
            for c in _COLOURS:
                sell = sh[c] // 2
                if sell:
                    sh[c] -= sell
                    self.supply[c] += sell
                    self._bank_pays(p, sell * self.prices[c] * _POINT)
                    log.append(f"seat {p} sells {sell} {board.COLOURS[c]} at customs")
            self._pay_bank(p, FIGURES.customs_fee)
            self._place(p, board.ABROAD, board.ABROAD_FIRST)
            log.append(f"seat {p} pays {_money(FIGURES.customs_fee)} and crosses the border")
        else:  # the broker
            self._pay_bank(p, FIGURES.broker_fee)
            log.append(f"seat {p} pays the broker {_money(FIGURES.broker_fee)}")
            self.tasks.append((T_SESSION,))
        self._run()

    def _hotel(self, p: int, option: int) -> None:
        log = self.log
        if option == board.HOTEL_ABROAD_PURCHASE:
            d1, d2 = self._roll()
            target = board.ABROAD_FIRST + d1 + d2
            log.append(f"seat {p} rolls {d1}+{d2} from the Hotel: {_CELLS[target].name}")
            if board.IS_OWNABLE[target] and self.owner[target] == BANK:
                self.tasks.append((T_OFFER, target))
        elif option == board.HOTEL_ROULETTE_3:
            log.append(f"seat {p} plays the roulette from the Hotel")
            self.tasks.append((T_SPIN, 3, board.ROULETTE_FIRST))
        elif option == board.HOTEL_EXCHANGE_1:
            log.append(f"seat {p} plays the exchange from the Hotel")
            self.tasks.append((T_SESSION,))
        else:
            log.append(f"seat {p} does nothing at the Hotel")
        self._run()

    def _spin(self, left: int, marker: int) -> None:
        p = self.turn
        d1, d2 = self._roll()
        new = (board.ROULETTE_FIRST
               + (marker - board.ROULETTE_FIRST + d1 + d2) % board.ROULETTE_CELLS)
        cell = _CELLS[new]
        self.log.append(f"seat {p} spins {d1}+{d2}: {cell.name}")
        kind = cell.kind
        if kind == board.R_BANK:
            self._bank_pays(p, cell.amount)
            return
        if kind == board.R_EXIT:
            return
        if left > 1:
            self.tasks.append((T_SPIN, left - 1, new))
        if kind == board.R_LOSS:
            self.tasks.append((T_DEBT, p, BANK, cell.amount))
