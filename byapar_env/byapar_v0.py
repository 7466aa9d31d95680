"""Byapar: the PettingZoo AEC environment.

This docstring is the environment's specification.

| Import             | ``from byapar_env import byapar_v0``                          |
|--------------------|---------------------------------------------------------------|
| Registered as      | ``pettingzoo.make("aec", "byapar/byapar-v0")``                |
| Actions            | Discrete(181), masked                                         |
| Parallel API       | No                                                            |
| Agents             | ``player_0`` ... ``player_{n-1}``, n = 2 to 6                  |
| Observation shape  | (677,) float32, plus ``action_mask`` (181,) int8             |

Byapar is the Nepali property-trading game of the Monopoly family. The rules are those of
``byapar_env.engine`` (see ``docs/rules.md``); the engine thinks in seats, this environment maps
seat ``i`` to agent ``player_i``. Only one agent decides at a time, and it is not always the
agent whose turn it is: bids go round the table and a trade offer is answered by its receiver.

Arguments
---------
``env(num_players=4, rounds=40, starting_cash=15_000, auctions=True, render_mode=None,
max_pre_roll_actions=24, max_trade_steps=12, skip_trivial=True, reward="outcome",
dense_coef=1.0, max_decisions=20_000)``

The table options' defaults are the engine's (``engine.board.FIGURES``); the caps' and
``skip_trivial`` are those of ``byapar_env.driver``, the seat-level driver the arena shares.

- ``num_players``, ``rounds`` (``None`` plays until one player is left, capped at 100 rounds),
  ``starting_cash``, ``auctions``: the table options of ``engine.Rules``. The environment also
  caps ``rounds`` at 1,000 and ``starting_cash`` at 1,000,000, so that every observation value
  stays small and finite.
- ``render_mode``: ``"ansi"`` (text), ``"rgb_array"`` (an image array of the board) or ``"human"``
  (prints the text).
- ``max_pre_roll_actions``: a safety cap on the actions before rolling in one turn (builds, sales,
  mortgages, trade composition steps and offers); at the cap only rolling stays legal. 1 to 1,000.
- ``max_trade_steps``: a cap on the toggle and money steps of one trade draft; at the cap only
  submitting (if the draft is a legal offer) and cancelling stay legal. 1 to 1,000.
- ``skip_trivial``: when exactly one action is legal the environment takes it by itself, so agents
  are only asked real questions. On by default; turn it off to see every decision.
- ``reward``: ``"outcome"`` (default), ``"net_worth_share"`` or ``"position_share"`` (outcome
  plus dense shaping).
- ``dense_coef``: the weight of that shaping, a finite number from 0 to 100.
- ``max_decisions``: a safety cap on the decisions of one game (the agents' and those the
  environment plays by itself); reaching it truncates every agent. 1 to 1,000,000,000.

Whole-number options take Python ``int`` only (``True`` is not a number here), flags take
``bool`` only. A bad option raises ``RulesError`` (a ``ValueError``) naming the option and what
is allowed.

Seeds: ``reset(seed=None)`` or a whole number from 0 up (a Python or numpy integer; not a bool or
a float: ``1.7`` is refused, not rounded, and negative seeds are refused because Python's
generator would fold them onto their absolute values). A bad seed raises ``SeedError`` (a
``ValueError``, as the engine's ``Game`` raises) and changes nothing.

Actions
-------
One table (``byapar_env.action_table.ACTIONS``), the same for every table size; every id has a
name (``action_to_string(id)``; the full table is in ``docs/env.md``):

- before rolling: ``roll``; ``pay_fine`` and ``use_bail_card`` (in jail); ``build`` on a city,
  ``sell`` a building, ``mortgage`` and ``unmortgage`` a place (one id per place);
  ``trade_start`` to the player k seats after the actor (k = 1..5);
- composing a trade offer: ``trade_toggle`` a place (an own place is given, the other player's is
  asked for), ``trade_money`` (none, or one of 100, 200, 300, 500, 700, 1,000, 1,200, 1,500,
  1,800, 2,000, 2,500, 3,000, 3,500, 4,000, 5,000, 6,000, 8,000, 10,000, either way),
  ``trade_submit``, ``trade_cancel``;
- on landing on an unowned place: ``buy`` or ``decline``;
- at an auction: ``drop_out``; ``bid_min`` (the highest bid + 100); ``bid_raise`` by 200, 500,
  1,000 or 2,000 over the highest bid; ``bid_price`` at 50, 75, 100, 125, 150 or 200% of the
  place's price (rounded down to a multiple of 100). Each bid id is masked out when its amount is
  not a legal bid (not above the highest bid, or above the bidder's cash);
- answering a trade offer: ``accept`` or ``reject``;
- raising cash for a debt: ``sell`` and ``mortgage``.

The mask (``action_mask`` in the observation) marks exactly the legal ids for the agent that must
decide, and is all zeros for every other agent. A masked-out action raises
``IllegalActionError`` from ``raw_env`` and changes nothing; ``env()`` adds PettingZoo's usual
wrappers, under which a masked-out action ends the game with -1 for its maker.

An action is an integer id from 0 to 180: a Python ``int``, a numpy integer (``np.int64(5)``) or
a 0-d integer array (``np.array(5)``, what Stable-Baselines3's ``predict`` returns for one
observation). Anything else is refused with ``IllegalActionError`` naming the value and the
range, changing nothing: bools (``step(False)`` is not a roll), floats (even ``5.0``), strings,
ids out of range, and arrays of any other shape, a 1-element array included (that is a batch of
one: pass ``action.item()``), as gymnasium's ``Discrete.contains`` does. ``None`` only steps out a
terminated or truncated agent. ``as_action_id(value)`` applies these rules; ``env()`` applies
them too, before its wrappers read the mask, so a malformed action raises there as well rather
than ending the game.

A ``step()`` once every agent is done (or before ``reset()``) raises ``IllegalActionError``
from ``raw_env``; under ``env()`` PettingZoo's order-enforcing wrapper logs a warning and does
nothing, as for every PettingZoo environment.

Observation
-----------
``{"observation": Box(float32, (677,)), "action_mask": Box(int8, (181,))}``, from the observing
agent's seat: player slot 0 is the observer, slot 1 the next seat in turn order, and so on. It
holds every place (owner slot, buildings, mortgaged, whole group held), every player (present,
cash, position, in jail and misses, bail cards, net worth, whose turn), the decision under way and
its place, the auction (highest bid, holder, who is still in), the trade draft or the offer
received (counterpart, places in and out, money in), an open debt, the round and rounds left,
the last dice, doubles, offers made, pre-roll actions used, the table options and, per player,
its habits so far this game (``byapar_env.habits``: offers made a round, the share of its offers
accepted and of offers to it it accepted, its bids against list price, the share of places it
bought on landing, buildings a round), so that a policy can tell its opponents apart.
``observation_layout()`` returns the named slices; ``docs/env.md`` lists them.

Rewards
-------
``"outcome"``: zero at every step, and at the end a zero-sum outcome: each player who does not
win gets ``-1/(n-1)``, and the winners share the sum of those losses (one winner in a 4-player
game: +1, the others -1/3 each; two tied winners of four: +1/3 each). A player who goes bankrupt
is terminated at once with its ``-1/(n-1)`` (a bankrupt player cannot win) and is stepped out
with ``None``, as PettingZoo requires. ``"net_worth_share"`` adds, at every step, ``dense_coef``
times the change in each player's share of the table's total net worth (shares sum to one, so
the shaping is zero-sum too). ``"position_share"`` shapes the same way with each player's
position value instead of its net worth: net worth plus the rent its places should bring over
the rounds left (``byapar_env.valuation``), so that a trade or a purchase that changes who will
collect rent counts when it happens.

Endings
-------
Termination when the game ends (round limit, or one player left) and, for a single agent, when
it goes bankrupt. Truncation only through ``max_decisions``.

Copying and saving
------------------
``env.save_state()`` returns JSON text (the engine's saved game plus the environment's own
state: the trade draft, counters, rewards); ``env.load_state(text)`` restores it exactly;
``env.clone()`` returns an independent copy. ``pickle`` and ``copy.deepcopy`` go through the
same state, so a live environment survives both.

Speed
-----
Observations and masks are derived once per game state and patched rather than rebuilt (the
place rows change only with property; a draft's mask only with its own steps). ``python -m
bench.env_speed`` measures masked random play; the README gives the figures.

Version history
---------------
- v0 (byapar_env 0.1.0): first release; observation version 1. Later in v0: 0-d integer
  arrays are accepted as actions; bool, float and other malformed actions, bad seeds, bad
  options and steps after the end are refused with typed errors. Valid input plays exactly as
  before (same observations, masks and games).
- Observation version 2: the ``habits`` block (36 values) at the end; the first 641 values are
  version 1's. The saved environment state carries the habits.
"""

from __future__ import annotations

import json

import numpy as np
from pettingzoo import AECEnv

from .action_table import (
    ACTIONS,
    NUM_ACTIONS,
    TRADE_MONEY_IDS,
    TradeDraft,
    action_to_string,
)
from .driver import DECISION_CAP, NO_DECISION_CAP, PRE_ROLL_CAP, TRADE_STEP_CAP, SeatDriver
from .engine import Game, IllegalActionError, Rules, RulesError
from .engine.board import FIGURES, PLACES
from .engine.errors import show
from .habits import Habits, HabitsError
from .observation import (
    OBSERVATION_SIZE,
    OBSERVATION_VERSION,
    PlaceBlocks,
    encode_engine_part,
    encode_env_part,
    observation_layout,
    write_habits,
)
from .table_env import (
    TableEnv,
    check_real,
    check_render_mode,
    check_whole,
    wrap,
)
from .table_env import as_action_id as table_action_id
from .table_env import as_seed as as_seed
from .valuation import position_value

ENV_NAME = "byapar_v0"
REWARD_MODES = ("outcome", "net_worth_share", "position_share")
_STATE_FORMAT = "byapar-env-state"

# Upper bounds of the environment's own options, and of two table options the engine takes at
# any size. The engine computes with exact integers, but the observation divides money and
# rounds into float32: a 10**40 starting cash would observe as inf. The caps sit far above any
# real game (40 rounds, 15,000 cash, the arena's "uncapped" NO_DECISION_CAP decisions).
MAX_ROUNDS = 1_000
MAX_STARTING_CASH = 1_000_000
MAX_STEP_CAP = 1_000  # max_pre_roll_actions and max_trade_steps
MAX_DECISIONS = NO_DECISION_CAP
MAX_DENSE_COEF = 100.0


def as_action_id(action: object) -> int:
    """The action id ``action`` stands for, or ``IllegalActionError`` naming it and the range.

    Accepted: a Python ``int``, a numpy integer, or a 0-d integer array (SB3's ``predict`` on
    one observation), from 0 to 180. Refused: bools (``False`` is not ``roll``), floats (even
    ``5.0``: a float id is a bug upstream), strings, ``None`` and arrays of any other shape, a
    1-element array included, as gymnasium's ``Discrete.contains`` refuses it.
    """
    return table_action_id(action, NUM_ACTIONS)


def env(**kwargs) -> AECEnv:
    """The environment with PettingZoo's standard wrappers (a masked-out move ends the game;
    a malformed one raises, as from ``raw_env``)."""
    return wrap(raw_env(**kwargs))


def _check_draft(draft: TradeDraft, game: Game) -> None:
    """A saved draft must be one the environment could have composed in that game."""
    p = game.current_player
    if not (0 <= draft.target < game.num_players and draft.target != p
            and not game.bankrupt[draft.target]):
        raise ValueError(f"draft target {draft.target!r} is not another seat still in the game")
    if draft.amount not in TRADE_MONEY_IDS:
        raise ValueError(f"draft amount {draft.amount!r} is not one of the trade amounts")
    places = set(PLACES)
    if not (draft.give <= places and draft.take <= places and not draft.give & draft.take):
        raise ValueError("draft places must be distinct places of the board")
    if any(game.owner[s] != p for s in draft.give) or any(
            game.owner[s] != draft.target for s in draft.take):
        raise ValueError("a draft gives the composer's places and asks for the target's")
    if not isinstance(draft.steps, int) or draft.steps < 0:
        raise ValueError(f"draft steps must be a whole number of at least 0, got {draft.steps!r}")


class raw_env(TableEnv, SeatDriver):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """The environment. What is legal, what counts toward the caps and which decisions are taken
    without asking is ``SeatDriver``'s (``byapar_env.driver``), shared with the arena; the
    agents, spaces, seeded reset and rewards are ``TableEnv``'s (``byapar_env.table_env``),
    shared with the other games' environments; the observations and stepping are its own."""

    NUM_ACTIONS = NUM_ACTIONS
    OBSERVATION_SIZE = OBSERVATION_SIZE

    metadata = {
        "name": ENV_NAME,
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, num_players: int = FIGURES.default_num_players,
                 rounds: int | None = FIGURES.default_rounds,
                 starting_cash: int = FIGURES.default_starting_cash,
                 auctions: bool = FIGURES.default_auctions,
                 render_mode: str | None = None, max_pre_roll_actions: int = PRE_ROLL_CAP,
                 max_trade_steps: int = TRADE_STEP_CAP, skip_trivial: bool = True,
                 reward: str = "outcome", dense_coef: float = 1.0,
                 max_decisions: int = DECISION_CAP) -> None:
        super().__init__()
        self.rules = Rules(num_players=num_players, rounds=rounds, starting_cash=starting_cash,
                           auctions=auctions)  # the engine's checks first: types, 2-6 players
        # The engine takes any positive rounds and cash; the observation needs them bounded.
        if rounds is not None and rounds > MAX_ROUNDS:
            raise RulesError(f"rounds must be None (until one player is left) or a whole number "
                             f"from 1 to {MAX_ROUNDS:,} in this environment, got {show(rounds)}")
        if starting_cash > MAX_STARTING_CASH:
            raise RulesError(f"starting_cash must be a positive multiple of "
                             f"{FIGURES.starting_cash_step} up to "
                             f"{MAX_STARTING_CASH:,} in this environment, "
                             f"got {show(starting_cash)}")
        check_render_mode(render_mode, self.metadata["render_modes"])
        check_whole("max_pre_roll_actions", max_pre_roll_actions, 1, MAX_STEP_CAP)
        check_whole("max_trade_steps", max_trade_steps, 1, MAX_STEP_CAP)
        check_whole("max_decisions", max_decisions, 1, MAX_DECISIONS)
        if not isinstance(skip_trivial, (bool, np.bool_)):
            # bool("no") is True: a flag that is not a bool is a mistake, not a truth value.
            raise RulesError(
                f"skip_trivial must be True or False, got {show(skip_trivial)}")
        if not isinstance(reward, str) or reward not in REWARD_MODES:
            raise RulesError(f"reward must be one of {REWARD_MODES}, got {show(reward)}")
        # Each step adds dense_coef times a change of share (at most 1): NaN or inf would poison
        # every reward, and a negative weight would pay players for losing net worth.
        dense_coef = check_real("dense_coef", dense_coef, 0.0, MAX_DENSE_COEF)
        self._kwargs = dict(num_players=num_players, rounds=rounds, starting_cash=starting_cash,
                            auctions=auctions, render_mode=render_mode,
                            max_pre_roll_actions=max_pre_roll_actions,
                            max_trade_steps=max_trade_steps, skip_trivial=bool(skip_trivial),
                            reward=reward, dense_coef=float(dense_coef),
                            max_decisions=max_decisions)
        SeatDriver.__init__(self, max_pre_roll_actions=max_pre_roll_actions,
                            max_trade_steps=max_trade_steps, max_decisions=max_decisions,
                            skip_trivial=bool(skip_trivial))
        self.render_mode = render_mode
        self.reward_mode = reward
        self.dense_coef = float(dense_coef)
        self._set_agents(num_players)
        self._rewards_dirty = True
        self._clear_caches()

    def game_changed(self) -> None:
        """Forget everything derived from the game: call it after changing ``self.game`` by hand
        (tests that set up a position do), since the environment caches per game version."""
        self._clear_caches()

    def show_game(self, game: Game, pre_roll_actions: int = 0,
                  habits: Habits | None = None) -> None:
        """Point the environment at ``game`` (a reset environment of the same table size): no
        trade draft, ``pre_roll_actions`` already taken this turn, ``game.current_player`` to
        decide; ``habits``, the seats' habits so far in that game (``byapar_env.habits``; none
        given: counted from here, from zero). For asking an observation-reading player about a
        position of an engine game; stepping on plays that game."""
        if game.num_players != len(self.possible_agents):
            raise ValueError(f"show_game: the game has {game.num_players} seats, this "
                             f"environment {len(self.possible_agents)}")
        if habits is not None and habits.num_players != game.num_players:
            raise ValueError(f"show_game: the habits are of {habits.num_players} seats, the "
                             f"game has {game.num_players}")
        self.game = game
        self.habits = habits.copy() if habits is not None else Habits(game.num_players)
        self.draft = None
        self.pre_roll_actions = pre_roll_actions
        self._turn_stamp = game.turn_count  # the counter is this turn's
        self.decisions = 0
        agent = self.possible_agents[game.current_player]
        self.agent_selection = agent
        self.terminations[agent] = self.truncations[agent] = False
        self._clear_caches()

    def _clear_caches(self) -> None:
        # Derived from the engine's state, keyed by ``game.version``: the driver's choices (the
        # legal ids, a trade draft's choices) and the engine part of each seat's observation.
        self._forget_choices()
        self._obs_cache: dict[int, tuple[int, np.ndarray]] = {}
        self._places = PlaceBlocks()

    # ------------------------------------------------------------------ names
    action_to_string = staticmethod(action_to_string)
    observation_layout = staticmethod(observation_layout)

    # ------------------------------------------------------------------ reset
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        # Checked before anything changes (the engine checks too, but only once the seeder has
        # moved on): a refused seed leaves the environment as it was.
        game_seed = self._game_seed(seed)
        self._drive(Game(self.rules, seed=game_seed), habits=Habits(self.rules.num_players))
        self._open_books()
        self._shares = self._value_shares() if self.reward_mode != "outcome" else None
        self._rewards_dirty = True
        self._clear_caches()
        self._auto_play()
        # Auto-play may already have ended the game or bankrupted someone (tiny tables).
        self.agent_selection = self.possible_agents[max(self.game.current_player, 0)]
        self._settle_rewards_and_endings()
        self._accumulate_rewards()
        self._deads_step_first()

    # ------------------------------------------------------------------ observing
    def action_mask(self, agent: str | None = None) -> np.ndarray:
        seat = self.agent_name_mapping[agent or self.agent_selection]
        game = self.game
        if seat == game.current_player and not game.is_over:
            name = self.possible_agents[seat]
            if not self.terminations.get(name, True) and not self.truncations.get(name, True):
                mask = self._mask or self._legal_mask()
                return np.frombuffer(mask[:], np.int8)  # a copy the caller may keep
        return np.zeros(NUM_ACTIONS, np.int8)

    def observe(self, agent: str) -> dict:
        if self.game is None:  # one test on the hot path; the message from require_game
            self.require_game("observe")
        seat = self.agent_name_mapping[agent]
        game = self.game
        cached = self._obs_cache.get(seat)
        if cached is None or cached[0] != game.version:
            base = encode_engine_part(game, seat, np.empty(OBSERVATION_SIZE, np.float32),
                                      self._places)
            if self.habits is not None:  # they change only with the game's version
                write_habits(base, game, seat, self.habits)
            self._obs_cache[seat] = cached = (game.version, base)
        obs = encode_env_part(cached[1].copy(), game, seat, self.draft, self.pre_roll_actions,
                              self.max_pre_roll_actions, self.max_trade_steps)
        return {"observation": obs, "action_mask": self.action_mask(agent)}

    # ------------------------------------------------------------------ stepping
    def step(self, action: int | np.integer | np.ndarray | None) -> None:
        """Take ``action`` (an id, see ``as_action_id``) for the agent that must decide, or
        ``None`` for a terminated or truncated one. Raises ``IllegalActionError``, changing
        nothing, for a malformed or masked-out action and once every agent is done."""
        agent = self._deciding_agent(action)
        if agent is None:  # a done agent stepped out
            return
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            action = as_action_id(action)  # a numpy id becomes an int; anything else raises
        mask = self._mask or self._legal_mask()
        if not mask[action]:
            raise IllegalActionError(self._not_legal_message(
                action, agent, self._legal_ids(), lambda i: ACTIONS[i].name))
        self._cumulative_rewards[agent] = 0.0
        if self._rewards_dirty:  # only settling sets rewards: most steps have none to clear
            self._clear_rewards()
            self._rewards_dirty = False
        version = self.game.version
        self._take(int(action))
        self._auto_play()
        # Rewards, bankruptcies and the end can only come from the engine or the decision cap;
        # a trade-composition step changes neither, so it skips that bookkeeping.
        if self.game.version != version or self.decisions >= self.max_decisions:
            if not self._settle_rewards_and_endings():
                # Nothing to report (the usual engine step): only the turn may have moved.
                self.agent_selection = self.possible_agents[self.game.current_player]
            else:
                if not self.game.is_over:
                    self.agent_selection = self.possible_agents[self.game.current_player]
                self._accumulate_rewards()
                self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------------ rewards and endings
    def _value_shares(self) -> list[float]:
        if self.reward_mode == "position_share":
            # Net worth plus the rent the holdings should bring (byapar_env.valuation): handing
            # a rival the last piece of a group shows at once, not rounds later.
            worth = [position_value(self.game, s) for s in range(self.rules.num_players)]
            total = sum(worth) or 1
            return [w / total for w in worth]
        return super()._value_shares()

    def _settle_rewards_and_endings(self) -> bool:
        """Hand out this step's rewards, terminations and truncations; False when there were
        none (no dense reward, nobody out, no end, no cap), so that the step may skip the rest."""
        game = self.game
        if (self._shares is None and not game.is_over and self.decisions < self.max_decisions
                and game.bankrupt == self._out):
            return False
        self._rewards_dirty = True
        self._hand_out()
        return True

    # ------------------------------------------------------------------ rendering
    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        from .render import render_ansi, render_rgb

        if self.render_mode == "rgb_array":
            return render_rgb(self.game)
        text = render_ansi(self.game, self.draft)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ------------------------------------------------------------------ copying and saving
    def save_state(self) -> str:
        """The whole environment state as JSON text (see ``load_state``)."""
        return json.dumps({
            "format": _STATE_FORMAT, "observation_version": OBSERVATION_VERSION,
            "options": self._kwargs, "engine": self.game.to_json(),
            "draft": self.draft.to_dict() if self.draft else None,
            "habits": self.habits.to_list() if self.habits is not None else None,
            "pre_roll_actions": self.pre_roll_actions, "turn_stamp": self._turn_stamp,
            **self.common_state(),
        })

    def load_state(self, text: str) -> None:
        """Restore a state saved by ``save_state`` on an environment with the same options."""
        data = self.read_state(text, _STATE_FORMAT, OBSERVATION_VERSION)
        try:
            game = Game.from_json(data["engine"])
            d = data["draft"]
            draft = TradeDraft(**d) if d else None
            if draft is not None:
                _check_draft(draft, game)
            raw_habits = data.get("habits")
            habits = (None if raw_habits is None
                      else Habits.from_list(raw_habits, game.num_players))
            fields = dict(pre_roll_actions=int(data["pre_roll_actions"]),
                          _turn_stamp=int(data["turn_stamp"]), **self.common_fields(data))
        except (KeyError, TypeError, ValueError, HabitsError) as exc:
            raise ValueError(f"corrupt {ENV_NAME} state: {exc!r}") from exc
        # Nothing is changed until everything has been read.
        self.game, self.draft, self.habits = game, draft, habits
        self.set_common_fields(fields)
        self._rewards_dirty = True
        self._clear_caches()

    def clone(self) -> raw_env:
        """An independent copy of this environment, mid-game included."""
        copy = raw_env(**self._kwargs)
        if self.game is not None:
            copy.load_state(self.save_state())
        return copy

    def __getstate__(self) -> dict:
        return {"kwargs": self._kwargs,
                "state": self.save_state() if self.game is not None else None}

    def __setstate__(self, data: dict) -> None:
        self.__init__(**data["kwargs"])
        if data["state"] is not None:
            self.load_state(data["state"])


__all__ = ["env", "raw_env", "action_to_string", "as_action_id", "as_seed",
           "observation_layout", "PLACES"]


def _register() -> None:
    import pettingzoo

    if "byapar/byapar-v0" not in pettingzoo.aec_registry:
        pettingzoo.register("aec", "byapar/byapar-v0", entry_point="byapar_env.byapar_v0:env")


_register()
