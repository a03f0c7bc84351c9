"""PNG encoding and decoding of 8-bit RGB images, on zlib and struct only.

The decoder reads back exactly what the encoder writes (filter type 0, one IDAT or several);
the self-test uses it to prove the chart is a well-formed PNG with the expected pixels.
"""

import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def encode_rgb(width, height, pixels):
    """pixels: bytes/bytearray of width*height*3 (row-major RGB). Returns the PNG file's bytes."""
    if len(pixels) != width * height * 3:
        raise ValueError("pixel buffer has %d bytes, expected %d" % (len(pixels), width * height * 3))
    stride = width * 3
    raw = bytearray()
    for y in range(height):
        raw.append(0)  # filter type 0 (None) for every row
        raw += pixels[y * stride:(y + 1) * stride]
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit, colour type 2 (RGB)
    return (SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + _chunk(b"IEND", b""))


def decode_rgb(data):
    """Decodes an 8-bit RGB, non-interlaced PNG whose rows use filter type 0.

    Returns (width, height, pixels). Raises ValueError on anything malformed: bad signature,
    a chunk whose CRC does not match, missing IHDR/IDAT/IEND, or image data of the wrong size.
    """
    if not data.startswith(SIGNATURE):
        raise ValueError("not a PNG signature")
    pos = len(SIGNATURE)
    width = height = None
    idat = bytearray()
    seen_end = False
    while pos < len(data):
        if pos + 8 > len(data):
            raise ValueError("truncated chunk header")
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 4:pos + 8 + length]
        if pos + 12 + length > len(data):
            raise ValueError("truncated chunk %r" % kind)
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(body) & 0xFFFFFFFF != crc:
            raise ValueError("CRC mismatch in chunk %r" % kind)
        payload = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", payload)
            if depth != 8 or colour != 2 or interlace != 0:
                raise ValueError("only 8-bit non-interlaced RGB is supported")
        elif kind == b"IDAT":
            idat += payload
        elif kind == b"IEND":
            seen_end = True
            pos += 12 + length
            break
        pos += 12 + length
    if width is None or not idat or not seen_end:
        raise ValueError("missing IHDR, IDAT or IEND")
    if pos != len(data):
        raise ValueError("bytes after IEND")
    raw = zlib.decompress(bytes(idat))
    stride = width * 3
    if len(raw) != height * (stride + 1):
        raise ValueError("image data has %d bytes, expected %d" % (len(raw), height * (stride + 1)))
    pixels = bytearray()
    for y in range(height):
        row = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        if row[0] != 0:
            raise ValueError("row %d uses filter type %d" % (y, row[0]))
        pixels += row[1:]
    return width, height, bytes(pixels)
