"""``byapar train-answers``: teach a policy's trade answers what the value network's check knows.

    byapar train-answers byapar_checkpoints/hard --out runs/answers/hard --positions 300 --seed 1000

The guarded players (``byapar_agents.trade_guard``) check every offer their policy accepts; this
trains the policy itself to refuse what the check refuses, so the check becomes a safety net
rather than the player's judgement:

1. **Offers**: the offer exploit test's search (``byapar_harness.offer_exploit``): seeded
   positions of real games between several styles at 2 to 6 seats, and every one- and
   two-place offer with money either way to every seat. ``--seed`` draws the positions; the
   exploit test's own positions (its default seed 0) are never used here, so they stay a
   held-out check.
2. **Labels**: the guarded answer to each offer: the policy's canonical answer and the value
   network's check.
3. **The fit**: only the output rows of the accept and the decline ids change. Those two ids
   are legal only when an offer is to be answered, and then nothing else is, so every other
   decision of the policy, its probabilities included, is exactly as before. The difference of
   the two rows is fitted by weighted logistic regression on the policy's last hidden layer
   (the canonical encoding's features), from the current rows, with an L2 pull toward them;
   offers that would cost the answering seat count more (``COST_WEIGHT``). The change is split
   evenly between the two rows. ``meta.json`` records the fit's figures before and after
   (``answer_figures``) on the offers it was fitted on.

The folder written is a checkpoint like any other (table specialists included, each fitted on
the positions of its own table size); ``meta.json`` records the command and the fit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from .common import ArgumentParser, UsageError

COST_WEIGHT = 20.0  # an offer's weight: 1 + COST_WEIGHT * the answering seat's loss (chance)
L2 = 1e-3  # the pull toward the starting rows
STEPS = 1500
LEARNING_RATE = 0.02  # Adam's step


def build_parser() -> ArgumentParser:
    ap = ArgumentParser(prog="byapar train-answers", description=__doc__.splitlines()[0])
    ap.add_argument("checkpoint", help="the policy to teach: hard or a checkpoint folder")
    ap.add_argument("--out", required=True, help="the checkpoint folder to write")
    ap.add_argument("--positions", type=int, default=300,
                    help="seeded positions of real games to list offers in, from 1 to 10,000")
    ap.add_argument("--seed", type=int, default=1000,
                    help="the positions' seed (the exploit test's default, 0, is refused: its "
                         "positions are the held-out check)")
    return ap


def hidden(policy, rows: np.ndarray) -> np.ndarray:
    """The policy's last hidden layer for ``rows``."""
    x = np.asarray(rows, np.float32)
    for w, b in policy.layers[:-1]:
        x = _activate(policy, x @ w + b)
    return x


def _activate(policy, x: np.ndarray) -> np.ndarray:
    return np.tanh(x) if policy.activation == "tanh" else np.maximum(x, 0.0)


def answer_data(policy, value, positions) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, guarded labels and costs of every listed offer in ``positions``."""
    from byapar_agents.trade_guard import (
        canonical_rows,
        completes_group,
        passes_check,
        trade_gains,
    )
    from byapar_harness.offer_exploit import listed_offers

    feats, labels, costs = [], [], []
    for position in positions:
        game = position.game
        offerer = game.current_player
        for target in game.active_seats():
            if target == offerer:
                continue
            offers = listed_offers(game, target)
            if not offers:
                continue
            rows = canonical_rows(game, offerer, offers)
            h = hidden(policy, rows)
            logits = h @ policy.layers[-1][0] + policy.layers[-1][1]
            gains, theirs = trade_gains(game, offers, value)
            for k, offer in enumerate(offers):
                policy_yes = logits[k, _ids()[0]] > logits[k, _ids()[1]]
                ok = passes_check(float(gains[k]), float(theirs[k]),
                                  completes_group(game, offerer, offer))
                labels.append(bool(policy_yes and ok))
                costs.append(max(0.0, -float(gains[k])))
            feats.append(h)
    if not feats:
        raise UsageError("no offers could be listed in the positions drawn")
    return np.concatenate(feats), np.array(labels, np.float32), np.array(costs, np.float32)


def _ids() -> tuple[int, int]:
    from byapar_agents.trade_guard import ACCEPT_ID, REJECT_ID

    return ACCEPT_ID, REJECT_ID


def fit_rows(policy, feats: np.ndarray, labels: np.ndarray, costs: np.ndarray) -> dict:
    """Fit the accept-minus-decline score (Adam on the weighted logistic loss, pulled toward
    the current rows) and write it into ``policy``'s output rows; the figures of the fit."""
    accept, reject = _ids()
    w, b = policy.layers[-1]
    w0 = (w[:, accept] - w[:, reject]).astype(np.float64)
    b0 = float(b[accept] - b[reject])
    weight = 1.0 + COST_WEIGHT * costs
    weight = weight / weight.mean()
    x = feats.astype(np.float64)
    before = answer_figures(x, labels, costs, w0, b0, w0, b0)
    wd, bd = w0.copy(), b0
    m, v, mb, vb = np.zeros_like(wd), np.zeros_like(wd), 0.0, 0.0
    for t in range(1, STEPS + 1):
        z = x @ wd + bd
        g = weight * (1 / (1 + np.exp(-np.clip(z, -30, 30))) - labels)
        gw, gb = x.T @ g / len(g) + L2 * (wd - w0), float(g.mean())
        m, v = 0.9 * m + 0.1 * gw, 0.999 * v + 0.001 * gw * gw
        mb, vb = 0.9 * mb + 0.1 * gb, 0.999 * vb + 0.001 * gb * gb
        scale = LEARNING_RATE * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)
        wd -= scale * m / (np.sqrt(v) + 1e-8)
        bd -= scale * mb / (np.sqrt(vb) + 1e-8)
    delta_w, delta_b = wd - w0, bd - b0
    w, b = w.copy(), b.copy()
    w[:, accept] += (delta_w / 2).astype(np.float32)
    w[:, reject] -= (delta_w / 2).astype(np.float32)
    b[accept] += np.float32(delta_b / 2)
    b[reject] -= np.float32(delta_b / 2)
    policy.layers[-1] = (w, b)
    return {"offers": int(len(labels)), "before": before,
            "after": answer_figures(x, labels, costs, wd, bd, w0, b0)}


def answer_figures(x, labels, costs, w, b, w0, b0) -> dict:
    """How the policy's own answers (score ``x @ w + b`` above 0: accept) compare with the
    guarded ones: the share of the check's refusals of offers the starting policy accepted
    that it now refuses itself, the share of the guarded accepts it still accepts, and its
    accepts that cost the answering seat more than a point."""
    yes = x @ w + b > 0
    refused = ((x @ w0 + b0) > 0) & (labels < 0.5)
    kept = labels > 0.5
    return {"refuses_what_the_check_refused": float((~yes[refused]).mean()) if refused.any()
            else 1.0,
            "accepts_what_the_check_accepts": float(yes[kept].mean()) if kept.any() else 1.0,
            "accepts_costing_a_point": int((yes & (costs > 0.01)).sum())}


def main(argv: list[str] | None = None) -> int:
    """Check the options, list and label the offers, fit, and write the checkpoint."""
    args = build_parser().parse_args(argv)
    from byapar_agents import make_agent
    from byapar_agents.hard import LearnedPlayer
    from byapar_agents.network import load_checkpoint, single_thread_blas, specialist_folders
    from byapar_agents.value import shipped_value
    from byapar_harness.offer_exploit import POSITION_TABLES, sample_positions

    if not 1 <= args.positions <= 10_000:
        raise UsageError(f"--positions must be from 1 to 10,000, got {args.positions}")
    if args.seed == 0 or not 0 < args.seed < 2**63:
        raise UsageError(f"--seed must be from 1 to 2**63 - 1 (0 draws the exploit test's "
                         f"held-out positions), got {args.seed}")
    player = make_agent(args.checkpoint)
    if not isinstance(player, LearnedPlayer):
        raise UsageError(f"{args.checkpoint!r} is not a learned player's checkpoint")
    out = Path(args.out)
    if out.resolve() == player.folder.resolve():
        raise UsageError("--out must be a new folder, not the checkpoint itself")
    single_thread_blas()
    value = shipped_value()
    folders = {None: player.folder, **specialist_folders(player.folder, player.meta)}
    fits = {}
    for size, folder in folders.items():
        policy, meta = load_checkpoint(folder)
        tables = POSITION_TABLES if size is None else tuple(
            t for t in POSITION_TABLES if len(t) == size) or (("medium",) * size,)
        positions = sample_positions(args.positions, args.seed, tables)
        print(f"byapar train-answers: {'main policy' if size is None else f'{size} seats'}: "
              f"{len(positions)} positions", file=sys.stderr, flush=True)
        fit = fit_rows(policy, *answer_data(policy, value, positions))
        fits["main" if size is None else str(size)] = fit
        target = out if size is None else out / folder.name
        meta = {k: v for k, v in meta.items() if k not in expected_keys()}
        meta.setdefault("training", {})
        meta["answers"] = {"command": "byapar train-answers " + " ".join(
            argv if argv is not None else sys.argv[2:]), "fit": fit}
        policy.save(target, meta)
    print(json.dumps(fits, indent=2))
    return 0


def expected_keys() -> set[str]:
    from byapar_agents.network import expected_meta

    return set(expected_meta()) | {"activation", "layers"}
