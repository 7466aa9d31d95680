"""The panel: strategic hand-written players of clearly different styles.

Each panel member is the medium player's mechanics (turn order of its choices, raising cash,
offer bookkeeping) with a ``Style`` that changes how it values places, money and rivals. Values
come from :mod:`byapar_env.valuation`: landing chances from the board, rents, house costs and the
rounds left, so a place is worth the rent it will bring, and a rival's whole group is worth
the rent it will cost.

- ``guardian``: never hands a rival a gain it is not paid for: it answers trades by both
  sides' change in position value and accepts only when its own gain is at least the rival's
  (so the last piece of a group costs the rival what that group will earn).
- ``completer``: pays a premium for the one piece missing from its group (up to most of what
  the whole group will earn it) and offers swaps that complete both sides' groups.
- ``shark``: an auction shark: bids up to a place's value to itself plus what keeping it from
  the rival who would gain most is worth; buys by the same measure.
- ``builder``: a fast builder: a small cash reserve, mortgages loose places to build to three
  houses as soon as it holds a group.
- ``hoarder``: a cash hoarder: keeps a reserve three times the medium player's, buys only
  what completes or blocks a group, and never bids above value.
- ``trader``: trade-happy: accepts any offer that raises its own position value, whatever it
  gives the other side, and offers spare places at list price to every player.
- ``strategist``: all of the good habits together: value-based buying, bidding, trade answers
  (a rival's gain counts by its share of the table) and premium offers with swaps.
"""

from __future__ import annotations

from dataclasses import dataclass

from byapar_env.engine import Action, Game, Phase, actions, board
from byapar_env.valuation import acquisition_gain, denial_value, trade_gains

from .medium import MediumPlayer, cash_reserve
from .tactics import GROUP_OF, PRICE, money_step, money_step_below

_GROUPS = tuple(board.GROUPS.values())


@dataclass(frozen=True)
class Style:
    """How a panel member judges. ``rival_weight`` None means "the rival's share of the table"
    (2 / players still in: 1 heads-up)."""

    value_buys: bool = False  # buy and bid by position value (plus denial when ``deny``)
    deny: bool = False
    value_trades: bool = False  # answer trades by position value
    rival_weight: float | None = None
    premium_offers: bool = False  # pay up to most of its gain for a completing piece
    swaps: bool = False  # offer place-for-place swaps that complete both groups
    reserve_scale: float = 1.0
    only_group_buys: bool = False  # buy only what completes, blocks or starts a group
    sell_everyone: bool = False  # offer spare places at list price at every table size
    keep_share: float = 0.4  # the share of its gain a premium offer keeps for itself


STYLES: dict[str, Style] = {
    "guardian": Style(value_trades=True, rival_weight=1.0),
    "completer": Style(value_trades=True, premium_offers=True, swaps=True),
    "shark": Style(value_buys=True, deny=True),
    "builder": Style(reserve_scale=0.3, value_buys=True),
    "hoarder": Style(reserve_scale=3.0, only_group_buys=True, value_trades=True,
                     rival_weight=1.0),
    "trader": Style(value_trades=True, rival_weight=0.0, sell_everyone=True),
    "strategist": Style(value_buys=True, deny=True, value_trades=True, premium_offers=True,
                        swaps=True),
}
PANEL_NAMES: tuple[str, ...] = tuple(STYLES)


def place_worth(game: Game, seat: int, sq: int, deny: bool) -> float:
    """The most ``seat`` should pay the bank for ``sq``: its price plus the change in position
    value, or (with ``deny``) plus what keeping it from the best-placed rival is worth, if
    more."""
    price = PRICE[sq]
    value = price + acquisition_gain(game, seat, sq, price)
    if deny:
        value = max(value, price + denial_value(game, seat, sq))
    return value


def bid_up_to(game: Game, seat: int, worth: float, reserve: int) -> Action:
    """The value bidder's move in ``game``'s auction: the least raise while it stays within
    ``worth`` and leaves a third of ``reserve`` in hand, else dropping out."""
    a = game.auction
    limit = min(worth, game.cash[seat] - reserve // 3)
    bid = a.high + board.BID_STEP
    return actions.bid(a.square, bid) if bid <= limit else actions.DROP_OUT


def value_bid(game: Game, seat: int) -> Action:
    """How the ``strategist`` (and the ``shark``) bids for ``seat`` in ``game``'s auction: up to
    the place's worth (``place_worth``, denial counted), keeping a third of the medium player's
    reserve."""
    return bid_up_to(game, seat, place_worth(game, seat, game.auction.square, True),
                     cash_reserve(game, seat))


class PanelPlayer(MediumPlayer):
    """A medium player's mechanics with a panel ``Style``."""

    def __init__(self, name: str) -> None:
        if name not in STYLES:
            raise ValueError(f"unknown panel player {name!r}: expected one of "
                             f"{', '.join(PANEL_NAMES)}")
        self.name = name
        self.style = STYLES[name]
        super().__init__()

    # ------------------------------------------------------------------ judgement
    def reserve(self, game: Game, seat: int) -> int:
        return int(super().reserve(game, seat) * self.style.reserve_scale)

    def _rival_weight(self, game: Game) -> float:
        w = self.style.rival_weight
        if w is not None:
            return w
        return 2 / max(2, len(game.active_seats()))

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._worth_memo: tuple[tuple, float] | None = None

    def _worth_to_me(self, game: Game, seat: int, sq: int) -> float:
        """The most ``seat`` should pay the bank for ``sq``: its price plus the change in
        position value, plus what denying it to the best-placed rival is worth. Nothing it
        depends on changes while an auction runs, so the last answer is kept."""
        key = (game.turn_count, sq, seat, tuple(game.cash), tuple(game.bankrupt))
        if self._worth_memo is not None and self._worth_memo[0] == key:
            return self._worth_memo[1]
        value = self._worth(game, seat, sq)
        self._worth_memo = (key, value)
        return value

    def _worth(self, game: Game, seat: int, sq: int) -> float:
        return place_worth(game, seat, sq, self.style.deny)

    def _group_piece(self, game: Game, sq: int, seat: int) -> bool:
        group = GROUP_OF[sq]
        if group is None:
            return board.SQUARES[sq].kind == board.TRANSPORT
        owners = {game.owner[s] for s in group if s != sq}
        if seat in owners or owners == {-1}:
            return True  # starts or furthers its own group, or nobody holds any of it yet
        # Blocks a single rival who holds every other place of the group.
        return len(owners) == 1 and -1 not in owners

    # ------------------------------------------------------------------ deciding
    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        ph = game.phase
        st = self.style
        if ph == Phase.BUY and (st.value_buys or st.only_group_buys):
            sq = game.pending_square
            price = PRICE[sq]
            cash_after = game.cash[seat] - price
            if st.only_group_buys and not self._group_piece(game, sq, seat):
                return actions.decline(sq)
            if st.value_buys:
                worth = self._worth_to_me(game, seat, sq)
                floor = self.reserve(game, seat) // 2
                if cash_after >= floor or (worth > price * 1.5 and cash_after >= 0):
                    return actions.buy(sq)
                return actions.decline(sq)
            return super().choose(game, seat, legal)
        if ph == Phase.AUCTION and (st.value_buys or st.only_group_buys):
            a = game.auction
            worth = self._worth_to_me(game, seat, a.square)
            if st.only_group_buys and not self._group_piece(game, a.square, seat):
                worth = min(worth, PRICE[a.square] // 2)
            return bid_up_to(game, seat, worth, self.reserve(game, seat))
        if ph == Phase.TRADE_ANSWER and st.value_trades:
            offerer, offer = game.offer
            theirs, mine = trade_gains(game, offerer, seat, offer.give, offer.take,
                                       offer.amount)
            good = mine > 0 and mine > self._rival_weight(game) * theirs
            return actions.ACCEPT_TRADE if good else actions.REJECT_TRADE
        return super().choose(game, seat, legal)

    # ------------------------------------------------------------------ offers
    def _offer(self, game: Game, seat: int, reserve: int) -> Action | None:
        st = self.style
        if st.swaps and game.can_offer_trade():
            swap = self._swap(game, seat)
            if swap is not None:
                return swap
        offer = super()._offer(game, seat, reserve)
        if offer is None and st.sell_everyone:
            offer = self._sale(game, seat)
        return offer

    def _offer_for(self, game: Game, seat: int, sq: int, holder: int,
                   reserve: int) -> Action | None:
        if not self.style.premium_offers:
            return super()._offer_for(game, seat, sq, holder, reserve)
        count = self._fresh(game, (holder, sq))
        if count is None:
            return None
        gain, their_loss = trade_gains(game, seat, holder, (), (sq,), 0)
        cap = min(gain * (1 - self.style.keep_share), game.cash[seat] - reserve // 2)
        start = max(PRICE[sq] * 1.1, -their_loss * 1.2)
        if cap < start:
            return None
        want = start if count == 0 else cap
        amount = money_step_below(want + 1)
        if not amount:
            return None
        offer = actions.offer_trade(holder, [], [sq], amount)
        return self._try(game, offer, (holder, sq), count)

    def _swap(self, game: Game, seat: int) -> Action | None:
        """A place for a place, each the other's missing piece, evened with money."""
        owner = game.owner
        missing: dict[int, list[tuple[int, int]]] = {}  # holder: [(its square I lack)]
        for group in _GROUPS:
            lack = [s for s in group if owner[s] != seat]
            if len(lack) == 1 and owner[lack[0]] >= 0 and not any(game.buildings[s]
                                                                   for s in group):
                missing.setdefault(owner[lack[0]], []).append((lack[0], 0))
        for holder, wants in missing.items():
            for group in _GROUPS:
                lack = [s for s in group if owner[s] != holder]
                if len(lack) != 1 or owner[lack[0]] != seat:
                    continue
                if any(game.buildings[s] for s in group):
                    continue
                give = lack[0]
                for take, _ in wants:
                    count = self._fresh(game, (holder, take))
                    if count is None:
                        continue
                    mine, theirs = trade_gains(game, seat, holder, (give,), (take,), 0)
                    balance = (mine - theirs) / 2
                    amount = money_step(int(balance)) if balance > 0 else 0
                    if mine - amount <= 0:
                        continue
                    offer = actions.offer_trade(holder, [give], [take], amount)
                    made = self._try(game, offer, (holder, take), count)
                    if made is not None:
                        return made
        return None
