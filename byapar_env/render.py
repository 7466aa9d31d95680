"""Pictures of a game: text for a terminal, and an RGB image array of the board."""

from __future__ import annotations

import numpy as np

from .action_table import TradeDraft
from .engine import Game, Phase, board


def _building_text(b: int) -> str:
    return "H" if b == board.HOTEL else "h" * b


def render_ansi(game: Game, draft: TradeDraft | None = None, events: int = 8) -> str:
    """The board, owners, buildings, players and the latest events as text."""
    status = "game over" if game.is_over else (
        f"seat {game.current_player} decides: {game.phase.name}")
    lines = [f"Byapar  round {game.round}/{game.rules.round_limit}  {status}"]
    for sq in board.PLACES:
        s = board.SQUARES[sq]
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
        where = board.SQUARES[game.position[seat]].name
        lines.append(f"seat {seat}: Rs {game.cash[seat]:>7,} on {where}{jail}, "
                     f"net worth {game.net_worth(seat):,}")
    if game.phase == Phase.AUCTION and game.auction:
        a = game.auction
        lines.append(f"auction of {board.SQUARES[a.square].name}: high {a.high:,} "
                     f"by seat {a.holder}, still in {a.bidders}")
    if draft is not None:
        lines.append(f"draft: {draft.offer()}")
    lines.append("latest:")
    lines += [f"  {e}" for e in game.log[-events:]]
    return "\n".join(lines)


def render_rgb(game: Game, scale: int = 1) -> np.ndarray:
    """The board as a (720 * scale, 720 * scale, 3) uint8 image: groups, owners, buildings,
    tokens, cash (``board_picture``)."""
    from .board_picture import draw

    return draw(game, scale)


def save_board_picture(path: str, seed: int = 3, rounds: int = 20, players: int = 4,
                       scale: int = 2) -> None:
    """Play a seeded random game for ``rounds`` rounds and save the board as a PNG,
    ``720 * scale`` pixels a side (docs/board.png: ``python -m byapar_env.render``)."""
    import random

    from PIL import Image

    from .engine import Rules

    game = Game(Rules(num_players=players), seed=seed)
    choice = random.Random(seed).choice
    while not game.is_over and game.round <= rounds:
        game.apply(choice(game.legal_actions()))
    Image.fromarray(render_rgb(game, scale)).save(path, optimize=True)


if __name__ == "__main__":
    import sys

    save_board_picture(sys.argv[1] if len(sys.argv) > 1 else "docs/board.png")
