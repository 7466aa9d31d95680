"""The warm start's data: games of the medium player, its decisions and what followed.

Both trainers, when neither ``--init-from`` nor ``--imitation-games 0`` says otherwise, first
teach the network to copy these decisions (each trainer's ``imitate``) and the value of the
outcome that followed, so that PPO starts from a sensible actor and critic.
"""

from __future__ import annotations

import random

import numpy as np

from byapar_agents import play_through_env

from .config import Config
from .games import trained_game


def medium_demonstrations(config: Config) -> tuple[np.ndarray, ...]:
    """Observations, masks, the medium player's choices and the discounted outcome that
    followed each, from games of medium players against easy and medium ones at every table
    size (the outcome warms up the value head too, so PPO starts from a sensible critic)."""
    game = trained_game(config.game)
    rng = random.Random(config.seed)
    obs, masks, acts, returns = [], [], [], []
    for g in range(config.imitation_games):
        n = rng.choice(config.table_sizes)
        env = game.env(n, "outcome", **rng.choice(game.tables))
        players = [game.player(game.teacher if rng.random() < 0.7 else game.sparring)
                   for _ in range(n)]
        for s, p in enumerate(players):
            p.reset(s)
        env.reset(seed=rng.getrandbits(31))
        taken: list[list[int]] = [[] for _ in range(n)]  # each seat's sample indices

        def record(env, seat, action, players=players, taken=taken) -> None:
            if players[seat].name == game.teacher:
                o = env.observe(env.possible_agents[seat])
                taken[seat].append(len(acts))
                obs.append(o["observation"])
                masks.append(o["action_mask"])
                acts.append(action)
                returns.append(0.0)

        play_through_env(env, players, record)
        winners = env.game.winners
        for seat, indices in enumerate(taken):
            outcome = ((n - len(winners)) / (n - 1) / len(winners) if seat in winners
                       else -1 / (n - 1))
            for k, i in enumerate(reversed(indices)):
                returns[i] = outcome * config.gamma ** k
        if (g + 1) % max(1, config.imitation_games // 5) == 0:
            print(f"imitation: {g + 1}/{config.imitation_games} games, {len(acts):,} decisions",
                  flush=True)
    return (np.array(obs), np.array(masks, bool), np.array(acts),
            np.array(returns, np.float32))
