"""A tiny RGB canvas: filled rectangles, lines and bitmap text; saved through png.py."""

from . import font, png


class Canvas:
    def __init__(self, width, height, background=(255, 255, 255)):
        self.width = width
        self.height = height
        self.pixels = bytearray(bytes(background) * (width * height))

    def fill_rect(self, x0, y0, x1, y1, colour):
        """Fills [x0, x1) x [y0, y1), clipped to the canvas."""
        x0, x1 = max(0, int(x0)), min(self.width, int(x1))
        y0, y1 = max(0, int(y0)), min(self.height, int(y1))
        if x0 >= x1 or y0 >= y1:
            return
        row = bytes(colour) * (x1 - x0)
        for y in range(y0, y1):
            start = (y * self.width + x0) * 3
            self.pixels[start:start + len(row)] = row

    def hline(self, x0, x1, y, colour, thickness=1):
        self.fill_rect(x0, y, x1, y + thickness, colour)

    def vline(self, x, y0, y1, colour, thickness=1):
        self.fill_rect(x, y0, x + thickness, y1, colour)

    def rect_outline(self, x0, y0, x1, y1, colour):
        self.hline(x0, x1, y0, colour)
        self.hline(x0, x1, y1 - 1, colour)
        self.vline(x0, y0, y1, colour)
        self.vline(x1 - 1, y0, y1, colour)

    def pixel(self, x, y):
        i = (y * self.width + x) * 3
        return tuple(self.pixels[i:i + 3])

    @staticmethod
    def text_width(text, scale=1):
        return len(text) * (font.WIDTH + 1) * scale

    def text(self, x, y, text, colour=(0, 0, 0), scale=1):
        """Draws text with its top-left corner at (x, y)."""
        for index, char in enumerate(text):
            rows = font.glyph(char)
            left = x + index * (font.WIDTH + 1) * scale
            for row_index, row in enumerate(rows):
                for col_index, cell in enumerate(row):
                    if cell == "#":
                        self.fill_rect(left + col_index * scale, y + row_index * scale,
                                       left + (col_index + 1) * scale, y + (row_index + 1) * scale,
                                       colour)

    def text_vertical(self, x, y, text, colour=(0, 0, 0), scale=1):
        """Draws text rotated 90 degrees counter-clockwise, reading bottom to top, starting at (x, y)
        (its bottom-left corner)."""
        for index, char in enumerate(text):
            rows = font.glyph(char)
            bottom = y - index * (font.WIDTH + 1) * scale
            for row_index, row in enumerate(rows):
                for col_index, cell in enumerate(row):
                    if cell == "#":
                        px = x + row_index * scale
                        py = bottom - (col_index + 1) * scale
                        self.fill_rect(px, py, px + scale, py + scale, colour)

    def png_bytes(self):
        return png.encode_rgb(self.width, self.height, self.pixels)

    def save(self, path):
        with open(path, "wb") as out:
            out.write(self.png_bytes())
