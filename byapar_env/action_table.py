"""The environment's action space: one enumerated table of ids, each with a name.

The same ``Discrete(NUM_ACTIONS)`` table serves every player count. Ids that name a place use the
place's index in ``board.PLACES`` (26 places, cities first among them are not assumed). A trade
offer is composed step by step in a ``TradeDraft`` (start, toggle places, set money, submit or
cancel); the engine sees a single offer on submit.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from .engine import Action, ActionKind, Game, Phase, actions, board

# Money in a trade: documented amounts, either direction ("pay" = the offerer pays).
TRADE_AMOUNTS = (100, 200, 300, 500, 700, 1_000, 1_200, 1_500, 1_800, 2_000, 2_500, 3_000,
                 3_500, 4_000, 5_000, 6_000, 8_000, 10_000)
# Bids: the minimum raise, fixed raises over the highest bid, and shares of the place's price.
BID_RAISES = (200, 500, 1_000, 2_000)
BID_PRICE_PERCENTS = (50, 75, 100, 125, 150, 200)
# A trade is started to the player k seats after the actor: k up to the largest table less one.
MAX_SEAT_OFFSET = board.FIGURES.max_players - 1


@dataclass(frozen=True)
class ActionSpec:
    id: int
    kind: str  # roll, pay_fine, use_bail_card, build, sell, mortgage, unmortgage, buy, decline,
    # drop_out, bid_min, bid_raise, bid_price, accept, reject, trade_start, trade_toggle,
    # trade_money, trade_submit, trade_cancel
    arg: int = 0  # a square, a raise, a percent, a seat offset or a signed amount
    name: str = ""


def _table() -> tuple[ActionSpec, ...]:
    rows: list[tuple[str, int, str]] = [
        ("roll", 0, "roll the dice"),
        ("pay_fine", 0, "pay the jail fine"),
        ("use_bail_card", 0, "use a bail card"),
    ]
    rows += [("build", s, f"build on {board.SQUARES[s].name}") for s in board.CITIES]
    rows += [("sell", s, f"sell a building on {board.SQUARES[s].name}") for s in board.CITIES]
    rows += [("mortgage", s, f"mortgage {board.SQUARES[s].name}") for s in board.PLACES]
    rows += [("unmortgage", s, f"pay off the mortgage on {board.SQUARES[s].name}")
             for s in board.PLACES]
    rows += [("buy", 0, "buy the place landed on"), ("decline", 0, "do not buy it")]
    rows += [("drop_out", 0, "drop out of the auction"), ("bid_min", 0, "bid the minimum raise")]
    rows += [("bid_raise", r, f"bid {r:,} over the highest bid") for r in BID_RAISES]
    rows += [("bid_price", p, f"bid {p}% of the price") for p in BID_PRICE_PERCENTS]
    rows += [("accept", 0, "accept the trade offered"), ("reject", 0, "decline the trade offered")]
    rows += [("trade_start", k, f"start a trade offer to the player {k} seat(s) after me")
             for k in range(1, MAX_SEAT_OFFSET + 1)]
    rows += [("trade_toggle", s, f"trade: add or remove {board.SQUARES[s].name}")
             for s in board.PLACES]
    rows += [("trade_money", 0, "trade: no money")]
    rows += [("trade_money", a, f"trade: I pay Rs {a:,}") for a in TRADE_AMOUNTS]
    rows += [("trade_money", -a, f"trade: they pay Rs {a:,}") for a in TRADE_AMOUNTS]
    rows += [("trade_submit", 0, "trade: make the offer"), ("trade_cancel", 0, "trade: cancel")]
    return tuple(ActionSpec(i, k, a, n) for i, (k, a, n) in enumerate(rows))


ACTIONS: tuple[ActionSpec, ...] = _table()
NUM_ACTIONS = len(ACTIONS)
_ID = {(s.kind, s.arg): s.id for s in ACTIONS}


ACTION_VERSION = 1


def action_table_hash() -> str:
    """A short hash of every id's kind, argument and name: checkpoints name the table they
    were trained on, and a policy is refused on another."""
    import hashlib

    text = "\n".join(f"{a.id}:{a.kind}:{a.arg}:{a.name}" for a in ACTIONS)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def action_id(kind: str, arg: int = 0) -> int:
    """The id of an action by kind and argument, e.g. ``action_id("build", 26)``."""
    try:
        return _ID[(kind, arg)]
    except KeyError:
        raise KeyError(f"no action {kind!r} with argument {arg!r}") from None


def action_to_string(action: int) -> str:
    """The name of action id ``action`` (a Python or numpy integer)."""
    if isinstance(action, bool) or not hasattr(action, "__index__") or not (
            0 <= int(action) < NUM_ACTIONS):
        raise ValueError(f"action ids run from 0 to {NUM_ACTIONS - 1}, got {action!r}")
    return ACTIONS[int(action)].name


ROLL_ID = action_id("roll")
PAY_FINE_ID = action_id("pay_fine")
USE_BAIL_ID = action_id("use_bail_card")
BUY_ID = action_id("buy")
DECLINE_ID = action_id("decline")
DROP_OUT_ID = action_id("drop_out")
BID_MIN_ID = action_id("bid_min")
ACCEPT_ID = action_id("accept")
REJECT_ID = action_id("reject")
SUBMIT_ID = action_id("trade_submit")
CANCEL_ID = action_id("trade_cancel")
BID_RAISE_IDS = tuple(action_id("bid_raise", r) for r in BID_RAISES)
BID_PRICE_IDS = tuple(action_id("bid_price", p) for p in BID_PRICE_PERCENTS)
TRADE_START_IDS = tuple(action_id("trade_start", k) for k in range(1, MAX_SEAT_OFFSET + 1))
TRADE_MONEY_IDS = {a.arg: a.id for a in ACTIONS if a.kind == "trade_money"}

def _engine_to_id_table() -> list[list[int]]:
    """``table[kind][square + 1]``: the id of the engine's fixed-choice action (square -1 for
    actions without one). Indexing beats hashing action tuples in the mask's hot path."""
    table = [[-1] * (board.NUM_SQUARES + 1) for _ in ActionKind]
    for kind, i in ((ActionKind.ROLL, ROLL_ID), (ActionKind.PAY_FINE, PAY_FINE_ID),
                    (ActionKind.USE_BAIL_CARD, USE_BAIL_ID), (ActionKind.DROP_OUT, DROP_OUT_ID),
                    (ActionKind.ACCEPT_TRADE, ACCEPT_ID), (ActionKind.REJECT_TRADE, REJECT_ID)):
        table[kind][0] = i
    for s in board.CITIES:
        table[ActionKind.BUILD][s + 1] = action_id("build", s)
        table[ActionKind.SELL_BUILDING][s + 1] = action_id("sell", s)
    for s in board.PLACES:
        table[ActionKind.MORTGAGE][s + 1] = action_id("mortgage", s)
        table[ActionKind.UNMORTGAGE][s + 1] = action_id("unmortgage", s)
        table[ActionKind.BUY][s + 1] = BUY_ID
        table[ActionKind.DECLINE][s + 1] = DECLINE_ID
    return table


_ENGINE_TO_ID = _engine_to_id_table()


def fixed_action_id(action: Action) -> int:
    """The id of an engine action other than a bid or a trade offer."""
    return _ENGINE_TO_ID[action.kind][action.square + 1]


def bid_amount(game: Game, action: int) -> int:
    """The bid that a bid id stands for in the auction under way (not checked for legality)."""
    a = game.auction
    spec = ACTIONS[action]
    if spec.kind == "bid_min":
        return a.high + board.BID_STEP
    if spec.kind == "bid_raise":
        return a.high + spec.arg
    return board.SQUARES[a.square].price * spec.arg // 100 // board.BID_STEP * board.BID_STEP


class TradeDraft:
    """A trade offer being composed by the turn's player, one step at a time."""

    __slots__ = ("target", "give", "take", "amount", "steps")

    def __init__(self, target: int, give=(), take=(), amount: int = 0, steps: int = 0) -> None:
        self.target = target
        self.give: set[int] = set(give)
        self.take: set[int] = set(take)
        self.amount = amount
        self.steps = steps

    def offer(self) -> Action:
        return actions.offer_trade(self.target, self.give, self.take, self.amount)

    def to_dict(self) -> dict:
        return {"target": self.target, "give": sorted(self.give), "take": sorted(self.take),
                "amount": self.amount, "steps": self.steps}


def _built_groups(game: Game) -> set[tuple[int, ...]]:
    """The colour groups with buildings: their places cannot change hands."""
    blds = game.buildings
    return {board.GROUP_OF[s] for s in board.CITIES if blds[s]}


# The colour groups, then every other place alone: for "who holds a tradeable place".
_PLACE_GROUPS = tuple(board.GROUPS.values()) + tuple((sq,) for sq in board.PLACES
                                                     if board.GROUP_OF[sq] is None)


def _trade_targets(game: Game, p: int) -> list[int]:
    """The seats ``p`` may start a trade offer to: still in the game, and one of the two holds a
    place whose group has no buildings (a trade needs a place in it)."""
    owner, blds, bankrupt = game.owner, game.buildings, game.bankrupt
    holders = set()
    for group in _PLACE_GROUPS:
        if any(blds[s] for s in group):
            continue
        holders.update(owner[s] for s in group)
        if p in holders:
            break  # every seat still in the game may be offered something
    mine = p in holders
    n = game.num_players
    return [t for t in ((p + k) % n for k in range(1, n))
            if not bankrupt[t] and (mine or t in holders)]


_PAY_START = TRADE_MONEY_IDS[TRADE_AMOUNTS[0]]  # "I pay" ids, ascending amounts
_RECEIVE_START = TRADE_MONEY_IDS[-TRADE_AMOUNTS[0]]  # "they pay" ids, ascending amounts
_PLACE_TOGGLES = tuple((sq, i) for i, sq in enumerate(board.PLACES))


class DraftChoices:
    """For a draft to ``target``, as a ready byte mask: every place that may be toggled (held by
    either side, in a group without buildings) and every money amount the payer holds. They
    depend only on the game, not on the draft, so one is built per game state."""

    __slots__ = ("mask",)

    def __init__(self, game: Game, target: int) -> None:
        p = game.current_player
        owner = game.owner
        built = _built_groups(game)
        group_of = board.GROUP_OF
        self.mask = mask = bytearray(NUM_ACTIONS)
        for sq, i in _PLACE_TOGGLES:
            o = owner[sq]
            if o in (p, target) and group_of[sq] not in built:
                mask[_TOGGLE_BASE + i] = 1
        mask[TRADE_MONEY_IDS[0]] = 1
        pay = bisect_right(TRADE_AMOUNTS, game.cash[p])
        mask[_PAY_START:_PAY_START + pay] = b"\x01" * pay
        receive = bisect_right(TRADE_AMOUNTS, game.cash[target])
        mask[_RECEIVE_START:_RECEIVE_START + receive] = b"\x01" * receive


def draft_mask(draft: TradeDraft, max_draft_steps: int, choices: DraftChoices) -> bytearray:
    """The legal ids while composing ``draft``, as a byte mask: cancel; submit once a place is in
    the offer; below the step cap, every toggle (each keeps the offer valid but for needing a
    place) and every money amount the payer holds, but the amount already set."""
    if draft.steps >= max_draft_steps:
        mask = bytearray(NUM_ACTIONS)
    else:
        mask = choices.mask[:]
        mask[TRADE_MONEY_IDS[draft.amount]] = 0
    mask[CANCEL_ID] = 1
    if draft.give or draft.take:
        mask[SUBMIT_ID] = 1
    return mask


def legal_ids(game: Game, draft: TradeDraft | None, max_draft_steps: int,
              pre_roll_capped: bool) -> list[int]:
    """Every legal action id now, for ``game.current_player`` (with the draft, if composing)."""
    if game.is_over:
        return []
    p = game.current_player
    if draft is not None:
        mask = draft_mask(draft, max_draft_steps, DraftChoices(game, draft.target))
        return [i for i in range(NUM_ACTIONS) if mask[i]]
    ph = game.phase
    if ph == Phase.AUCTION:
        a = game.auction
        low = a.high + board.BID_STEP
        cash = game.cash[p]
        ids = [DROP_OUT_ID, BID_MIN_ID]  # the engine never asks a bidder who cannot beat the bid
        for i in BID_RAISE_IDS + BID_PRICE_IDS:
            amount = bid_amount(game, i)
            if low <= amount <= cash:
                ids.append(i)
        return ids
    if ph == Phase.PRE_ROLL and pre_roll_capped:
        return [ROLL_ID]
    table = _ENGINE_TO_ID
    ids = [table[a[0]][a[1] + 1] for a in game.legal_actions()]
    if ph == Phase.PRE_ROLL and game.can_offer_trade():
        n = game.num_players
        ids += [TRADE_START_IDS[(t - p) % n - 1] for t in _trade_targets(game, p)]
    ids.sort()
    return ids


_TOGGLE_BASE = action_id("trade_toggle", board.PLACES[0])


def engine_action(game: Game, action: int) -> Action | None:
    """The engine action an id stands for now, or None for a trade-composition id."""
    spec = ACTIONS[action]
    k = spec.kind
    make = _BY_SQUARE.get(k)
    if make is not None:
        return make(spec.arg)
    if k == "buy":
        return actions.buy(game.pending_square)
    if k == "decline":
        return actions.decline(game.pending_square)
    if k.startswith("bid_"):
        return actions.bid(game.auction.square, bid_amount(game, action))
    return _FIXED.get(k)


_BY_SQUARE = {"build": actions.build, "sell": actions.sell_building, "mortgage": actions.mortgage,
              "unmortgage": actions.unmortgage}
_FIXED = {"roll": actions.ROLL, "pay_fine": actions.PAY_FINE,
          "use_bail_card": actions.USE_BAIL_CARD, "drop_out": actions.DROP_OUT,
          "accept": actions.ACCEPT_TRADE, "reject": actions.REJECT_TRADE}
