r"""Card faces as images for the inline mode, drawn by the project with Pillow.

A face is a rounded card in its color (a wild in the four colors), a white oval and its symbol:
the number, ``+2``, ``+4``, a crossed circle (skip) or two arrows (reverse). ``card_image``
gives JPEG (Telegram's inline photo results take only JPEG) or PNG bytes, cached; the webhook
app serves them at ``/telegram/cards/<code>.jpg`` (:func:`card_of_file`).

>>> from una.engine import Card, RuleSet, UnaError

#: The cards that have a face: the classic deck's (the Telegram preset plays it).
CLASSIC = frozenset(RuleSet.preset_named("telegram").deck())
>>> data = card_image(Card.parse("R7"))
>>> data[:3] == b"\xff\xd8\xff"  # JPEG
True
>>> card_image(Card.parse("R7")) is data  # drawn once
True
>>> card_image(Card.parse("W4"), "PNG")[:8] == b"\x89PNG\r\n\x1a\n"
True
>>> card_of_file("BD2.jpg"), card_of_file("X9.jpg"), card_of_file("R7.gif")
(Card.parse('BD2'), None, None)
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from una.engine import Card, RuleSet, UnaError

#: The cards that have a face: the classic deck's (the Telegram preset plays it).
CLASSIC = frozenset(RuleSet.preset_named("telegram").deck())

WIDTH, HEIGHT = 240, 360
_FILL = {
    "R": (215, 38, 50),
    "Y": (240, 196, 25),
    "G": (48, 160, 72),
    "B": (24, 96, 200),
}
_DARK = (28, 28, 32)
_WHITE = (255, 255, 255)
_FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for path in _FONT_FILES:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def card_of_file(name: str) -> Card | None:
    """The classic card a file name ``<code>.jpg`` names, or None."""
    code, dot, ext = name.rpartition(".")
    if not dot or ext != "jpg":
        return None
    try:
        card = Card.parse(code)
    except UnaError:
        return None
    return card if card in CLASSIC else None


@lru_cache(maxsize=256)
def card_image(card: Card, kind: str = "JPEG") -> bytes:
    """The card's face, ``WIDTH`` x ``HEIGHT`` pixels, as JPEG (on white) or PNG."""
    image = Image.new("RGBA", (WIDTH, HEIGHT), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    box = (4, 4, WIDTH - 5, HEIGHT - 5)
    draw.rounded_rectangle(box, radius=22, fill=_WHITE)
    inner = (16, 16, WIDTH - 17, HEIGHT - 17)
    if card.color is None:
        draw.rounded_rectangle(inner, radius=16, fill=_DARK)
        cx, cy = WIDTH // 2, HEIGHT // 2
        quarters = (("R", 180), ("B", 270), ("G", 0), ("Y", 90))
        oval = (cx - 78, cy - 112, cx + 78, cy + 112)
        for letter, start in quarters:
            draw.pieslice(oval, start, start + 90, fill=_FILL[letter])
        ink = _WHITE
    else:
        fill = _FILL.get(card.color.value, _DARK)
        draw.rounded_rectangle(inner, radius=16, fill=fill)
        oval = (WIDTH // 2 - 82, HEIGHT // 2 - 118, WIDTH // 2 + 82, HEIGHT // 2 + 118)
        draw.ellipse(oval, fill=_WHITE)
        ink = fill
    _symbol(draw, card, ink)
    corner = _label(card)
    small = _font(34)
    color = _WHITE
    draw.text((30, 26), corner, font=small, fill=color)
    draw.text((WIDTH - 30, HEIGHT - 26), corner, font=small, fill=color, anchor="rs")
    out = io.BytesIO()
    if kind == "PNG":
        image.save(out, format="PNG", optimize=True)
    else:
        flat = Image.new("RGB", image.size, _WHITE)
        flat.paste(image, mask=image)
        flat.save(out, format="JPEG", quality=88)
    return out.getvalue()


def _label(card: Card) -> str:
    symbol = card.symbol
    return {"S": "⊘", "R": "⇄", "D2": "+2", "W4": "+4", "W": "W"}.get(symbol, symbol)


def _symbol(draw: ImageDraw.ImageDraw, card: Card, ink: tuple[int, int, int]) -> None:
    cx, cy = WIDTH // 2, HEIGHT // 2
    symbol = card.symbol
    if symbol == "S":  # a crossed circle
        draw.ellipse((cx - 52, cy - 52, cx + 52, cy + 52), outline=ink, width=16)
        draw.line((cx - 36, cy + 36, cx + 36, cy - 36), fill=ink, width=16)
    elif symbol == "R":  # two arrows, one each way
        for dy, sign in ((-26, 1), (26, -1)):
            y = cy + dy
            draw.line((cx - 50, y, cx + 50, y), fill=ink, width=14)
            tip = cx + 58 * sign
            draw.polygon([(tip, y), (tip - 26 * sign, y - 22), (tip - 26 * sign, y + 22)], fill=ink)
    elif card.color is None:
        text = "+4" if symbol == "W4" else "W"
        draw.text((cx, cy), text, font=_font(96), fill=_WHITE, anchor="mm", stroke_width=4,
                  stroke_fill=_DARK)  # fmt: skip
    else:
        text = "+2" if symbol == "D2" else symbol
        draw.text((cx, cy), text, font=_font(120 if len(text) == 1 else 96), fill=ink,
                  anchor="mm", stroke_width=3, stroke_fill=_DARK)  # fmt: skip
