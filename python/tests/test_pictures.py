"""Pictures: PNGs that decode (signature, IHDR, inflated scanlines), shown by Jupyter
through `_repr_png_` and written by `.save`."""

import struct
import zlib

import pytest

import sicher

CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def decode(png):
    """Width, height and raw scanlines of a PNG, checking every chunk's CRC."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, []
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind = png[at + 4 : at + 8]
        data = png[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", png[at + 8 + length : at + 12 + length])
        assert zlib.crc32(kind + data) == crc, kind
        chunks.append((kind, data))
        at += 12 + length
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND"
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert interlace == 0
    raw = zlib.decompress(b"".join(d for k, d in chunks if k == b"IDAT"))
    row = 1 + (width * CHANNELS[colour] * depth + 7) // 8
    assert len(raw) == height * row
    return width, height, unfilter(raw, row - 1, max(1, CHANNELS[colour] * depth // 8))


def unfilter(raw, stride, bpp):
    """The pixel rows of filtered scanlines (filters 0 to 4)."""
    rows, previous = [], bytearray(stride)
    for at in range(0, len(raw), stride + 1):
        kind, line = raw[at], bytearray(raw[at + 1 : at + 1 + stride])
        assert kind <= 4
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = previous[i]
            c = previous[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return rows


def test_picture_decodes_and_shows_the_map(tmp_path):
    game = sicher.Game("wythoff")
    picture = game.picture(40)
    png = picture._repr_png_()
    width, height, rows = decode(png)
    assert (width, height) == (picture.width, picture.height) == (41, 41)
    assert picture.png == png
    # Pixel (x, y) is the position (x, y): unsafe black, safe white (Wythoff's unsafe
    # pairs are (0, 0), (1, 2), (3, 5), (4, 7), ...).
    unsafe = {(0, 0), (1, 2), (2, 1), (3, 5), (5, 3), (4, 7), (7, 4)}
    for y in range(8):
        for x in range(8):
            pixel = rows[y][3 * x : 3 * x + 3]
            assert pixel == (b"\x00\x00\x00" if (x, y) in unsafe else b"\xff\xff\xff"), (x, y)
    path = tmp_path / "w.png"
    picture.save(path)
    assert path.read_bytes() == png
    with pytest.raises(FileExistsError):
        picture.save(path)
    picture.save(path, overwrite=True)
    assert "wythoff" in repr(picture)


def test_picture_options():
    plain = sicher.Game("kayles", misere=True).picture(20, scale=3)
    assert (plain.width, plain.height) == (63, 63)
    decode(plain.png)
    shaded = sicher.Game("kayles", misere=True).picture(12, remoteness=True, scale=4)
    width, height, _ = decode(shaded.png)
    assert width >= 13 * 4 and height >= 13 * 4


def test_plot_decodes():
    plot = sicher.Game("kayles").plot(200)
    width, height, _ = decode(plot._repr_png_())
    assert (width, height) == (plot.width, plot.height)
    small = sicher.Game("subtraction:1,3,4", misere=True).plot(60, width=400, height=300)
    assert decode(small.png)[:2] == (400, 300)
