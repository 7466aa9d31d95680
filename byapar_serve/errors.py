"""Typed errors of the web API: each maps to one HTTP status, a short code, a message naming
the field at fault and, where there is a closed set, the values allowed.

Handlers raise these and change nothing before raising; ``app.py`` turns them into JSON
``{"error": code, "detail": message, "field": ..., "allowed": [...]}``.
"""

from __future__ import annotations


class ApiError(Exception):
    """Base of every error the API answers with a 4xx (or a 503 for a busy table)."""

    status = 400
    code = "bad_request"

    def __init__(self, detail: str, field: str | None = None,
                 allowed: list | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.field = field
        self.allowed = allowed

    def body(self) -> dict:
        out: dict = {"error": self.code, "detail": self.detail}
        if self.field is not None:
            out["field"] = self.field
        if self.allowed is not None:
            out["allowed"] = self.allowed
        return out


class InvalidInput(ApiError):
    """A value that is malformed or not one of those allowed (an illegal action included)."""

    status = 422
    code = "invalid_input"


class IllegalAction(InvalidInput):
    """An action that is not legal now; ``allowed`` lists the legal ones."""

    code = "illegal_action"


class BadSavedGame(InvalidInput):
    """A saved game the engine (or the server's own consistency checks) refuses."""

    code = "bad_saved_game"


class UnknownPlayer(InvalidInput):
    """A player name that is not offered by this server; ``allowed`` lists those that are."""

    code = "unknown_player"


class SeatSecretRequired(ApiError):
    """The request carries no secret of this table's seats (or of its spectators), or not the
    one the request needs: the deciding seat's for an action."""

    status = 403
    code = "seat_secret_required"


class ReplayUnavailable(ApiError):
    """The table's game cannot be replayed to this client now (a game in progress whose seats
    hold what others may not see, or a table made before replays were recorded)."""

    status = 403
    code = "replay_unavailable"


class NotFound(ApiError):
    status = 404
    code = "not_found"


class Conflict(ApiError):
    """Well-formed, but not now: the game is over, or another seat must decide."""

    status = 409
    code = "conflict"


class StaleVersion(Conflict):
    """The request named a version of the table that is no longer current: it was chosen in
    a state that has changed (a duplicate of a request already applied, or a stale page).
    ``version`` in the answer is the table's version now."""

    code = "stale_version"

    def __init__(self, detail: str, field: str, version: int) -> None:
        super().__init__(detail, field=field)
        self.version = version

    def body(self) -> dict:
        return {**super().body(), "version": self.version}


class TooLarge(ApiError):
    status = 413
    code = "body_too_large"


class TooManyTables(ApiError):
    status = 429
    code = "too_many_tables"


class TableBusy(ApiError):
    """The table's lock was not free in time (another request on it ran long)."""

    status = 503
    code = "table_busy"


class ServerBusy(ApiError):
    """The server's bounded pool for slow calls (the expert, analyses) is full, or a call could
    not start before its deadline. Try again in a few seconds."""

    status = 503
    code = "server_busy"
