"""Fit the value network to search labels: expert iteration's second stage (issue 39).

    python -m byapar_training.search_value --labels RUN [--labels RUN2 ...] --out FOLDER

Reads the chunks of ``byapar_training.search_labels`` runs: decisions, each with two or more
children
(the position after each candidate) and the deciding seat's mean score over paired simulations.
The network is the value network's shape (one score per seat from the seat's own observation, a
softmax over the seats still in), started from ``--start`` (the shipped value network by
default). Its loss, on the deciding seat's chance ``p`` of each child:

- **rank** (weight ``--rank-weight``): for two siblings whose simulated means differ by more
  than ``--margin``, the logistic loss of ``log p`` ordering them as the simulations do. Which
  child is better is what the search reads;
- **calibration**: the cross-entropy of ``p`` against the child's mean (a soft target);
- **anchor** (weight ``--anchor-weight``): the KL divergence of every seat's chances in every
  child from the starting network's. The rollouts end on the network, so a fit that buys order
  with calibration changes what the search reads at their ends; the anchor keeps the rest.

Chunks whose number ends in 9 are held out (whole games). Each epoch logs, on the held-out
decisions, the share of sibling pairs ordered as the simulations order them (pairs further
apart than the margin), the calibration loss, and the choice regret (``choice_regret``: what
picking the child the network rates best loses against the simulations' best, in the
simulations' own means), beside the starting network's and the policy prior's; the
checkpoint (``--out``, the value network's format) is the epoch with the best held-out pair
order, written only if it beats the start. Then ``byapar_agents.value.ValueNet.load(FOLDER)``
reads it.
"""

from __future__ import annotations

import copy
import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np

from byapar_agents.value import DEFAULT_VALUE, ValueNet
from byapar_env.engine import ByaparError
from byapar_env.engine.rules import MAX_PLAYERS
from byapar_env.observation import OBSERVATION_SIZE

from .chunks import HELD_OUT_DIGIT, chunk_files
from .value import write_value


class SearchValueError(ByaparError, ValueError):
    """A fit that cannot run; the message says what is missing or wrong."""


@dataclass
class SearchValueConfig:
    labels: tuple[str, ...] = ("runs/search-labels",)
    out: str = "runs/search-value"
    start: str = str(DEFAULT_VALUE)
    epochs: int = 8
    batch: int = 64  # decisions a gradient step
    lr: float = 3e-4
    weight_decay: float = 1e-5
    rank_weight: float = 1.0
    anchor_weight: float = 0.0
    margin: float = 0.02
    seed: int = 0


HELP = {
    "labels": "a search_labels run folder (repeat the flag for several)",
    "out": "the folder the fitted value network is written to",
    "start": "the value checkpoint the fit starts from (the shipped one by default)",
    "epochs": "passes over the training decisions",
    "batch": "decisions a gradient step",
    "lr": "AdamW learning rate",
    "weight_decay": "AdamW weight decay",
    "rank_weight": "weight of the sibling-order loss beside the calibration loss",
    "anchor_weight": "weight of the pull toward the start's chances for every seat (0: none)",
    "margin": "simulated means closer than this are not ranked (noise)",
    "seed": "seed of the fit's shuffling and of torch",
}


def load_decisions(paths: list[Path]) -> dict[str, np.ndarray]:
    """Every child of the chunks, padded to six seats, with a decision number unique across
    the chunks."""
    obs, mask, seat_row, mean, decision, prior = [], [], [], [], [], []
    offset = 0
    for path in paths:
        with np.load(path) as d:
            rows, row_child = d["obs"], d["row_child"]
            starts = np.searchsorted(row_child, np.arange(len(d["child_decision"])))
            ends = np.searchsorted(row_child, np.arange(len(d["child_decision"])), "right")
            for c, (a, b) in enumerate(zip(starts, ends, strict=True)):
                if d["child_seat_row"][c] < 0:
                    continue  # the deciding seat is out in this child: nothing to rank
                o = np.zeros((MAX_PLAYERS, OBSERVATION_SIZE), np.float16)
                o[: b - a] = rows[a:b]
                m = np.zeros(MAX_PLAYERS, bool)
                m[: b - a] = True
                obs.append(o)
                mask.append(m)
                seat_row.append(d["child_seat_row"][c])
                mean.append(d["child_mean"][c])
                prior.append(d["child_prior"][c])
                decision.append(offset + d["child_decision"][c])
            offset += len(d["decision_seat"])
    if not obs:
        return {}
    return {"obs": np.stack(obs), "mask": np.stack(mask), "seat_row": np.array(seat_row),
            "mean": np.array(mean, np.float32), "decision": np.array(decision),
            "prior": np.array(prior, np.float32)}


def pair_order(log_p: np.ndarray, mean: np.ndarray, decision: np.ndarray,
               margin: float) -> tuple[float, int]:
    """The share of sibling pairs (means further apart than ``margin``) that ``log_p`` orders
    as the means do, and how many such pairs there are."""
    right = total = 0
    for k in np.unique(decision):
        idx = np.flatnonzero(decision == k)
        for i in idx:
            for j in idx:
                if mean[i] - mean[j] > margin:
                    total += 1
                    right += int(log_p[i] > log_p[j])
    return (right / total if total else float("nan")), total


def choice_regret(rating: np.ndarray, mean: np.ndarray, decision: np.ndarray) -> float:
    """The mean, over decisions, of the simulated mean of the best child less that of the child
    ``rating`` rates highest (ties: the first): 0 where it always picks the simulations' best."""
    order = np.lexsort((-rating, decision))  # by decision, the best-rated first
    first = np.ones(len(order), bool)
    first[1:] = decision[order][1:] != decision[order][:-1]
    picked = mean[order][first]
    best = np.maximum.reduceat(mean[order], np.flatnonzero(first))
    return float((best - picked).mean())


def fit(config: SearchValueConfig, log=print) -> dict:
    import torch
    from torch import nn

    if config.epochs < 1 or config.batch < 1 or not 0 < config.lr < 1:
        raise SearchValueError("epochs and batch must be at least 1, lr above 0 and below 1")
    if config.anchor_weight < 0 or config.rank_weight < 0:
        raise SearchValueError("rank_weight and anchor_weight must be at least 0")
    runs = [Path(r) for r in config.labels]
    missing = [str(r) for r in runs if not (r / "data").is_dir()]
    if missing:
        raise SearchValueError(f"no search labels in {', '.join(missing)}: run "
                               "python -m byapar_training.search_labels --run-dir FOLDER first")
    train = load_decisions([p for r in runs for p in chunk_files(r, False)])
    held = load_decisions([p for r in runs for p in chunk_files(r, True)])
    if not train or not held:
        raise SearchValueError(f"too few chunks to train and hold out: generate at least "
                               f"{HELD_OUT_DIGIT + 1} chunks")
    torch.manual_seed(config.seed)
    start = ValueNet.load(config.start).network
    layers: list[nn.Module] = []
    for w, b in start.layers:
        linear = nn.Linear(*w.shape)
        with torch.no_grad():
            linear.weight.copy_(torch.as_tensor(w.T))
            linear.bias.copy_(torch.as_tensor(b))
        layers += [linear, nn.Tanh()]
    net = nn.Sequential(*layers[:-1])
    anchor = copy.deepcopy(net).requires_grad_(False)
    opt = torch.optim.AdamW(net.parameters(), lr=config.lr, weight_decay=config.weight_decay)

    def table_log_p(model, data: dict, idx: np.ndarray) -> torch.Tensor:
        x = torch.as_tensor(data["obs"][idx], dtype=torch.float32)
        scores = model(x.view(-1, OBSERVATION_SIZE)).view(len(idx), MAX_PLAYERS)
        scores = scores.masked_fill(~torch.as_tensor(data["mask"][idx]), -1e9)
        return torch.log_softmax(scores, 1)

    def seat_log_p(data: dict, idx: np.ndarray, table: torch.Tensor | None = None
                   ) -> torch.Tensor:
        logp = table_log_p(net, data, idx) if table is None else table
        return logp[torch.arange(len(idx)), torch.as_tensor(data["seat_row"][idx].astype(int))]

    def held_figures() -> dict:
        net.eval()
        with torch.no_grad():
            logp = np.concatenate([seat_log_p(held, np.arange(i, min(i + 2048, len(held["obs"]))))
                                   .numpy() for i in range(0, len(held["obs"]), 2048)])
        order, pairs = pair_order(logp, held["mean"], held["decision"], config.margin)
        p = np.clip(np.exp(logp), 1e-4, 1 - 1e-4)
        m = held["mean"]
        calibration = float(-(m * np.log(p) + (1 - m) * np.log(1 - p)).mean())
        return {"pair_order": order, "pairs": pairs, "calibration": calibration,
                "choice_regret": choice_regret(logp, m, held["decision"])}

    children_of: dict[int, list[int]] = {}
    for c in range(len(train["obs"])):
        children_of.setdefault(int(train["decision"][c]), []).append(c)
    decisions = [np.array(v) for v in children_of.values() if len(v) > 1]
    before = held_figures()
    prior_regret = choice_regret(held["prior"], held["mean"], held["decision"])
    log(f"children: {len(train['obs']):,} to train on ({len(decisions):,} decisions), "
        f"{len(held['obs']):,} held out; the start orders {before['pair_order']:.1%} of "
        f"{before['pairs']:,} held-out sibling pairs, calibration {before['calibration']:.4f}, "
        f"choice regret {before['choice_regret']:.4f} (the policy's prior: {prior_regret:.4f})")
    rng = np.random.default_rng(config.seed)
    history, best = [], before["pair_order"]
    for epoch in range(config.epochs):
        net.train()
        for i in range(0, len(decisions), config.batch):
            picked = [decisions[k] for k in rng.permutation(len(decisions))[i:i + config.batch]]
            if not picked:
                continue
            idx = np.concatenate(picked)
            group = torch.as_tensor(np.concatenate([np.full(len(p), k)
                                                    for k, p in enumerate(picked)]))
            table = table_log_p(net, train, idx)
            logp = seat_log_p(train, idx, table)
            mean = torch.as_tensor(train["mean"][idx])
            p = logp.exp().clamp(1e-4, 1 - 1e-4)
            calibration = -(mean * p.log() + (1 - mean) * (1 - p).log()).mean()
            apart = (group[:, None] == group[None, :]) & (mean[:, None] - mean[None, :]
                                                          > config.margin)
            gap = logp[:, None] - logp[None, :]
            rank = (nn.functional.softplus(-gap)[apart].mean() if apart.any()
                    else torch.zeros(()))
            loss = calibration + config.rank_weight * rank
            if config.anchor_weight:
                start_table = table_log_p(anchor, train, idx)
                live = torch.as_tensor(train["mask"][idx])
                kl = (start_table.exp() * (start_table - table))[live].sum() / len(idx)
                loss = loss + config.anchor_weight * kl
            opt.zero_grad()
            loss.backward()
            opt.step()
        result = held_figures()
        history.append({"epoch": epoch + 1, **result})
        improved = result["pair_order"] > best
        log(f"epoch {epoch + 1}/{config.epochs}: held-out pairs ordered "
            f"{result['pair_order']:.1%}, calibration {result['calibration']:.4f}, "
            f"choice regret {result['choice_regret']:.4f}"
            + ("  (best so far: written)" if improved else ""))
        if improved:
            best = result["pair_order"]
            _export(net, Path(config.out), config, {"epoch": epoch + 1, **result}, before,
                    len(train["obs"]))
    summary = {"start": before, "prior_choice_regret": prior_regret, "history": history,
               "written": bool(best > before["pair_order"])}
    Path(config.out).mkdir(parents=True, exist_ok=True)
    (Path(config.out) / "fit.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def _export(net, folder: Path, config: SearchValueConfig, result: dict, before: dict,
            children: int) -> None:
    settings = asdict(config)
    if Path(config.start).resolve() == Path(DEFAULT_VALUE).resolve():
        settings["start"] = "the shipped value network"  # a record names no machine's path
    write_value(net, folder, {"name": "value", "training": {
        "method": "search labels (byapar_training.search_value)", "config": settings,
        "children": children, "held_out": result, "start_held_out": before}})


def main(argv: list[str] | None = None) -> None:
    from byapar_env.cli_args import ArgumentParser

    ap = ArgumentParser(prog="python -m byapar_training.search_value",
                        description=__doc__.splitlines()[0])
    for f in fields(SearchValueConfig):
        name = "--" + f.name.replace("_", "-")
        if f.name == "labels":
            ap.add_argument(name, action="append", help=HELP[f.name] + " (default: "
                            f"{SearchValueConfig.labels[0]})")
        else:
            ap.add_argument(name, type=type(f.default), default=f.default, help=HELP[f.name])
    args = vars(ap.parse_args(argv))
    args["labels"] = tuple(args["labels"] or SearchValueConfig.labels)
    try:
        fit(SearchValueConfig(**args))
    except SearchValueError as exc:
        ap.exit(2, f"search_value: {exc}\n")


if __name__ == "__main__":
    main()
