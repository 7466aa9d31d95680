"""Which of a hard player's offers its rivals take: each offer of the watched seat that reached an
answer, split by whether the seat's value network says it gains the seat if accepted, with how
many of each were accepted and what the accepted ones that cost the seat cost it
(docs/expert_iteration.md, "The policy's own offers, screened").

    python -m bench.own_offers --players hard-unscreened,medium,medium,medium --games 40 --seed 61
    python -m bench.own_offers --players hard,outside-chrisaacson-trading,... --games 40

The games are the arena's (``--players``'s first seat watched, seats rotated, game ``i`` seeded
from ``--seed`` and ``i`` alone). The watched player must be a hard player (it has a value
network); its offers are judged as it would judge them, at the moment it submits them.
"""

from __future__ import annotations

import argparse
from collections import Counter

from byapar_agents import deals, play_through_env
from byapar_env.action_table import SUBMIT_ID, engine_action
from byapar_env.engine import ActionKind
from byapar_harness.arena import ArenaConfig, lineup_seat, seat_game, table_env

ANSWERS = (ActionKind.ACCEPT_TRADE, ActionKind.REJECT_TRADE)


def count_offers(lineup: tuple[str, ...], games: int, seed: int) -> tuple[Counter, list[float]]:
    """Over the arena's first ``games`` games of ``lineup`` (run seed ``seed``): the watched
    seat's answered offers counted as ``(gains|loses, made|accepted)``, and the value network's
    gain for the seat of each accepted offer that cost it."""
    counts: Counter = Counter()
    costs: list[float] = []
    for index in range(games):
        config = ArenaConfig(players=lineup, games=index + 1, seed=seed)
        _, players, game_seed = seat_game(config, index)
        me = lineup_seat(config, index)
        value = getattr(players[me], "value", None)
        if value is None:
            raise ValueError(f"{lineup[0]!r} has no value network to judge its offers by")
        env = table_env(config, game_seed)
        submitted: list[float] = []

        def seen(env, seat: int, i: int, me=me, value=value, submitted=submitted) -> None:
            game = env.game
            if seat == me and i == SUBMIT_ID and env.draft is not None:
                offer = env.draft.offer()
                submitted[:] = [deals.appraise(game, [offer], value)[0].offerer_gain]
                return
            if seat == me or not submitted or game.offer is None or game.offer[0] != me:
                return
            answer = engine_action(game, i)
            if answer is None or answer.kind not in ANSWERS:
                return
            gain = submitted.pop()
            kind = "loses" if gain < deals.OWN_OFFER_GAIN else "gains"
            counts[kind, "made"] += 1
            if answer.kind == ActionKind.ACCEPT_TRADE:
                counts[kind, "accepted"] += 1
                if kind == "loses":
                    costs.append(gain)

        play_through_env(env, players, on_decision=seen)
    return counts, costs


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="hard-unscreened,medium,medium,medium",
                    help="comma-separated lineup; the first is watched (a hard player)")
    ap.add_argument("--games", type=int, default=40, help="the arena's first games played")
    ap.add_argument("--seed", type=int, default=61, help="the arena's run seed")
    args = ap.parse_args(argv)
    lineup = tuple(args.players.split(","))
    counts, costs = count_offers(lineup, args.games, args.seed)
    print(f"{lineup[0]} against {', '.join(lineup[1:])}: {args.games} games of seed {args.seed}")
    figures = {}
    for kind, label in (("gains", "gain"), ("loses", "cost")):
        made, taken = counts[kind, "made"], counts[kind, "accepted"]
        figures[kind] = (made / args.games, taken / args.games)
        share = f"{100 * taken / made:.0f}%" if made else "-"
        print(f"offers that {label} it: {made / args.games:.2f} a game, "
              f"accepted {taken / args.games:.2f} ({share})")
    if costs:
        print(f"each accepted offer that costs it: {100 * sum(costs) / len(costs):.1f} points")
    return figures


if __name__ == "__main__":
    main()
