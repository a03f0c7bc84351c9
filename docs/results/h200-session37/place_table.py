"""Per place.c output file and mode: the median device time of each launch and how many rounds
were slow (over 305 us: the H200's kernel times here fall near 278 or near 330)."""
import os, statistics, sys

for path in sys.argv[1:]:
    rows = [line.split() for line in open(path) if line[:1].isalpha()]
    for mode in dict.fromkeys(r[0] for r in rows):
        times = [[float(x) for x in r[1:] if "." in x] for r in rows if r[0] == mode]
        cells = []
        for i in range(len(times[0])):
            t = [row[i] for row in times]
            cells.append("launch %d: %.1f (%d slow)" % (i + 1, statistics.median(t), sum(x > 305 for x in t)))
        print("%-22s %-13s n=%-3d %s" % (os.path.basename(path), mode, len(times), " | ".join(cells)))
