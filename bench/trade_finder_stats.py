"""What the expert's trade finder does in real games: offers found, made and accepted.

    python -m bench.trade_finder_stats [--opponent hard] [--games 12] [--seed 0]

Plays the arena's games of ``expert`` against three ``--opponent`` players (seats rotated, the
same games as ``byapar arena --players expert,X,X,X --seed S``) and counts, for the expert's
decisions before rolling: how often the finder's offer was a candidate, how often the search
made it, and how often the target accepted it; and the same for every trade offer the expert
made. A target that answers like the policy accepts what the finder finds; one that does not
turns it down. For the found offers made, the value network's change in win chance for the
expert and for the target, were each accepted, tells whether the target should have taken it.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

from byapar_agents import play_through_env
from byapar_agents.expert import ExpertPlayer
from byapar_agents.value import shipped_value
from byapar_env.action_table import fixed_action_id
from byapar_env.engine import ActionKind, Phase, actions
from byapar_harness.arena import ArenaConfig, seat_game, table_env

_ACCEPT = fixed_action_id(actions.ACCEPT_TRADE)


def play_one(opponent: str, seed: int, index: int, counts: Counter,
             gains: list[tuple[float, float]]) -> float:
    """Game ``index`` of the arena's run of ``seed`` (the arena's seating and table): the
    expert's share of the win; the finder's figures go to ``counts``, and for each found offer
    made, (the expert's, the target's) change in win chance by the value network, were it
    accepted, to ``gains``."""
    config = ArenaConfig(players=("expert", opponent, opponent, opponent), games=index + 1,
                         seed=seed)
    kinds, players, game_seed = seat_game(config, index)
    me = kinds.index("expert")
    expert: ExpertPlayer = players[me]
    pending: list[str] = []  # the source of the offer the expert made, until it is answered
    value = shipped_value()

    def watch(env, seat, action):
        game = env.game
        if (game.phase == Phase.TRADE_ANSWER and game.offer is not None
                and game.offer[0] == me and pending):
            counts[f"accepted ({pending.pop()})"] += action == _ACCEPT
        if seat != me or env.draft is not None or game.phase != Phase.PRE_ROLL:
            return
        last = expert.last  # this decision's evaluation (act has just called choose)
        if last is None:
            return
        counts["decisions with a finder candidate"] += any(
            c.source == "trade finder" for c in last.candidates)
        chosen = last.candidates[last.choice]
        if chosen.action.kind == ActionKind.OFFER_TRADE:
            counts[f"offers made ({chosen.source})"] += 1
            pending[:] = [chosen.source]
            if chosen.source == "trade finder":
                # What the value network makes of the offer for both sides, were it accepted.
                offer = chosen.action
                after = game.clone()
                after.log = []
                after.apply(offer)
                after.apply(actions.ACCEPT_TRADE)
                now, then = value.win_chances(game), value.win_chances(after)
                gains.append((then[me] - now[me], then[offer.target] - now[offer.target]))

    env = table_env(config, game_seed)
    play_through_env(env, players, watch)
    winners = env.game.winners
    return 1 / len(winners) if me in winners else 0.0


def run(opponent: str, games: int, seed: int) -> dict:
    """The counts over the first ``games`` games of the arena's run of ``seed``."""
    counts: Counter = Counter()
    gains: list[tuple[float, float]] = []
    wins = sum(play_one(opponent, seed, index, counts, gains) for index in range(games))
    out = {"opponent": opponent, "games": games, "seed": seed, "expert_wins": wins,
           **dict(sorted(counts.items()))}
    if gains:
        out["found offers: mean gain in win chance, expert"] = round(
            sum(g[0] for g in gains) / len(gains), 4)
        out["found offers: mean gain in win chance, target"] = round(
            sum(g[1] for g in gains) / len(gains), 4)
        out["found offers: share where the target loses"] = round(
            sum(g[1] < 0 for g in gains) / len(gains), 3)
    return out

def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opponent", default="hard")
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    print(json.dumps(run(args.opponent, args.games, args.seed), indent=2))


if __name__ == "__main__":
    main()
