"""Businessman's medium player: a solid player of this game's own economics.

Businessman is won on net worth, where a lot counts at its price, a building at its cost and a
share at the current price: buying and building turn cash into worth one for one, so what wins
is the rent they bring, kept liquidity, and what the others lose. Medium plays on that:

- **Lots by rent and groups.** A lot is worth its price plus the rent it should bring over the
  rounds left (landing odds by track), more when its owner holds the whole group (double rent
  and the right to build) and the branch and enterprise rents that opens. It buys when the cash
  left stays above its reserve, a lower one for a lot that completes or blocks a group.
- **A cash reserve** that grows with the worst rent the others charge, kept through buying and
  building; pledges before selling buildings (a sale returns half), the pledges that cost the
  least rent first; redeems a pledge before its owner's second lap forfeits it, and others when
  cash is ample.
- **Builds on whole groups**, the largest rent gain per credit first, branches across a group
  before enterprises.
- **Trades by its own valuation.** It offers cash for the last lot of a group it nearly holds
  (a little over the lot's worth to its owner, raised on later tries, never past what the group
  is worth to it), and answers a proposal by the change in its own value against the change in
  the proposer's: a lot that completes another's group costs that group's worth.
- **The exchange as a weapon.** Its own card moves cost it nothing (the player pays the rise of
  its own shares and is paid the fall), so it plays the card and colour that take the most from
  the others' holdings, the leader's counted double, and skips a card worth less than a few
  thousand; it uses a kept pass, the broker and the Hotel's session only for such a card;
  picks the dearest colour; sells shares for cash when below its reserve (shares never pay a
  debt).
- **Forks**: no motorway (a half-cash cell and two accidents) and no roulette (negative worth),
  customs when abroad still has lots to buy and its cash allows.

It reads only its own hand and public figures.
"""

from __future__ import annotations

from byapar_env.businessman import BANK, Action, ActionKind, Game, Phase, actions, board
from byapar_env.businessman.board import FIGURES
from byapar_env.businessman.game import purchase_price, redeem_cost
from byapar_env.driver import TRADE_STEP_CAP

from .base import BusinessmanPlayer

_CELLS = board.CELLS
_PRICE = tuple(c.price for c in _CELLS)
_RENTS = tuple(c.rents for c in _CELLS)
_GROUP = board.GROUP_OF
_BRANCH = tuple(c.branch_cost for c in _CELLS)
_ENTERPRISE = tuple(c.enterprise_cost for c in _CELLS)
_PLEDGE = tuple(c.pledge for c in _CELLS)
_COLOURS = range(board.NUM_COLOURS)

# Chance that one opponent turn ends on a given cell: about one in forty on the big ring (a
# token covers the ring in about six turns, ending on six of its forty cells), much less abroad.
LAND_BIG = 0.025
LAND_ABROAD = 0.008
BUILD_WEIGHT = 0.5  # how much of a whole group's building rents counts before it is built
BASE_RESERVE = 10_000
BUY_RESERVE_GROUP = 15_000
RESERVE_RENT_FRACTION = 0.2
BUY_WHOLE_GROUPS = True  # also groups it holds none of
CUSTOMS = True
CARD_THRESHOLD = 4_000  # the least harm to the others worth spending a card on
TRADE_TRIES = 3  # proposals for one lot in a game


def _land(c: int) -> float:
    return LAND_ABROAD if board.IS_ABROAD[c] else LAND_BIG


def rounds_left(game: Game) -> int:
    limit = game.rules.max_rounds or 20
    return max(limit - game.round + 1, 1)


def opponent_turns(game: Game) -> float:
    """Turns the others still play, in all."""
    return rounds_left(game) * max(len(game.active_seats()) - 1, 1)


def lot_worth(game: Game, seat: int, c: int, owner: list[int], turns: float) -> float:
    """What lot ``c`` is worth to ``seat`` when ``owner`` says who holds what: price plus the
    rent it should bring over ``turns`` opponent turns, with the whole group's double rent and
    part of its building rents."""
    if not board.IS_LOT[c]:
        fee = FIGURES.supermarket_fee * FIGURES.supermarket_owner_percent / 100
        return _PRICE[c] + fee * LAND_BIG * turns
    r = _RENTS[c]
    group = _GROUP[c]
    whole = all(owner[g] == seat for g in group)
    level = game.level[c]
    rent = r[level] if level else r[0] * (FIGURES.whole_group_rent_multiplier if whole else 1)
    worth = _PRICE[c] + rent * _land(c) * turns
    if whole and level < 2:
        worth += BUILD_WEIGHT * (r[2] - rent) * _land(c) * turns * min(1.0, turns / 30)
    return worth


def holdings_worth(game: Game, seat: int, owner: list[int], turns: float) -> float:
    return sum(lot_worth(game, seat, c, owner, turns) for c in board.OWNABLES if owner[c] == seat)


class MediumPlayer(BusinessmanPlayer):
    name = "medium"

    def __init__(self) -> None:
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        self._plan: list[Action] = []
        self._tries: dict[int, int] = {}  # proposals made for each lot this game
        self._tried_turn = -1
        self._proposals = 0
        self._queue: list[tuple[int, list[int], int]] = []

    # ------------------------------------------------------------------ figures
    def reserve(self, game: Game, seat: int) -> int:
        """Cash to keep: a base plus part of the dearest rent another seat charges."""
        worst = 0
        for c in board.OWNABLES:
            o = game.owner[c]
            if o != BANK and o != seat and not board.IS_ABROAD[c]:
                worst = max(worst, game.rent(c))
        late = rounds_left(game) <= 2
        return int(BASE_RESERVE + min(worst, 150_000) * RESERVE_RENT_FRACTION) // (2 if late else 1)

    def card_harm(self, game: Game, seat: int, kind: int, colour: int, down: bool) -> float:
        """What the others lose (their worth, the leader's counted twice) if ``seat`` plays
        card ``kind`` on ``colour``: the price moves on their shares and the overshoots they
        are paid or charged. The player's own worth does not move (it pays its own rise)."""
        q, new = game.card_effect(kind, colour, down)
        old = game.prices
        crash = (board.EXCHANGE_KINDS[kind].kind == "double" and down
                 and old[colour] == FIGURES.price_min)
        others = [s for s in game.active_seats() if s != seat]
        if not others:
            return 0.0
        leader = max(others, key=game.net_worth)
        harm = 0.0
        for s in others:
            sh = game.shares[s]
            loss = 0
            for c in _COLOURS:
                h = sh[c]
                if not h:
                    continue
                loss -= (new[c] - old[c]) * h * FIGURES.point
                if q[c] > FIGURES.price_max:
                    loss -= (q[c] - FIGURES.price_max) * h * FIGURES.point
                elif crash and c == colour:
                    loss += FIGURES.crash_per_share * h
                elif q[c] < FIGURES.price_min:
                    loss += (FIGURES.price_min - q[c]) * h * FIGURES.point
            harm += loss * (2 if s == leader and len(others) > 1 else 1)
        return harm / (len(others) + (1 if len(others) > 1 else 0))

    def best_card(self, game: Game, seat: int) -> tuple[float, Action | None]:
        """The most harmful card play open now (by the engine's rules of what may be played)
        and its harm; reads only ``seat``'s own hand."""
        hand = game.hands[seat]
        best, play = 0.0, None
        cash = game.cash[seat]
        for slot, kind in enumerate(hand):
            if slot and hand[slot - 1] == kind:
                continue
            downs = (False, True) if board.EXCHANGE_KINDS[kind].kind == "double" else (False,)
            for c in _COLOURS:
                for d in downs:
                    if game.card_cost(seat, kind, c, d) > cash:
                        continue
                    h = self.card_harm(game, seat, kind, c, d)
                    if h > best:
                        best, play = h, actions.play_card(slot, c, d)
        return best, play

    def card_threshold(self, game: Game) -> float:
        # Cards are worth nothing at the end: spend them freely in the last rounds.
        return CARD_THRESHOLD if rounds_left(game) > 3 else 1.0

    # ------------------------------------------------------------------ decisions
    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        ph = game.phase
        if ph == Phase.TRADE_COMPOSE:
            while self._plan:
                step = self._plan.pop(0)
                if step in legal:
                    return step
                self._plan = []
            return actions.SUBMIT_TRADE if actions.SUBMIT_TRADE in legal else actions.CANCEL_TRADE
        self._plan = []
        if ph == Phase.PRE_ROLL:
            return self._pre_roll(game, seat, legal)
        if ph == Phase.BUY:
            return self._buy(game, seat, legal)
        if ph == Phase.FORK:
            return self._fork(game, seat, legal)
        if ph == Phase.HOTEL_MENU:
            return self._hotel(game, seat, legal)
        if ph == Phase.PICK_COLOUR:
            return max(legal, key=lambda a: (game.prices[a.colour], -a.colour))
        if ph == Phase.EXCHANGE_CARD:
            harm, play = self.best_card(game, seat)
            if play is not None and harm >= self.card_threshold(game) and play in legal:
                return play
            return actions.SKIP_CARD
        if ph == Phase.EXCHANGE_TRADE:
            if game.cash[seat] < self.reserve(game, seat):
                sells = [a for a in legal if a.kind == ActionKind.SELL_SHARE]
                if sells:
                    return max(sells, key=lambda a: game.prices[a.colour])
            return actions.END_SESSION
        if ph == Phase.TRADE_ANSWER:
            ok = actions.ACCEPT_TRADE in legal and self.trade_gain(game, seat) > 0
            return actions.ACCEPT_TRADE if ok else actions.REJECT_TRADE
        if ph == Phase.RAISE_CASH:
            return self._raise(game, seat, legal)
        return legal[0]

    def _pre_roll(self, game: Game, seat: int, legal: list[Action]) -> Action:
        cash = game.cash[seat]
        reserve = self.reserve(game, seat)
        # A pledge about to be forfeited (its owner's next lap), or any pledge when cash is ample.
        redeems = [a for a in legal if a.kind == ActionKind.REDEEM]
        for a in sorted(redeems, key=lambda a: game.pledge_lap[a.arg]):
            c = a.arg
            urgent = game.laps[seat] >= game.pledge_lap[c] + FIGURES.forfeit_laps - 1
            if urgent and cash - redeem_cost(c) >= reserve // 2:
                return a
        builds = [a for a in legal
                  if a.kind in (ActionKind.BUILD_BRANCH, ActionKind.BUILD_ENTERPRISE)]
        if builds:
            turns = opponent_turns(game)

            def gain(a: Action) -> float:
                c = a.arg
                cost = _BRANCH[c] if a.kind == ActionKind.BUILD_BRANCH else _ENTERPRISE[c]
                level = game.level[c]
                before = _RENTS[c][0] * 2 if level == 0 else _RENTS[c][level]
                extra = (_RENTS[c][level + 1] - before) * _land(c) * turns
                # Branches across the group before an enterprise anywhere.
                return extra / cost - (1.0 if a.kind == ActionKind.BUILD_ENTERPRISE else 0.0)

            best = max(builds, key=gain)
            branch = best.kind == ActionKind.BUILD_BRANCH
            cost = _BRANCH[best.arg] if branch else _ENTERPRISE[best.arg]
            if cash - cost >= reserve:
                return best
        for a in redeems:
            if cash - redeem_cost(a.arg) >= 2 * reserve:
                return a
        if game.turn_count != self._tried_turn:
            self._tried_turn = game.turn_count
            self._proposals = 0
            self._queue = []
        if self._queue:  # the rest of a group's proposals, made this turn
            o, lots, offer = self._queue.pop(0)
            if (actions.start_trade(o) in legal and all(game.owner[c] == o for c in lots)
                    and cash - offer >= reserve // 2):
                plan = self._steps(o, lots, offer)
                self._plan = plan[1:]
                return plan[0]
            self._queue = []
        if self._proposals < 1:
            plan = self._proposal(game, seat, legal, reserve)
            if plan:
                self._proposals += 1
                self._plan = plan[1:]
                return plan[0]
        if actions.USE_PASS in legal:
            harm, play = self.best_card(game, seat)
            if play is not None and harm >= 2 * self.card_threshold(game):
                return actions.USE_PASS
        return actions.ROLL

    def _buy(self, game: Game, seat: int, legal: list[Action]) -> Action:
        c = game.pending_cell
        if actions.buy(c) not in legal:
            return actions.decline(c)
        left = game.cash[seat] - purchase_price(c)
        group = _GROUP[c]
        keen = False
        if group is not None:
            others = [game.owner[g] for g in group if g != c]
            mine = sum(1 for o in others if o == seat)
            theirs = {o for o in others if o not in (BANK, seat)}
            # Completes my group, or keeps another's from being completed.
            keen = mine == len(others) or (len(theirs) == 1 and all(
                o != BANK for o in others) and mine == 0)
        need = BUY_RESERVE_GROUP if keen else self.reserve(game, seat)
        if rounds_left(game) <= 1 and not keen:
            need = self.reserve(game, seat)  # little rent left to earn: only with ample cash
        return actions.buy(c) if left >= need else actions.decline(c)

    def _fork(self, game: Game, seat: int, legal: list[Action]) -> Action:
        f = game.fork
        yes = actions.yes(f)
        if yes not in legal:
            return actions.no(f)
        if f == board.FORK_CUSTOMS and CUSTOMS:
            unowned = sum(1 for c in board.OWNABLES if board.IS_ABROAD[c] and game.owner[c] == BANK)
            if unowned >= 3 and game.cash[seat] >= 150_000 and rounds_left(game) > 3:
                return yes
        elif f == board.FORK_BROKER:
            harm, play = self.best_card(game, seat)
            if play is not None and harm >= self.card_threshold(game) + FIGURES.broker_fee:
                return yes
        return actions.no(f)

    def _hotel(self, game: Game, seat: int, legal: list[Action]) -> Action:
        buy = actions.hotel(board.HOTEL_ABROAD_PURCHASE)
        if buy in legal:
            unowned = sum(1 for c in board.OWNABLES if board.IS_ABROAD[c] and game.owner[c] == BANK)
            if unowned >= 4 and game.cash[seat] >= self.reserve(game, seat) + 120_000:
                return buy
        harm, play = self.best_card(game, seat)
        if play is not None and harm >= self.card_threshold(game):
            return actions.hotel(board.HOTEL_EXCHANGE_1)
        return actions.hotel(board.HOTEL_NOTHING)

    def _raise(self, game: Game, seat: int, legal: list[Action]) -> Action:
        pledges = [a for a in legal if a.kind == ActionKind.MORTGAGE]
        if pledges:
            turns = opponent_turns(game)
            owner = game.owner

            def cost(a: Action) -> float:
                c = a.arg
                lost = lot_worth(game, seat, c, owner, turns) - _PRICE[c]  # the rent forgone
                return lost / _PLEDGE[c]

            return min(pledges, key=cost)
        # Sell a building: the one whose rent is worth least per credit returned.
        return min(legal, key=lambda a: _RENTS[a.arg][game.level[a.arg]] * _land(a.arg)
                   / max(_BRANCH[a.arg], 1))

    # ------------------------------------------------------------------ trades
    def trade_gain(self, game: Game, seat: int) -> float:
        """How much the proposal under answer is worth to ``seat`` (the receiver), less half
        of (or, heads-up, all of) what it is worth to the proposer."""
        t = game.trade
        p = game.turn
        turns = opponent_turns(game)
        before = game.owner
        after = list(before)
        for c in t.give:
            after[c] = seat
        for c in t.take:
            after[c] = p
        share_value = sum(x * game.prices[c] for c, x in enumerate(t.shares)) * FIGURES.point
        mine = (holdings_worth(game, seat, after, turns) - holdings_worth(game, seat, before, turns)
                + t.cash + share_value)
        theirs = (holdings_worth(game, p, after, turns) - holdings_worth(game, p, before, turns)
                  - t.cash - share_value)
        weight = 1.0 if len(game.active_seats()) == 2 else 0.5
        return mine - weight * max(theirs, 0) - 1_000

    def _proposal(self, game: Game, seat: int, legal: list[Action],
                  reserve: int) -> list[Action] | None:
        """Cash for the lots of a group that ``seat`` lacks, when other seats hold them all
        (bare and unpledged) and the whole group is worth more to ``seat`` than the offers:
        one proposal per owner, the first of them returned (the others follow on later
        pre-roll decisions of the same turn, while the plan holds)."""
        if rounds_left(game) <= 2:
            return None
        owner = game.owner
        turns = opponent_turns(game)
        cash = game.cash[seat]
        best = None
        for group in board.GROUPS:
            missing = [c for c in group if owner[c] != seat]
            if not missing or (len(missing) == len(group) and not BUY_WHOLE_GROUPS):
                continue
            if any(owner[c] == BANK or game.mortgaged[c] or game.level[c]
                   or game.bankrupt[owner[c]] for c in missing):
                continue
            if any(game.mortgaged[g] for g in group if g not in missing):
                continue
            sellers = sorted({owner[c] for c in missing})
            if any(actions.start_trade(o) not in legal for o in sellers):
                continue
            if len(sellers) > FIGURES.max_trades_per_turn - game.trades_made:
                continue
            tries = max(self._tries.get(c, 0) for c in missing)
            if tries >= TRADE_TRIES:
                continue
            after = list(owner)
            for c in missing:
                after[c] = seat
            value = (holdings_worth(game, seat, after, turns)
                     - holdings_worth(game, seat, owner, turns))
            offers = []
            for o in sellers:
                lots = [c for c in missing if owner[c] == o]
                worth = sum(lot_worth(game, o, c, owner, turns) for c in lots)
                offers.append((o, lots, -(-int(worth * (1.0 + 0.1 * tries)) // 1_000) * 1_000))
            total = sum(x for _, _, x in offers)
            if total > value * 0.8 or cash - total < reserve:
                continue
            if best is None or value - total > best[0]:
                best = (value - total, missing, offers)
        if best is None:
            return None
        _, missing, offers = best
        for c in missing:
            self._tries[c] = self._tries.get(c, 0) + 1
        self._queue = offers[1:]
        return self._steps(*offers[0])

    @staticmethod
    def _steps(o: int, lots: list[int], offer: int) -> list[Action]:
        """Start, a toggle per lot, the cash in the fewest steps, submit. Cash that would take
        the proposal past ``TRADE_STEP_CAP`` steps (the default cap of ``businessman_v0`` and
        ``play_game``) is rounded up to 10,000, then to 50,000, until it fits."""
        budget = TRADE_STEP_CAP - len(lots)
        for unit in sorted(FIGURES.trade_cash_steps):
            cash = _cash_steps(-(-offer // unit) * unit)
            if len(cash) <= budget:
                break
        return ([actions.start_trade(o)] + [actions.take_lot(c) for c in lots] + cash
                + [actions.SUBMIT_TRADE])


def _cash_steps(amount: int) -> list[Action]:
    """``amount`` (a multiple of 1,000) given in the fewest cash steps, largest first."""
    steps: list[Action] = []
    for x in sorted(FIGURES.trade_cash_steps, reverse=True):
        k, amount = divmod(amount, x)
        steps += [actions.give_cash(x)] * k
    return steps
