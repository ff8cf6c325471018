#!/usr/bin/env python3
"""Zataxx's self-play data as a `datagen-ataxx` data file, to learn whether `train-ataxx` makes a
better network from another engine's games than from Plyscope's own (docs/ataxx.md, "Session 39").
A measurement only: no network fitted on a peer's data is shipped.

  scripts/zataxx-datagen-to-data.py out.bin zataxx/data/*.txt [--ratio 0.73]
  plyscope train-ataxx --model nnue --data out.bin ...

Zataxx (built by whoever runs this from its public source; `zataxx datagen` writes
data/NAME.txt) writes a line per position: `FEN | move | score | result`, the score in its own
units and both it and the result (1.0, 0.5, 0.0) for the side `x`. Each line becomes a record for
the side to move: its pieces, the other side's, the walls, the score times `--ratio` (Plyscope's
hundredths of a piece), the result (0 lost, 1 drawn, 2 won) and the ply. Lines that do not read
are skipped and counted.

The ratio puts both engines' scores on one scale: the best S for sigmoid(score / S) as a guess of
the result is about 275 for Zataxx's scores and 200 for Plyscope's (the `scale` of
`train-ataxx`), so 200 / 275 = 0.73. The script prints that best S for the file it wrote, which
should be near 200.
"""

import argparse
import math
import struct
import sys

MAGIC = b'PLYATXG1'
DECIDED = 30000


def record(line, ratio):
    """The record of one line, or None when it does not read."""
    parts = [p.strip() for p in line.split('|')]
    if len(parts) != 4:
        return None
    fen, _move, score, result = parts
    fields = fen.split()
    if len(fields) != 4:
        return None
    rows, side, _clock, full = fields
    ranks = rows.split('/')
    if len(ranks) != 7 or side not in ('x', 'o'):
        return None
    cells = {'x': 0, 'o': 0, '-': 0}
    for i, row in enumerate(ranks):
        rank, file = 6 - i, 0
        for c in row:
            if c.isdigit():
                file += int(c)
                continue
            if c not in cells or file > 6:
                return None
            cells[c] |= 1 << (rank * 7 + file)
            file += 1
        if file != 7:
            return None
    try:
        s, r, full = float(score), float(result), int(full)
    except ValueError:
        return None
    if r not in (0.0, 0.5, 1.0) or not math.isfinite(s) or full < 1:
        return None
    me, them = (cells['x'], cells['o']) if side == 'x' else (cells['o'], cells['x'])
    if side == 'o':
        s, r = -s, 1.0 - r
    value = max(-(DECIDED - 1), min(DECIDED - 1, round(s * ratio)))
    ply = min(255, 2 * (full - 1) + (side == 'o'))
    return struct.pack('<QQQhBB', me, them, cells['-'], value, round(r * 2), ply)


def best_scale(pairs):
    """The S of sigmoid(score / S) with the least squared error against the results."""
    def err(scale):
        return sum((1 / (1 + math.exp(-s / scale)) - r) ** 2 for s, r in pairs) / len(pairs)
    return min((err(s), s) for s in range(50, 1001, 25))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('out', help='the data file to write')
    ap.add_argument('inputs', nargs='+', help="Zataxx's datagen files (data/*.txt)")
    ap.add_argument('--ratio', type=float, default=0.73,
                    help="Plyscope's hundredths of a piece per unit of Zataxx's score")
    args = ap.parse_args()
    written = skipped = 0
    sample = []
    with open(args.out, 'wb') as f:
        f.write(MAGIC)
        for path in args.inputs:
            with open(path, encoding='utf-8', errors='replace') as lines:
                for line in lines:
                    rec = record(line, args.ratio)
                    if rec is None:
                        skipped += 1
                        continue
                    f.write(rec)
                    written += 1
                    if written % 50 == 0:
                        value, result = struct.unpack_from('<hB', rec, 24)
                        sample.append((value, result / 2))
    print(f'{written} positions written, {skipped} lines skipped', file=sys.stderr)
    if sample:
        e, s = best_scale(sample)
        print(f'best S for sigmoid(score / S) against the result: {s} (error {e:.5f}, '
              f'{len(sample)} positions sampled)', file=sys.stderr)


if __name__ == '__main__':
    main()
