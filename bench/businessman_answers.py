"""Who proposes to a Businessman player, and which proposals it accepts: the answers of the
player and of the bare network in the same positions, by the proposer's kind
(docs/businessman_env.md, "Answers by reckoning").

    python -m bench.businessman_answers --games 200 --seed 5

Plays ``--games`` games of ``--player`` with ``--rivals`` (default: the first table a user runs,
hard with medium, easy and random), 20 rounds, seats rotated; game ``i`` is seeded
``seed * 100_000 + i``. At each proposal to the player's seat it counts the proposal under the
proposer's kind, the player's acceptance (what was played) and whether the bare network of
``--network`` would have accepted in the same position.
"""

from __future__ import annotations

import argparse
from collections import Counter

from byapar_agents.businessman import LearnedBusinessmanPlayer, make_agent, play_game
from byapar_checkpoints import shipped
from byapar_env.businessman import Game, Phase, Rules, actions


def count_answers(player: str, rivals: tuple[str, ...], network: str, games: int,
                  seed: int) -> dict[str, Counter]:
    """Per proposer kind: ``proposed`` (to the player's seat), ``accepted`` (by the player) and
    ``network`` (would have been accepted by the bare network)."""
    bare = LearnedBusinessmanPlayer(network)
    kinds = (player, *rivals)
    counts: dict[str, Counter] = {k: Counter() for k in rivals}
    for i in range(games):
        shift = i % len(kinds)
        order = kinds[shift:] + kinds[:shift]
        mine = order.index(player)
        players = [make_agent(k, seed * 100_000 + i + s) for s, k in enumerate(order)]
        for s, p in enumerate(players):
            p.reset(seed * 100_000 + i + s)

        def seen(game: Game, seat: int, action, mine: int = mine, order=order) -> None:
            if seat != mine or game.phase != Phase.TRADE_ANSWER:
                return
            row = counts[order[game.turn]]
            row["proposed"] += 1
            row["accepted"] += action == actions.ACCEPT_TRADE
            row["network"] += (bare.choose(game, seat, game.legal_actions())
                               == actions.ACCEPT_TRADE)

        game = Game(Rules(num_players=len(kinds), max_rounds=20), seed=seed * 100_000 + i)
        play_game(game, players, on_decision=seen)
    return counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--player", default="hard", help="the Businessman player watched")
    ap.add_argument("--rivals", default="medium,easy,random",
                    help="comma-separated kinds of the other seats (distinct from --player)")
    ap.add_argument("--network", default=str(shipped("businessman_hard")),
                    help="the checkpoint folder whose bare network's answers are counted beside")
    ap.add_argument("--games", type=int, default=200, help="games to play")
    ap.add_argument("--seed", type=int, default=5, help="the games' seed")
    args = ap.parse_args(argv)
    rivals = tuple(args.rivals.split(","))
    if args.player in rivals or len(set(rivals)) != len(rivals):
        ap.error(f"--rivals must be distinct kinds other than {args.player!r}, got "
                 f"{args.rivals!r}")
    if args.games < 1:
        ap.error(f"--games must be at least 1, got {args.games}")
    counts = count_answers(args.player, rivals, args.network, args.games, args.seed)
    print(f"{args.player} with {', '.join(rivals)}: {args.games} games, seed {args.seed}, "
          "20 rounds")
    for kind, row in counts.items():
        print(f"from {kind:10s} proposed {row['proposed']:5d}   accepted {row['accepted']:5d}   "
              f"the bare network would accept {row['network']:5d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
