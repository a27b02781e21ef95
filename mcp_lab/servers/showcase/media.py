"""The showcase's sample media, made at import time with the standard library.

A 1x1 PNG and a short silent WAV are enough for a client to see an image block and an audio
block on the wire; building them here (instead of pasting base64 blobs) shows what the bytes are.
"""

from __future__ import annotations

import base64
import io
import struct
import wave
import zlib

__all__ = ["PNG_BASE64", "PNG_BYTES", "WAV_BASE64", "WAV_BYTES"]


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def one_pixel_png(rgba: tuple[int, int, int, int] = (220, 40, 40, 255)) -> bytes:
    """A valid 1x1 RGBA PNG of one colour (signature, IHDR, IDAT, IEND)."""
    header = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)  # width, height, 8-bit depth, RGBA
    scanline = b"\x00" + bytes(rgba)  # filter type 0, then the pixel
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", zlib.compress(scanline))
        + _png_chunk(b"IEND", b"")
    )


def silent_wav(frames: int = 8, rate: int = 8000) -> bytes:
    """A mono 16-bit PCM WAV holding `frames` samples of silence."""
    buf = io.BytesIO()
    with wave.open(buf, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(b"\x00\x00" * frames)
    return buf.getvalue()


PNG_BYTES = one_pixel_png()
PNG_BASE64 = base64.b64encode(PNG_BYTES).decode("ascii")
WAV_BYTES = silent_wav()
WAV_BASE64 = base64.b64encode(WAV_BYTES).decode("ascii")
