"""byapar serve's page speaks to a person in players' words: every error code the API answers
has a plain sentence (byapar_serve/static/messages.js), no sentence reads like the API, and the page
never shows the API's developer detail."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest

from byapar_env.engine import Game, Phase, Rules

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's TestClient warns about httpx2 one day
    from fastapi.testclient import TestClient

from byapar_serve import errors
from byapar_serve.app import create_app

STATIC = Path(__file__).resolve().parent.parent / "byapar_serve" / "static"
MESSAGES_JS = STATIC / "messages.js"


def messages() -> dict[str, str]:
    text = MESSAGES_JS.read_text()
    body = re.search(r"/\* BEGIN MESSAGES \*/(.*)/\* END MESSAGES \*/", text, re.S)
    assert body, "messages.js keeps its sentences between the BEGIN and END markers"
    return json.loads(body.group(1))


def api_codes() -> set[str]:
    """Every error code an answer of the API can carry."""
    codes, todo = set(), [errors.ApiError]
    while todo:
        cls = todo.pop()
        codes.add(cls.code)
        todo.extend(cls.__subclasses__())
    app_py = (STATIC.parent / "app.py").read_text()
    codes |= set(re.findall(r'"error": "(\w+)"', app_py))  # validation, internal
    codes |= set(re.findall(r'\d{3}: "(\w+)"', app_py))  # HTTP errors by status
    codes.add("http_error")  # app.py's fallback for other HTTP errors
    return codes


def test_every_error_code_of_the_api_has_a_sentence() -> None:
    codes = api_codes()
    assert {"illegal_action", "stale_version", "not_found", "internal", "table_busy",
            "method_not_allowed", "body_too_large", "bad_saved_game"} <= codes
    missing = codes - set(messages())
    assert not missing, f"messages.js has no sentence for {sorted(missing)}"


@pytest.mark.parametrize("key", sorted(messages()))
def test_no_sentence_reads_like_the_api(key: str) -> None:
    text = messages()[key]
    for phrase in ("allowed", "engine", "field", "detail", "json", "api", "error", "seat",
                   "id", "version", "GameStateError", "409", "422"):
        assert not re.search(rf"\b{phrase}\b", text, re.I), (key, phrase)
    assert "'" not in text and '"' not in text, key  # no quoted names of fields or values
    assert (text[0].isupper() or text.startswith("{")) and text.endswith("."), key


def test_the_page_never_shows_the_apis_detail() -> None:
    app = (STATIC / "app.js").read_text()
    # The detail goes into the Error object (for the browser console) and nowhere else.
    assert app.count(".detail") == 1 and "err.message" not in app
    assert re.search(r"textContent\s*=\s*err\b", app) is None
    page = (STATIC / "index.html").read_text()
    assert page.index("/static/messages.js") < page.index("/static/app.js")


def _auction_table(client: TestClient) -> dict:
    for seed in range(200):
        game = Game(Rules(num_players=2), seed=seed)
        game.apply(game.legal_actions()[0])  # roll
        if game.phase == Phase.BUY:
            game.apply(next(a for a in game.legal_actions() if a.kind.name == "DECLINE"))
            if game.phase == Phase.AUCTION:
                return client.post("/v1/tables", json={"game": json.loads(game.to_json()),
                                                       "seats": ["person", "person"]}).json()
    raise AssertionError("no seeded game reached an auction")


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's script")
def test_the_apis_answers_become_these_sentences() -> None:
    """Real error answers of the API, passed through the page's plainMessage by node."""
    client = TestClient(create_app())
    state = _auction_table(client)
    url = f"/v1/tables/{state['id']}/actions"
    b = state["bids"]
    bad_bid = client.post(url, json={"engine": {"kind": "bid", "square": b["square"],
                                                "amount": b["max"] + 100}}).json()
    stale = client.post(url, json={"name": "drop out", "version": 99}).json()
    gone = client.get("/v1/tables/nope").json()
    assert (bad_bid["error"], stale["error"], gone["error"]) == (
        "illegal_action", "stale_version", "not_found")
    cases = [[{"code": bad_bid["error"], "field": bad_bid["field"]}, "bid",
              {"min": f"Rs {b['min']:,}", "max": f"Rs {b['max']:,}", "step": "Rs 100"}],
             [{"code": stale["error"], "field": stale["field"]}, None, None],
             [{"code": gone["error"], "field": gone.get("field")}, None, None],
             [{"code": "conflict", "field": "table_id"}, None, None],
             [{"code": "network"}, None, None]]
    script = ("const m = require(process.argv[1]);"
              "const cases = JSON.parse(process.argv[2]);"
              "console.log(JSON.stringify(cases.map(c => m.plainMessage(c[0], c[1], c[2]))));")
    out = subprocess.run(["node", "-e", script, str(MESSAGES_JS), json.dumps(cases)],
                         capture_output=True, text=True, check=True, timeout=60).stdout
    assert json.loads(out) == [
        f"Bids go from Rs {b['min']:,} to Rs {b['max']:,}, in steps of Rs 100.",
        "The table moved on before your move arrived. This is where it stands now: choose "
        "again.",
        "This table is gone: a finished game is kept for a week, and a full server makes room "
        "by letting long-idle tables go. Start a new table.",
        "This game is over. Start a new table to play again.",
        "The server did not answer. Check that byapar serve is still running, then try again.",
    ]
