"""The opponents no training run may touch, asked in one place.

Strength is measured on opponents the player never trained on: the outside panel's unseen three
(``byapar_agents.outside.UNSEEN_OUTSIDE``) and the generated population's evaluation seeds
(``byapar_agents.population.EVALUATION_SEEDS``). Training asks ``kept_unseen(name)`` of every
player it would seat or evaluate against (``byapar_training/checks.py`` refuses those), so that no
training module names or reads either list (tests check both).
"""

from __future__ import annotations

from .outside import UNSEEN_OUTSIDE
from .population import TRAINING_SEEDS, population_seed


def kept_unseen(name: object) -> bool:
    """Whether ``name`` is an opponent kept for evaluation only."""
    seed = population_seed(name)
    return name in UNSEEN_OUTSIDE or (seed is not None and seed not in TRAINING_SEEDS)

