"""Replays in the page: a finished four-seat game of each game opened by its link (#r=ID) in
headless Chromium (as in test_browser.py), at a desktop width and a phone's: the graph of every
seat's win chance, the swings named, stepping, jumping and autoplay, and the board of each
position drawn by the table's own code.

Run as a script to picture it for the docs (docs/serve_replay.png, docs/serve_phone_replay.png):

    python tests/test_serve_replay_browser.py docs
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_browser import DESKTOP, PHONE, fits, launch, post, server, small
from test_serve_phone import check

WIDTHS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
SEATS = ["hard", "medium", "easy", "random"]


def finished_game(base_url: str, game_name: str, seed: int) -> dict:
    """A four-seat game of computers played to its end through the API; its last state."""
    rounds = 8 if game_name == "byapar" else 3
    state = post(f"{base_url}/v1/tables", {"game_name": game_name, "seats": SEATS,
                                          "seed": seed, "rules": {"rounds": rounds}})
    for _ in range(100):
        if state["to_move"] is None:
            return state
        state = post(f"{base_url}/v1/tables/{state['id']}/advance", {"max_decisions": 500})
    raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with server(0, "--open-seats") as url:
        yield url


def open_replay(page, base_url: str, table_id: str) -> dict:
    page.goto(f"{base_url}/#r={table_id}")
    page.wait_for_selector("#replay:not([hidden]) #replay-graph polyline")
    return page.evaluate("Replay.data")


def where(page) -> str:
    return page.text_content("#replay-where") or ""


@pytest.mark.parametrize("page", WIDTHS, indirect=True)
def test_a_finished_byapar_game_replays_with_its_graph(base_url: str, page) -> None:
    last = finished_game(base_url, "byapar", seed=7)
    data = open_replay(page, base_url, last["id"])
    moves = data["moves"]
    assert moves > 50
    # the end first: the final position, its winners' whole chance on the graph
    assert where(page).startswith(f"Move {moves} of {moves}")
    assert page.locator("#replay-graph polyline").count() == 4
    assert page.locator("#replay-graph circle.swing").count() == len(data["swings"]) >= 1
    assert page.locator("#replay-swings button").count() == len(data["swings"])
    assert page.is_visible("#board") and not page.is_visible("#result")
    assert page.title() == "Byapar: replay"
    # step back, to the start, and on
    page.click("#replay-back")
    page.wait_for_function(f"Replay.at === {moves - 1}")
    assert where(page).startswith(f"Move {moves - 1} of {moves}")
    page.click("#replay-first")
    page.wait_for_function("Replay.at === 0")
    assert where(page) == f"Move 0 of {moves} · the start"
    cash = page.evaluate("S.state.players.map(p => p.cash)")
    assert cash == [15_000] * 4
    page.click("#replay-next")
    page.wait_for_function("Replay.at === 1")
    # a swing jumps to its move, and the board shows that position
    swing = data["swings"][0]
    page.click("#replay-swings button >> nth=0")
    page.wait_for_function(f"Replay.at === {swing['n']}")
    assert page.evaluate("S.state.replay.moves") == swing["n"]
    assert page.evaluate("S.state.to_move") == "replay"
    assert page.locator("#controls button[data-kind]").count() == 0  # nothing to play
    # autoplay moves on by itself, and pauses
    page.click("#replay-play")
    page.wait_for_function(f"Replay.at >= {swing['n'] + 2}")
    page.click("#replay-play")
    stopped = page.evaluate("Replay.at")
    page.wait_for_timeout(1000)
    assert page.evaluate("Replay.at") == stopped
    fits(page)
    if page.viewport_size == PHONE:  # 44 px targets, no text under 11 px (the graph's too)
        assert check(page, "a Byapar replay") > 10


@pytest.mark.parametrize("page", WIDTHS, indirect=True)
def test_a_finished_businessman_game_replays_on_its_board(base_url: str, page) -> None:
    last = finished_game(base_url, "businessman", seed=4)
    data = open_replay(page, base_url, last["id"])
    assert data["chance_kind"] == "share of net worth with expected rents"
    assert page.locator("#replay-graph polyline").count() == 4
    assert page.is_visible("#bm-table") and not page.is_visible("#table")
    assert "worth" in (page.text_content("#replay-kind") or "")
    page.click("#replay-first")
    page.wait_for_function("Replay.at === 0")
    assert page.evaluate("BM.state.to_move") == "replay"
    assert page.evaluate("BM.state.status.round") == 1
    fits(page)
    if page.viewport_size == PHONE:
        assert check(page, "a Businessman replay") > 10


def test_a_game_in_progress_is_not_replayed_and_the_page_says_why(base_url: str,
                                                                  browser) -> None:
    state = post(f"{base_url}/v1/tables", {"game_name": "businessman", "seed": 1,
                                          "seats": ["person", "medium"]})
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(f"{base_url}/#r={state['id']}")
    page.wait_for_selector("#error:not([hidden])")
    assert "once it is over" in (page.text_content("#error") or "")
    assert page.is_hidden("#replay")
    context.close()


def test_the_end_of_a_game_offers_its_replay(base_url: str, browser) -> None:
    last = finished_game(base_url, "byapar", seed=8)
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(f"{base_url}/#t={last['id']}")
    page.wait_for_selector("#result:not([hidden])")
    page.click("#result-replay")
    page.wait_for_selector("#replay:not([hidden]) #replay-graph polyline")
    assert page.url.endswith(f"#r={last['id']}")
    context.close()


def picture(folder: str) -> None:
    from playwright.sync_api import sync_playwright

    with server(0, "--open-seats") as url, sync_playwright() as p:
        b = launch(p)
        last = finished_game(url, "byapar", seed=7)
        for name, viewport in (("serve_replay", DESKTOP), ("serve_phone_replay", PHONE)):
            page = b.new_context(viewport=viewport).new_page()
            data = open_replay(page, url, last["id"])
            page.click("#replay-swings button >> nth=1" if len(data["swings"]) > 1 else
                       "#replay-swings button >> nth=0")
            page.wait_for_timeout(500)
            path = Path(folder) / f"{name}.png"
            page.screenshot(path=str(path), full_page=viewport is PHONE)
            small(path)
        b.close()


if __name__ == "__main__":
    picture(sys.argv[1] if len(sys.argv) > 1 else "docs")
