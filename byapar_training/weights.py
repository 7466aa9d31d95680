"""Weight conversion between the trainers' torch networks and the numpy checkpoints the
learned players run (``byapar_agents.network.NumpyPolicy``).

- ``numpy_layers``: torch Linear layers as (weight, bias) numpy pairs, input to output;
- ``numpy_policy``: an SB3 model's actor as a numpy policy (snapshots, ``byapar export``);
- ``copy_policy_into`` and ``load_numpy_policy``: a checkpoint's layers into torch layers,
  for a warm start from ``--init-from`` (the compact trainer and SB3's).
"""

from __future__ import annotations

from collections.abc import Iterable

from byapar_agents.network import NumpyPolicy, load_checkpoint

from .rollout import Layers


def numpy_layers(modules: Iterable) -> Layers:
    """The Linear layers among ``modules`` as (weight, bias) numpy pairs, input to output."""
    import torch

    return [(m.weight.detach().cpu().numpy().T.copy(), m.bias.detach().cpu().numpy().copy())
            for m in modules if isinstance(m, torch.nn.Linear)]


def numpy_policy(model) -> NumpyPolicy:
    """An SB3 PPO policy's actor as numpy layers (what the hard player runs)."""
    return NumpyPolicy(numpy_layers([*model.policy.mlp_extractor.policy_net,
                                     model.policy.action_net]), "tanh")


def load_numpy_policy(model, folder: str) -> None:
    """Start an SB3 PPO actor from a numpy checkpoint (the critic starts fresh)."""
    import torch

    linears = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    hidden = [m.out_features for m in linears]
    copy_policy_into(linears + [model.policy.action_net], folder, f"--hidden {hidden}")


def copy_policy_into(linears: list, folder: str, hidden: str,
                     fmt: str = "byapar-policy") -> None:
    """Copy a numpy checkpoint's layers (of format ``fmt``) into torch Linear layers (both
    trainers' warm start); ``hidden`` names the run's layer sizes for the error when they do
    not fit."""
    import torch

    policy, _ = load_checkpoint(folder, fmt)
    if [tuple(m.weight.shape[::-1]) for m in linears] != [w.shape for w, _ in policy.layers]:
        raise ValueError(f"{folder}: its layers {[w.shape for w, _ in policy.layers]} do not "
                         f"fit {hidden}")
    with torch.no_grad():
        for module, (w, b) in zip(linears, policy.layers, strict=True):
            module.weight.copy_(torch.as_tensor(w.T))
            module.bias.copy_(torch.as_tensor(b))
