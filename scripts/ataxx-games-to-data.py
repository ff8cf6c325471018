#!/usr/bin/env python3
"""The games of scripts/ataxx-match.py runs as a `datagen-ataxx` data file, to measure how well an
`nnue` network predicts the results of games it did not play (docs/ataxx.md, "Session 28"):

  scripts/ataxx-games-to-data.py games.bin run1.txt run2.txt ...
  plyscope train-ataxx --model nnue --data games.bin --report a.bin,b.bin --wdl 1

Every position before a move (not before a pass) of every game played from the start position is
written with the game's result for the side to move; the search's value, which a match does not
keep, is written as 0, so report with `--wdl 1` (the result alone). Games from a wall layout, and
lines that do not read as a game, are skipped and counted.
"""

import argparse
import importlib.util
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location('ataxx_match', os.path.join(HERE, 'ataxx-match.py'))
match = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(match)

MAGIC = b'PLYATXG1'
GAME = re.compile(r'game \d+: A plays (x|o); A scores ([01](?:\.5|\.0)?) \(.*?\); '
                  r'opening (.*?); moves (.*)$')


def records(line):
    """The records of one game line of a match's output, or None when it is not one."""
    m = GAME.match(line.strip())
    if not m:
        return None
    a_side, a_score = m.group(1), float(m.group(2))
    x_score = a_score if a_side == 'x' else 1.0 - a_score
    board = match.Board()
    out = []
    for mv in (m.group(3) + ' ' + m.group(4)).split():
        side = board.turn
        if mv != '0000':
            me = sum(1 << i for i, c in enumerate(board.cells) if c == side)
            them = sum(1 << i for i, c in enumerate(board.cells) if c not in (side, '.', '-'))
            result = x_score if side == 'x' else 1.0 - x_score
            out.append(struct.pack('<QQQhBB', me, them, 0, 0, round(result * 2), min(len(out), 255)))
        board.play(mv)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('out', help='the data file to write')
    ap.add_argument('runs', nargs='+', help="scripts/ataxx-match.py outputs (its --out files)")
    args = ap.parse_args()
    games = positions = skipped = 0
    body = []
    for path in args.runs:
        try:
            lines = open(path, encoding='utf-8').read().splitlines()
        except OSError as e:
            sys.exit(f'{path}: {e}')
        start = 'start \'x5o/7/7/7/7/7/o5x x 0 1\''
        if any(l.startswith('#') and 'start ' in l and start not in l for l in lines[:3]):
            print(f'{path}: not from the start position, skipped', file=sys.stderr)
            continue
        for n, line in enumerate(lines, 1):
            if not line.startswith('game '):
                continue
            try:
                recs = records(line)
            except ValueError as e:
                print(f'{path}:{n}: {e}; game skipped', file=sys.stderr)
                recs = None
            if recs is None:
                skipped += 1
                continue
            body.extend(recs)
            games += 1
            positions += len(recs)
    with open(args.out, 'wb') as f:
        f.write(MAGIC)
        f.write(b''.join(body))
    print(f'{args.out}: {games} games, {positions} positions ({skipped} lines skipped)')


if __name__ == '__main__':
    main()
