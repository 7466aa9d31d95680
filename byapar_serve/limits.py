"""Every bound on what a client can make the server hold or do, in one place.

The server keeps games in memory and runs players on request, so each thing a client can make
grow has a ceiling here; the values are generous for play and small for a server.
"""

from __future__ import annotations

import os

API_VERSION = 1
MAX_TABLES = 64  # live tables; at the limit the oldest idle one goes, or the request gets 429
IDLE_EVICT_S = 600.0  # a table unused this long may be evicted to make room for a new one
MAX_BODY_BYTES = 2 * 1024 * 1024  # a long 6-seat game saves to a few hundred KB
# Hostile clients (byapar_serve/body_limit.py, byapar_serve/protocol.py): a body must keep coming at
# BODY_MIN_RATE bytes a second on average once BODY_GRACE_S have passed (408 otherwise); the
# bodies being read at once hold at most READING_BODY_BYTES, CLIENT_BODY_BYTES of them from
# one address (503 / 429 past that); one address holds at most CLIENT_CONNECTIONS connections
# (0: no limit; behind a proxy every client has the proxy's address).
BODY_MIN_RATE = 2048
BODY_GRACE_S = 2.0
READING_BODY_BYTES = 64 * 1024 * 1024
CLIENT_BODY_BYTES = 16 * 1024 * 1024
CLIENT_CONNECTIONS = 100
MAX_NAME_CHARS = 256  # a player name, a checkpoint folder included
MAX_ROUNDS = 200  # table option; a game played until one is left stops at round 100
MAX_STARTING_CASH = 1_000_000  # the environment's own bound, so observations stay finite
MAX_SEED = 2**63 - 1
MAX_ADVANCE = 1_000  # decisions of computer seats in one advance request
ADVANCE_BUDGET_S = 2.0  # and the wall time one advance request may take
# Answers kept per table for requests with an idempotency key (a repeated key gets the same
# answer): the last MAX_REPLAY_KEYS keys, and at most MAX_REPLAY_BYTES of answers in all (a
# state is about 5 to 40 KB), so 64 tables hold at most 16 MiB of them.
MAX_REPLAY_KEYS = 32
MAX_REPLAY_BYTES = 256 * 1024
MAX_IDEMPOTENCY_KEY_CHARS = 128
LOCK_WAIT_S = 10.0  # how long a request waits for its table's lock before 503
MAX_TABLE_QUEUE = 64  # requests waiting for one table; more get 503 at once
# Slow calls (the expert, analyses) run in a pool of worker processes (byapar_serve/slow.py).
# processes: as many clients of the expert at once are served without waiting; no more than the
# machine's cores (a search is all computation), and at most four
SLOW_WORKERS = max(1, min(4, os.cpu_count() or 1))
MAX_SLOW_QUEUED = 8  # slow calls waiting for a worker; more get 503 at once
MAX_PACE_MS = 10_000
DEFAULT_PACE_MS = 400
# The expert searches with the engine at each decision: its work is bounded by these.
EXPERT_BUDGET_MS = 300.0  # the default time budget of a seated expert's decision
MAX_EXPERT_BUDGET_MS = 2_000.0  # the most a decide call may ask for (budget_ms)
MAX_EXPERT_SIMS = 256  # the most simulations a decide or analyse call may ask for
DEFAULT_ANALYSE_ROLLOUTS = 100
MAX_ANALYSE_ROLLOUTS = 400  # rollouts to the end for the win chances of one analyse call
ANALYSE_BUDGET_S = 5.0  # and the wall time they may take (fewer are reported if it runs out)
# Offers a table's people refused that computer seats may not make again (the latest kept): a
# 40-round game of three computer seats brings a person who refuses everything about 60.
MAX_REFUSALS = 512
