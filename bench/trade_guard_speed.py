"""Time of one guarded trade answer beside the policy's own answer.

    python -m bench.trade_guard_speed [--positions 12] [--repeats 5]

Takes the offer exploit test's seeded positions (``agents.offer_exploit.sample_positions``),
puts a few listed offers pending in each, and times the hard player's answer to each through
the environment it reads (``LearnedPlayer.act``): guarded (the canonical policy answer and the
value network's check, ``byapar_agents.trade_guard``) and unguarded (the policy's forward pass
alone,
the observation included). Medians of ``--repeats`` runs, with the machine's pure-Python
baseline (``bench.common``) beside them, so that figures from different machines compare.
"""

from __future__ import annotations

import argparse
import statistics
import time

from byapar_agents import make_agent
from byapar_agents.network import single_thread_blas
from byapar_env.byapar_v0 import raw_env
from byapar_harness.offer_exploit import listed_offers, sample_positions

from .common import baseline_ops_per_second


def pending_games(positions: int) -> list:
    """Games with an offer pending: from each position, every 40th listed offer to each
    other seat."""
    out = []
    for position in sample_positions(positions, seed=0):
        game = position.game
        for target in game.active_seats():
            if target == game.current_player:
                continue
            for offer in listed_offers(game, target)[::40]:
                pending = game.clone()
                pending.log = []
                pending.apply(offer)
                out.append(pending)
    return out


def time_answers(player, games: list) -> float:
    """Seconds per answer of ``player`` to the offers pending in ``games``."""
    envs = {n: raw_env(num_players=n) for n in range(2, 7)}
    for env in envs.values():
        env.reset(seed=0)
    start = time.perf_counter()
    for game in games:
        env = envs[game.num_players]
        env.show_game(game)
        player.act(env, game.current_player)
    return (time.perf_counter() - start) / len(games)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    single_thread_blas()  # as byapar arena: small products, one thread
    games = pending_games(args.positions)
    guarded, unguarded = make_agent("hard"), make_agent("hard-unguarded")
    runs: dict[str, list[float]] = {"guarded": [], "unguarded": [], "baseline": []}
    for _ in range(args.repeats):
        runs["baseline"].append(baseline_ops_per_second())
        runs["guarded"].append(time_answers(guarded, games))
        runs["unguarded"].append(time_answers(unguarded, games))
    g, u = statistics.median(runs["guarded"]), statistics.median(runs["unguarded"])
    print(f"trade answers of the hard player, {len(games)} offers pending in "
          f"{args.positions} positions, median of {args.repeats} runs:")
    print(f"  guarded   {g * 1e3:.3f} ms per answer")
    print(f"  unguarded {u * 1e3:.3f} ms per answer (the policy alone, observation included)")
    print(f"  ratio {g / u:.1f}x; baseline {statistics.median(runs['baseline']):,.0f} ops/s")


if __name__ == "__main__":
    main()
