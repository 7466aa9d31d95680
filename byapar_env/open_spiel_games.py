"""Both games as OpenSpiel Python games, so that OpenSpiel's own algorithms run on them.

    import pyspiel
    import byapar_env.open_spiel_games  # registers python_byapar and python_businessman
    game = pyspiel.load_game("python_byapar", {"players": 4, "rounds": 20, "seed": 7})

Needs the ``open_spiel`` package (``pip install -e '.[openspiel]'``); without it, importing this
module raises ``ModuleNotFoundError`` naming that command.

**Actions** are the versioned environments' ids (``byapar_v0``: 181, ``businessman_v0``: 402),
taken through the environment with every decision asked (``skip_trivial=False``), so a trade
offer is composed step by step as an agent of the environment composes it, under the same caps.
**Chance is explicit for the dice**: when a player's action would roll, a chance node comes
first, with the 36 ordered pairs (``6 * (d1 - 1) + (d2 - 1)``), each 1/36, and the action is then
taken with that roll (an action that rolls twice has two chance nodes). The order of the card
decks, and Businessman's Exchange hands, come from the game's ``seed`` parameter, as the
engines draw them; an algorithm that clones a state therefore knows the decks (and, in
Businessman, every hand): use information states for what a seat may know.
**Information**: Byapar is perfect information; Businessman imperfect, its information state
string being the public history (every action and roll, by id) and the seat's own view
(``Game.view``: its own hand, never another seat's). The observation tensor is the seat's
observation in the environment. **Returns** are each seat's share of the win (1, 1/k for a k-way
shared win, 0), so they sum to 1 (constant-sum); a game cut at the environment's decision cap
is shared by the seats with the highest net worth.

Parameters: ``players`` (2 to 6, 4 by default), ``rounds`` (the round limit, each game's
default by default), ``until_one_left`` (True plays until one player is left, the richest
winning after 100 rounds) and ``seed``.
"""

from __future__ import annotations

import json

import numpy as np

try:
    import pyspiel
except ModuleNotFoundError as exc:  # pragma: no cover - the message is the point
    raise ModuleNotFoundError("OpenSpiel is not installed: pip install -e '.[openspiel]' "
                              "(the open_spiel package)", name=exc.name) from None

from .driver import DECISION_CAP
from .games import find_game

DICE_SIDES = 6
ROLLS = DICE_SIDES * DICE_SIDES
# An action's trial copy rolls these after the dice drawn for it (more than any action rolls).
SPARE_ROLL = (1, 2)
SPARE_ROLLS = 8


def _game_type(name: str, title: str, hidden: bool, default_rounds: int) -> pyspiel.GameType:
    info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=f"python_{name}", long_name=f"Python {title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=info.IMPERFECT_INFORMATION if hidden else info.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=6, min_num_players=2,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=True,
        parameter_specification={"players": 4, "rounds": default_rounds,
                                 "until_one_left": False, "seed": 0})


class TableGame(pyspiel.Game):
    """One of the package's games as an OpenSpiel game (``GAME_NAME`` names it)."""

    GAME_NAME = ""

    def __init__(self, params: dict | None = None) -> None:
        spec = find_game(self.GAME_NAME)
        game_type = GAME_TYPES[self.GAME_NAME]
        params = {**game_type.parameter_specification, **(params or {})}
        players = int(params["players"])
        rounds = None if bool(params["until_one_left"]) else int(params["rounds"])
        env = spec.module("env").raw_env(num_players=players, rounds=rounds,
                                         skip_trivial=False)
        first = env.possible_agents[0]
        self.table_rounds = rounds
        self.table_seed = int(params["seed"])
        self.observation_size = env.observation_space(first)["observation"].shape[0]
        info = pyspiel.GameInfo(
            num_distinct_actions=env.action_space(first).n, max_chance_outcomes=ROLLS,
            num_players=players, min_utility=0.0, max_utility=1.0, utility_sum=1.0,
            max_game_length=2 * DECISION_CAP)
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> TableState:
        return TableState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> SeatObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return SeatObserver(self.observation_size)


class ByaparGame(TableGame):
    GAME_NAME = "byapar"


class BusinessmanGame(TableGame):
    GAME_NAME = "businessman"


class TableState(pyspiel.State):
    """A position: the game's environment, every decision asked, and the dice drawn so far for
    the action waiting on them."""

    def __init__(self, game: TableGame) -> None:
        super().__init__(game)
        spec = find_game(game.GAME_NAME)
        self.env = spec.module("env").raw_env(num_players=game.num_players(),
                                              rounds=game.table_rounds, skip_trivial=False)
        self.env.reset(seed=game.table_seed)
        self.waiting: int | None = None  # a player's action that needs dice not yet drawn
        self.rolls: list[tuple[int, int]] = []
        self.ids: list[int] = []  # every action and roll, public to every seat

    # -------------------------------------------------------------- OpenSpiel's state API
    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.waiting is not None:
            return pyspiel.PlayerId.CHANCE
        return self.env.agent_name_mapping[self.env.agent_selection]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.env.legal_action_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, 1.0 / ROLLS) for i in range(ROLLS)]

    def _apply_action(self, action: int) -> None:
        self.ids.append(int(action))
        if self.waiting is not None:
            self.rolls.append((action // DICE_SIDES + 1, action % DICE_SIDES + 1))
            action, self.waiting = self.waiting, None
        if self._needs_dice(action):
            self.waiting = action
            return
        game = self.env.game
        game.force_dice(*self.rolls)
        self.rolls = []
        self.env.step(action)

    def _needs_dice(self, action: int) -> bool:
        """Whether ``action`` would roll more dice than those drawn for it: tried on a copy
        whose dice are the ones drawn followed by spare rolls; it needs more if it took a spare.
        (Whether a roll follows depends only on the rolls before it, so the spares' values do
        not matter.)"""
        twin = self.env.clone()
        twin.game.force_dice(*self.rolls, *[SPARE_ROLL] * SPARE_ROLLS)
        twin.step(action)
        return len(twin.game.forced_dice) < SPARE_ROLLS

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"roll {action // DICE_SIDES + 1}+{action % DICE_SIDES + 1}"
        return type(self.env).action_to_string(action)

    def is_terminal(self) -> bool:
        return not self.env.agents or all(self.env.terminations.values()) or all(
            self.env.truncations.values())

    def returns(self) -> list[float]:
        game = self.env.game
        n = game.num_players
        if not self.is_terminal():
            return [0.0] * n
        winners = list(game.winners) if game.is_over else _richest(game)
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]

    def information_state_string(self, player: int) -> str:
        own = (json.dumps(self.env.game.view(player), sort_keys=True)
               if hasattr(self.env.game, "view") else "")
        return f"{' '.join(map(str, self.ids))}|{own}"

    def __str__(self) -> str:
        return " ".join(map(str, self.ids))


def _richest(game) -> list[int]:
    worth = [game.net_worth(s) for s in range(game.num_players)]
    top = max(worth)
    return [s for s, w in enumerate(worth) if w == top]


class SeatObserver:
    """The observation tensor: a seat's observation in the environment."""

    def __init__(self, size: int) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TableState, player: int) -> None:
        env = state.env
        self.tensor[:] = env.observe(env.possible_agents[player])["observation"]

    def string_from(self, state: TableState, player: int) -> str:
        return state.information_state_string(player)


GAME_TYPES = {name: _game_type(name, find_game(name).title, find_game(name).hidden_information,
                               find_game(name).default_rounds)
              for name in ("byapar", "businessman")}
pyspiel.register_game(GAME_TYPES["byapar"], ByaparGame)
pyspiel.register_game(GAME_TYPES["businessman"], BusinessmanGame)
