"""Pictures of a game: text for a terminal, and an RGB image array of the board."""

from __future__ import annotations

import numpy as np

from .action_table import TradeDraft
from .engine import Game, Phase
from .engine import board as B

GROUP_COLOURS = {
    "Karnali": (139, 90, 43), "Sudurpashchim": (135, 206, 235), "Lumbini": (218, 112, 214),
    "Madhesh": (255, 165, 0), "Koshi": (220, 20, 60), "Gandaki": (255, 215, 0),
    "Bagmati": (34, 139, 34), "Capital": (25, 25, 160),
}
SEAT_COLOURS = ((230, 57, 70), (29, 120, 200), (42, 157, 80), (244, 162, 30), (130, 60, 190),
                (90, 90, 90))
CELL = 72
SIZE = CELL * 10


def _building_text(b: int) -> str:
    return "H" if b == B.HOTEL else "h" * b


def render_ansi(game: Game, draft: TradeDraft | None = None, events: int = 8) -> str:
    """The board, owners, buildings, players and the latest events as text."""
    status = "game over" if game.is_over else (
        f"seat {game.current_player} decides: {game.phase.name}")
    lines = [f"Byapar  round {game.round}/{game.rules.round_limit}  {status}"]
    for sq in B.PLACES:
        s = B.SQUARES[sq]
        o = game.owner[sq]
        if o < 0:
            continue
        extra = _building_text(game.buildings[sq]) + (" (mortgaged)" if game.mortgaged[sq] else "")
        lines.append(f"  {s.name:<14} {s.group or s.kind:<13} seat {o} {extra}")
    for seat in range(game.num_players):
        if game.bankrupt[seat]:
            lines.append(f"seat {seat}: bankrupt")
            continue
        jail = " in jail" if game.in_jail[seat] else ""
        where = B.SQUARES[game.position[seat]].name
        lines.append(f"seat {seat}: Rs {game.cash[seat]:>7,} on {where}{jail}, "
                     f"net worth {game.net_worth(seat):,}")
    if game.phase == Phase.AUCTION and game.auction:
        a = game.auction
        lines.append(f"auction of {B.SQUARES[a.square].name}: high {a.high:,} "
                     f"by seat {a.holder}, still in {a.bidders}")
    if draft is not None:
        lines.append(f"draft: {draft.offer()}")
    lines.append("latest:")
    lines += [f"  {e}" for e in game.log[-events:]]
    return "\n".join(lines)


def _cell_box(sq: int) -> tuple[int, int, int, int]:
    side, k = divmod(sq, 9)
    if side == 0:
        row, col = 9, 9 - k
    elif side == 1:
        row, col = 9 - k, 0
    elif side == 2:
        row, col = 0, k
    else:
        row, col = k, 9
    x, y = col * CELL, row * CELL
    return x, y, x + CELL - 1, y + CELL - 1


def render_rgb(game: Game) -> np.ndarray:
    """The board as an (720, 720, 3) uint8 image: groups, owners, buildings, tokens, cash."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (SIZE, SIZE), (236, 243, 230))
    d = ImageDraw.Draw(img)
    for s in B.SQUARES:
        x0, y0, x1, y1 = _cell_box(s.index)
        d.rectangle((x0, y0, x1, y1), fill=(250, 250, 245), outline=(60, 60, 60))
        if s.group:
            d.rectangle((x0 + 1, y0 + 1, x1 - 1, y0 + 14), fill=GROUP_COLOURS[s.group])
        d.text((x0 + 4, y0 + 17), s.name[:11], fill=(20, 20, 20))
        o = game.owner[s.index]
        if o >= 0:
            d.rectangle((x0 + 2, y1 - 16, x1 - 2, y1 - 2), outline=SEAT_COLOURS[o], width=3)
            if game.mortgaged[s.index]:
                d.line((x0 + 3, y0 + 30, x1 - 3, y1 - 18), fill=(120, 120, 120), width=2)
        b = game.buildings[s.index]
        if b == B.HOTEL:
            d.rectangle((x0 + 6, y0 + 32, x0 + 30, y0 + 44), fill=(200, 30, 30))
        for h in range(b if b < B.HOTEL else 0):
            d.rectangle((x0 + 5 + h * 15, y0 + 32, x0 + 15 + h * 15, y0 + 42), fill=(30, 150, 60))
    for seat in range(game.num_players):
        if game.bankrupt[seat]:
            continue
        x0, y0, x1, y1 = _cell_box(game.position[seat])
        cx, cy = x0 + 10 + (seat % 3) * 20, y0 + 48 + (seat // 3) * 10
        d.ellipse((cx - 7, cy - 5, cx + 7, cy + 5), fill=SEAT_COLOURS[seat], outline=(0, 0, 0))
    y = CELL + 14
    d.text((CELL + 14, y), f"Byapar   round {game.round} of {game.rules.round_limit}",
           fill=(0, 0, 0))
    y += 22
    for seat in range(game.num_players):
        d.rectangle((CELL + 14, y + 2, CELL + 26, y + 12), fill=SEAT_COLOURS[seat])
        status = "bankrupt" if game.bankrupt[seat] else (
            f"Rs {game.cash[seat]:,}   worth {game.net_worth(seat):,}"
            + ("   in jail" if game.in_jail[seat] else ""))
        d.text((CELL + 34, y), f"seat {seat}: {status}", fill=(0, 0, 0))
        y += 18
    y += 12
    for line in game.log[-14:]:
        d.text((CELL + 14, y), line[:78], fill=(50, 50, 50))
        y += 16
    return np.asarray(img, dtype=np.uint8)


def save_board_picture(path: str, seed: int = 3, rounds: int = 20, players: int = 4) -> None:
    """Play a seeded random game for ``rounds`` rounds and save the board as a PNG."""
    import random

    from PIL import Image

    from .engine import Rules

    game = Game(Rules(num_players=players), seed=seed)
    choice = random.Random(seed).choice
    while not game.is_over and game.round <= rounds:
        game.apply(choice(game.legal_actions()))
    Image.fromarray(render_rgb(game)).save(path)


if __name__ == "__main__":
    import sys

    save_board_picture(sys.argv[1] if len(sys.argv) > 1 else "docs/board.png")
