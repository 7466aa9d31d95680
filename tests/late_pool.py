"""A slow pool whose every job starts a second late, as a worker waiting for a core: for the
tests of answers given by a budget when the worker is late."""

from __future__ import annotations

import time

from byapar_serve.slow import SlowPool


def _after_a_second(fn, *args):
    time.sleep(1.0)
    return fn(*args)


class LatePool(SlowPool):
    """A pool whose every job starts a second late: a worker waiting for a core."""

    def _submit(self, fn, args):
        return super()._submit(_after_a_second, (fn, *args))


def expert_then_hard(client, game: dict, budget_ms: float) -> tuple[object, float, dict]:
    """The expert's /v1/decide response for ``game`` within ``budget_ms``, the seconds it took,
    and the hard player's answer for the same game."""
    start = time.monotonic()
    r = client.post("/v1/decide", json={"game": game, "player": "expert", "budget_ms": budget_ms})
    took = time.monotonic() - start
    return r, took, client.post("/v1/decide", json={"game": game, "player": "hard"}).json()


def expert_once_loaded(client, game: dict, budget_ms: float, tries: int = 60) -> object:
    """The expert's /v1/decide response for ``game``, asked again while the worker process
    still loads (503) for up to ``tries`` half seconds."""
    for _ in range(tries):
        r = client.post("/v1/decide", json={"game": game, "player": "expert",
                                            "budget_ms": budget_ms})
        if r.status_code != 503:
            break
        time.sleep(0.5)
    return r
