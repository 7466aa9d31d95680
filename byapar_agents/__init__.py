"""Computer players for Byapar, all behind one interface (``byapar_env.players.Player``).

>>> from byapar_agents import make_agent
>>> player = make_agent("medium")
"""

from __future__ import annotations

import re
from pathlib import Path

from byapar_env.games import find_game
from byapar_env.players import Player, PolicyPlayer, RandomPlayer

from .base import EnginePlayer
from .callables import is_callable_name, load_callable
from .easy import EasyPlayer
from .errors import UnknownAgentError
from .expert import (
    DEFAULT_ROLLOUT,
    DEFAULT_SIMS,
    DEFAULT_VALUE_MODE,
    ExpertBudgetError,
    ExpertPlayer,
)
from .hard import DEFAULT_CHECKPOINT, VALUE_BID_TABLES, LearnedPlayer
from .judge import Judge
from .ladder import LADDER, make_level
from .medium import MediumPlayer
from .network import CheckpointError, NumpyPolicy, load_checkpoint
from .outside import OUTSIDE_NAMES, make_outside
from .panel import PANEL_NAMES, PanelPlayer
from .population import is_population_name, make_population
from .seating import play_seated, play_through_env
from .value import value_at

LEVEL_NAMES = ("random", "easy", "medium", "hard")
SEARCH_NAMES = ("expert",)
# The hard player trading as earlier releases did, for comparisons: its policy alone
# ("hard-unguarded"), and the policy's answers checked with fixed caps (byapar_agents.trade_guard,
# "hard-guarded"); the shipped hard trades by the deal judgement (byapar_agents.deals), and
# "hard-unscreened" as it did before its policy's own offers were checked by it too.
# "hard-aimed": the hard player that also makes offers aimed by its rivals' answers read in play
# (byapar_agents.aimed_offers; ahead on seen tables, behind on the unseen gate: not the default).
# "hard-consolidating": the hard player that also offers, once a turn, the wide list's best deal
# completing no group on either side (byapar_agents.aimed_offers.consolidation_offer).
# "hard-judged": its choices away from trades checked one ply deep by the value network
# (byapar_agents.judge); "hard-judged+value=FOLDER" by another value checkpoint.
# "hard+value=FOLDER": the hard player whose deal judgement (its offers, answers and their
# rollout check) reads that value checkpoint instead of the shipped one.
VARIANT_NAMES = ("hard-unguarded", "hard-guarded", "hard-unscreened", "hard-aimed", "hard-sim",
                 "hard-judged", "hard-valuebids", "hard-consolidating")
AGENT_NAMES = LEVEL_NAMES + PANEL_NAMES + SEARCH_NAMES + VARIANT_NAMES
# The expert's variants, named so that the arena can seat them: "expert-all..." searches every
# decision, not just the money ones; "-medium", "-policy", "-mixed", "-population", "-read" or
# "-dealing" names who plays the rollouts (byapar_agents.search.ROLLOUT_MODES; mixed by
# default); "-net" or "-share" how a rollout is scored at its horizon (the value network or the
# position-value share; "-dealing" needs the network); "-hN" the horizon in
# rounds; "-find" or "-nofind" whether the trade finder adds offers (byapar_agents.trade_finder);
# "-enum" whether the enumerated auction bids join the candidates (byapar_agents.candidates),
# "-moves" whether its enumerated moves do (jail, houses, mortgages, raising cash);
# "@SIMS" the simulation budget; "+value=FOLDER" a value checkpoint for the rollouts in place of
# the shipped one (a round of expert iteration, byapar_training.search_value).
_VALUE_SUFFIX = "+value="
_EXPERT_NAME = re.compile(
    r"expert(-all)?(?:-(medium|policy|mixed|population|read|dealing))?(?:-(net|share))?(?:-h([0-9]{1,3}))?"
    r"(?:-(find|nofind))?(-enum)?(-moves)?(?:@([0-9]{1,6}))?")


def expert_options(name: object) -> dict | None:
    """What an expert name asks for (``focus``, ``rollout``, and ``sims`` or
    ``value_checkpoint`` when it names them), or None for a name that is not the expert's."""
    if not isinstance(name, str):
        return None
    name, suffix, folder = name.partition(_VALUE_SUFFIX)
    parts = _EXPERT_NAME.fullmatch(name)
    if parts is None or (suffix and not folder):
        return None
    options = {"focus": not parts.group(1), "rollout": parts.group(2) or DEFAULT_ROLLOUT,
               "value": parts.group(3) or DEFAULT_VALUE_MODE}
    if parts.group(4) is not None:
        options["horizon_rounds"] = int(parts.group(4))
    if parts.group(5) is not None:
        options["find_trades"] = parts.group(5) == "find"
    if parts.group(6):
        options["enumerate_bids"] = True
    if parts.group(7):
        options["enumerate_moves"] = True
    if parts.group(8) is not None:
        options["sims"] = int(parts.group(8))
    if folder:
        options["value_checkpoint"] = folder
    return options


def is_expert_name(name: object) -> bool:
    """Whether ``name`` seats the expert (``expert``, ``expert@SIMS`` or a variant)."""
    return expert_options(name) is not None


def make_agent(name: str, seed: int | None = None, *, budget_ms: float | None = None,
               sims: int | None = None, game: str = "byapar") -> Player:
    """A fresh player by level name (random, easy, medium, hard), panel name (see
    ``byapar_agents.panel``), ``expert`` (search; ``expert@SIMS`` names its simulation budget,
    ``expert-all-medium@SIMS`` and the like its variants: see ``_EXPERT_NAME``) or from a
    checkpoint folder.

    ``budget_ms`` or ``sims`` set the expert's budget (default: ``DEFAULT_SIMS`` simulations a
    decision, reproducible); other players take neither (``ExpertBudgetError``). A checkpoint
    that cannot be used raises ``CheckpointError`` (a ValueError) saying why.

    ``game`` names the game (``byapar_env.games``): another game's players are made by its own
    players module, with the same ``UnknownAgentError`` for a name it does not know (its expert
    names its budget in the name: ``expert@SIMS``)."""
    spec = find_game(game)
    if spec.players != __name__:
        if sims is not None or budget_ms is not None:
            raise ExpertBudgetError(f"sims and budget_ms are Byapar's expert's; {spec.title}'s "
                                    "expert names its budget (expert@SIMS)")
        return spec.make_agent(name, seed)
    options = expert_options(name)
    if options is not None:
        if "sims" in options and (sims is not None or budget_ms is not None):
            raise ExpertBudgetError(f"{name!r} names its budget already; give sims or "
                                    "budget_ms with a name without @SIMS")
        options.setdefault("sims", sims)
        return ExpertPlayer(seed, budget_ms=budget_ms, **options)
    if sims is not None or budget_ms is not None:
        raise ExpertBudgetError(f"sims and budget_ms set the expert's search budget; {name!r} "
                                "does not search")
    if name == "random":
        return RandomPlayer(seed)
    if name == "easy":
        return EasyPlayer()
    if name == "medium":
        return MediumPlayer()
    if name in PANEL_NAMES:
        return PanelPlayer(name)
    if name in OUTSIDE_NAMES:  # the outside panel (byapar_agents.outside)
        return make_outside(name)
    if is_population_name(name):  # the generated population (byapar_agents.population)
        return make_population(name)
    if name == "hard":
        return LearnedPlayer(DEFAULT_CHECKPOINT, name="hard")
    if name == "hard-unguarded":
        return LearnedPlayer(DEFAULT_CHECKPOINT, name=name, trades="policy", keep_moves=False,
                             screen_offers=False)
    if name == "hard-valuebids":  # auctions at six seats bid by worth (hard.VALUE_BID_TABLES)
        return LearnedPlayer(DEFAULT_CHECKPOINT, name=name, value_bid_tables=VALUE_BID_TABLES)
    if name == "hard-sim":  # its own offers that complete a group checked by rollouts too
        return LearnedPlayer(DEFAULT_CHECKPOINT, name=name, check_proposals=True)
    if name == "hard-guarded":
        return LearnedPlayer(DEFAULT_CHECKPOINT, name=name, trades="guard", keep_moves=False,
                             screen_offers=False)
    if name == "hard-unscreened":  # the release before: the policy's own offers unchecked
        return LearnedPlayer(DEFAULT_CHECKPOINT, name=name, screen_offers=False)
    if name == "hard-aimed":  # offers aimed by the rivals' answers (byapar_agents.aimed_offers)
        return LearnedPlayer(DEFAULT_CHECKPOINT, name=name, read_answers=True)
    if name == "hard-consolidating":  # offers that complete no group (aimed_offers)
        return LearnedPlayer(DEFAULT_CHECKPOINT, name=name, consolidate=True)
    judged, suffix, folder = name.partition(_VALUE_SUFFIX)
    if judged == "hard" and folder:
        return LearnedPlayer(DEFAULT_CHECKPOINT, name=name, value=value_at(folder))
    if judged == "hard-judged" and (folder or not suffix):
        return LearnedPlayer(DEFAULT_CHECKPOINT, name=name, judge=Judge(value_at(folder or None)))
    if name in LADDER:  # the server's difficulty ladder, beginner to master
        return make_level(name, seed)
    if Path(name).is_dir():
        return LearnedPlayer(name)
    if is_callable_name(name):  # module:callable, (observation, mask) -> action id
        return PolicyPlayer(load_callable(name), name=name)
    raise UnknownAgentError(
        f"unknown player {name!r}: expected one of {', '.join(AGENT_NAMES)}, a ladder level "
        f"({', '.join(LADDER)}), outside-NAME ({', '.join(OUTSIDE_NAMES)}), pop-SEED, "
        "expert@SIMS, "
        "expert[-all][-medium|-policy|-mixed|-population|-read][-net|-share][-hROUNDS]"
        "[-find|-nofind][-enum][@SIMS][+value=FOLDER], hard+value=FOLDER, "
        "hard-judged+value=FOLDER, a checkpoint folder or module:callable")


_SEATED: dict[str, Player] = {}  # players that keep nothing per game: made once a process


def seat_player(name: str, seed: int) -> Player:
    """A player for one seat of one game (the arena's): a fresh one, seeded, of a level, a
    ladder level or the expert (they keep per-game state, such as the expert's decision seeds
    or a lapsing level's generator); any other kind
    (a checkpoint folder, the outside panel, the population) made once a process."""
    if name in AGENT_NAMES or name in LADDER or is_expert_name(name):
        return make_agent(name, seed=seed)
    if name not in _SEATED:
        _SEATED[name] = make_agent(name)
    return _SEATED[name]


def learned_player(folder: str | Path) -> LearnedPlayer:
    """The player of a Byapar policy checkpoint folder (``CheckpointError`` saying why not)."""
    return LearnedPlayer(folder)


__all__ = ["AGENT_NAMES", "CheckpointError", "DEFAULT_SIMS", "EasyPlayer", "EnginePlayer",
           "ExpertBudgetError", "ExpertPlayer", "LearnedPlayer", "SEARCH_NAMES", "expert_options",
           "is_expert_name",
           "NumpyPolicy", "load_checkpoint", "MediumPlayer", "LEVEL_NAMES", "PANEL_NAMES",
           "PanelPlayer", "Player", "PolicyPlayer", "learned_player", "play_seated",
           "play_through_env", "seat_player",
           "RandomPlayer", "UnknownAgentError", "make_agent"]
