"""The results chart: per benchmark (and size), one bar per configuration, its median time divided
by the best single native device's (lower is better; the line at 1.0 is that device).

Linear axis up to Y_MAX; a taller bar is cut at the top, marked with a white notch and its value
written vertically inside it. A configuration that did not pass gets a red '!' instead of a bar,
one that is n/a gets nothing.
"""

from .raster import Canvas
from .font import HEIGHT as GLYPH_H

Y_MAX = 2.0
PLOT_H = 320
BAR_W = 9
GROUP_GAP = 18
LEFT, RIGHT, TOP = 70, 30, 56

WHITE, BLACK = (255, 255, 255), (0, 0, 0)
GRID, AXIS, RED = (225, 225, 225), (60, 60, 60), (200, 0, 0)

FIXED_COLOURS = {
    "native-gpu": (44, 160, 44),
    "native-cpu": (31, 119, 180),
    "hetero-gpu": (152, 223, 138),
    "hetero-cpu": (158, 190, 230),
    "hetero": (214, 39, 40),
    "hetero-discrete": (148, 103, 189),
    "hetero-unified": (23, 190, 207),
}


def colour_of(config):
    if config.name in FIXED_COLOURS:
        return FIXED_COLOURS[config.name]
    if config.is_static:  # light orange (share 0) to dark brown (share 1)
        light, dark = (253, 208, 162), (127, 39, 4)
        return tuple(int(round(a + (b - a) * config.share)) for a, b in zip(light, dark))
    return (128, 128, 128)


def normalised(summaries, case, configs, metric):
    """{config name: time / reference} for the passing configurations of one case, and the
    reference's name. Reference: the best passing native device, else the fastest passing
    configuration."""
    benchmark, size = case
    times = {}
    for c in configs:
        s = summaries.get((benchmark, size, c.name))
        if s is not None and s.time(metric):
            times[c.name] = s.time(metric)
    natives = [times[n] for n in ("native-gpu", "native-cpu") if n in times]
    if natives:
        reference, label = min(natives), "best native device"
    elif times:
        reference, label = min(times.values()), "fastest configuration"
    else:
        return {}, None
    return {name: t / reference for name, t in times.items()}, label


def render(summaries, cases, configs, metric="kernel_ms", title=None):
    """Returns (canvas, bars): bars lists dicts {case, config, x0, x1, y0, y1, colour, value,
    clipped} for every bar drawn, so callers (the self-test) can check pixels."""
    multi_size = len({size for _, size in cases}) > 1
    labels = ["%s %s" % (b, s) if multi_size else b for b, s in cases]
    group_w = len(configs) * BAR_W + GROUP_GAP
    label_h = max([Canvas.text_width(label) for label in labels] + [40]) + 16
    width = max(LEFT + len(cases) * group_w + RIGHT, 760)
    legend_cols = max(1, (width - LEFT - RIGHT) // 150)
    legend_rows = (len(configs) + legend_cols - 1) // legend_cols
    height = TOP + PLOT_H + label_h + 20 + legend_rows * 16 + 10
    canvas = Canvas(width, height)
    base = TOP + PLOT_H  # y of value 0

    def y_of(value):
        return base - int(round(min(value, Y_MAX) / Y_MAX * PLOT_H))

    # Title and axis.
    canvas.text(LEFT, 10, title or "%s / best native device (lower is better)" % (
        "kernel time" if metric == "kernel_ms" else "total time"), BLACK, 2)
    step = 0.25
    tick = 0.0
    while tick <= Y_MAX + 1e-9:
        y = y_of(tick)
        canvas.hline(LEFT, width - RIGHT, y, AXIS if abs(tick - 1.0) < 1e-9 else GRID,
                     2 if abs(tick - 1.0) < 1e-9 else 1)
        text = "%.2f" % tick
        canvas.text(LEFT - 8 - Canvas.text_width(text), y - GLYPH_H // 2, text, AXIS)
        tick += step
    canvas.vline(LEFT - 1, TOP, base + 1, AXIS)

    bars = []
    for index, case in enumerate(cases):
        values, _ = normalised(summaries, case, configs, metric)
        x = LEFT + index * group_w + GROUP_GAP // 2
        for c in configs:
            s = summaries.get((case[0], case[1], c.name))
            if c.name in values:
                value = values[c.name]
                top = y_of(value)
                colour = colour_of(c)
                canvas.fill_rect(x, top, x + BAR_W - 1, base, colour)
                clipped = value > Y_MAX
                if clipped:
                    canvas.hline(x, x + BAR_W - 1, top + 6, WHITE, 2)
                    text = ("%.3g" % value)[:6]
                    canvas.text_vertical(x + 1, top + 8 + Canvas.text_width(text), text, WHITE)
                bars.append({"case": case, "config": c.name, "x0": x, "x1": x + BAR_W - 1,
                             "y0": top, "y1": base, "colour": colour, "value": value,
                             "clipped": clipped})
            elif s is not None and s.status not in ("n/a", "PASS"):
                canvas.text(x + 2, base - GLYPH_H - 2, "!", RED)
            x += BAR_W
        label = labels[index]
        canvas.text_vertical(LEFT + index * group_w + group_w // 2 - GLYPH_H // 2,
                             base + 8 + Canvas.text_width(label), label, BLACK)

    # The reference line again, over the bars.
    canvas.hline(LEFT, width - RIGHT, y_of(1.0), AXIS)

    # Legend.
    legend_top = base + label_h + 12
    for i, c in enumerate(configs):
        col, row = i % legend_cols, i // legend_cols
        lx, ly = LEFT + col * 150, legend_top + row * 16
        canvas.fill_rect(lx, ly, lx + 10, ly + 10, colour_of(c))
        canvas.text(lx + 14, ly + 2, c.name, BLACK)
    return canvas, bars
