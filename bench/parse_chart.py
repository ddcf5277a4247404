#!/usr/bin/env python3
"""Draw bench_parse's MB/s per parser and per corpus as a grouped bar chart (SVG).

    bench_parse --tsv results.tsv
    python3 bench/parse_chart.py results.tsv bench/parse_chart.svg

The bars use a log scale: the parsers differ by two orders of magnitude.
Python 3 standard library only.
"""
import csv
import math
import sys

PARSERS = ["main", "main-stream", "split", "regex"]
COLORS = {"main": "#1f77b4", "main-stream": "#6baed6", "split": "#ff7f0e",
          "regex": "#d62728"}


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    rows = list(csv.DictReader(open(argv[1], newline=""), delimiter="\t"))
    rows = [r for r in rows if r["parser"] in PARSERS]
    corpora = []
    for r in rows:
        if r["corpus"] not in corpora:
            corpora.append(r["corpus"])
    val = {(r["corpus"], r["parser"]): float(r["mb_s"]) for r in rows}
    top = max(val.values())
    lo, hi = 0, math.ceil(math.log10(top))            # 1 MB/s .. 10^hi MB/s
    W, H, left, bottom, topm = 860, 420, 70, 60, 50
    plot_w, plot_h = W - left - 20, H - bottom - topm
    group_w = plot_w / len(corpora)
    bar_w = group_w * 0.8 / len(PARSERS)

    def y(v):
        v = max(v, 10 ** lo)
        return topm + plot_h * (1 - (math.log10(v) - lo) / (hi - lo))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="22" text-anchor="middle" font-size="15">'
           'bench_parse: MB/s per parser and corpus (single thread, log scale)</text>']
    for e in range(lo, hi + 1):
        yy = y(10 ** e)
        out.append(f'<line x1="{left}" x2="{W - 20}" y1="{yy:.1f}" y2="{yy:.1f}" '
                   'stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{yy + 4:.1f}" text-anchor="end">'
                   f'{10 ** e:g}</text>')
    out.append(f'<text x="16" y="{topm + plot_h / 2}" transform="rotate(-90 16 '
               f'{topm + plot_h / 2})" text-anchor="middle">MB/s</text>')
    for gi, c in enumerate(corpora):
        gx = left + gi * group_w + group_w * 0.1
        for pi, p in enumerate(PARSERS):
            if (c, p) not in val:
                continue
            v = val[(c, p)]
            x = gx + pi * bar_w
            yy = y(v)
            out.append(f'<rect x="{x:.1f}" y="{yy:.1f}" width="{bar_w - 2:.1f}" '
                       f'height="{topm + plot_h - yy:.1f}" fill="{COLORS[p]}"/>')
            out.append(f'<text x="{x + bar_w / 2 - 1:.1f}" y="{yy - 4:.1f}" '
                       f'text-anchor="middle" font-size="10">{v:.0f}</text>')
        out.append(f'<text x="{left + gi * group_w + group_w / 2:.1f}" '
                   f'y="{topm + plot_h + 18}" text-anchor="middle">{esc(c)}</text>')
    lx = left
    for p in PARSERS:
        out.append(f'<rect x="{lx}" y="{H - 22}" width="12" height="12" '
                   f'fill="{COLORS[p]}"/>')
        out.append(f'<text x="{lx + 16}" y="{H - 12}">{p}</text>')
        lx += 130
    out.append('</svg>')
    with open(argv[2], "w") as f:
        f.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
