"""The Businessman state machine: one pending decision at a time, never calling the players.

The same design as Byapar's engine (``byapar_env.engine.game``): a turn runs as a small stack of
tasks (end the turn, move, land, settle a debt, an exchange session, colour picks, a buy offer,
the Hotel's spins); the engine works through the stack until a player has a choice, and stops
there; ``apply`` takes that choice and carries on. Every die, shuffle and deal comes from the
game's own seeded generator; tests force dice with ``force_dice`` and card order with
``stack_deck``, and set hands and other fields directly.

Four parts of ``Game`` live in their own modules, as its bases: trade proposals
(``trades.TradeRules``), the share exchange and its cards (``exchange.ExchangeRules``), moving
on the board and landing (``moves.BoardMoves``), and what a seat may and may not know
(``hidden.HiddenInformation``: ``view``, ``unseen_cards``, ``determinise``). This module keeps
the state, the legal actions, ``apply``, the turn's task stack, debts and the end of a turn.
"""

from __future__ import annotations

from ..core.errors import IllegalActionError
from ..core.members import member_lookup
from ..core.table import TableGame
from . import actions, board
from .actions import Action, ActionKind
from .board import FIGURES
from .exchange import ExchangeRules
from .hidden import HiddenInformation
from .moves import BoardMoves
from .rules import Rules
from .state import (
    BANK,
    CLONE_COPIES,
    SAVE,
    T_END_TURN,
    T_MOVE,
    T_OFFER,
    T_PICK,
    T_SESSION,
    T_SESSION_TRADE,
    T_SPIN,
    Phase,
    Trade,
)
from .trades import TradeRules

K = member_lookup(ActionKind)  # the same members, looked up faster
_P = member_lookup(Phase)
_CELLS = board.CELLS
_PRICE = tuple(c.price + (FIGURES.abroad_surcharge if board.IS_ABROAD[c.index] else 0)
               for c in _CELLS)
_PRINTED = tuple(c.price for c in _CELLS)
_PLEDGE = tuple(c.pledge for c in _CELLS)
_REDEEM = tuple(v + v * FIGURES.redeem_interest_percent // 100 for v in _PLEDGE)
_BRANCH_COST = tuple(c.branch_cost for c in _CELLS)
_ENTERPRISE_COST = tuple(c.enterprise_cost for c in _CELLS)
_BRANCH_SALE = tuple(x * FIGURES.building_sale_percent // 100 for x in _BRANCH_COST)
_ENTERPRISE_SALE = tuple(x * FIGURES.building_sale_percent // 100 for x in _ENTERPRISE_COST)
_RENTS = tuple(c.rents for c in _CELLS)
_GROUP = board.GROUP_OF
_IS_LOT = board.IS_LOT
_OWNABLES = board.OWNABLES
_LOTS = board.LOTS
_COLOURS = range(board.NUM_COLOURS)
_POINT = FIGURES.point
_SIDES = FIGURES.dice_sides
_PRE_ROLL_CELL_KINDS = (K.MORTGAGE, K.REDEEM, K.BUILD_BRANCH, K.BUILD_ENTERPRISE,
                        K.SELL_BUILDING)
_money = board.money


def redeem_cost(cell: int) -> int:
    """What redeeming the pledged ``cell`` costs: its pledge value plus 10%."""
    return _REDEEM[cell]


def purchase_price(cell: int) -> int:
    """What buying the unowned ``cell`` costs (the printed price, plus the surcharge abroad)."""
    return _PRICE[cell]


class Game(TradeRules, ExchangeRules, BoardMoves, HiddenInformation, TableGame):
    """One game of Businessman. Seats are numbered 0 to ``num_players - 1`` in turn order.

    Public state (read freely; scenario tests set it up directly): per seat ``cash``, ``track``
    (board.BIG, ABROAD, MOTORWAY, ROULETTE), ``position`` (a cell id; a token at M0 stands on
    cell 5 with track MOTORWAY), ``laps``, ``shares`` (one count per colour), ``hands`` (the
    secret Exchange hand: card kinds in increasing order), ``passes`` (kept exchange passes, by
    deck), ``bankrupt``; per cell ``owner`` (-1: unowned), ``level`` (0 bare, 1 a branch, 2 a
    branch and an enterprise), ``mortgaged``, ``pledge_lap``; ``prices`` and ``supply`` per
    colour; ``played`` (Exchange cards out of the game, in order); ``decks`` (Surprise and
    Notice card numbers, top first); ``turn``, ``round``, ``phase``, ``current_player``,
    ``log``. Every field is declared with its type and range in ``state.STATE``. What every
    game on this design shares (chance, money, debts, the end, clone and save) is
    ``byapar_env.core.table.TableGame``'s.
    """

    SAVE = SAVE
    CLONE_COPIES = CLONE_COPIES
    RULES = Rules
    RULES_NAME = "a businessman Rules value"
    ACTION = Action
    PRE_ROLL = Phase.PRE_ROLL
    GAME_OVER = Phase.GAME_OVER
    RAISE_PHASE = Phase.RAISE_CASH
    RAISE_WORD = "funds"
    DICE_SIDES = _SIDES
    FINISH_CLEARS = (("pending_cell", -1), ("fork", -1), ("picks_left", 0), ("trade", None),
                     ("debt", None))
    OUT_CREDITOR_TO_BANK = True  # a debt to a seat gone bankrupt is paid to the bank
    money = staticmethod(_money)
    CARDS = board.CARDS
    KEPT = "passes"
    KEPT_EFFECT = "pass"
    KEPT_CARD = board.PASS_CARD

    def __init__(self, rules: Rules | None = None, seed: int | None = None) -> None:
        rules = self._seat_table(rules, seed)
        n = rules.num_players
        self.cash = [FIGURES.starting_cash] * n
        self.track = [board.BIG] * n
        self.position = [0] * n
        self.laps = [0] * n
        self.shares = [[FIGURES.starting_shares] * board.NUM_COLOURS for _ in range(n)]
        self.passes: list[list[str]] = [[] for _ in range(n)]
        self.bankrupt = [False] * n
        self.owner = [BANK] * board.NUM_CELLS
        self.level = [0] * board.NUM_CELLS
        self.mortgaged = [False] * board.NUM_CELLS
        self.pledge_lap = [-1] * board.NUM_CELLS
        self.prices = [FIGURES.price_start] * board.NUM_COLOURS
        self.supply = [FIGURES.shares_per_colour - n * FIGURES.starting_shares] * board.NUM_COLOURS
        self.played: list[int] = []
        self.decks: dict[str, list[int]] = {}
        for d in board.DECKS:
            cards = list(range(1, board.DECK_SIZE[d] + 1))
            self.rng.shuffle(cards)
            self.decks[d] = cards
        hands: list[list[int]] = [[] for _ in range(n)]
        for deck, per_seat in ((board.LARGE, FIGURES.hand_large),
                               (board.SMALL, FIGURES.hand_small)):
            cards = list(board.EXCHANGE_DECK[deck])
            self.rng.shuffle(cards)
            for s in range(n):
                hands[s].extend(cards[s * per_seat:(s + 1) * per_seat])
        self.hands = [sorted(h) for h in hands]  # the undealt cards stay out of the game
        self.turn = 0
        self.round = 1
        self.turn_count = 1
        self.dice = (0, 0)
        self.trades_made = 0
        self.phase = _P.PRE_ROLL
        self.current_player = 0
        self.tasks: list[tuple[int, ...]] = []
        self.pending_cell = -1
        self.fork = -1
        self.picks_left = 0
        self.session_bought = [0] * board.NUM_COLOURS
        self.trade: Trade | None = None
        self.debt: tuple[int, ...] | None = None
        self.winners: list[int] = []
        self.forced_dice: list[tuple[int, int]] = []
        self.bank_paid = 0  # money the bank has paid out
        self.bank_received = 0  # money paid to the bank
        self.log: list[str] = [f"Round 1: seat 0 to play ({n} players)"]
        self.version = 0  # counts applied actions

    # ------------------------------------------------------------------ queries
    def lots_of(self, seat: int) -> list[int]:
        """The lots (and the Supermarket) ``seat`` owns."""
        return [c for c in _OWNABLES if self.owner[c] == seat]

    def owns_group(self, seat: int, cell: int) -> bool:
        group = _GROUP[cell]
        return group is not None and all(self.owner[c] == seat for c in group)

    def rent(self, cell: int) -> int:
        """The rent a visitor other than the owner would owe on lot ``cell`` now."""
        o = self.owner[cell]
        if o == BANK or self.mortgaged[cell]:
            return 0
        if not _IS_LOT[cell]:
            return FIGURES.supermarket_fee
        lv = self.level[cell]
        if lv:
            return _RENTS[cell][lv]
        base = _RENTS[cell][0]
        return base * FIGURES.whole_group_rent_multiplier if self.owns_group(o, cell) else base

    def share_value(self, seat: int) -> int:
        return sum(self.shares[seat][c] * self.prices[c] for c in _COLOURS) * _POINT

    def net_worth(self, seat: int) -> int:
        """Cash + unpledged lots at price + pledged ones at price less the redeem cost +
        buildings at cost + shares at the current prices; 0 once bankrupt. Exchange cards and
        passes count nothing."""
        if self.bankrupt[seat]:
            return 0
        total = self.cash[seat] + self.share_value(seat)
        for c in _OWNABLES:
            if self.owner[c] == seat:
                if self.mortgaged[c]:
                    total += _PRINTED[c] - _REDEEM[c]
                else:
                    total += _PRINTED[c]
                lv = self.level[c]
                if lv:
                    total += _BRANCH_COST[c] + (_ENTERPRISE_COST[c] if lv == 2 else 0)
        return total

    def liquidation_value(self, seat: int) -> int:
        """Cash after selling every building and pledging every lot (shares never count)."""
        total = self.cash[seat]
        for c in _OWNABLES:
            if self.owner[c] == seat:
                lv = self.level[c]
                if lv:
                    total += _BRANCH_SALE[c] + (_ENTERPRISE_SALE[c] if lv == 2 else 0)
                if not self.mortgaged[c]:
                    total += _PLEDGE[c]
        return total

    def tokens_left(self) -> tuple[int, int]:
        """Branch and enterprise tokens still with the bank."""
        lv = self.level
        branches = sum(1 for c in _LOTS if lv[c])
        enterprises = sum(1 for c in _LOTS if lv[c] == 2)
        return FIGURES.branch_tokens - branches, FIGURES.enterprise_tokens - enterprises

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """Every legal action of ``current_player`` now; never empty while the game is on."""
        ph = self.phase
        p = self.current_player
        if ph == _P.PRE_ROLL:
            acts = [actions.ROLL]
            self._cell_actions(p, True, acts, _OWNABLES)
            if self.passes[p]:
                acts.append(actions.USE_PASS)
            if self.trades_made < FIGURES.max_trades_per_turn:
                bankrupt = self.bankrupt
                for s in range(self.num_players):
                    if s != p and not bankrupt[s]:
                        acts.append(actions._START_TRADE[s])
            return acts
        if ph == _P.BUY:
            c = self.pending_cell
            if self.cash[p] >= _PRICE[c]:
                return [actions._BUY[c], actions._DECLINE[c]]
            return [actions._DECLINE[c]]
        if ph == _P.EXCHANGE_TRADE:
            return self._session_actions(p)
        if ph == _P.FORK:
            f = self.fork
            if self._fork_allowed(p, f):
                return [actions._YES[f], actions._NO[f]]
            return [actions._NO[f]]
        if ph == _P.PICK_COLOUR:
            supply = self.supply
            return [actions._PICK[c] for c in _COLOURS if supply[c]]
        if ph == _P.EXCHANGE_CARD:
            return self._card_actions(p)
        if ph == _P.HOTEL_MENU:
            opts = actions._HOTEL_OPTIONS
            return list(opts) if self.rules.abroad_enabled else list(opts[1:])
        if ph == _P.RAISE_CASH:
            acts: list[Action] = []
            self._cell_actions(p, False, acts, _OWNABLES)
            return acts
        if ph == _P.TRADE_COMPOSE:
            return self._compose_actions(p)
        if ph == _P.TRADE_ANSWER:
            if self._trade_error() is None:
                return [actions.ACCEPT_TRADE, actions.REJECT_TRADE]
            return [actions.REJECT_TRADE]
        return []

    def _cell_actions(self, p: int, pre_roll: bool, acts: list[Action],
                      cells: tuple[int, ...]) -> None:
        """Pledges, redemptions, builds and sales open to ``p`` on ``cells``."""
        owner = self.owner
        lv = self.level
        mort = self.mortgaged
        cash = self.cash[p]
        tokens = None
        for c in cells:
            if owner[c] != p:
                continue
            if mort[c]:
                if pre_roll and cash >= _REDEEM[c]:
                    acts.append(actions._REDEEM[c])
                continue
            level = lv[c]
            if level:
                acts.append(actions._SELL[c])
            else:
                acts.append(actions._MORTGAGE[c])
            if not pre_roll or level == 2:
                continue
            group = _GROUP[c]
            if group is None:
                continue
            whole = True
            for g in group:
                if owner[g] != p or mort[g]:
                    whole = False
                    break
            if not whole:
                continue
            if tokens is None:
                tokens = self.tokens_left()
            if level == 0:
                if tokens[0] and cash >= _BRANCH_COST[c]:
                    acts.append(actions._BRANCH[c])
            elif tokens[1] and cash >= _ENTERPRISE_COST[c]:
                acts.append(actions._ENTERPRISE[c])

    def _fork_allowed(self, p: int, fork: int) -> bool:
        if fork == board.FORK_BROKER:
            return self.cash[p] >= FIGURES.broker_fee
        if fork == board.FORK_CUSTOMS:
            return self.cash[p] + self._customs_sale(p) >= FIGURES.customs_fee
        return True

    def _customs_sale(self, p: int) -> int:
        sh = self.shares[p]
        return sum(sh[c] // 2 * self.prices[c] for c in _COLOURS) * _POINT

    def _phase_shown(self) -> str:
        return self.phase.shown_name  # the names the messages had before the phases took Byapar's

    def _illegal_reason(self, action: object) -> str | None:
        if self.phase == _P.GAME_OVER:
            return "the game is over"
        bad = actions.field_error(action)
        if bad is not None:
            return bad
        if self._allowed(action):
            return None
        return "it is not among the legal actions"

    def _allowed(self, a: Action) -> bool:
        """Whether the well-formed action ``a`` is legal now: the rules of ``legal_actions``,
        checked for this one action (the fuzz tests compare the two)."""
        k, arg, colour, down = a
        ph = self.phase
        p = self.current_player
        if ph == _P.PRE_ROLL or ph == _P.RAISE_CASH:
            pre = ph == _P.PRE_ROLL
            if k in _PRE_ROLL_CELL_KINDS:
                if not pre and k != K.MORTGAGE and k != K.SELL_BUILDING:
                    return False
                acts: list[Action] = []
                self._cell_actions(p, pre, acts, (arg,))
                return a in acts
            if not pre:
                return False
            if k == K.ROLL:
                return True
            if k == K.USE_PASS:
                return bool(self.passes[p])
            if k == K.START_TRADE:
                return (self.trades_made < FIGURES.max_trades_per_turn and arg < self.num_players
                        and arg != p and not self.bankrupt[arg])
            return False
        if ph == _P.TRADE_COMPOSE:
            t = self.trade
            if k == K.CANCEL_TRADE:
                return True
            if k == K.SUBMIT_TRADE:
                return not t.is_empty()
            if t.steps >= FIGURES.max_compose_steps:
                return False
            s = t.target
            if k == K.TRADE_GIVE_LOT or k == K.TRADE_TAKE_LOT:
                seat = p if k == K.TRADE_GIVE_LOT else s
                return (self.owner[arg] == seat and not self.mortgaged[arg]
                        and not self.level[arg])
            if k == K.TRADE_GIVE_SHARE:
                return t.shares[colour] + 1 <= self.shares[p][colour]
            if k == K.TRADE_TAKE_SHARE:
                return 1 - t.shares[colour] <= self.shares[s][colour]
            if k == K.TRADE_GIVE_CASH:
                return t.cash + arg <= self.cash[p]
            if k == K.TRADE_TAKE_CASH:
                return arg - t.cash <= self.cash[s]
            return False
        if ph == _P.EXCHANGE_TRADE:
            if k == K.END_SESSION:
                return True
            if k == K.BUY_SHARE:
                return (self.session_bought[colour] < FIGURES.session_buy_limit
                        and self.supply[colour] > 0
                        and self.cash[p] >= self.prices[colour] * _POINT)
            if k == K.SELL_SHARE:
                return self.shares[p][colour] > 0
            return False
        if ph == _P.EXCHANGE_CARD:
            if k == K.SKIP_CARD:
                return True
            if k != K.PLAY_CARD:
                return False
            hand = self.hands[p]
            if arg >= len(hand) or (arg and hand[arg] == hand[arg - 1]):
                return False
            kind = hand[arg]
            if down and board.EXCHANGE_KINDS[kind].kind != "double":
                return False
            return self.card_cost(p, kind, colour, down) <= self.cash[p]
        return a in self.legal_actions()

    # ------------------------------------------------------------------ chance
    def _card_number(self, deck: str, card: object) -> object:
        """``stack_deck`` takes card codes like ``"SU6"`` as well as numbers."""
        if type(card) is str:
            return next((c.number for c in board.CARDS[deck] if c.code == card), None)
        return card

    def _roll(self) -> tuple[int, int]:
        if self.forced_dice:
            d = self.forced_dice.pop(0)
        else:
            r = self.rng.random
            d = (int(r() * _SIDES) + 1, int(r() * _SIDES) + 1)
        self.dice = d
        return d

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: Action) -> None:
        """Take ``action`` for ``current_player``; IllegalActionError, changing nothing, if it
        is not legal now."""
        reason = self._illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(self._illegal_message(action, reason))
        self.version += 1
        k, arg, colour, down = action
        if K.TRADE_GIVE_LOT <= k <= K.TRADE_TAKE_CASH:
            self._compose(k, arg, colour)
            return
        p = self.current_player
        log = self.log
        if k == K.ROLL:
            self._do_roll(p)
        elif k == K.BUY:
            c = self.pending_cell
            self._pay_bank(p, _PRICE[c])
            self.owner[c] = p
            self.pending_cell = -1
            log.append(f"seat {p} buys {_CELLS[c].name} for {_money(_PRICE[c])}")
            self._run()
        elif k == K.DECLINE:
            log.append(f"seat {p} does not buy {_CELLS[self.pending_cell].name}")
            self.pending_cell = -1
            self._run()
        elif k == K.YES or k == K.NO:
            self._answer_fork(p, arg, k == K.YES)
        elif k == K.PICK_COLOUR:
            self.shares[p][colour] += 1
            self.supply[colour] -= 1
            self.picks_left -= 1
            log.append(f"seat {p} takes a share of {board.COLOURS[colour]}")
            if self.picks_left == 0 or not any(self.supply):
                if self.picks_left:
                    log.append(f"the bank has no shares left: {self.picks_left} lost")
                self.picks_left = 0
                self._run()
        elif k == K.BUY_SHARE:
            self._pay_bank(p, self.prices[colour] * _POINT)
            self.shares[p][colour] += 1
            self.supply[colour] -= 1
            self.session_bought[colour] += 1
            log.append(f"seat {p} buys a share of {board.COLOURS[colour]} for "
                       f"{_money(self.prices[colour] * _POINT)}")
        elif k == K.SELL_SHARE:
            self._bank_pays(p, self.prices[colour] * _POINT)
            self.shares[p][colour] -= 1
            self.supply[colour] += 1
            log.append(f"seat {p} sells a share of {board.COLOURS[colour]} for "
                       f"{_money(self.prices[colour] * _POINT)}")
        elif k == K.END_SESSION:
            log.append(f"seat {p} ends the exchange session")
            self.session_bought = [0] * board.NUM_COLOURS
            self._run()
        elif k == K.PLAY_CARD:
            self._play_card(p, arg, colour, down)
        elif k == K.SKIP_CARD:
            log.append(f"seat {p} plays no Exchange card")
            self.tasks.append((T_SESSION_TRADE,))
            self._run()
        elif k == K.HOTEL:
            self._hotel(p, arg)
        elif k == K.MORTGAGE:
            self.mortgaged[arg] = True
            self.pledge_lap[arg] = self.laps[p]
            self._bank_pays(p, _PLEDGE[arg])
            log.append(f"seat {p} pledges {_CELLS[arg].name} for {_money(_PLEDGE[arg])}")
            self._after_raise(p)
        elif k == K.SELL_BUILDING:
            if self.level[arg] == 2:
                amount, what = _ENTERPRISE_SALE[arg], "an enterprise"
            else:
                amount, what = _BRANCH_SALE[arg], "a branch"
            self.level[arg] -= 1
            self._bank_pays(p, amount)
            log.append(f"seat {p} sells {what} on {_CELLS[arg].name} for {_money(amount)}")
            self._after_raise(p)
        elif k == K.REDEEM:
            self._pay_bank(p, _REDEEM[arg])
            self.mortgaged[arg] = False
            self.pledge_lap[arg] = -1
            log.append(f"seat {p} redeems {_CELLS[arg].name} for {_money(_REDEEM[arg])}")
        elif k == K.BUILD_BRANCH:
            self._pay_bank(p, _BRANCH_COST[arg])
            self.level[arg] = 1
            log.append(f"seat {p} builds a branch on {_CELLS[arg].name}")
        elif k == K.BUILD_ENTERPRISE:
            self._pay_bank(p, _ENTERPRISE_COST[arg])
            self.level[arg] = 2
            log.append(f"seat {p} builds an enterprise on {_CELLS[arg].name}")
        elif k == K.USE_PASS:
            deck = self._use_kept(p)
            log.append(f"seat {p} uses an exchange pass ({deck})")
            self.tasks = [(T_SESSION,)]
            self._run()
        elif k == K.START_TRADE:
            self.trades_made += 1
            self.trade = Trade(arg)
            self.phase = _P.TRADE_COMPOSE
            log.append(f"seat {p} starts a trade proposal to seat {arg}")
        elif k == K.SUBMIT_TRADE:
            t = self.trade
            self.phase = _P.TRADE_ANSWER
            self.current_player = t.target
            log.append(f"seat {p} proposes to seat {t.target}: {self.trade_text(t)}")
        elif k == K.CANCEL_TRADE:
            self.trade = None
            self.phase = _P.PRE_ROLL
            log.append(f"seat {p} cancels the proposal")
        elif k == K.ACCEPT_TRADE or k == K.REJECT_TRADE:
            self._answer_trade(k == K.ACCEPT_TRADE)

    # ------------------------------------------------------------------ the turn
    def _do_roll(self, p: int) -> None:
        d1, d2 = self._roll()
        self.log.append(f"seat {p} rolls {d1}+{d2}")
        tasks = [(T_END_TURN,), (T_MOVE, d1 + d2)]
        if (d1, d2) == FIGURES.exchange_roll:
            self.log.append(f"seat {p} rolled {d1}:{d2}: one exchange session first")
            tasks.append((T_SESSION,))
        self.tasks = tasks
        self._run()

    def _task(self, t: tuple[int, ...]) -> bool:
        """Businessman's own tasks of the turn's stack (``TableGame._run`` works the shared
        ones); True when a decision is pending."""
        code = t[0]
        if code == T_OFFER:
            c = t[1]
            if self.owner[c] == BANK and not self.bankrupt[self.turn]:
                self.pending_cell = c
                self.phase = _P.BUY
                self.current_player = self.turn
                return True
        elif code == T_SESSION:
            self.session_bought = [0] * board.NUM_COLOURS
            self.current_player = self.turn
            if self.hands[self.turn]:
                self.phase = _P.EXCHANGE_CARD
            else:
                self.phase = _P.EXCHANGE_TRADE
            return True
        elif code == T_SESSION_TRADE:
            self.phase = _P.EXCHANGE_TRADE
            self.current_player = self.turn
            return True
        elif code == T_PICK:
            if any(self.supply):
                self.picks_left = t[1]
                self.phase = _P.PICK_COLOUR
                self.current_player = self.turn
                return True
            self.log.append(f"the bank has no shares left: {t[1]} lost")
        elif code == T_SPIN:
            self._spin(t[1], t[2])
        else:
            self._end_turn()
            return True
        return False

    def _stack_done(self) -> None:
        if self.phase != _P.GAME_OVER:
            self.phase = _P.PRE_ROLL
            self.current_player = self.turn

    # ------------------------------------------------------------------ debts and bankruptcy
    def _go_bankrupt(self, debt: tuple[int, ...]) -> None:
        p = debt[1]
        for i in range(2, len(debt), 2):
            c = debt[i]
            if c != BANK and not self.bankrupt[c]:
                self._bank_pays(c, debt[i + 1])
                self.log.append(f"the bank pays seat {c} the {_money(debt[i + 1])} owed")
        self._pay_bank(p, self.cash[p])
        for c in _OWNABLES:
            if self.owner[c] == p:
                self.owner[c] = BANK
                self.level[c] = 0
                self.mortgaged[c] = False
                self.pledge_lap[c] = -1
        sh = self.shares[p]
        for c in _COLOURS:
            self.supply[c] += sh[c]
            sh[c] = 0
        self.hands[p] = []
        self._return_kept(p)
        self.bankrupt[p] = True
        self.log.append(f"seat {p} cannot pay {_money(sum(debt[3::2]))} and is bankrupt")
        if p == self.turn:
            self.tasks = [(T_END_TURN,)]
        left = self.active_seats()
        if len(left) == 1:
            self._finish(left, "everyone else bankrupt")

    def _end_turn(self) -> None:
        p = self.turn
        nxt, wrapped = self._next_seat(p)
        if wrapped:
            limit = self.rules.max_rounds
            if limit and self.round >= limit:
                self._finish_by_net_worth()
                return
            self.round += 1
            self.log.append(f"Round {self.round}")
        self.turn = nxt
        self.turn_count += 1
        self.trades_made = 0
        self.phase = _P.PRE_ROLL
        self.current_player = nxt
