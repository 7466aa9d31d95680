"""byapar serve end to end: the real server on a loopback port, the page in a real headless
browser (Debian's chromium, driven by Playwright), a person clicking games to their end at a
desktop width (1280 px) and a phone's (390 px): place cards, a trade, an auction with its
confirmation, an offer received, the recap of the computers' moves, save and load, and a page
never wider than the screen.

CI installs chromium (.ci/run); without it this test fails, saying so, rather than skipping.
Never ``playwright install``: it downloads a browser, and this machine has no network.

Run as a script to picture the page for the docs (docs/serve.png and docs/serve_*.png):

    python tests/test_browser.py docs
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
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
# The person's choice among the buttons shown: buy when offered, otherwise roll, otherwise the
# first control (answers to offers, raising cash, leaving jail, dropping out of auctions).
PREFERENCE = ("buy", "roll", "reject_trade", "drop_out", "pay_fine", "use_bail_card")
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
WIDTHS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
LEVELS = ("random", "easy", "medium", "hard", "expert")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def server(pace_ms: int = 0, *extra: str) -> Iterator[str]:
    """``byapar serve`` in a subprocess on a free loopback port; yields its base URL."""
    port = free_port()
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "byapar_serve.cli", "--no-database", "--host", "127.0.0.1",
             "--port", str(port), "--pace-ms", str(pace_ms), *extra], stdout=log,
            stderr=subprocess.STDOUT)
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


def seat_link(base_url: str, table: dict) -> str:
    """The page's link to a table made through the API, holding every person seat's secret
    (``byapar serve`` plays a seat only for its secret)."""
    held = ",".join(table["secrets"]["seats"].values())
    return f"{base_url}/#t={table['id']}&s={held}"


def _wait_until_up(url: str, proc: subprocess.Popen, log) -> None:
    # No proxy: a proxy set in the environment must not see (or break) loopback traffic.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    deadline = time.monotonic() + 60
    while True:
        try:
            with opener.open(f"{url}/v1", timeout=2) as r:
                json.load(r)
            return
        except urllib.error.HTTPError as e:
            if e.code == 401:  # up, and asking for its token
                return
            raise
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


def post(url: str, body: dict) -> dict:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with opener.open(request, timeout=30) as r:
        return json.load(r)


def fits(page) -> None:
    """The page is no wider than the screen: nothing to scroll sideways."""
    width = page.viewport_size["width"]
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page is {scroll} px wide on a {width} px screen"


def shoot(page, shots: tuple[Path, str] | None, name: str) -> None:
    """A screenshot for the docs (only when run as a script: ``shots`` is a folder and a
    prefix), as a small palette PNG."""
    if shots is None:
        return
    folder, prefix = shots
    path = folder / f"serve_{prefix}_{name}.png"
    page.screenshot(path=str(path))
    small(path)


def small(path: Path) -> None:
    with contextlib.suppress(ImportError):
        from PIL import Image

        with Image.open(path) as im:
            im.convert("RGB").quantize(colors=128).save(path, optimize=True)


def log_text(page) -> str:
    return page.text_content("#log") or ""


@pytest.mark.parametrize("page", WIDTHS, indirect=True)
def test_a_person_plays_a_short_game_in_the_browser(base_url: str, page, tmp_path: Path) -> None:
    page.goto(base_url + "/")
    page.wait_for_selector("#start")
    fits(page)
    # Every level, the beginner to the expert, is in the seat menu, the ladder's first.
    from byapar_agents.ladder import LADDER

    offered = page.eval_on_selector(".seat-select", "s => [...s.options].map(o => o.value)")
    assert set(LEVELS) <= set(offered), offered
    assert offered[1:1 + len(LADDER)] == list(LADDER), offered
    set_up_table(page, ["person", "easy"], rounds=2, seed=11)
    assert page.locator(".sq").count() == 36
    assert page.locator(".player").count() == 2
    players = page.text_content("#players")
    assert "You (person)" in players and "Bikash (easy computer)" in players
    assert page.text_content("#round") == "Round 1 of 2"
    fits(page)

    # Save mid-game: the file is a table save the server takes back.
    person_moves(page, 2)
    assert page.locator("#dice .die").count() == 2  # the dice rolled, with their pips
    with page.expect_download() as download:
        page.click("#save-btn")
    saved = tmp_path / "saved.json"
    download.value.save_as(saved)
    data = json.loads(saved.read_text())
    assert data["format"] == "byapar-table" and data["seats"] == ["person", "easy"]

    assert person_moves(page, 200), "the game did not end in 200 clicks"
    title = page.text_content("#result-title")
    assert title.startswith("Game over:") and ("win" in title or "share" in title)
    assert page.locator("#result-table tr").count() == 3  # header and two seats
    assert "Game over" in page.text_content("#status")
    state = page.evaluate("S.state")
    assert state["status"]["is_over"] and state["status"]["round"] == 2
    fits(page)
    log = log_text(page)
    assert "You roll" in log and "Bikash rolls" in log and "seat 0" not in log
    # Save stays in reach over the game-over card (the top bar and the card's own button).
    for button in ("#save-btn", "#result-save"):
        with page.expect_download() as download:
            page.click(button)
        assert json.loads(Path(download.value.path()).read_text())["game"]["winners"]

    # Load the saved file back from the top bar, at any time: a new table at the saved position.
    page.set_input_files("#load-file-top", str(saved))
    page.wait_for_function("id => S.state && S.state.id !== id", arg=state["id"])
    reloaded = page.evaluate("S.state")
    assert reloaded["game"]["turn_count"] == data["game"]["turn_count"]
    assert not reloaded["status"]["is_over"]
    assert page.is_hidden("#result")

    # And from the setup form.
    page.click("#new-btn")
    page.set_input_files("#load-file", str(saved))
    page.wait_for_function("id => S.state && S.state.id !== id", arg=reloaded["id"])


def test_the_rules_page_and_the_expert_at_a_phone(base_url: str, browser) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(base_url + "/")
        href = page.get_attribute("#rules-link", "href")
        page.goto(base_url + href)
        assert "How to play Byapar" in page.text_content("h1")
        assert "Auctions" in page.text_content("body") and "Trades" in page.text_content("body")
        fits(page)
        # The expert plays a round against a person at a phone's width.
        page.goto(base_url + "/")
        set_up_table(page, ["person", "expert"], rounds=1, seed=4)
        assert "(expert computer)" in page.text_content("#players")
        assert person_moves(page, 100), "the game did not end in 100 clicks"
        fits(page)
    finally:
        context.close()
    assert errors == [], errors


def test_a_server_with_a_token(browser) -> None:
    """Opened once at /?token=TOKEN, the page's own requests carry the token (a cookie): a game
    plays to its end and a reload of the table needs no token in the address."""
    token = "browser-test-token-0123456789"
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        with server(0, "--token", token) as url:
            page.goto(f"{url}/?token={token}")
            set_up_table(page, ["person", "random"], rounds=1, seed=2)
            assert "token" not in page.url
            page.reload()
            page.wait_for_selector("#table:not([hidden])")
            assert person_moves(page, 100), "the game did not end in 100 clicks"
    finally:
        context.close()
    assert errors == [], errors


def test_the_log_in_the_tables_names(base_url: str, page) -> None:
    """The engine's log lines, as the page shows them: You (with the verb to match) and the
    seats' names, never "seat N"."""
    table = post(base_url + "/v1/tables", {"seats": ["person", "easy", "hard"], "seed": 1})
    page.goto(seat_link(base_url, table))
    page.wait_for_selector("#table:not([hidden])")
    lines = {
        "Round 1: seat 0 to play (3 players)": "Round 1: You to play (3 players)",
        "seat 0 rolls 1+2": "You roll 1+2",
        "seat 1 rolls 1+2": "Bikash rolls 1+2",
        "seat 0 goes to jail": "You go to jail",
        "seat 0 is bankrupt to seat 2": "You are bankrupt to Chandra",
        "seat 2 is bankrupt to seat 0": "Chandra is bankrupt to you",
        "seat 0 rolled a double and plays again": "You rolled a double and play again",
        "seat 0 owes Rs 1,500 and holds Rs 1,010: must raise cash":
            "You owe Rs 1,500 and hold Rs 1,010: must raise cash",
        "seat 0 cannot beat 1,200 and drops out": "You cannot beat Rs 1,200 and drop out",
        "seat 1 bids 1,300 on Jumla": "Bikash bids Rs 1,300 on Jumla",
        "seat 0 pays Rs 250 to seat 1": "You pay Rs 250 to Bikash",
        "seat 1 offers seat 0: give nothing for Surkhet; pay Rs 700":
            "Bikash offers you Rs 700 for Surkhet",
        "seat 0 offers seat 2: give Jumla, Surkhet for Ilam; ask Rs 100":
            "You offer Chandra Jumla and Surkhet for Ilam and Rs 100",
        "seat 2 accepts the trade": "Chandra accepts the trade",
        "Game over: seat 0 wins with the highest net worth":
            "Game over: you win with the highest net worth",
        "Game over: seat 1, seat 2 share the win with the highest net worth":
            "Game over: Bikash and Chandra share the win with the highest net worth",
    }
    shown = page.evaluate("ls => ls.map(l => humanLine(l, S.state))", list(lines))
    assert dict(zip(lines, shown, strict=True)) == lines


def _table_with_places(base_url: str, seats: list[str]) -> dict:
    """Three seats holding a place each (You Jumla, Bikash Surkhet, Chandra Bus park); the
    person's first roll is 3+4, to Dhangadhi, which nobody owns."""
    from byapar_env.engine import Game, Rules

    game = Game(Rules(num_players=3, rounds=3), seed=5)
    game.owner[1], game.owner[3], game.owner[5] = 0, 1, 2
    game.force_dice((3, 4))
    return post(base_url + "/v1/tables", {"game": json.loads(game.to_json()), "seats": seats})


def play_a_table(page, base_url: str, seats: list[str],
                 shots: tuple[Path, str] | None = None) -> None:
    """A person's game against two computers: place cards, a trade, an auction with its
    confirmation, the recap of the computers' moves, and the game to its end."""
    table = _table_with_places(base_url, seats)
    page.goto(seat_link(base_url, table))
    page.wait_for_selector("#controls button[data-kind=roll]")
    fits(page)
    players = page.text_content("#players")
    assert "You" in players and "Bikash" in players and "Chandra" in players

    # A place's card, by a tap on its square: price, every rent and the costs. On a phone the
    # tap zooms in on the square's side first (test_serve_phone.py), and its row opens the card.
    box = page.locator("#sq-3").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    if page.is_visible("#zoom-dialog"):
        page.click("#zoom-list [data-cell='3']")
    page.wait_for_selector("#place-dialog[open]")
    card = page.text_content("#place-card")
    for text in ("Surkhet", "Price", "Rs 600", "Rent", "Rs 40", "With 4 houses", "Rs 3,200",
                 "With a hotel", "Rs 4,500", "Each house costs", "Rs 500", "Mortgage gives",
                 "Owner", "Bikash"):
        assert text in card, (text, card)
    fits(page)
    shoot(page, shots, "place_card")
    page.click("#place-close")
    # ... and by a click on a chip in the holdings: a transport's rents by the number held.
    page.click("#holdings button[data-place='5']")
    card = page.text_content("#place-card")
    assert "Bus park" in card and "owner holds 2 transports" in card and "Rs 500" in card
    page.click("#place-close")
    assert page.is_hidden("#place-dialog")

    # A trade: both sides and the cash in the dialog; the computer answers at once.
    page.click("#trade-open")
    page.select_option("#trade-target", "1")
    assert page.text_content("#trade-give-cash") == "Your cash: Rs 15,000"
    assert page.text_content("#trade-take-cash") == "Bikash's cash: Rs 15,000"
    assert "Jumla" in page.text_content("#trade-give")
    page.check("#trade-take input[value='3']")
    page.select_option("#trade-money-way", "pay")
    page.fill("#trade-money", "300")
    assert page.text_content("#trade-summary") == "You give Rs 300; Bikash gives you Surkhet."
    fits(page)
    shoot(page, shots, "trade")
    page.click("#trade-send")
    page.wait_for_function("S.state.to_move === 'person' && S.state.status.phase === 'PRE_ROLL'"
                           " && S.state.game.log.some(l => l.endsWith(' the trade'))",
                           timeout=20_000)
    log = log_text(page)
    assert "You offer Bikash Rs 300 for Surkhet" in log
    assert "Bikash accepts the trade" in log or "Bikash declines the trade" in log

    # The roll: the dice show 3 and 4, and Dhangadhi is for sale. Not bought: an auction.
    page.click("#controls button[data-kind=roll]")
    page.wait_for_selector("#controls button[data-kind=decline]")
    assert page.eval_on_selector_all("#dice .die", "ds => ds.map(d => d.dataset.value)") == \
        ["3", "4"]
    page.click("#controls button[data-kind=decline]")
    page.wait_for_selector("#controls .quick-bids button", timeout=20_000)
    kinds = page.eval_on_selector_all("#controls .quick-bids button",
                                      "bs => bs.map(b => b.dataset.kind)")
    amounts = page.eval_on_selector_all("#controls .quick-bids button[data-kind=bid]",
                                        "bs => bs.map(b => Number(b.dataset.amount))")
    assert kinds[-1] == "drop_out" and "drop_out" not in kinds[:-1], kinds
    assert amounts == sorted(amounts) and len(set(amounts)) == len(amounts), amounts
    assert amounts[-1] > 1000  # more than Dhangadhi's price: asks first
    # A large bid asks first; "Cancel" sends nothing.
    version = page.evaluate("S.state.version")
    page.click("#controls .quick-bids button[data-kind=bid] >> nth=-1")
    page.wait_for_selector("#confirm-dialog[open]")
    assert "more than its price" in page.text_content("#confirm-text")
    fits(page)
    shoot(page, shots, "auction")
    page.click("#confirm-no")
    assert page.evaluate("S.state.version") == version
    # The lowest quick bid goes (confirmed, if it too is large).
    page.click("#controls .quick-bids button[data-kind=bid] >> nth=0")
    if page.is_visible("#confirm-dialog"):
        page.click("#confirm-yes")
    page.wait_for_function("v => S.state.version !== v", arg=version)
    assert "You bid Rs" in log_text(page)

    # Play on to the next round: what each computer did since the person's last move.
    assert not person_moves(page, 200, until_round=2)
    page.wait_for_selector("#recap:not([hidden])")
    recap = page.text_content("#recap")
    assert "Since your last move" in recap and ("Bikash" in recap or "Chandra" in recap)
    assert "rolls" in recap and "seat " not in recap
    fits(page)
    shoot(page, shots, "table")

    assert person_moves(page, 300), "the game did not end in 300 clicks"
    fits(page)
    shoot(page, shots, "game_over")
    with page.expect_download():
        page.click("#save-btn")  # not hidden behind the game-over card


@pytest.mark.parametrize("page", WIDTHS, indirect=True)
def test_a_game_with_a_trade_and_an_auction(base_url: str, page) -> None:
    wide = page.viewport_size["width"] > 800
    play_a_table(page, base_url, ["person", "hard", "medium"] if wide
                 else ["person", "easy", "expert"])


@pytest.mark.parametrize("page", WIDTHS, indirect=True)
def test_trade_and_bid_controls(base_url: str, page, shots: tuple[Path, str] | None = None) -> None:
    from byapar_env.engine import Game, Phase, Rules

    # Two people at one table: seat 0 (Asha) holds Jumla, seat 1 (Bikash) Surkhet.
    game = Game(Rules(num_players=2), seed=3)
    game.owner[1], game.owner[3] = 0, 1
    table = post(base_url + "/v1/tables", {"game": json.loads(game.to_json()),
                                           "seats": ["person", "person"]})
    page.goto(seat_link(base_url, table))
    page.click("#trade-open")
    page.click("#trade-send")  # nothing chosen: the reason shows in the dialog
    page.wait_for_function("document.getElementById('trade-error').textContent !== ''")
    assert "place" in page.text_content("#trade-error")
    page.check("#trade-give input[value='1']")
    page.check("#trade-take input[value='3']")
    page.select_option("#trade-money-way", "ask")
    page.fill("#trade-money", "200")
    assert page.text_content("#trade-summary") == \
        "You give Jumla; Bikash gives you Surkhet and Rs 200."
    page.click("#trade-send")
    page.wait_for_function("S.state.status.phase === 'TRADE_ANSWER'")
    # The offer received: a card with both sides, the cash, Accept and Refuse.
    card = page.text_content("#offer-card")
    assert "Asha offers you Jumla for Surkhet and Rs 200" in card
    assert "You get" in card and "You give" in card and "Cash now" in card
    assert page.eval_on_selector_all("#offer-card button[data-kind]",
                                     "bs => bs.map(b => b.textContent)") == ["Accept", "Refuse"]
    fits(page)
    shoot(page, shots, "offer")
    page.click("#offer-card button[data-kind=accept_trade]")
    page.wait_for_function("S.state.game.owner[1] === 1 && S.state.game.owner[3] === 0")
    assert "Bikash accepts the trade" in log_text(page)

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
    page.goto(seat_link(base_url, table))
    page.wait_for_selector("#bid-amount")
    fits(page)
    amount = game.auction.high + 300
    page.fill("#bid-amount", str(amount))
    page.click("#bid-custom")
    if page.is_visible("#confirm-dialog"):  # a large bid: asked first
        page.click("#confirm-yes")
    page.wait_for_function("a => S.state.game.auction && S.state.game.auction.high === a",
                           arg=amount)


def picture(folder: str) -> None:
    """The page for the docs: a four-seat game in progress at round 12 (serve.png), and a game
    at each width with its place card, trade, auction, recap, offer and end
    (serve_desktop_*.png, serve_phone_*.png)."""
    from playwright.sync_api import sync_playwright

    out = Path(folder)
    with server() as url, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1100, "height": 760})
        page.goto(url + "/")
        set_up_table(page, ["person", "hard", "medium", "strategist"], rounds=40, seed=3)
        person_moves(page, 400, until_round=12)
        page.wait_for_selector("#controls button[data-kind]")
        page.screenshot(path=str(out / "serve.png"))
        small(out / "serve.png")
        page.close()
        for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            context = browser.new_context(viewport=viewport, accept_downloads=True)
            page = context.new_page()
            play_a_table(page, url, ["person", "hard", "medium"], (out, name))
            test_trade_and_bid_controls(url, page, (out, name))
            context.close()
        browser.close()


if __name__ == "__main__":
    picture(sys.argv[1] if len(sys.argv) > 1 else "docs")
