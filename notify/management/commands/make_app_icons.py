"""Draw the installable app's icons (PNG, written by hand with zlib: no imaging library).

A white card with a club on the felt green, at 192 and 512 pixels: "any" icons on a
rounded square, and "maskable" ones that fill the square, with the card inside the
safe zone (the middle circle of 80 %) that every launcher's mask keeps.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

FELT = (29, 107, 64)
FELT_DARK = (18, 74, 43)
CARD = (255, 255, 255)
SAMPLES = 3  # per pixel side: anti-aliased edges


def rounded_rect(x, y, cx, cy, half_w, half_h, radius):
    dx, dy = abs(x - cx) - (half_w - radius), abs(y - cy) - (half_h - radius)
    if dx <= 0 or dy <= 0:
        return dx <= radius and dy <= radius
    return dx * dx + dy * dy <= radius * radius


def club(x, y, cx, cy, r):
    """A club of "radius" r (in the icon's unit square) centred at (cx, cy)."""
    lobe = r * 0.42
    if (x - cx) ** 2 + (y - cy + 0.05 * r) ** 2 <= (0.3 * r) ** 2:  # where the lobes meet
        return True
    for ox, oy in ((0, -0.45), (-0.47, 0.12), (0.47, 0.12)):
        if (x - cx - ox * r) ** 2 + (y - cy - oy * r) ** 2 <= lobe * lobe:
            return True
    # the stem: a triangle widening downwards
    top, bottom = cy + 0.0 * r, cy + 0.95 * r
    if top <= y <= bottom:
        half = 0.08 * r + (y - top) / (bottom - top) * 0.32 * r
        return abs(x - cx) <= half
    return False


def pixel(x, y, maskable):
    """The colour (r, g, b, a) at (x, y) in the unit square."""
    scale = 0.82 if maskable else 1.0
    if not maskable and not rounded_rect(x, y, 0.5, 0.5, 0.5, 0.5, 0.18):
        return None
    half_w, half_h = 0.27 * scale, 0.36 * scale
    if rounded_rect(x, y, 0.5, 0.5, half_w, half_h, 0.05 * scale):
        if club(x, y, 0.5, 0.47, 0.2 * scale):
            return FELT_DARK
        return CARD
    return FELT


def draw(size: int, maskable: bool) -> bytes:
    rows = []
    n = SAMPLES * SAMPLES
    for py in range(size):
        row = bytearray([0])  # filter: none
        for px in range(size):
            r = g = b = a = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    colour = pixel((px + (sx + 0.5) / SAMPLES) / size,
                                   (py + (sy + 0.5) / SAMPLES) / size, maskable)
                    if colour is not None:
                        r, g, b, a = r + colour[0], g + colour[1], b + colour[2], a + 1
            if a:
                row += bytes((r // a, g // a, b // a, 255 * a // n))
            else:
                row += b"\0\0\0\0"
        rows.append(bytes(row))
    return png(size, size, b"".join(rows))


def png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


class Command(BaseCommand):
    help = "Draw the app's icons into static/img/app/."

    def handle(self, *args, **options):
        folder = Path(settings.BASE_DIR) / "static" / "img" / "app"
        folder.mkdir(parents=True, exist_ok=True)
        for size in (192, 512):
            for maskable, name in ((False, "icon"), (True, "maskable")):
                path = folder / f"{name}-{size}.png"
                path.write_bytes(draw(size, maskable))
                self.stdout.write(f"wrote {path.relative_to(settings.BASE_DIR)}")
