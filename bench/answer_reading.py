"""How well the answer reader predicts the answers given at a table: every answer of every seat,
predicted just before it is given by a reader that has seen the game's answers so far, beside
the prior alone (docs/expert_iteration.md, "Offers aimed by the rivals' answers").

    python -m bench.answer_reading --players hard-aimed,medium,outside-chrisaacson-trading,pop-3 \
        --games 20 --seed 0

The games are the arena's (seats rotated, game ``i`` seeded from ``--seed`` and ``i`` alone).
For each kind of player that answered, it prints the answers, the share accepted, and the log
loss and Brier score of the reader's chances against the prior's (lower is better).
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict

from byapar_agents import play_through_env
from byapar_agents.answer_reader import AnswerReader, answer_in
from byapar_env.engine import Game
from byapar_harness.arena import ArenaConfig, seat_game, table_env


def read_answers(lineup: tuple[str, ...], games: int, seed: int) -> dict[str, list]:
    """Per kind of answering player, over the arena's first ``games`` games of ``lineup``:
    (accepted, the reader's chance, the prior's chance) of each answer."""
    rows: dict[str, list] = defaultdict(list)
    for index in range(games):
        config = ArenaConfig(players=lineup, games=index + 1, seed=seed)
        kinds, players, game_seed = seat_game(config, index)
        env = table_env(config, game_seed)
        reader, prior = AnswerReader(len(kinds)), AnswerReader(len(kinds))

        def watch(game: Game, action, kinds=kinds, reader=reader, prior=prior) -> None:
            answer = answer_in(game, action)
            if answer is None:
                return
            offerer, offer, accepted = answer
            rows[kinds[offer.target]].append((
                accepted,
                float(reader.chances(game, offerer, [offer])[0]),
                float(prior.chances(game, offerer, [offer])[0])))
            reader.observe(game, offerer, offer, accepted)

        env.watchers.append(watch)
        play_through_env(env, players)
    return rows


def _scores(rows: list, k: int) -> tuple[float, float]:
    """Mean log loss and Brier score of column ``k``'s chances."""
    eps = 1e-6
    loss = -sum(math.log(max(eps, r[k] if r[0] else 1 - r[k])) for r in rows) / len(rows)
    brier = sum((r[k] - r[0]) ** 2 for r in rows) / len(rows)
    return loss, brier


def main(argv: list[str] | None = None) -> dict[str, list]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="hard-aimed,medium,outside-chrisaacson-trading,pop-3",
                    help="the table, comma-separated")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rows = read_answers(tuple(args.players.split(",")), args.games, args.seed)
    print(f"{args.games} games of {args.players}, seed {args.seed}")
    for kind, answers in sorted(rows.items()):
        read_loss, read_brier = _scores(answers, 1)
        prior_loss, prior_brier = _scores(answers, 2)
        accepted = sum(a for a, _, _ in answers) / len(answers)
        print(f"{kind}: {len(answers)} answers, {accepted:.1%} accepted; log loss read "
              f"{read_loss:.3f}, prior {prior_loss:.3f}; Brier read {read_brier:.3f}, prior "
              f"{prior_brier:.3f}")
    return rows


if __name__ == "__main__":
    main()
