"""Rollouts with the real engine: how good an action is, judged by playing the game on from it.

A rollout clones the game, takes one action for the deciding seat, and plays on with fast
players in every seat, the searching seat's later moves included, until a horizon or the game's
end, whichever comes first. The horizon is a point of the game fixed before the action is
taken: ``horizon_rounds`` rounds on, when the seat whose turn it is at the decision is to
start its turn again (``horizon``), so that every candidate of a decision is scored at the same
point, every other seat has had its turns, and an action that ends the round is not scored a
round later than one that does not. Who plays is the rollout mode (``ROLLOUT_MODES``):

- ``medium``: the medium player (``ROLLOUT_PLAYER``) in every seat;
- ``policy``: the learned policy in every seat (``PolicyRolloutPlayer``: its most likely legal
  action, at about the medium player's cost a round, because it composes no trade offers and
  never undoes its own move within a turn);
- ``mixed``: the policy in the searching seat (its own later moves are the policy's), and in each
  other seat the policy or the medium player, drawn afresh for each rollout from the rollout's
  seed. An opponent at a real table is neither model; a search that weighs both does not stake
  every decision on one guess, and every candidate still meets the same opponents;
- ``population``: as ``mixed``, but each other seat is drawn from three kinds: the policy, the
  medium player, or one of ``POPULATION_POOL`` players of the generated population
  (``byapar_agents.population``, training seeds only: ``training_names``), so the search does not
  assume one kind of rival;
- ``read``: as ``mixed``, but each other seat is drawn, per rollout, from that seat's posterior
  over the rival reader's portfolio (``byapar_agents.rival_reader``: ``reading``, the kinds each
  rival plays like so far); a seat with no reading is drawn as in ``mixed``;
- ``dealing``: rivals that trade among themselves. The searching seat is the dealing rollout
  player (``byapar_agents.dealing_rollout``: the policy with the hard player's deal module, its
  offers and answers judged by the value network), and each other seat that player or the
  medium player (whose own offers complete its groups), drawn per rollout from its seed; so a
  rollout sees rivals swap and sell to complete groups, as the mixed rollouts' policy seats
  never offer. It needs the value network.

Its score for the searching seat is:

- at the game's end, the seat's share of the win (1, 1/k for a k-way shared win, or 0);
- at the horizon, with a value network (``value``, ``byapar_agents.value.ValueNet``), the seat's
  chance of winning by that network, learned from the outcomes of games;
- at the horizon, without one, the seat's share of the position value of every seat still in
  (``valuation.position_value``: cash, places at their net-worth value and the rent they should
  bring over the rounds left), a number from 0 to 1 like the win share.

Chance comes from the clone's own generator, seeded per rollout (``chance_game``): fresh dice,
and the card decks reshuffled, so the search never reads the real game's future dice or its
deck order (which no player at the table could know). Rollout ``k`` of every candidate action
uses the same seed: common random numbers, so two candidates meet the same dice and cards for
as long as their games stay alike, and their difference is the action's, not the luck's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from byapar_env.engine import Action, Game
from byapar_env.fast_play import PlayStop, play_on
from byapar_env.stats import paired_mean_se
from byapar_env.valuation import position_value

from .dealing_rollout import DealingRolloutPlayer
from .medium import MediumPlayer
from .network import NumpyPolicy
from .policy_rollout import PolicyRolloutPlayer
from .population import make_population, training_names
from .rival_reader import PORTFOLIO
from .value import ValueNet, win_shares

ROLLOUT_PLAYER = MediumPlayer
DEFAULT_HORIZON_ROUNDS = 3

# Who plays the seats of a rollout (the module docstring has each): "mixed" (the policy in the
# searching seat; every other seat the policy or the medium player, drawn per rollout from its
# seed, so that the search weighs both kinds of opponent and every candidate meets the same
# ones) is the expert's default.
ROLLOUT_MODES = ("medium", "policy", "mixed", "population", "read", "dealing")
# The population players a "population" rollout draws from: training seeds only, drawn once
# from a fixed generator, so the same seed gives the same rollout in every process.
POPULATION_POOL = 8
_POPULATION_NAMES = training_names(POPULATION_POOL, random.Random(0x5EA7))


def chance_game(root: Game, seed: int) -> Game:
    """A clone of ``root`` whose chance is drawn from ``seed``: a fresh dice generator, every
    deck reshuffled, no forced dice. The same seed gives the same dice and cards."""
    game = root.clone()
    rng = random.Random(seed)
    game.rng = rng
    game.forced_dice = []
    for deck in sorted(game.decks):
        cards = list(game.decks[deck])
        rng.shuffle(cards)
        game.decks[deck] = cards
    return game


def search_root(game: Game) -> Game:
    """The game every rollout of a decision clones: ``game`` without its log, so that each
    rollout's clone does not copy a long game's text."""
    root = game.clone()
    root.log = []
    return root


def score(game: Game, seat: int) -> float:
    """The seat's share of the win once the game is over, else of the position value of the
    seats still in (both from 0 to 1)."""
    if game.is_over:
        return win_shares(game)[seat]
    if game.bankrupt[seat]:
        return 0.0
    values = {s: position_value(game, s) for s in game.active_seats()}  # each seat's once
    total = sum([max(0.0, v) for v in values.values()])
    return values[seat] / total if total > 0 else 0.0


class Rollouts:
    """Plays rollouts from one root for one seat. The rollout players are made once and reset
    before each rollout (they remember the offers they tried)."""

    def __init__(self, root: Game, seat: int, pre_roll_actions: int = 0,
                 horizon_rounds: int = DEFAULT_HORIZON_ROUNDS, mode: str = "medium",
                 policy: NumpyPolicy | None = None, value: ValueNet | None = None,
                 reading: dict[int, dict[str, float]] | None = None) -> None:
        if mode not in ROLLOUT_MODES:
            raise ValueError(f"rollout mode must be one of {', '.join(ROLLOUT_MODES)}, "
                             f"got {mode!r:.40}")
        if mode != "medium" and policy is None:
            raise ValueError(f"rollout mode {mode!r} needs the policy")
        if mode == "dealing" and value is None:
            raise ValueError("rollout mode 'dealing' needs the value network (its deals read it)")
        self.root = root
        self.seat = seat
        self.pre_roll_actions = pre_roll_actions
        self.horizon_rounds = horizon_rounds
        self.mode = mode
        self.value = value
        n = root.num_players
        self.mediums = [ROLLOUT_PLAYER() for _ in range(n)]
        self.policies = [PolicyRolloutPlayer(policy) for _ in range(n)] if policy else []
        self.dealers = ([DealingRolloutPlayer(policy, value) for _ in range(n)]
                        if mode == "dealing" else [])
        # Population players keep their state per seat, so one object serves every seat.
        self.population = ([make_population(name) for name in _POPULATION_NAMES]
                           if mode == "population" else [])
        # "read": each rival's posterior as (kinds, weights), and its players made on first use.
        self.reading = {s: (list(post), list(post.values()))
                        for s, post in (reading or {}).items() if post}
        self._read_players: dict[tuple[int, str], object] = {}

    def seat_players(self, seed: int) -> list:
        """Who plays each seat in the rollout of ``seed`` (the same for every candidate)."""
        if self.mode == "medium":
            return self.mediums
        if self.mode == "policy":
            return self.policies
        draw = random.Random(seed ^ 0x5EA7)
        if self.mode == "read":
            return [self.policies[s] if s == self.seat else self._read_player(s, draw)
                    for s in range(self.root.num_players)]
        if self.mode in ("mixed", "dealing"):  # the searching seat's kind, or medium by a coin
            own = self.dealers if self.mode == "dealing" else self.policies
            return [own[s] if s == self.seat or draw.random() < 0.5
                    else self.mediums[s] for s in range(self.root.num_players)]
        out = []
        for s in range(self.root.num_players):
            kind = 0 if s == self.seat else draw.randrange(3)
            out.append(self.policies[s] if kind == 0 else self.mediums[s] if kind == 1
                       else self.population[draw.randrange(len(self.population))])
        return out

    def _read_player(self, seat: int, draw: random.Random) -> object:
        """Rival ``seat``'s player in this rollout: a kind drawn from its reading."""
        reading = self.reading.get(seat)
        if reading is None:  # not read (or read badly): as in mixed rollouts
            return self.policies[seat] if draw.random() < 0.5 else self.mediums[seat]
        kind = draw.choices(reading[0], reading[1])[0]
        player = self._read_players.get((seat, kind))
        if player is None:
            player = self._read_players[seat, kind] = PORTFOLIO[kind]()
        return player

    def run(self, first: Action | None, seed: int, deadline: float = math.inf) -> float | None:
        """Take ``first`` (None: let the rollout player decide now too) and play on; the
        searching seat's score, or None if ``deadline`` (``time.perf_counter`` time, checked
        at every decision) passed first."""
        game = self.play(first, seed, deadline)
        if game is None:
            return None
        if self.value is not None:  # the true shares once the game is over
            return self.value.win_chances(game)[self.seat]
        return score(game, self.seat)

    def play(self, first: Action | None, seed: int, deadline: float = math.inf
             ) -> Game | None:
        """The rollout of ``seed`` with ``first`` taken, played to the horizon (or the game's
        end): the game there, or None if ``deadline`` passed first. Its players are
        ``seat_players(seed)``, in the state the rollout left them."""
        game = chance_game(self.root, seed)
        players = self.seat_players(seed)
        for s, player in enumerate(players):
            player.reset(seed + s)
        stop = horizon(game, self.horizon_rounds)  # before the action: the same for all
        # The actions already taken before rolling this turn count toward the table's cap.
        try:
            play_on(game, players, stop, self.pre_roll_actions, first, deadline)
        except PlayStop:
            return None
        return game


def horizon(game: Game, rounds: int) -> tuple[int, int]:
    """Where a rollout from ``game`` stops, as ``(round, turn)``: ``rounds`` rounds on, when the
    seat whose turn it is now starts its turn (or, if it is out by then, the next seat does);
    compared with ``(game.round, game.turn)``."""
    return game.round + rounds, game.turn


def rollout_seeds(seed: int) -> random.Random:
    """The generator of one decision's rollout seeds: the k-th seed it gives is rollout k's,
    for every candidate (common random numbers)."""
    return random.Random(seed)


def paired_edge(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean of ``a - b`` over paired rollouts and its standard error (0 with one pair); pairs
    beyond the shorter sequence are left out."""
    n = min(len(a), len(b))
    return paired_mean_se(a[:n], b[:n])
