"""Player icons: small PNG, GIF or BMP uploads, checked and re-encoded as 32x32 PNG.

Nothing a player uploads is stored or served as it came: the bytes are decoded by Pillow
under a pixel limit (a decompression bomb is refused before it is decoded) and a fresh PNG is
written from the pixels. The server decodes in one worker thread (:func:`make_icon_in_worker`),
so a flood of uploads queues there and never holds the event loop.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import io
import warnings
from concurrent.futures import ThreadPoolExecutor

from PIL import Image

MAX_BYTES = 64 * 1024
#: What is kept is 32x32; the browser client uploads 64x64. Anything past 256x256 pixels
#: (or 1024 on a side) is refused before it is decoded.
MAX_PIXELS = 256 * 256
MAX_SIDE = 1024
SIZE = 32
FORMATS = {"PNG", "GIF", "BMP"}


class IconError(ValueError):
    """An upload that is not an acceptable icon; the message says why."""


def from_base64(text: str) -> bytes:
    """The decoded bytes of a base64 upload (a data: URL prefix is allowed)."""
    if text.startswith("data:"):
        text = text.partition(",")[2]
    if len(text) > (MAX_BYTES * 4) // 3 + 8:
        raise IconError(f"an icon is at most {MAX_BYTES // 1024} KiB")
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise IconError("the icon is not valid base64") from None


def make_icon(data: bytes) -> bytes:
    """A 32x32 PNG made from an uploaded PNG, GIF or BMP of at most 64 KiB.

    >>> buffer = io.BytesIO()
    >>> Image.new("RGB", (100, 80), "red").save(buffer, "GIF")
    >>> icon = make_icon(buffer.getvalue())
    >>> Image.open(io.BytesIO(icon)).size
    (32, 32)
    """
    if len(data) > MAX_BYTES:
        raise IconError(f"an icon is at most {MAX_BYTES // 1024} KiB, not {len(data) // 1024} KiB")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            if image.format not in FORMATS:
                raise IconError(f"an icon must be PNG, GIF or BMP, not {image.format}")
            width, height = image.size
            if width * height > MAX_PIXELS or max(width, height) > MAX_SIDE:
                raise IconError(
                    f"an icon of {width}x{height} pixels is too large (at most "
                    f"{MAX_PIXELS} pixels, {MAX_SIDE} on a side)"
                )
            image.load()
    except IconError:
        raise
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        raise IconError("the image is too large once decoded") from None
    except Exception as error:  # Pillow raises many kinds on corrupt input
        raise IconError(f"not a readable image ({type(error).__name__})") from None
    icon = image.convert("RGBA")
    icon.thumbnail((SIZE, SIZE))
    canvas = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    canvas.paste(icon, ((SIZE - icon.width) // 2, (SIZE - icon.height) // 2))
    out = io.BytesIO()
    canvas.save(out, "PNG")
    return out.getvalue()


#: One thread: uploads wait their turn there, and the bots' threads stay free.
_DECODER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="una-icons")


async def make_icon_in_worker(data: bytes) -> bytes:
    """:func:`make_icon`, run in the icon thread (Pillow decodes without the GIL)."""
    return await asyncio.get_running_loop().run_in_executor(_DECODER, make_icon, data)


#: The icons that come with the game (the browser draws each; /reset-icon picks one).
BUILTIN_ICONS = ("star", "moon", "sun", "heart", "clover", "crown", "anchor", "bolt")
