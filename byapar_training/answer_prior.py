"""Fit the answer reader's prior: how seen players answer offers that would gain the hard player.

    python -m byapar_training.answer_prior --games 240 --seed 9000 --workers 2 --out RUN

Plays games of the hard player (``hard``, which makes no aimed offers) against
rivals drawn from the rival reader's portfolio (``byapar_agents.rival_reader.PORTFOLIO``: seen
kinds only, never an unseen player), four seats in two games of three and six in the third. At
each of its turns before rolling it lists the wide offers (``aimed_offers.wide_offers``), keeps
those that gain it at least ``deals.MIN_GAIN`` by its value network, and asks a copy of each
target's player (taken at the game's start) how it would answer up to ``--sample`` of them,
drawn by the game's seed. Each game's answers are written to ``RUN/game-N.npz`` as it ends (a
run stopped and started again plays only the games missing); then one logistic model is fitted
to all of them (a weak pull towards zero) and written to ``RUN/prior.json``, its weights in
``answer_reader.FEATURES`` order: the values of ``answer_reader.PRIOR``.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
from dataclasses import asdict, dataclass
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from byapar_agents import make_agent, play_through_env
from byapar_agents.aimed_offers import wide_offers
from byapar_agents.answer_reader import FEATURES, fit_weights, offer_features
from byapar_agents.deals import MIN_GAIN, appraise, made
from byapar_agents.rival_reader import PORTFOLIO
from byapar_env.engine import Phase, actions
from byapar_harness.arena import ArenaConfig, seat_game, table_env

KINDS = tuple(PORTFOLIO)
HERO = "hard"


@dataclass
class AnswerPriorConfig:
    games: int = 240  # games to play
    seed: int = 9000  # game i is seeded seed + i, its rivals drawn from it too
    sample: int = 8  # offers asked a turn, at most
    workers: int = 2  # processes
    out: str = "runs/answer-prior"  # the run folder


class _Asking:
    """The hard player, asking its rivals' copies how they would answer its wide offers."""

    def __init__(self, inner, copies: dict, rows: list, draw: random.Random, sample: int):
        self.inner, self.copies, self.rows, self.draw, self.sample = (
            inner, copies, rows, draw, sample)
        self.turn = -1

    def act(self, env, seat: int) -> int:
        game = env.game
        if (env.draft is None and game.phase == Phase.PRE_ROLL and self.turn != game.turn_count
                and game.can_offer_trade()):
            self.turn = game.turn_count
            offers = wide_offers(game, seat)
            gaining = [a for a in appraise(game, offers, self.inner.value)
                       if a.offerer_gain >= MIN_GAIN] if offers else []
            for a in self.draw.sample(gaining, min(self.sample, len(gaining))):
                kind, player = self.copies[a.target]
                view = made(game, a.offer)
                answer = player.choose(view, a.target, view.legal_actions())
                self.rows.append((offer_features(game, seat, a.offer),
                                  float(answer == actions.ACCEPT_TRADE), KINDS.index(kind)))
        return self.inner.act(env, seat)


def play_one(args: tuple[int, int]) -> list:
    """Game ``seed``'s answers: (features, accepted, kind index) rows."""
    seed, sample = args
    draw = random.Random(seed)
    seats = draw.choice((4, 4, 6))
    lineup = (HERO, *(draw.choice(KINDS) for _ in range(seats - 1)))
    config = ArenaConfig(players=lineup, games=1, seed=seed)
    kinds, players, game_seed = seat_game(config, 0)
    me = kinds.index(HERO)
    players = list(players)
    copies = {s: (kinds[s], copy.deepcopy(players[s])) for s in range(seats) if s != me}
    rows: list = []
    players[me] = _Asking(make_agent(HERO), copies, rows, draw, sample)
    play_through_env(table_env(config, game_seed), players)
    return rows


def _play_and_save(args: tuple[int, int, str]) -> int:
    seed, sample, path = args
    rows = play_one((seed, sample))
    x = np.stack([r[0] for r in rows]) if rows else np.zeros((0, len(FEATURES)))
    np.savez(path, x=x, y=np.array([r[1] for r in rows]), kind=np.array([r[2] for r in rows]))
    return len(rows)


def run(config: AnswerPriorConfig) -> np.ndarray:
    """Play the missing games, fit, write ``prior.json``; the weights."""
    out = Path(config.out)
    out.mkdir(parents=True, exist_ok=True)
    todo = [(config.seed + i, config.sample, str(out / f"game-{config.seed + i}.npz"))
            for i in range(config.games) if not (out / f"game-{config.seed + i}.npz").exists()]
    print(f"{config.games - len(todo)} of {config.games} games there; playing {len(todo)}",
          flush=True)
    with Pool(config.workers) as pool:
        for k, n in enumerate(pool.imap_unordered(_play_and_save, todo), 1):
            print(f"game {k}/{len(todo)}: {n} answers", flush=True)
    parts = [np.load(out / f"game-{config.seed + i}.npz") for i in range(config.games)]
    x = np.concatenate([p["x"] for p in parts])
    y = np.concatenate([p["y"] for p in parts])
    kind = np.concatenate([p["kind"] for p in parts]).astype(int)
    w = fit_weights(x, y, np.zeros(len(FEATURES)), pull=1e-3, steps=50)
    by_kind = {KINDS[k]: [int((kind == k).sum()), float(y[kind == k].mean())]
               for k in sorted(set(kind.tolist()))}
    (out / "prior.json").write_text(json.dumps({
        "config": asdict(config), "answers": int(len(y)), "accepted": float(y.mean()),
        "by_kind": by_kind, "weights": dict(zip(FEATURES, map(float, w), strict=True))},
        indent=1))
    print(f"{len(y)} answers, {y.mean():.3f} accepted", flush=True)
    print("PRIOR = np.array([" + ", ".join(f"{v:.3f}" for v in w) + "])", flush=True)
    return w


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    defaults = AnswerPriorConfig()
    for name, value in asdict(defaults).items():
        ap.add_argument(f"--{name}", type=type(value), default=value)
    run(AnswerPriorConfig(**vars(ap.parse_args(argv))))


if __name__ == "__main__":
    main()
