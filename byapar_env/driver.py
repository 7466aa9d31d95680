"""The seat-level game driver: how a game is played around the engine, in one place.

The engine asks one decision at a time of whichever seat must decide. The environment
(``byapar_v0.raw_env``) and the arena's engine tables (``byapar_harness.arena``) play it by the same
table conventions, which live here and nowhere else:

- the legal ids of the seat that must decide (``legal_action_ids``): the engine's legal actions
  as ids, the trade offers that may be started and, while an offer is composed, its draft's steps;
- the pre-roll cap: at most ``max_pre_roll_actions`` actions before rolling in one turn (builds,
  sales, mortgages, pay-offs, trade composition steps and offers); at the cap only rolling is
  left, and a draft still open is dropped;
- a trade offer is composed in steps (start, a toggle per place, money, submit: ``offer_steps``),
  each one a decision that counts toward that cap;
- ``skip_trivial``: a decision with a single legal id is taken without asking the seat.

``raw_env`` is a ``SeatDriver`` (its observations, rewards and PettingZoo bookkeeping are its
own). The arena plays tables of hand-written players on a bare driver (``SeatDriver.for_game``)
through ``engine_choices`` and ``take_engine``, the engine-level forms of the same rules: the
engine's action list instead of the id mask (several times faster), a whole trade offer taken as
its composition steps. So both play the same game from the same seed and choices, and cannot
drift apart; ``tests/test_driver.py`` checks the two forms against each other.
"""

from __future__ import annotations

from collections.abc import Callable

from .action_table import (
    ACTIONS,
    NUM_ACTIONS,
    SUBMIT_ID,
    TRADE_MONEY_IDS,
    TRADE_START_IDS,
    DraftChoices,
    TradeDraft,
    draft_mask,
    engine_action,
    legal_ids,
)
from .engine import Action, ActionKind, Game, IllegalActionError, Phase, actions
from .habits import Habits

# The defaults of the environment's options of the same names (and the arena's, which has no
# options of its own: its games are the environment's defaults played faster).
PRE_ROLL_CAP = 24  # max_pre_roll_actions: a safety cap on the actions before rolling in a turn
TRADE_STEP_CAP = 12  # max_trade_steps: toggle and money steps of one trade draft
DECISION_CAP = 20_000  # max_decisions: decisions of one game, asked or taken by the driver
# max_decisions for a game played to its real end (the arena, rollouts, analysis, the server's
# views): far above any game's length, so never reached.
NO_DECISION_CAP = 10**9

_TOGGLE_IDS = {a.arg: a.id for a in ACTIONS if a.kind == "trade_toggle"}


def pre_roll_capped(game: Game, pre_roll_actions: int, cap: int = PRE_ROLL_CAP) -> bool:
    """Whether the pre-roll cap leaves only rolling, ``pre_roll_actions`` having been taken
    before rolling this turn (the server asks this of games it holds without a driver)."""
    return game.phase == Phase.PRE_ROLL and pre_roll_actions >= cap


def legal_engine_actions(game: Game, pre_roll_actions: int,
                         cap: int = PRE_ROLL_CAP) -> list[Action]:
    """The engine's legal actions of the seat to decide, only rolling at the pre-roll cap."""
    return [actions.ROLL] if pre_roll_capped(game, pre_roll_actions, cap) else game.legal_actions()


def offer_steps(seat: int, num_players: int, offer: Action) -> list[int]:
    """The ids that compose ``offer`` by ``seat``, in the order they are taken: start (to the
    player so many seats on), a toggle per place given or asked for, the money if any, submit.

    Raises ``IllegalActionError`` for money that is not one of the table's trade amounts
    (``action_table.TRADE_AMOUNTS``): such an offer cannot be composed.
    """
    steps = [TRADE_START_IDS[(offer.target - seat) % num_players - 1]]
    steps += [_TOGGLE_IDS[s] for s in offer.give + offer.take]
    if offer.amount:
        money = TRADE_MONEY_IDS.get(offer.amount)
        if money is None:
            raise IllegalActionError(f"{offer} cannot be composed: trade money is one of the "
                                     f"amounts {sorted(a for a in TRADE_MONEY_IDS if a > 0)} "
                                     "either way")
        steps.append(money)
    steps.append(SUBMIT_ID)
    return steps


def check_offer(game: Game, offer: Action) -> None:
    """``IllegalActionError`` for an offer the engine refuses now: its steps would compose
    some other offer, so it is refused as the engine would refuse it."""
    reason = game.trade_error(offer)
    if reason is not None:
        raise IllegalActionError(f"illegal action {offer} for seat {game.current_player}: "
                                 f"{reason}")


def offer_step_count(offer: Action) -> int:
    """How many ids ``offer_steps`` composes ``offer`` in (start, toggles, money, submit), each
    counted toward the pre-roll cap; any money, expressible or not."""
    return 2 + len(offer.give) + len(offer.take) + (offer.amount != 0)


class SeatDriver:
    """Plays one engine game seat by seat under the table conventions above.

    Options: ``max_pre_roll_actions``, ``max_trade_steps``, ``max_decisions`` and
    ``skip_trivial``, as the environment documents them. State of the game driven: ``game``,
    ``draft`` (the trade offer being composed, or None), ``pre_roll_actions`` (this turn's,
    composition steps included), ``decisions`` (every action taken, asked or not) and
    ``_turn_stamp`` (the engine's ``turn_count`` the pre-roll count belongs to). The choices of
    the current decision are cached until the next action (``_legal``, ``_mask``) and per game
    state (``_engine_legal``, ``_draft_cache``); whoever changes ``game`` by hand must call
    ``_forget_choices``.
    """

    def __init__(self, max_pre_roll_actions: int = PRE_ROLL_CAP,
                 max_trade_steps: int = TRADE_STEP_CAP, max_decisions: int = DECISION_CAP,
                 skip_trivial: bool = True) -> None:
        self.max_pre_roll_actions = max_pre_roll_actions
        self.max_trade_steps = max_trade_steps
        self.max_decisions = max_decisions
        self.skip_trivial = skip_trivial
        self.game: Game | None = None
        self.draft: TradeDraft | None = None
        # What each seat has done this game (byapar_env.habits), for observation readers: kept
        # by the environment (raw_env), not by a bare driver, which nothing observes.
        self.habits: Habits | None = None
        # Called with (game, action) before each engine action is applied, by whoever wants to
        # see every seat's moves (a player reading its rivals: ``byapar_agents.rival_reader``).
        self.watchers: list[Callable[[Game, Action], None]] = []
        self._forget_choices()

    @classmethod
    def for_game(cls, game: Game, **options: int | bool) -> SeatDriver:
        """A driver of ``game`` from its current state (options as for the constructor)."""
        driver = cls(**options)
        driver._drive(game)
        return driver

    def _drive(self, game: Game, pre_roll_actions: int = 0,
               habits: Habits | None = None) -> None:
        """Drive ``game`` from here: no draft, ``pre_roll_actions`` already taken this turn, no
        decisions counted yet; ``habits`` so far (None: none kept)."""
        self.game = game
        self.habits = habits
        self.draft = None
        self.pre_roll_actions = pre_roll_actions
        self._turn_stamp = game.turn_count
        self.decisions = 0
        self._forget_choices()

    def _forget_choices(self) -> None:
        self._legal: tuple[int, ...] | None = None
        self._mask: bytearray | None = None
        # Keyed by the engine's state (``game.version``): the engine's legal ids with the cap
        # flag, and the choices of a trade draft to one target.
        self._engine_legal: tuple | None = None
        self._draft_cache: tuple | None = None

    # ------------------------------------------------------------------ the legal ids
    def legal_action_ids(self) -> list[int]:
        """The legal ids for the seat that must decide now (a new list, the caller's own)."""
        return list(self._legal_ids())

    def _legal_ids(self) -> tuple[int, ...]:
        if self._legal is None:
            if self.draft is not None and not self.game.is_over:
                mask = self._legal_mask()
                self._legal = tuple(i for i in range(NUM_ACTIONS) if mask[i])
            else:
                # Keyed by the engine's state: a cancelled draft returns to the same choices.
                key = (self.game.version, self.pre_roll_actions >= self.max_pre_roll_actions)
                if self._engine_legal is None or self._engine_legal[0] != key:
                    ids = tuple(legal_ids(self.game, None, self.max_trade_steps, key[1]))
                    mask = bytearray(NUM_ACTIONS)
                    for i in ids:
                        mask[i] = 1
                    self._engine_legal = (key, ids, mask)
                self._legal = self._engine_legal[1]
        return self._legal

    def _legal_mask(self) -> bytearray:
        """The legal ids now as one byte per id. While a draft is composed it comes straight from
        the draft's choices (cached per game state), the cheap path of most decisions."""
        if self._mask is None:
            game, draft = self.game, self.draft
            if draft is not None and not game.is_over:
                key = (game.version, draft.target)
                if self._draft_cache is None or self._draft_cache[0] != key:
                    self._draft_cache = (key, DraftChoices(game, draft.target))
                self._mask = draft_mask(draft, self.max_trade_steps, self._draft_cache[1])
            else:
                self._legal_ids()
                self._mask = self._engine_legal[2]
        return self._mask

    # ------------------------------------------------------------------ taking actions
    def _count(self) -> None:
        """Count the action about to be taken: a decision, and before rolling one toward the
        pre-roll cap. The choices cached for the decision are spent."""
        self.decisions += 1
        self._legal = self._mask = None
        if self.game.phase == Phase.PRE_ROLL:
            self.pre_roll_actions += 1

    def _settle_turn(self) -> None:
        """After an action: a new turn starts the pre-roll count again and ends any draft; a
        draft still open at the cap is dropped, since only rolling is left."""
        game = self.game
        if game.turn_count != self._turn_stamp:
            self._turn_stamp = game.turn_count
            self.pre_roll_actions = 0
            self.draft = None
        elif self.draft is not None and self.pre_roll_actions >= self.max_pre_roll_actions:
            self.draft = None

    def _take(self, action: int) -> None:
        """Carry out one legal id (the caller has checked it): a trade-composition step or an
        engine action."""
        game = self.game
        self._count()
        spec = ACTIONS[action]
        kind = spec.kind
        if kind == "trade_start":
            self.draft = TradeDraft((game.current_player + spec.arg) % game.num_players)
        elif kind == "trade_toggle":
            d = self.draft
            side = d.give if game.owner[spec.arg] == game.current_player else d.take
            side.symmetric_difference_update((spec.arg,))
            d.steps += 1
        elif kind == "trade_money":
            self.draft.amount = spec.arg
            self.draft.steps += 1
        elif kind == "trade_cancel":
            self.draft = None
        elif action == SUBMIT_ID:
            offer = self.draft.offer()
            self.draft = None
            self._engine_apply(offer)
        else:
            self._engine_apply(engine_action(game, action))
        self._settle_turn()

    def _engine_apply(self, action: Action) -> None:
        for watch in self.watchers:
            watch(self.game, action)
        habits = self.habits
        if habits is None:
            self.game.apply(action)
            return
        undo = habits.record(self.game, action)  # it reads the state before the action
        try:
            self.game.apply(action)
        except IllegalActionError:
            habits.restore(undo)  # refused: nothing changes, the counts included
            raise

    def _auto_play(self) -> None:
        """Take every decision with a single legal id, until a real choice, the end of the game
        or the decision cap (nothing with ``skip_trivial`` off)."""
        if not self.skip_trivial:
            return
        game = self.game
        while self.decisions < self.max_decisions and not game.is_over:
            mask = self._mask or self._legal_mask()
            if mask.count(1) != 1:
                return
            self._take(mask.index(1))

    # ------------------------------------------------------------------ engine-level play
    def engine_choices(self) -> list[Action]:
        """Take, as ``_auto_play`` does, every decision the seat has no choice in (rolling at the
        pre-roll cap; a single legal action with no trade offer to start), then return the
        engine's legal actions of the seat that must decide (``game.current_player``). Empty once
        the game is over or the decision cap is reached. No draft is open between engine-level
        calls: ``take_engine`` composes a whole offer at once."""
        game = self.game
        while not game.is_over and self.decisions < self.max_decisions:
            done, cap = self.pre_roll_actions, self.max_pre_roll_actions
            legal = legal_engine_actions(game, done, cap)  # only rolling at the cap
            if (len(legal) == 1 and game.phase == Phase.PRE_ROLL
                    and not pre_roll_capped(game, done, cap)
                    and len(legal_ids(game, None, 1, False)) != 1):
                return legal  # rolling, or starting a trade offer: a real choice
            if len(legal) != 1 or not self.skip_trivial:
                return legal
            self._apply(legal[0])
        return []

    def take_engine(self, action: Action) -> int:
        """Take the deciding seat's engine action (one of ``engine_choices()``, or a legal trade
        offer) as the environment would; returns the decisions it counts for: 1, or a trade
        offer's composition steps (fewer when the pre-roll cap drops the draft, and then the
        offer is not made)."""
        if action.kind == ActionKind.OFFER_TRADE:
            return self._compose(action)
        self._apply(action)
        return 1

    def _apply(self, action: Action) -> None:
        self._count()
        self._engine_apply(action)
        self._settle_turn()

    def _compose(self, offer: Action) -> int:
        """Compose ``offer`` step by step through ``_take``, exactly as its ids would be taken."""
        game = self.game
        check_offer(game, offer)
        taken = 0
        for step in offer_steps(game.current_player, game.num_players, offer):
            self._take(step)
            taken += 1
            if self.draft is None and step != SUBMIT_ID:
                break  # dropped at the pre-roll cap: only rolling is left
        return taken
