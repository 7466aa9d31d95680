"""How often a player trades: offers it makes and accepts a game, in the arena's games.

    python -m bench.trade_counts --players hard,medium,medium,medium --games 100 --seed 0

Plays the arena's games of ``--players`` (seats rotated, the same games as ``byapar arena
--players ... --seed S``) and counts, per game and for the first player's kind (``--watch``,
default the first name): the offers its seats make, how many of them are accepted, the offers
its seats receive and accept, and the accepted offers that complete the offering seat's colour
group, and its win rate with a 95% interval. A player that refuses every offer is safe and
weak; one that accepts whatever it is offered is exploitable: these counts show which.

It counts too the colour groups its seats complete by trading (as offerer or target) and its
accepted offers that complete its own group. It also counts the trades among the other seats
(the rivals): accepted offers between two of them, those that are swaps (places both ways),
and the colour groups they complete that way (for either side); and, per rival kind, the
watched seats' offers to it made and accepted and its offers to them received and accepted
(``to KIND`` and ``from KIND``), so that a table of rivals that trade with each other shows
who deals with whom.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

from byapar_agents import play_through_env
from byapar_agents.deals import completes_group, completes_target_group
from byapar_agents.network import single_thread_blas
from byapar_agents.trade_guard import ACCEPT_ID
from byapar_env.engine import Phase
from byapar_harness.arena import ArenaConfig, seat_game, table_env, wilson


def count_game(config: ArenaConfig, index: int, watch: str, counts: Counter) -> float:
    """Play game ``index`` of the run; add its counts for ``watch``'s seats to ``counts`` and
    return ``watch``'s share of the win (divided among its seats)."""
    kinds, players, seed = seat_game(config, index)
    mine = {s for s, k in enumerate(kinds) if k == watch}

    def on_decision(env, seat, action):
        game = env.game
        if game.phase != Phase.TRADE_ANSWER or game.offer is None:
            return
        offerer, offer = game.offer
        accepted = action == ACCEPT_ID
        completes_offerer = completes_group(game, offerer, offer)
        completes_target = completes_target_group(game, offerer, offer)
        if accepted and (offerer in mine or seat in mine):
            counts["groups it completed trading"] += ((offerer in mine and completes_offerer)
                                                      + (seat in mine and completes_target))
        if offerer in mine:
            counts["offers made"] += 1
            counts["made and accepted"] += accepted
            counts["made and accepted, completing its group"] += accepted and completes_offerer
            counts[f"offers made to {kinds[seat]}"] += 1
            counts[f"offers accepted by {kinds[seat]}"] += accepted
        if seat in mine:
            counts["offers received"] += 1
            counts["received and accepted"] += accepted
            counts["accepted completing the offerer's group"] += accepted and completes_offerer
            counts[f"offers received from {kinds[offerer]}"] += 1
            counts[f"offers accepted from {kinds[offerer]}"] += accepted
        if offerer not in mine and seat not in mine:
            counts["offers among rivals"] += 1
            if accepted:
                counts["trades among rivals"] += 1
                counts["swaps among rivals"] += bool(offer.give and offer.take)
                counts["groups rivals completed trading"] += completes_offerer + completes_target

    env = table_env(config, seed)
    play_through_env(env, players, on_decision)
    winners = env.game.winners
    return sum(1 / len(winners) for s in mine if s in winners) / max(len(mine), 1)


def run(players: tuple[str, ...], games: int, seed: int, watch: str | None = None) -> dict:
    """The counts a game over the first ``games`` games of the arena's run of ``seed``."""
    watch = watch or players[0]
    config = ArenaConfig(players=players, games=games, seed=seed)
    counts: Counter = Counter()
    wins = sum(count_game(config, i, watch, counts) for i in range(games))
    lo, hi = wilson(wins, games)
    return {"players": list(players), "watch": watch, "games": games, "seed": seed,
            "win_rate": wins / games, "ci95": [lo, hi],
            **{f"{k} a game": round(v / games, 3) for k, v in sorted(counts.items())}}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="hard,medium,medium,medium",
                    help="comma-separated player names, as for byapar arena")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--watch", default=None, help="the kind counted (default: the first)")
    args = ap.parse_args(argv)
    single_thread_blas()  # as byapar arena: small products, one thread
    print(json.dumps(run(tuple(args.players.split(",")), args.games, args.seed, args.watch),
                     indent=2))


if __name__ == "__main__":
    main()
