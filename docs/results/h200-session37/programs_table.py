"""Markdown table of interleaved program runs: lines "PROGRAM SIZE CONFIG KERNEL_MS", configs
native, held-prev, held-new, default-prev, default-new; ratios to native and new / prev, each the
median difference with its 95 % interval (bench/tools/tool_support.median_difference)."""
import collections, statistics, sys
sys.path.insert(0, "bench/tools")
from tool_support import median_difference

t = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 4:
        t[(f[0] + " " + f[1], f[2])].append(float(f[3]))
configs = ["held-prev", "held-new", "default-prev", "default-new"]


def ratio(a, b):
    m = statistics.median(b)
    low, mid, high = median_difference(a, b)
    return "%.3f (%.3f-%.3f)" % (1 + mid / m, 1 + low / m, 1 + high / m)


print("| program | processes | native ms | " + " | ".join(c + " / native" for c in configs) +
      " | held new / prev | default new / prev |")
print("|---|---:|---:|" + "---|" * (len(configs) + 2))
for prog in dict.fromkeys(k[0] for k in t):
    nat = t[(prog, "native")]
    cells = [ratio(t[(prog, c)], nat) for c in configs]
    cells += [ratio(t[(prog, c + "-new")], t[(prog, c + "-prev")]) for c in ("held", "default")]
    print("| %s | %d | %.3f | %s |" % (prog, len(nat), statistics.median(nat), " | ".join(cells)))
