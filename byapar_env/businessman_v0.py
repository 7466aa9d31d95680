"""Businessman: the PettingZoo AEC environment.

This docstring is the environment's specification.

| Import             | ``from byapar_env import businessman_v0``                        |
|--------------------|------------------------------------------------------------------|
| Registered as      | ``pettingzoo.make("aec", "byapar/businessman-v0")``             |
| Actions            | Discrete(402), masked                                            |
| Parallel API       | No                                                               |
| Agents             | ``player_0`` ... ``player_{n-1}``, n = 2 to 6                     |
| Observation shape  | (1080,) float32, plus ``action_mask`` (402,) int8               |

Businessman («Бизнесмен») is the Soviet and Russian member of the Monopoly family: lots in
colour groups with branches and enterprises, two perimeters and two side tracks, and a share
exchange whose prices secret Exchange cards move. The rules are those of
``byapar_env.businessman`` (``docs/businessman_rules.md``); this environment maps seat ``i`` to
agent ``player_i``. One agent decides at a time, and not always the one whose turn it is: a
trade proposal is answered by the seat it is made to, and a debt raised by the debtor.

Arguments
---------
``env(num_players=4, rounds=20, abroad_enabled=True, render_mode=None,
max_pre_roll_actions=24, max_trade_steps=12, skip_trivial=True, reward="outcome",
dense_coef=1.0, max_decisions=20_000)``

- ``num_players`` (2 to 6), ``rounds`` (after the last seat's turn of this round the
  highest net worth wins; 1 to 1,000 here, so that the observation's round figures stay small;
  ``None`` plays until one player is left, the richest winning after 100 rounds, as in Byapar:
  the engine's "0, no limit" is not offered) and ``abroad_enabled``: the engine's ``Rules``
  (``rules.table_rules``). ``max_rounds``, the earlier name of ``rounds``, still works for this
  release with a ``DeprecationWarning``.
- ``render_mode``: ``"ansi"`` (text) or ``"human"`` (prints the text).
- ``max_pre_roll_actions``: a cap on the actions of one turn before its roll (see Caps below);
  at the cap only rolling is left. 1 to 1,000; the default is Byapar's (``driver.PRE_ROLL_CAP``).
- ``max_trade_steps``: a cap on the steps of the proposal being composed (see Caps); at the cap
  only submitting (when the proposal holds a lot or a share) and cancelling are left. 1 to 1,000
  (the engine's own limit of 24 steps a proposal holds as well); the default is Byapar's
  (``driver.TRADE_STEP_CAP``).
- ``skip_trivial``: when exactly one action is legal the environment takes it by itself, so
  agents are only asked real questions (on by default; off, every decision is asked).
- ``reward``: ``"outcome"`` (default) or ``"net_worth_share"`` (outcome plus dense shaping).
- ``dense_coef``: the weight of that shaping, a finite number from 0 to 100.
- ``max_decisions``: a safety cap on the decisions of one game (the agents' and those taken by
  the environment); reaching it truncates every agent. 1 to 1,000,000,000.

Whole-number options take Python ``int`` only (``True`` is not a number), flags ``bool`` only;
a bad option raises ``RulesError`` (a ``ValueError``) naming it. ``reset(seed=None)`` takes
None or a whole number from 0 up (``SeedError`` otherwise, changing nothing); the same seed
plays the same game for the same actions.

Actions
-------
The engine's own table, ``byapar_env.businessman.ALL_ACTIONS``: id ``i`` is
``ALL_ACTIONS[i]``, the same for every table size (``action_to_string(i)`` names it;
``docs/businessman_env.md`` lists the ranges). Every decision is one id:

- before rolling: ``roll``; ``pledge`` / ``redeem`` a lot or the Supermarket;
  ``build a branch`` / ``an enterprise`` on a lot, ``sell a building``; ``use an exchange
  pass``; ``start a trade proposal`` to a seat (by absolute seat number);
- composing a proposal, step by step: toggle giving one of one's lots or taking one of the
  other seat's, one more share of a colour to give or to take, 1,000, 10,000 or 50,000 cr more
  to give or to take, ``submit``, ``cancel``; answering one: ``accept`` or ``reject``;
- on an unowned lot: ``buy`` it or ``do not buy`` it; at a fork (motorway, roulette, customs,
  broker): yes or no; at the Hotel: one of its four options; a share colour to take;
- an exchange session: play an Exchange card from a hand slot on a colour (a Deuce: double or
  halve) or none; then buy or sell one share of a colour at a time, and end the session;
- raising funds for a debt: ``pledge`` and ``sell a building``.

The mask (``action_mask`` in the observation) marks exactly the legal ids of the agent that must
decide: the engine's ``legal_actions()`` less what the caps below take away; it is all zeros for
every other agent. A masked-out
or malformed action raises ``IllegalActionError`` from ``raw_env`` and changes nothing;
``env()`` adds PettingZoo's usual wrappers, under which a masked-out action ends the game with
-1 for its maker. An action is a Python ``int``, a numpy integer or a 0-d integer array from 0
to 401 (bools, floats, strings and other shapes are refused); ``None`` only steps out a
terminated or truncated agent.

Caps
----
Businessman's rules let a seat manage its holdings and compose proposals before rolling for as
long as it likes (pledging and redeeming the same lot, toggling the same lot in a proposal), so
the environment caps both, as Byapar's does. The rule (``TurnCaps``) is the same for
``byapar_agents.businessman.play_game``, the table loop the arena plays, so a player has the same
choices whichever way it is seated.

- The pre-roll count of a turn: the actions taken in its ``PRE_ROLL`` phase, rolling excepted.
  Only the turn's seat decides in that phase, and only before it rolls, so what counts is its
  pledges, redemptions, builds, building sales, uses of an exchange pass and starts of a
  proposal. What does not count: rolling; the steps of a proposal (toggles, shares, cash) and
  its submitting or cancelling, bounded by the proposal cap below and the engine's three
  proposals a turn; the other seat's answer; the decisions of an exchange session a pass opens
  (bounded by the rules: one card, four purchases a colour a session); raising funds for a
  debt. The count starts again at 0 with every turn (the engine's ``turn_count``).
- At ``max_pre_roll_actions`` counted actions only rolling is left in ``PRE_ROLL``. A proposal
  started as the last counted action has only cancelling left, and then only rolling is.
  Rolling and cancelling are always legal in those phases, so the game always goes on.
- The proposal's steps are the engine's (``Trade.steps``): each lot toggled, each share of a
  colour either way and each cash step either way. Starting, submitting and cancelling are not
  steps. At ``max_trade_steps`` steps only submitting (if legal: the proposal holds a lot or a
  share) and cancelling are left.

The pre-roll count is not in the observation: Businessman's observation has no free slot for it,
and a larger observation would no longer fit the policies already trained for this environment.
An agent sees a proposal's steps (``trade_steps``, over the engine's 24), and the caps only
through the mask.

Observation
-----------
``{"observation": Box(float32, (1080,)), "action_mask": Box(int8, (402,))}``, from the
observing agent's seat: player slot 0 is the observer, slot 1 the next seat in turn order, and
so on. It is computed from ``Game.view(seat)`` alone
(``byapar_env.businessman_observation.encode``), so it holds only what that seat may know:

- every lot and the Supermarket: the owner's slot, buildings, pledged, laps left before a
  pledge is forfeited, whole group held;
- every player: present, bankrupt, cash, track, cell, laps, shares of each colour, kept passes,
  the size of the Exchange hand (never its cards), net worth, whose turn, who decides;
- share prices and the bank's supply; the observer's own hand (a count per card kind); the
  cards played so far; the sizes of the Surprise and Notice decks (never their order); the
  building tokens left;
- the decision under way: the phase, the lot offered, the fork, colour picks left, shares
  bought this session, proposals made this turn, the proposal being composed or answered
  (the other seat, lots, shares and cash either way, its steps), the debt being raised;
- the round and the rounds left, the last dice, and the table options.

Another seat's hand, a deck's order, the seed and the generator never enter an observation.
``observation_layout()`` returns the named slices.

Rewards
-------
``"outcome"``: zero at every step, and at the end a zero-sum outcome: each player who does not
win gets ``-1/(n-1)``, and the winners share the sum of those losses. A player who goes
bankrupt is terminated at once with its ``-1/(n-1)`` and is stepped out with ``None``.
``"net_worth_share"`` adds at every step ``dense_coef`` times the change in each player's share
of the table's total net worth (zero-sum too).

Endings
-------
Termination when the game ends (the round limit, or one player left) and, for a single agent,
when it goes bankrupt. Truncation only through ``max_decisions``.

Copying
-------
``env.clone()`` returns an independent copy, mid-game included (the pre-roll count with it).
"""

from __future__ import annotations

import json
import warnings

import numpy as np
from pettingzoo import AECEnv

from .businessman import (
    ACTION_ID,
    ALL_ACTIONS,
    Action,
    Game,
    IllegalActionError,
    Phase,
    RulesError,
    table_rules,
)
from .businessman import actions as bm_actions
from .businessman import board as bm_board
from .businessman_action_table import NUM_ACTIONS, action_to_string
from .businessman_observation import (
    OBSERVATION_SIZE,
    OBSERVATION_VERSION,
    encode,
    observation_layout,
)
from .core.errors import show
from .core.table import is_whole
from .driver import DECISION_CAP, NO_DECISION_CAP, PRE_ROLL_CAP, TRADE_STEP_CAP
from .table_env import (
    TableEnv,
    check_real,
    check_render_mode,
    check_whole,
    wrap,
)
from .table_env import as_action_id as table_action_id
from .table_env import as_seed as as_seed

ENV_NAME = "businessman_v0"
REGISTERED_ID = "byapar/businessman-v0"
REWARD_MODES = ("outcome", "net_worth_share")
MAX_ROUNDS = 1_000
MAX_DECISIONS = NO_DECISION_CAP
MAX_DENSE_COEF = 100.0
STATE_FORMAT = "businessman-env-state"  # save_state's JSON
MAX_STEP_CAP = 1_000  # the largest max_pre_roll_actions and max_trade_steps
_COUNTED = (Phase.PRE_ROLL,)
_ROLL_ONLY = (bm_actions.ROLL,)
_CANCEL_ONLY = (bm_actions.CANCEL_TRADE,)
_SUBMIT_OR_CANCEL = (bm_actions.SUBMIT_TRADE, bm_actions.CANCEL_TRADE)


class TurnCaps:
    """The per-turn caps of the module docstring ("Caps"), for one game at a time.

    ``max_pre_roll_actions`` and ``max_trade_steps`` are checked as the environment's options
    (``RulesError`` naming the bad one). State: ``pre_roll_actions``, the count of the turn
    ``turn_stamp`` (the engine's ``turn_count``); another turn's count reads as 0. Take every
    action of the game through ``apply`` (or call ``count`` just before ``game.apply``).
    """

    __slots__ = ("max_pre_roll_actions", "max_trade_steps", "pre_roll_actions", "turn_stamp")

    def __init__(self, max_pre_roll_actions: int = PRE_ROLL_CAP,
                 max_trade_steps: int = TRADE_STEP_CAP) -> None:
        check_whole("max_pre_roll_actions", max_pre_roll_actions, 1, MAX_STEP_CAP)
        check_whole("max_trade_steps", max_trade_steps, 1, MAX_STEP_CAP)
        self.max_pre_roll_actions = max_pre_roll_actions
        self.max_trade_steps = max_trade_steps
        self.pre_roll_actions = 0
        self.turn_stamp = -1

    def copy(self) -> TurnCaps:
        """An independent copy, counts included."""
        twin = TurnCaps(self.max_pre_roll_actions, self.max_trade_steps)
        twin.pre_roll_actions = self.pre_roll_actions
        twin.turn_stamp = self.turn_stamp
        return twin

    def start(self, game: Game) -> None:
        """Count from 0 in ``game``'s current turn (a new game, or one taken over mid-turn)."""
        self.turn_stamp = game.turn_count
        self.pre_roll_actions = 0

    def count_now(self, game: Game) -> int:
        """The actions counted toward the pre-roll cap in ``game``'s current turn."""
        return self.pre_roll_actions if self.turn_stamp == game.turn_count else 0

    def capped(self, game: Game) -> tuple[Action, ...] | None:
        """The only legal actions a cap leaves now, or None when no cap bites (the engine's
        legal actions stand)."""
        phase = game.phase
        if phase == Phase.PRE_ROLL:
            return _ROLL_ONLY if self.count_now(game) >= self.max_pre_roll_actions else None
        if phase == Phase.TRADE_COMPOSE and not game.is_over:
            if self.count_now(game) >= self.max_pre_roll_actions:
                return _CANCEL_ONLY
            trade = game.trade
            if trade.steps >= self.max_trade_steps:
                return _CANCEL_ONLY if trade.is_empty() else _SUBMIT_OR_CANCEL
        return None

    def legal_actions(self, game: Game) -> list[Action]:
        """The legal actions of ``game.current_player``: the engine's less what the caps take
        away (a new list; empty once the game is over)."""
        if game.is_over:
            return []
        only = self.capped(game)
        return game.legal_actions() if only is None else list(only)

    def legal_mask(self, game: Game) -> np.ndarray:
        """``legal_actions`` as an int8 mask over the action ids."""
        mask = np.zeros(NUM_ACTIONS, np.int8)
        legal = self.legal_actions(game)
        if legal:
            mask[[ACTION_ID[a] for a in legal]] = 1
        return mask

    def count(self, game: Game, action: Action) -> None:
        """Count ``action``, about to be taken in ``game`` (before ``game.apply``)."""
        if self.turn_stamp != game.turn_count:
            self.start(game)
        if game.phase in _COUNTED and action != bm_actions.ROLL:
            self.pre_roll_actions += 1

    def apply(self, game: Game, action: Action) -> None:
        """Take ``action`` in ``game`` and count it; ``IllegalActionError``, changing nothing
        (the count included), for an action the engine or a cap refuses."""
        only = self.capped(game)
        if only is not None and action not in only:
            raise IllegalActionError(
                f"illegal action {action} for seat {game.current_player}: a cap leaves only "
                + ", ".join(str(a) for a in only))
        stamp, counted = self.turn_stamp, self.pre_roll_actions
        self.count(game, action)
        try:
            game.apply(action)
        except IllegalActionError:
            self.turn_stamp, self.pre_roll_actions = stamp, counted
            raise


def as_action_id(action: object) -> int:
    """The action id ``action`` stands for, or ``IllegalActionError`` naming it and the range:
    a Python ``int``, a numpy integer or a 0-d integer array from 0 to 401."""
    return table_action_id(action, NUM_ACTIONS)


def env(**kwargs) -> AECEnv:
    """The environment with PettingZoo's standard wrappers (a masked-out move ends the game;
    a malformed one raises, as from ``raw_env``)."""
    return wrap(raw_env(**kwargs))


class raw_env(TableEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """The environment (see the module docstring); the agents, spaces, seeded reset and rewards
    are ``TableEnv``'s (``byapar_env.table_env``), shared with Byapar's environment."""

    NUM_ACTIONS = NUM_ACTIONS
    OBSERVATION_SIZE = OBSERVATION_SIZE

    metadata = {
        "name": ENV_NAME,
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, num_players: int = bm_board.FIGURES.default_num_players,
                 rounds: int | None = bm_board.FIGURES.default_max_rounds,
                 abroad_enabled: bool = True,
                 render_mode: str | None = None, max_pre_roll_actions: int = PRE_ROLL_CAP,
                 max_trade_steps: int = TRADE_STEP_CAP, skip_trivial: bool = True,
                 reward: str = "outcome", dense_coef: float = 1.0,
                 max_decisions: int = DECISION_CAP, max_rounds: int | None = None) -> None:
        super().__init__()
        if max_rounds is not None:  # the earlier name, kept for one release
            warnings.warn("businessman_v0: max_rounds is now rounds, the name every game's "
                          "environment uses; max_rounds goes in the next release",
                          DeprecationWarning, stacklevel=2)
            rounds = max_rounds
        if rounds is not None and (not is_whole(rounds) or not 1 <= rounds <= MAX_ROUNDS):
            raise RulesError(f"rounds must be a whole number from 1 to {MAX_ROUNDS:,} in this "
                             f"environment, or None to play until one player is left, got "
                             f"{show(rounds)}")
        self.rules = table_rules(num_players, rounds, abroad_enabled=abroad_enabled)
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.caps = TurnCaps(max_pre_roll_actions, max_trade_steps)
        check_whole("max_decisions", max_decisions, 1, MAX_DECISIONS)
        if not isinstance(skip_trivial, bool):
            raise RulesError(f"skip_trivial must be True or False, got {show(skip_trivial)}")
        if not isinstance(reward, str) or reward not in REWARD_MODES:
            raise RulesError(f"reward must be one of {REWARD_MODES}, got {show(reward)}")
        dense_coef = check_real("dense_coef", dense_coef, 0.0, MAX_DENSE_COEF)
        self._kwargs = dict(num_players=num_players, rounds=rounds,
                            abroad_enabled=abroad_enabled, render_mode=render_mode,
                            max_pre_roll_actions=max_pre_roll_actions,
                            max_trade_steps=max_trade_steps, skip_trivial=skip_trivial,
                            reward=reward,
                            dense_coef=float(dense_coef), max_decisions=max_decisions)
        self.render_mode = render_mode
        self.skip_trivial = skip_trivial
        self.reward_mode = reward
        self.dense_coef = float(dense_coef)
        self.max_decisions = max_decisions
        self._set_agents(num_players)
        self.game: Game | None = None
        self.decisions = 0
        self._mask: tuple[int, np.ndarray] | None = None

    # ------------------------------------------------------------------ names
    action_to_string = staticmethod(action_to_string)
    observation_layout = staticmethod(observation_layout)

    # ------------------------------------------------------------------ reset
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        game_seed = self._game_seed(seed)  # checked before anything changes
        self.game = Game(self.rules, seed=game_seed)
        self.caps.start(self.game)
        self.decisions = 0
        self._mask = None
        self._open_books()
        self._shares = self._value_shares() if self.reward_mode != "outcome" else None
        self._auto_play()
        self.agent_selection = self.possible_agents[max(self.game.current_player, 0)]
        self._hand_out()
        self._accumulate_rewards()
        self._deads_step_first()

    def game_changed(self) -> None:
        """Forget what was derived from the game: call it after changing ``self.game`` by hand
        (tests that set up a position do), since the mask is kept per game version."""
        self._mask = None

    def show_game(self, game: Game, pre_roll_actions: int = 0) -> None:
        """Point the environment at ``game`` (a reset environment of the same table size), as
        Byapar's ``show_game`` does: ``pre_roll_actions`` already counted this turn,
        ``game.current_player`` to decide. For asking an observation-reading player about a
        position of an engine game; stepping on plays that game."""
        self.require_game("show_game")
        if game.num_players != len(self.possible_agents):
            raise ValueError(f"show_game: the game has {game.num_players} seats, this "
                             f"environment {len(self.possible_agents)}")
        check_whole("pre_roll_actions", pre_roll_actions, 0, MAX_STEP_CAP)
        self.game = game
        self.caps.start(game)
        self.caps.pre_roll_actions = pre_roll_actions
        self.decisions = 0
        self._mask = None
        if not game.is_over:
            agent = self.possible_agents[game.current_player]
            self.agent_selection = agent
            self.terminations[agent] = self.truncations[agent] = False

    # ------------------------------------------------------------------ observing
    @property
    def pre_roll_actions(self) -> int:
        """The actions counted toward the pre-roll cap in the current turn."""
        return self.caps.count_now(self.game) if self.game is not None else 0

    def legal_engine_actions(self) -> list[Action]:
        """The legal engine actions of the seat that must decide, caps applied (what the mask
        marks; a new list, empty once the game is over)."""
        return self.caps.legal_actions(self.game)

    def _legal_mask(self) -> np.ndarray:
        game = self.game
        key = (game.version, self.caps.count_now(game))
        if self._mask is None or self._mask[0] != key:
            self._mask = (key, self.caps.legal_mask(game))
        return self._mask[1]

    def legal_action_ids(self) -> list[int]:
        """The legal ids of the agent that must decide (empty once the game is over)."""
        if self.game is None or self.game.is_over:
            return []
        return np.flatnonzero(self._legal_mask()).tolist()

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        seat = self.agent_name_mapping[agent or self.agent_selection]
        game = self.game
        name = self.possible_agents[seat]
        if (seat == game.current_player and not game.is_over
                and not self.terminations.get(name, True) and not self.truncations.get(name, True)):
            return self._legal_mask().copy()
        return np.zeros(NUM_ACTIONS, np.int8)

    def observe(self, agent: str) -> dict:
        if self.game is None:  # one test on the hot path; the message from require_game
            self.require_game("observe")
        seat = self.agent_name_mapping[agent]
        return {"observation": encode(self.game.view(seat)),
                "action_mask": self.action_mask(agent)}

    # ------------------------------------------------------------------ stepping
    def step(self, action: int | np.integer | np.ndarray | None) -> None:
        """Take ``action`` for the agent that must decide, or ``None`` for a done one.
        ``IllegalActionError``, changing nothing, for a malformed or masked-out action and
        once every agent is done."""
        agent = self._deciding_agent(action)
        if agent is None:  # a done agent stepped out
            return
        action = as_action_id(action)
        if not self._legal_mask()[action]:
            raise IllegalActionError(self._not_legal_message(
                action, agent, self.legal_action_ids(), action_to_string))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.caps.apply(self.game, ALL_ACTIONS[action])
        self.decisions += 1
        self._auto_play()
        if not self.game.is_over:
            self.agent_selection = self.possible_agents[self.game.current_player]
        self._hand_out()
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _auto_play(self) -> None:
        """Take every decision with a single legal action, caps applied (only with
        ``skip_trivial``)."""
        if not self.skip_trivial:
            return
        game, caps = self.game, self.caps
        while not game.is_over and self.decisions < self.max_decisions:
            legal = caps.legal_actions(game)
            if len(legal) != 1:
                return
            caps.apply(game, legal[0])
            self.decisions += 1

    # ------------------------------------------------------------------ rewards and endings
    # ------------------------------------------------------------------ rendering
    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        text = render_text(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ------------------------------------------------------------------ copying and saving
    def save_state(self) -> str:
        """The whole environment state as JSON text (``load_state`` restores it exactly, every
        hand included: a save is the table's, not a seat's)."""
        self.require_game("save_state")
        caps = self.caps
        return json.dumps({
            "format": STATE_FORMAT, "observation_version": OBSERVATION_VERSION,
            "options": self._kwargs, "engine": self.game.to_json(),
            "caps": [caps.pre_roll_actions, caps.turn_stamp], **self.common_state(),
        })

    def load_state(self, text: str) -> None:
        """Restore a state saved by ``save_state`` on an environment with the same options;
        ``ValueError`` naming what is wrong otherwise, changing nothing."""
        data = self.read_state(text, STATE_FORMAT, OBSERVATION_VERSION)
        try:
            game = Game.from_json(data["engine"])
            caps = TurnCaps(self.caps.max_pre_roll_actions, self.caps.max_trade_steps)
            caps.pre_roll_actions, caps.turn_stamp = (int(x) for x in data["caps"])
            fields = self.common_fields(data)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"corrupt {ENV_NAME} state: {exc!r}") from exc
        # Nothing is changed until everything has been read.
        self.game, self.caps = game, caps
        self.set_common_fields(fields)

    def clone(self) -> raw_env:
        """An independent copy of this environment, mid-game included."""
        copy = raw_env(**self._kwargs)
        copy._seeder.setstate(self._seeder.getstate())
        if self.game is None:
            return copy
        copy.game = self.game.clone()
        copy.caps = self.caps.copy()
        copy.decisions = self.decisions
        copy.agents = list(self.agents)
        copy.agent_selection = self.agent_selection
        for name in ("rewards", "_cumulative_rewards", "terminations", "truncations"):
            setattr(copy, name, dict(getattr(self, name)))
        copy.infos = {a: {} for a in self.agents}
        copy._out = list(self._out)
        copy._shares = None if self._shares is None else list(self._shares)
        if hasattr(self, "_skip_agent_selection"):
            copy._skip_agent_selection = self._skip_agent_selection
        return copy


def render_text(game: Game) -> str:
    """The table in a few lines of text (public figures only)."""
    lines = [f"Round {game.round}, seat {game.turn} to play; deciding: seat "
             f"{game.current_player} ({game.phase.shown_name}); prices "
             + ", ".join(f"{c} {p}" for c, p in zip(bm_board.COLOURS, game.prices, strict=True))]
    for s in range(game.num_players):
        if game.bankrupt[s]:
            lines.append(f"seat {s}: bankrupt")
            continue
        lots = []
        for c in game.lots_of(s):
            mark = "*" * game.level[c] + ("(p)" if game.mortgaged[c] else "")
            lots.append(bm_board.CELLS[c].name + mark)
        lines.append(f"seat {s}: {game.cash[s]:,} cr on {bm_board.CELLS[game.position[s]].name}, "
                     f"shares {game.shares[s]}, {len(game.hands[s])} cards; "
                     f"lots: {', '.join(lots) or 'none'}")
    return "\n".join(lines)


__all__ = ["ENV_NAME", "MAX_STEP_CAP", "REGISTERED_ID", "TurnCaps", "action_to_string",
           "as_action_id", "as_seed", "env", "observation_layout", "raw_env", "render_text"]


def _register() -> None:
    import pettingzoo

    if REGISTERED_ID not in pettingzoo.aec_registry:
        pettingzoo.register("aec", REGISTERED_ID, entry_point="byapar_env.businessman_v0:env")


_register()
