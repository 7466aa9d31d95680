"""byapar serve end to end: the real server on a loopback port, the page in a real headless
browser (Debian's chromium, driven by Playwright), a person clicking a short game to its end.

CI installs chromium (.ci/run); without it this test fails, saying so, rather than skipping.
Never ``playwright install``: it downloads a browser, and this machine has no network.

Run as a script to picture a game in progress for the docs:

    python tests/test_browser.py docs/serve.png
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
# The person's choice among the buttons shown: buy when offered, otherwise roll, otherwise the
# first control (answers to offers, raising cash, leaving jail, dropping out of auctions).
PREFERENCE = ("buy", "roll", "reject_trade", "drop_out", "pay_fine", "use_bail_card")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def server(pace_ms: int = 0) -> Iterator[str]:
    """``byapar serve`` in a subprocess on a free loopback port; yields its base URL."""
    port = free_port()
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "byapar_serve.cli", "--host", "127.0.0.1", "--port",
             str(port), "--pace-ms", str(pace_ms)], stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_until_up(url, proc, log)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _wait_until_up(url: str, proc: subprocess.Popen, log) -> None:
    # No proxy: a proxy set in the environment must not see (or break) loopback traffic.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    deadline = time.monotonic() + 60
    while True:
        try:
            with opener.open(f"{url}/v1", timeout=2) as r:
                json.load(r)
            return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise RuntimeError("byapar serve did not start:\n"
                                   + log.read().decode(errors="replace")) from None
            time.sleep(0.2)


def launch(playwright):
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: the browser test needs Debian's chromium "
                    "(apt-get install -y chromium; .ci/run installs it). Do not run "
                    "'playwright install'.", pytrace=False)
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def set_up_table(page, seats: list[str], rounds: int, seed: int) -> None:
    """Fill in the page's setup form and start the game."""
    page.wait_for_selector("#start")
    while page.locator(".seat-select").count() > len(seats):
        page.locator(".remove-seat").last.click()
    while page.locator(".seat-select").count() < len(seats):
        page.click("#add-seat")
    for i, name in enumerate(seats):
        page.locator(".seat-select").nth(i).select_option(name)
    page.select_option("#rounds", "custom")
    page.fill("#rounds-custom", str(rounds))
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#table:not([hidden])")


def person_moves(page, clicks: int, until_round: int | None = None) -> bool:
    """Click the person's choices; True once the result is shown, False after ``clicks`` (or
    on reaching ``until_round``)."""
    for _ in range(clicks):
        page.wait_for_selector("#controls button[data-kind], #result:not([hidden])",
                               timeout=20_000)
        if page.is_visible("#result"):
            return True
        if until_round is not None:
            shown = page.text_content("#round") or ""
            if shown.startswith(f"Round {until_round} "):
                return False
        kinds = page.eval_on_selector_all("#controls button[data-kind]",
                                          "bs => bs.map(b => b.dataset.kind)")
        kind = next((k for k in PREFERENCE if k in kinds), kinds[0])
        version = page.evaluate("S.state.version")
        page.click(f"#controls button[data-kind={kind}] >> nth=0")
        page.wait_for_function("v => !S.state || S.state.version !== v", arg=version,
                               timeout=20_000)
    return False


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with server() as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  accept_downloads=True)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    context.close()
    assert page.errors == [], page.errors  # no JavaScript error on the page


def post(url: str, body: dict) -> dict:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with opener.open(request, timeout=30) as r:
        return json.load(r)


def test_a_person_plays_a_short_game_in_the_browser(base_url: str, page, tmp_path: Path) -> None:
    page.goto(base_url + "/")
    set_up_table(page, ["person", "easy"], rounds=2, seed=11)
    assert page.locator(".sq").count() == 36
    assert page.locator(".player").count() == 2
    assert "Seat 0 · You" in page.text_content("#players")
    assert page.text_content("#round") == "Round 1 of 2"

    # Save mid-game: the file is a table save the server takes back.
    person_moves(page, 2)
    with page.expect_download() as download:
        page.click("#save-btn")
    saved = tmp_path / "saved.json"
    download.value.save_as(saved)
    data = json.loads(saved.read_text())
    assert data["format"] == "byapar-table" and data["seats"] == ["person", "easy"]

    assert person_moves(page, 200), "the game did not end in 200 clicks"
    title = page.text_content("#result-title")
    assert title.startswith("Game over:") and ("wins" in title or "share" in title)
    assert page.locator("#result-table tr").count() == 3  # header and two seats
    assert "Game over" in page.text_content("#status")
    state = page.evaluate("S.state")
    assert state["status"]["is_over"] and state["status"]["round"] == 2

    # Load the saved file back: a new table at the saved position.
    page.click("#result-new")
    page.set_input_files("#load-file", str(saved))
    page.wait_for_function("id => S.state && S.state.id !== id", arg=state["id"])
    reloaded = page.evaluate("S.state")
    assert reloaded["game"]["turn_count"] == data["game"]["turn_count"]
    assert not reloaded["status"]["is_over"]


def test_trade_and_bid_controls(base_url: str, page) -> None:
    from byapar_env.engine import Game, Phase, Rules

    # Two people at one table: seat 0 holds Jumla, seat 1 Surkhet.
    game = Game(Rules(num_players=2), seed=3)
    game.owner[1], game.owner[3] = 0, 1
    table = post(base_url + "/v1/tables", {"game": json.loads(game.to_json()),
                                           "seats": ["person", "person"]})
    page.goto(f"{base_url}/#t={table['id']}")
    page.click("#trade-open")
    page.click("#trade-send")  # nothing chosen: the server's reason shows in the dialog
    page.wait_for_function("document.getElementById('trade-error').textContent !== ''")
    assert "place" in page.text_content("#trade-error")
    page.check("#trade-give input[value='1']")
    page.check("#trade-take input[value='3']")
    page.select_option("#trade-money-way", "ask")
    page.fill("#trade-money", "200")
    page.click("#trade-send")
    page.wait_for_function("S.state.status.phase === 'TRADE_ANSWER'")
    assert "offers you Jumla for Surkhet and Rs 200" in page.text_content("#controls")
    page.click("#controls button[data-kind=accept_trade]")
    page.wait_for_function("S.state.game.owner[1] === 1 && S.state.game.owner[3] === 0")

    # An auction between the two: a bid of any amount from the number field.
    rng_seed = 0
    while True:
        game = Game(Rules(num_players=2), seed=rng_seed)
        rng = random.Random(rng_seed)
        while not game.is_over and game.phase != Phase.AUCTION:
            game.apply(rng.choice(game.legal_actions()))
        if game.phase == Phase.AUCTION and game.cash[game.current_player] >= (
                game.auction.high + 300):
            break
        rng_seed += 1
    table = post(base_url + "/v1/tables", {"game": json.loads(game.to_json()),
                                           "seats": ["person", "person"]})
    page.goto(f"{base_url}/#t={table['id']}")
    page.wait_for_selector("#bid-amount")
    amount = game.auction.high + 300
    page.fill("#bid-amount", str(amount))
    page.click("#bid-custom")
    page.wait_for_function("a => S.state.game.auction && S.state.game.auction.high === a",
                           arg=amount)


def picture(path: str) -> None:
    """A four-seat game in progress, clicked to round 12, as a PNG for the docs."""
    from playwright.sync_api import sync_playwright

    with server() as url, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1100, "height": 760})
        page.goto(url + "/")
        set_up_table(page, ["person", "hard", "medium", "strategist"], rounds=40, seed=3)
        person_moves(page, 400, until_round=12)
        page.wait_for_selector("#controls button[data-kind]")
        page.screenshot(path=path)
        browser.close()


if __name__ == "__main__":
    picture(sys.argv[1] if len(sys.argv) > 1 else "docs/serve.png")
