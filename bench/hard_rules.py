"""Hand-written rules over the hard player's moves, each measured against the hard player alone
on the same arena games (docs/expert_iteration.md, "A table where nobody has an edge, rules
over the hard player's moves, ..." and "The search's departures, as rules").

    python -m bench.hard_rules --opponents pop-4,pop-4,pop-4,pop-4,pop-4 --games 400 --seed 41
    python -m bench.hard_rules --opponents medium,medium,medium --rules none,build-first

Two rules narrow the moves the policy may pick from before it rolls (a trade draft under way is
left alone, and a rule that would leave nothing legal is not applied):

- ``mortgage-reserve``: no mortgage while the cash is at least ``RESERVE`` (Rs 3,000) or while
  the seat has no whole, unmortgaged colour group to build on (a mortgage before rolling is for
  building; the policy took them with plenty of cash in hand, and paid them off later);
- ``build-first``: where a house is legal on a group whose lowest place has fewer than three
  houses and the cash covers the house and ``RESERVE``, only such houses (the third house pays
  most, and the policy sometimes rolled instead).

Two rules take the search's most frequent departures from the policy away from trades (the
expert, given the choice, bought where the policy declined and bid where it dropped out) and
replace the policy's choice after it is made:

- ``buy-always``: where buying the place landed on is legal, buy it;
- ``bid-to-price``: in an auction, where the policy drops out and the least raise stays within
  the place's list price and the seat's cash, the least raise.

Three more replace its choice in an answer to an offer or while it raises cash
(docs/expert_iteration.md, "A stand-in for the unseen six-seat table, ..."):

- ``take-completions``: an offer that completes a colour group of its own is accepted, whatever
  its judgement says (the way into rivals' swaps at tables where they swap among themselves);
- ``take-swaps``: the same, only where the offer completes the offering seat's group too;
- ``medium-cash``: while it raises cash, the medium player's choice (the cheapest mortgage
  outside its groups, then other mortgages, then the cheapest buildings).

Each table is ``byapar arena``'s: the hero in the first seat of ``--opponents``'s lineup,
rotated by the game's number, game ``i`` seeded from ``--seed`` and ``i`` alone, so every rule
meets the same dice. Measure on seen opponents only: the gauntlet's unseen ones are for the
final report.
"""

from __future__ import annotations

import argparse

import numpy as np

from bench.common import print_variants
from bench.seated import check_opponents, hero_share
from byapar_agents.deals import completes_group, completes_target_group
from byapar_agents.hard import LearnedPlayer
from byapar_agents.medium import MediumPlayer
from byapar_env.action_table import (
    ACCEPT_ID,
    ACTIONS,
    BID_MIN_ID,
    BUY_ID,
    DROP_OUT_ID,
    engine_action,
    fixed_action_id,
)
from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import Game, Phase, board

RESERVE = 3_000
PRE_ROLL_RULES = ("mortgage-reserve", "build-first")
CHOICE_RULES = ("buy-always", "bid-to-price", "take-completions", "take-swaps", "medium-cash")
RULES = PRE_ROLL_RULES + CHOICE_RULES
_CHOICE_PHASES = (Phase.BUY, Phase.AUCTION, Phase.TRADE_ANSWER, Phase.RAISE_CASH)
_MEDIUM = MediumPlayer()  # its raise-cash choice keeps nothing between calls
_MORTGAGE_IDS = [i for i, a in enumerate(ACTIONS) if a.kind == "mortgage"]
_BUILD_IDS = [i for i, a in enumerate(ACTIONS) if a.kind == "build"]


def has_group_to_build(game: Game, seat: int) -> bool:
    """Whether ``seat`` holds a whole, unmortgaged colour group with room for a building."""
    return any(all(game.owner[q] == seat and not game.mortgaged[q] for q in group)
               and min(game.buildings[q] for q in group) < board.HOTEL
               for group in board.GROUPS.values())


def ruled_mask(game: Game, seat: int, mask: np.ndarray, rules: frozenset[str]) -> np.ndarray:
    """``mask`` narrowed by ``rules`` for ``seat`` before rolling; ``mask`` itself where no
    rule applies or a rule would leave nothing legal."""
    drop: set[int] = set()
    if "mortgage-reserve" in rules and (game.cash[seat] >= RESERVE
                                        or not has_group_to_build(game, seat)):
        drop.update(i for i in _MORTGAGE_IDS if mask[i])
    if "build-first" in rules:
        houses = [i for i in _BUILD_IDS if mask[i] and _pays_to_build(game, seat, i)]
        if houses:
            drop.update(int(i) for i in np.flatnonzero(mask) if i not in houses)
    if not drop:
        return mask
    narrowed = np.array(mask, copy=True)
    narrowed[sorted(drop)] = 0
    return narrowed if narrowed.any() else mask


def ruled_choice(game: Game, seat: int, mask: np.ndarray, chosen: int,
                 rules: frozenset[str]) -> int:
    """The id ``seat`` plays where the policy chose ``chosen`` under the legal ``mask``: the
    choice rules' replacement where one applies, else ``chosen``."""
    if "buy-always" in rules and game.phase == Phase.BUY and mask[BUY_ID]:
        return BUY_ID
    if ("bid-to-price" in rules and game.phase == Phase.AUCTION and chosen == DROP_OUT_ID
            and mask[BID_MIN_ID]):
        auction = game.auction
        amount = auction.high + board.BID_STEP
        if amount <= board.SQUARES[auction.square].price and amount <= game.cash[seat]:
            return BID_MIN_ID
    if (game.phase == Phase.TRADE_ANSWER and mask[ACCEPT_ID]
            and not {"take-completions", "take-swaps"}.isdisjoint(rules)):
        offerer, offer = game.offer
        if (offer.target == seat and completes_target_group(game, offerer, offer)
                and ("take-completions" in rules or completes_group(game, offerer, offer))):
            return ACCEPT_ID
    if "medium-cash" in rules and game.phase == Phase.RAISE_CASH:
        move = fixed_action_id(_MEDIUM.choose(game, seat, game.legal_actions()))
        return move if mask[move] else chosen
    return chosen


def _pays_to_build(game: Game, seat: int, action_id: int) -> bool:
    square = engine_action(game, action_id).square
    lowest = min(game.buildings[q] for q in board.GROUP_OF[square])
    return lowest < 3 and game.cash[seat] >= board.SQUARES[square].house_cost + RESERVE


class RuledHard(LearnedPlayer):
    """The hard player (trades and all) with ``rules`` over its moves."""

    def __init__(self, rules: frozenset[str]) -> None:
        super().__init__(name="hard")
        self.rules = rules

    def act(self, env: raw_env, seat: int) -> int:
        chosen = super().act(env, seat)
        if (self.rules.isdisjoint(CHOICE_RULES) or env.draft is not None
                or env.game.phase not in _CHOICE_PHASES):
            return chosen
        mask = env.action_mask(env.possible_agents[seat])
        return ruled_choice(env.game, seat, mask, chosen, self.rules)

    def _policy_act(self, env: raw_env, seat: int, obs: dict | None = None,
                    quiet: bool = False) -> int:
        if obs is None:
            obs = env.observe(env.possible_agents[seat])
        game = env.game
        if self.rules and env.draft is None and game.phase == Phase.PRE_ROLL:
            mask = ruled_mask(game, seat, obs["action_mask"], self.rules)
            if mask is not obs["action_mask"]:
                obs = dict(obs, action_mask=mask)
        return super()._policy_act(env, seat, obs, quiet)


def win_share(rules: frozenset[str], opponents: list[str], index: int, seed: int) -> float:
    """The hero's share of game ``index``'s win (ties split)."""
    def ruled(players: list, me: int, game_seed: int) -> list:
        hero = RuledHard(rules)
        hero.reset(game_seed + me)
        return [hero if s == me else p for s, p in enumerate(players)]

    return hero_share(("hard", *opponents), index, seed, ruled)


def parse_rules(text: str) -> list[tuple[str, frozenset[str]]]:
    """``--rules``: comma-separated variants, each ``none`` or ``+``-joined ``RULES``."""
    out = []
    for v in text.split(","):
        names = frozenset() if v == "none" else frozenset(v.split("+"))
        unknown = sorted(names - set(RULES))
        if unknown:
            raise ValueError(f"unknown rule {unknown[0]!r}; the rules: none, {', '.join(RULES)}")
        out.append((v, names))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opponents", default="pop-4,pop-4,pop-4,pop-4,pop-4",
                    help="comma-separated opponents, 1 to 5 (seen ones)")
    ap.add_argument("--rules", default="none,mortgage-reserve,build-first",
                    help=f"comma-separated variants, each none or RULE+RULE ({', '.join(RULES)})")
    ap.add_argument("--games", type=int, default=400, help="games a variant (at least 1)")
    ap.add_argument("--seed", type=int, default=41, help="the run's seed, as the arena's")
    args = ap.parse_args(argv)
    opponents = args.opponents.split(",")
    try:
        variants = parse_rules(args.rules)
        check_opponents(opponents)
    except ValueError as exc:
        ap.error(str(exc))
    if args.games < 1:
        ap.error(f"--games must be at least 1, got {args.games}")
    print(f"hard + {', '.join(opponents)}: {args.games} games a variant, seed {args.seed}, "
          "seats rotated")
    rows = ((name, (win_share(rules, opponents, i, args.seed) for i in range(args.games)))
            for name, rules in variants)
    for _ in print_variants(rows, args.games, width=30):
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
