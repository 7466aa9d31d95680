"""byapar_env: the Byapar rules engine and its reinforcement-learning environment.

Importing the package registers the single-seat view with gymnasium as
``byapar/SingleSeat-v0`` (``gymnasium.make("byapar/SingleSeat-v0", num_players=4)``); the
PettingZoo environment registers itself when ``byapar_env.byapar_v0`` is imported.
"""

__version__ = "0.1.0"

SINGLE_SEAT_ID = "byapar/SingleSeat-v0"


def _register_gymnasium() -> None:
    """Register the single-seat view with gymnasium, once however often this runs (a second
    ``register`` of the same id would warn that it overrides the first)."""
    try:
        from gymnasium.envs.registration import register, registry
    except ModuleNotFoundError:
        # The rules engine (byapar_env.engine) needs only the standard library, and importing
        # it runs this file: without gymnasium there is simply nothing to register.
        return
    if SINGLE_SEAT_ID not in registry:
        # An entry point string: the view (numpy, PettingZoo) is imported only by make().
        register(id=SINGLE_SEAT_ID, entry_point="byapar_env.single_seat:SingleSeatEnv")


_register_gymnasium()
