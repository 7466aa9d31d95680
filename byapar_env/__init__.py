"""byapar_env: the rules engines of Byapar and Businessman and their reinforcement-learning
environments (``byapar_env.games`` lists the games).

The single-seat view is registered with gymnasium as ``byapar/Byapar-SingleSeat-v0`` and
``byapar/Businessman-SingleSeat-v0`` (``gymnasium.make("byapar/Byapar-SingleSeat-v0",
num_players=4)``), and ``byapar/SingleSeat-v0``, Byapar's earlier id, for one more release.
Importing this package does not import gymnasium (the engines need the standard library alone):
the ids are registered when gymnasium is imported, before or after this package. The PettingZoo
environments register themselves when ``byapar_env.byapar_v0`` or ``businessman_v0`` is
imported.
"""

import sys

__version__ = "0.1.0"

SINGLE_SEAT_IDS = {"byapar/Byapar-SingleSeat-v0": "byapar",
                   "byapar/Businessman-SingleSeat-v0": "businessman"}
OLD_SINGLE_SEAT_ID = "byapar/SingleSeat-v0"  # Byapar's, kept for one release (with a warning)
SINGLE_SEAT_ID = OLD_SINGLE_SEAT_ID


def register_gymnasium() -> None:
    """Register the single-seat views with gymnasium, once however often this runs (a second
    ``register`` of the same id would warn that it overrides the first)."""
    from gymnasium.envs.registration import register, registry

    for env_id, game in SINGLE_SEAT_IDS.items():
        if env_id not in registry:
            # An entry point string: the view (numpy, PettingZoo) is imported only by make().
            register(id=env_id, entry_point="byapar_env.single_seat:SingleSeatEnv",
                     kwargs={"game": game})
    if OLD_SINGLE_SEAT_ID not in registry:
        register(id=OLD_SINGLE_SEAT_ID, entry_point="byapar_env.single_seat:old_single_seat")


class _RegisterWithGymnasium:
    """A finder on ``sys.meta_path`` that finds nothing itself: when gymnasium is first
    imported it lets the usual finders load it, then registers the views."""

    def find_spec(self, name, path=None, target=None):
        if name != "gymnasium":
            return None
        sys.meta_path.remove(self)
        from importlib.util import find_spec

        spec = find_spec(name)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        load = spec.loader.exec_module

        def load_then_register(module):
            load(module)
            register_gymnasium()

        spec.loader.exec_module = load_then_register
        return spec


if "gymnasium" in sys.modules:
    register_gymnasium()
elif not any(isinstance(f, _RegisterWithGymnasium) for f in sys.meta_path):
    sys.meta_path.insert(0, _RegisterWithGymnasium())
