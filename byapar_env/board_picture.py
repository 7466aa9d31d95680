"""The board as a picture (``render_rgb``, the environment's ``rgb_array``): every square's name
whole, the owners, the buildings, the tokens, the seats' money and the latest events.

Drawn at 720 pixels a side times ``scale``; the letters are Pillow's own scalable font where
Pillow has one (10.1 and newer), else its fixed bitmap font. A name too wide for its square
goes on two lines: at a space, else split where a syllable ends (``Mahendra-`` ``nagar``).
"""

from __future__ import annotations

import functools

import numpy as np

from .engine import Game, board

# The colours of the board's groups and of the seats (also the page's and render's).
GROUP_COLOURS = {
    "Karnali": (139, 90, 43), "Sudurpashchim": (135, 206, 235), "Lumbini": (218, 112, 214),
    "Madhesh": (255, 165, 0), "Koshi": (220, 20, 60), "Gandaki": (255, 215, 0),
    "Bagmati": (34, 139, 34), "Capital": (25, 25, 160),
}
SEAT_COLOURS = ((230, 57, 70), (29, 120, 200), (42, 157, 80), (244, 162, 30), (130, 60, 190),
                (90, 90, 90))

CELL = 72  # a square's side at scale 1: the board is 10 squares a side
SIZE = CELL * 10
VOWELS = frozenset("aeiouAEIOU")
BACKGROUND = (236, 243, 230)
PAPER = (252, 252, 247)
INK = (25, 25, 25)
QUIET_INK = (70, 70, 70)
MORTGAGED = (170, 170, 170)


@functools.lru_cache(maxsize=16)
def font(size: int):
    """Pillow's scalable font at ``size`` pixels, or its bitmap font where it has none."""
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow before 10.1: one fixed size
        return ImageFont.load_default()


def _hyphenated(word: str, width: float, measure) -> tuple[str, str]:
    """``word`` split in two with a hyphen, the first part fitting ``width``: after a vowel
    that a consonant follows, as near the middle as fits; else the longest part that fits."""
    fits = [i for i in range(2, len(word) - 1) if measure(word[:i] + "-") <= width]
    if not fits:
        return word, ""
    syllables = [i for i in fits if word[i - 1] in VOWELS and word[i] not in VOWELS]
    i = min(syllables, key=lambda i: abs(i - len(word) / 2)) if syllables else max(fits)
    return word[:i] + "-", word[i:]


def wrap(text: str, width: float, measure) -> list[str]:
    """``text`` in lines of at most ``width`` as ``measure`` measures them: words kept
    together where they fit, a word wider than a line split by ``_hyphenated``."""
    lines: list[str] = []
    line = ""
    words = text.split()
    while words:
        word = words.pop(0)
        joined = f"{line} {word}" if line else word
        if measure(joined) <= width:
            line = joined
            continue
        if line:
            lines.append(line)
            line = ""
            words.insert(0, word)
            continue
        head, rest = _hyphenated(word, width, measure)
        lines.append(head)
        if rest:
            words.insert(0, rest)
    if line:
        lines.append(line)
    return lines


def fit_label(text: str, width: float, size: int, measure_at) -> tuple[list[str], int]:
    """The lines of ``text`` and the font size: at most two lines of ``size`` pixels, or at a
    smaller size down to four fifths of it; ``measure_at(size)`` measures a text at a size."""
    for s in range(size, max(1, int(size * 0.8)) - 1, -1):
        lines = wrap(text, width, measure_at(s))
        if len(lines) <= 2:
            return lines, s
    return lines[:2], s


def _seat_colour(seat: int) -> tuple[int, int, int]:

    return SEAT_COLOURS[seat]


def cell_box(index: int, scale: int = 1) -> tuple[int, int, int, int]:
    """The corners of square ``index``: Start at the bottom right, going clockwise."""
    side, k = divmod(index, 9)
    if side == 0:
        row, col = 9, 9 - k
    elif side == 1:
        row, col = 9 - k, 0
    elif side == 2:
        row, col = 0, k
    else:
        row, col = k, 9
    c = CELL * scale
    x, y = col * c, row * c
    return x, y, x + c - 1, y + c - 1


def draw(game: Game, scale: int = 1) -> np.ndarray:
    """The board as a ``(720 * scale, 720 * scale, 3)`` uint8 image."""
    from PIL import Image, ImageDraw


    u = scale
    img = Image.new("RGB", (SIZE * u, SIZE * u), BACKGROUND)
    d = ImageDraw.Draw(img)

    def measure_at(size: int):
        f = font(size)
        return lambda text: d.textlength(text, font=f)

    for s in board.SQUARES:
        x0, y0, x1, y1 = cell_box(s.index, u)
        d.rectangle((x0, y0, x1, y1), fill=PAPER, outline=QUIET_INK, width=u)
        if s.group:
            d.rectangle((x0 + u, y0 + u, x1 - u, y0 + 11 * u), fill=GROUP_COLOURS[s.group])
        lines, size = fit_label(s.name, CELL * u - 8 * u, 10 * u, measure_at)
        for i, line in enumerate(lines):
            d.text((x0 + 4 * u, y0 + 13 * u + i * 11 * u), line, fill=INK, font=font(size))
        o = game.owner[s.index]
        if o >= 0:  # the owner's stripe along the bottom; grey inside when mortgaged
            inside = MORTGAGED if game.mortgaged[s.index] else _seat_colour(o)
            d.rectangle((x0 + 2 * u, y1 - 8 * u, x1 - 2 * u, y1 - 2 * u), fill=inside,
                        outline=_seat_colour(o), width=2 * u)
        b = game.buildings[s.index]
        if b == board.HOTEL:
            d.rectangle((x0 + 4 * u, y0 + 37 * u, x0 + 26 * u, y0 + 45 * u), fill=(200, 30, 30))
        for h in range(b if b < board.HOTEL else 0):
            d.rectangle((x0 + 4 * u + h * 11 * u, y0 + 37 * u, x0 + 12 * u + h * 11 * u,
                         y0 + 45 * u), fill=(30, 150, 60))
    for seat in range(game.num_players):
        if game.bankrupt[seat]:
            continue
        x0, y0, _, _ = cell_box(game.position[seat], u)
        cx, cy = x0 + (9 + seat * 11) * u, y0 + 55 * u  # one row, up to six seats
        r = 5 * u
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_seat_colour(seat), outline=INK,
                  width=max(1, u))
    _centre(d, game, u)
    return np.asarray(img, dtype=np.uint8)


def _centre(d, game: Game, u: int) -> None:
    """The middle of the board: the round, each seat's money, a key, the latest events."""
    left, width = CELL * u + 16 * u, (SIZE - 2 * CELL) * u - 32 * u
    y = CELL * u + 14 * u
    d.text((left, y), f"Byapar   round {game.round} of {game.rules.round_limit}", fill=INK,
           font=font(16 * u))
    y += 28 * u
    for seat in range(game.num_players):
        d.rectangle((left, y + 2 * u, left + 11 * u, y + 13 * u), fill=_seat_colour(seat))
        status = "bankrupt" if game.bankrupt[seat] else (
            f"Rs {game.cash[seat]:,} in cash, worth Rs {game.net_worth(seat):,}"
            + (", in jail" if game.in_jail[seat] else ""))
        d.text((left + 18 * u, y), f"seat {seat}: {status}", fill=INK, font=font(12 * u))
        y += 18 * u
    y += 6 * u
    key = ("stripe: the owner (grey inside: mortgaged); green: houses, red: a hotel; "
           "circles: the players")
    for line in wrap(key, width, lambda t: d.textlength(t, font=font(10 * u))):
        d.text((left, y), line, fill=QUIET_INK, font=font(10 * u))
        y += 13 * u
    y += 12 * u
    d.text((left, y), "latest:", fill=INK, font=font(11 * u))
    y += 16 * u
    small = font(11 * u)
    for line in game.log[-14:]:
        while d.textlength(line, font=small) > width and len(line) > 1:
            line = line[:-2] + "…"
        d.text((left, y), line, fill=QUIET_INK, font=small)
        y += 15 * u
