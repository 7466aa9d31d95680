"""Request and response bodies of the /v1 API, as pydantic models: FastAPI validates requests
against them and describes them in /openapi.json.

Numbers and flags are strict (``"40"`` and ``true`` are not whole numbers), so a wrong type is
named rather than converted. Fields may be added to responses in later releases; none will be
removed or change meaning within /v1.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt

from byapar_env.driver import PRE_ROLL_CAP
from byapar_env.engine.board import FIGURES
from byapar_harness.analyse import EXPERT_SIMS

from .limits import (
    DEFAULT_ANALYSE_ROLLOUTS,
    EXPERT_BUDGET_MS,
    MAX_ADVANCE,
    MAX_ANALYSE_ROLLOUTS,
    MAX_EXPERT_BUDGET_MS,
    MAX_EXPERT_SIMS,
    MAX_IDEMPOTENCY_KEY_CHARS,
    MAX_NAME_CHARS,
    MAX_SEED,
)

Name = Annotated[str, Field(max_length=MAX_NAME_CHARS)]
Version = Annotated[StrictInt | None, Field(
    ge=0, description="the table's version the request was chosen in (from its state); "
                            "if the table has changed since, the request is refused with 409 "
                            "(error stale_version) and nothing is applied. Send it to be safe "
                            "against a request applied twice")]
IdempotencyKey = Annotated[str | None, Field(
    min_length=1, max_length=MAX_IDEMPOTENCY_KEY_CHARS, pattern=r"^[!-~]+$",
    description="a key of the client's choosing (visible ASCII, no spaces), new for each new "
                "request: a request repeated with the same key is not applied again, it gets "
                "the first one's answer (header Idempotent-Replayed: true)")]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RulesIn(_In):
    """Table options (``byapar_env.engine.Rules``); the number of seats comes from ``seats``."""

    # The defaults are the engine's (board.FIGURES), as for every other table.
    rounds: StrictInt | None = Field(FIGURES.default_rounds,
                                     description="rounds to play; null: until one is left")
    starting_cash: StrictInt = Field(
        FIGURES.default_starting_cash,
        description=f"a positive multiple of {FIGURES.starting_cash_step}")
    auctions: StrictBool = FIGURES.default_auctions
    abroad: StrictBool | None = Field(
        None, description="Businessman only: play the perimeter abroad too (true by default)")


class CreateTable(_In):
    """A new game (``seats`` and ``rules``; ``game_name`` names which: "byapar" by default, or
    "businessman"; ``game`` as a name is the earlier form), a saved game of either (``game``
    and ``seats``) or a table save (``save``, whose seats ``seats`` may replace)."""

    seats: list[Name] | None = Field(
        None, max_length=6,
        description='one entry per seat, 2 to 6: "person" or a player name (GET /v1)')
    rules: RulesIn | None = None
    seed: StrictInt | None = Field(None, ge=0, le=MAX_SEED)
    # Any: the engine's loader, not pydantic, judges a saved game, with its own messages.
    game: Any = Field(None, description='"byapar" (the default) or "businessman" for a new '
                                        "game; or the engine's saved game of either (its "
                                        "format says which)")
    save: dict[str, Any] | None = Field(None, description="a table save (GET .../save)")
    game_name: str | None = Field(None, max_length=40,
                                  description='the game: "byapar" (the default) or '
                                              '"businessman"; with it, "game" is only ever a '
                                              "saved game (as every table state's game_name)")


class ApplyAction(_In):
    """Exactly one of ``id``, ``name`` or ``engine``."""

    id: StrictInt | None = Field(None, description="an action id from the state's 'legal'")
    name: str | None = Field(None, max_length=200,
                             description="an action's name or text, e.g. 'bid 1,200 on Pokhara'")
    engine: dict[str, Any] | None = Field(
        None, description="an engine action: {kind, square, amount, target, give, take}; "
                          "trade offers go this way")
    seat: StrictInt | None = Field(None, ge=0, le=5,
                                   description="if given, the seat that must be deciding")
    version: Version = None
    idempotency_key: IdempotencyKey = None


class Advance(_In):
    max_decisions: StrictInt = Field(1, ge=1, le=MAX_ADVANCE)
    version: Version = None
    idempotency_key: IdempotencyKey = None


class Mute(_In):
    """Stop (or allow again) trade offers from a computer seat to a person seat."""

    seat: StrictInt = Field(ge=0, le=5, description="the computer seat")
    muted: StrictBool = Field(True, description="true: no offers from it; false: allow again")
    person: StrictInt | None = Field(None, ge=0, le=5,
                                     description="the person seat; every person seat if null")
    version: Version = None


class DecideIn(_In):
    game: Any = Field(description="the engine's saved game as a JSON object (or its text): "
                                  "Byapar's, or Businessman's (format businessman-game)")
    player: Name = Field("hard", description="a player name (GET /v1)")
    pre_roll_actions: StrictInt = Field(
        0, ge=0, le=1_000_000,
        description=f"actions the deciding seat already took before rolling this turn; at "
                    f"{PRE_ROLL_CAP} only rolling is left (the environment's cap)")
    budget_ms: StrictInt | StrictFloat | None = Field(
        None, gt=0, le=MAX_EXPERT_BUDGET_MS,
        description=f"the expert's time budget for this decision, milliseconds (default "
                    f"{EXPERT_BUDGET_MS:.0f}); only for player 'expert'")


class AnalyseIn(_In):
    game: Any = Field(description="the engine's saved game as a JSON object (or its text)")
    pre_roll_actions: StrictInt = Field(0, ge=0, le=1_000_000,
                                        description="as for /v1/decide")
    rollouts: StrictInt = Field(
        DEFAULT_ANALYSE_ROLLOUTS, ge=1, le=MAX_ANALYSE_ROLLOUTS,
        description="rollouts to the end for the win chances (fewer are played if the "
                    "server's time limit for one call runs out; 'rollouts' in the answer "
                    "says how many)")
    expert_sims: StrictInt = Field(EXPERT_SIMS, ge=1, le=MAX_EXPERT_SIMS,
                                   description="the expert's simulations for its choice")
    seed: StrictInt = Field(0, ge=0, le=MAX_SEED,
                            description="the seed of the rollouts' dice and cards")


class EngineAction(BaseModel):
    kind: str
    square: int
    amount: int
    target: int
    give: list[int]
    take: list[int]


class ActionOut(BaseModel):
    id: int | None = Field(description="the environment's action id; null for a trade offer "
                                       "or a bid at an amount without its own id")
    name: str
    text: str
    engine: EngineAction


class DecideOut(BaseModel):
    api_version: int
    action: ActionOut
    seat: int
    player: str
    ms: float = Field(description="server time to load the game and decide, milliseconds")
    searched: bool | None = Field(None, description="the expert only: false when its search "
                                  "had not answered within its budget and its prior, the "
                                  "hard player's move, was played instead")


class _Out(BaseModel):
    # Answers may gain fields in later releases: described here, never refused.
    model_config = ConfigDict(extra="allow")


class SeatOut(_Out):
    seat: int
    player: str = Field(description='"person" or the computer player\'s name')
    person: bool
    muted: list[int] | None = Field(None, description="person seats only: the computer "
                                                      "seats whose offers it does not get")


class _TurnOut(_Out):
    """What both games' statuses say of the turn and the game's end."""

    current_player: int
    is_over: bool
    winners: list[int]
    round: int
    round_limit: int
    turn_count: int
    dice: list[int]


class StatusOut(_TurnOut):
    phase: str = Field(description="PRE_ROLL, BUY, AUCTION, TRADE_ANSWER, RAISE_CASH, "
                                   "GAME_OVER, ...")
    debt_owed: int
    pre_roll_actions: int
    pre_roll_cap: int


class PlayerOut(_Out):
    seat: int
    cash: int
    net_worth: int
    bankrupt: bool
    in_jail: bool
    position: int
    bail_cards: int
    places: list[int]


class LegalOut(_Out):
    id: int = Field(description="send it as {\"id\": ...} to take the action")
    name: str
    text: str
    engine: EngineAction


class BidsOut(_Out):
    square: int
    high: int
    holder: int
    bidders: list[int]
    min: int
    max: int
    step: int


class TradeOut(_Out):
    targets: list[int] = Field(description="the seats an offer may go to now")
    offers_left: int


class OfferOut(EngineAction):
    model_config = ConfigDict(extra="allow", populate_by_name=True)
    from_seat: int = Field(alias="from", description="the seat that made the offer")
    text: str


class MoveOut(_Out):
    seat: int
    player: str
    text: str
    id: int | None


class TableState(_Out):
    """The state of a table; see docs/serve.md for every field."""

    api_version: int
    id: str
    version: int = Field(description="goes up by one with every change of the table")
    seats: list[SeatOut]
    to_move: str | None = Field(description='"person", "computer", or null once it is over')
    status: StatusOut
    players: list[PlayerOut]
    legal: list[LegalOut]
    bids: BidsOut | None = Field(description="at an auction: any bid from min to max in steps")
    trade: TradeOut | None
    offer: OfferOut | None = Field(description="the offer being answered, if any")
    game: dict[str, Any] = Field(description="the engine's saved game (Game.to_json)")
    moves: list[MoveOut] | None = Field(None, description="advance only: what the computer "
                                                          "seats did")


class ChanceOut(_Out):
    seat: int
    wins: float = Field(description="rollouts won, a shared win counted as its share")
    rate: float | None = Field(description="null when no rollout finished in time")
    ci95: list[float] = Field(description="95% Wilson interval of the rate")
    value_net: float = Field(description="the value network's chance (instant, no interval)")


class CandidateOut(_Out):
    action: str
    prior: float
    source: str
    sims: int
    value: float | None


class ExpertOut(_Out):
    sims: int
    choice: int = Field(description="index into candidates")
    action: str
    candidates: list[CandidateOut]


class AnalyseOut(_Out):
    api_version: int
    seat_to_move: int
    rollouts: int = Field(description="rollouts that finished (fewer than asked when the "
                                      "time limit ran out)")
    seconds: float
    chances: list[ChanceOut]
    expert: ExpertOut | None
    ms: float


class ErrorOut(BaseModel):
    error: str
    detail: str
    field: str | None = None
    allowed: list[Any] | None = None
    version: int | None = Field(None, description="stale_version: the table's version now")


# ---------------------------------------------------------------------- Businessman
class BusinessmanStatusOut(_TurnOut):
    phase: str = Field(description="PRE_ROLL, TRADE_COMPOSE, TRADE_RESPONSE, BUY_OFFER, FORK, "
                                   "HOTEL_MENU, PICK_COLOUR, EXCHANGE_CARD, EXCHANGE_TRADE, "
                                   "RAISE_FUNDS, GAME_OVER")


class BusinessmanPlayerOut(_Out):
    seat: int
    cash: int
    net_worth: int
    bankrupt: bool
    track: int = Field(description="0 the big perimeter, 1 abroad, 2 the motorway, "
                                   "3 the roulette")
    position: int = Field(description="a cell id (GET /v1/board?game=businessman)")
    laps: int
    shares: list[int] = Field(description="shares held, one count per colour")
    passes: list[str] = Field(description="exchange passes kept, by deck")
    hand_size: int = Field(description="Exchange cards in hand (their kinds are secret)")
    lots: list[int] = Field(description="the cells owned")


class HandCardOut(_Out):
    slot: int = Field(description="the hand slot a 'play the card in slot N' action names")
    kind: int
    code: str
    text: str


class BusinessmanLegalOut(_Out):
    id: int = Field(description="send it as {\"id\": ...} to take the action")
    name: str
    kind: str = Field(description="the action's kind, e.g. roll, buy, play_card")


class BusinessmanTableState(_Out):
    """The state of a Businessman table as one seat sees it: the public state and that seat's
    own Exchange hand, never another seat's hand or a deck's order."""

    api_version: int
    game: str = Field(description='"businessman"')
    id: str
    version: int = Field(description="goes up by one with every change of the table")
    seats: list[SeatOut]
    to_move: str | None = Field(description='"person", "computer", or null once it is over')
    viewer: int | None = Field(description="the seat this state is shown to (a person "
                                           "seat), null for a table of computers")
    status: BusinessmanStatusOut
    players: list[BusinessmanPlayerOut]
    hand: list[HandCardOut] | None = Field(description="the viewer's own Exchange hand")
    legal: list[BusinessmanLegalOut] = Field(description="the viewer's legal actions when the "
                                                         "viewer decides now, else empty")
    view: dict[str, Any] = Field(description="the engine's view of the viewer's seat "
                                             "(Game.view): public state and its own hand")
    log: list[str]
    moves: list[MoveOut] | None = Field(None, description="advance only: what the computer "
                                                          "seats did")


class BusinessmanActionOut(BaseModel):
    id: int = Field(description="the action's id (its place in ALL_ACTIONS)")
    name: str
    kind: str


class BusinessmanDecideOut(BaseModel):
    api_version: int
    game: str = Field(description='"businessman"')
    action: BusinessmanActionOut
    seat: int
    player: str
    ms: float = Field(description="server time to load the game and decide, milliseconds")
    searched: bool | None = Field(None, description="the expert only: false when no search "
                                  "was needed or it was not back by the budget, and the "
                                  "expert's prior (the hard player's move) answered")
