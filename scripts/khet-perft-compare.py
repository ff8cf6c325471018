#!/usr/bin/env python3
"""Hand-run: cross-checks Plyscope's Khet rules against Khet2-AI, an independent implementation.

Khet2-AI (https://github.com/AlexKent3141/Khet2-AI) is built from its source tree by this script
with g++ (khet2ai.py; no CMake needed), outside the repository. It has no Eye of Horus, so only the
three base setups are compared. The one rule that differs: Khet2-AI lets a Scarab swap with an
enemy piece even when that piece lands on a square reserved for the Scarab's colour; Plyscope
forbids it (docs/khet.md). The driver marks those swaps, so the comparison is exact:

1. perft of each base setup to --depth with Khet2-AI's generator, with those swaps dropped (must
   equal Plyscope's counts in tests/data/khet.perft) and with them kept (the difference is shown,
   and when it is small, every line of moves that ends with such a swap);
2. on --positions random positions per setup (random games from the start), every legal move of
   each engine and the board after it (shot included) must match, except the marked swaps, which
   must all be absent from Plyscope's list; and perft at depth 2 must match (filtered).

  scripts/khet-perft-compare.py --khet2ai /path/to/Khet2-AI [--depth 4] [--positions 10]

Exits 1 on any difference.
"""

import argparse
import json
import os
import random
import subprocess
import sys

import khet2ai as k

# Positions made to show the one difference: a Scarab on a square reserved for its colour next to
# an enemy piece (Silver's on j5 beside a red Pyramid; Red's on a4 beside a silver Pyramid).
CRAFTED = [
    ('khet', 'xs9/10/4k5/8pneSse/10/10/4K5/9Xn s 0 1 khet'),
    ('khet', 'xs9/10/4k5/10/ssePnw8/10/4K5/9Xn r 0 1 khet'),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--khet2ai', required=True, help="Khet2-AI's source tree")
    ap.add_argument('--depth', type=int, default=4)
    ap.add_argument('--positions', type=int, default=10)
    ap.add_argument('--plies', type=int, default=60, help='length of each random game')
    ap.add_argument('--seed', type=int, default=1)
    a = ap.parse_args()
    k.ensure_plyscope()
    _, driver = k.build(a.khet2ai)
    drv = subprocess.Popen([driver], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(line, until_end=False):
        drv.stdin.write(line + '\n')
        drv.stdin.flush()
        out = []
        while True:
            r = drv.stdout.readline()
            if r == '':
                raise RuntimeError('the driver closed its output')
            r = r.rstrip('\n')
            if r.startswith('error'):
                raise RuntimeError(f'driver: {r} (for {line})')
            if not until_end:
                return r
            if r == 'end':
                return out
            out.append(r)

    failures = 0
    expected = {}
    with open(os.path.join(k.ROOT, 'tests', 'data', 'khet.perft')) as f:
        for line in f:
            if line.startswith('#') or ';' not in line:
                continue
            gid, counts = line.split(';')
            expected[gid.strip()] = [int(c) for c in counts.split()]

    print(f'perft, Khet2-AI against Plyscope (tests/data/khet.perft), depths 1 to {a.depth}')
    for gid in k.SETUPS:
        start = k.state(gid)['position']
        for d in range(1, a.depth + 1):
            filt = int(ask(f'perft {d} 1 | {start}'))
            full = int(ask(f'perft {d} 0 | {start}'))
            ours = expected[gid][d - 1] if d <= len(expected[gid]) else None
            if ours is None:
                out = subprocess.run([k.PLYSCOPE, 'perft', gid, str(d), '--json'], capture_output=True,
                                     text=True, check=True).stdout
                ours = [json.loads(l)['nodes'] for l in out.splitlines() if json.loads(l).get('depth') == d][0]
            ok = filt == ours
            failures += not ok
            print(f'  {gid:13} depth {d}: plyscope {ours:>11,}  khet2ai (same swap rule) {filt:>11,}'
                  f'  {"equal" if ok else "DIFFERENT"};  khet2ai (its own swap rule) {full:>11,} (+{full - filt:,})')
            if full != filt and full - filt <= 50:
                lines = ask(f'badswaps {d} | {start}', until_end=True)
                print(f'    the lines that end with a swap we forbid ({len(lines)}):')
                for line in lines:
                    print(f'      {line}')

    rng = random.Random(a.seed)
    compared = moves_total = swaps_dropped = 0
    print(f'\nmove by move: {len(CRAFTED)} crafted positions and {a.positions} random positions per setup, every legal move and the board after it')
    def positions():
        for gid, text in CRAFTED:
            yield gid, [], k.state(gid, position=text)
        for gid in k.SETUPS:
            picked = 0
            while picked < a.positions:
                moves = []
                st = k.state(gid)
                stop_at = rng.randrange(1, a.plies)
                while len(moves) < stop_at and st['legal'] and not st['outcome']:
                    moves.append(rng.choice(st['legal']))
                    st = k.state(gid, moves)
                if st['outcome']:
                    continue
                picked += 1
                yield gid, moves, st

    for gid, moves, st in positions():
        pos = st['position']
        theirs = {}
        bad = set()
        for row in ask(f'children | {pos}', until_end=True):
            parts = row.split()
            theirs[parts[0]] = ' '.join(parts[1:3])
            if len(parts) > 3 and parts[3] == 'swapbad':
                bad.add(parts[0])
        ours = {}
        for m in st['legal']:
            ours[m] = k.board_and_side(k.state(gid, [m], position=pos)['position'])
        wanted = {m: b for m, b in theirs.items() if m not in bad}
        compared += 1
        moves_total += len(ours)
        swaps_dropped += len(bad)
        problems = []
        for m in sorted(set(ours) | set(wanted)):
            if m not in ours:
                problems.append(f'{m} only in Khet2-AI')
            elif m not in wanted:
                problems.append(f'{m} only in Plyscope' + (' (marked swap)' if m in bad else ''))
            elif ours[m] != wanted[m]:
                problems.append(f'{m}: plyscope {ours[m]} / khet2ai {wanted[m]}')
        d2_theirs = int(ask(f'perft 2 1 | {pos}'))
        out = subprocess.run([k.PLYSCOPE, 'perft', gid, '2', '--position', pos, '--json'],
                             capture_output=True, text=True, check=True).stdout
        d2_ours = [json.loads(l)['nodes'] for l in out.splitlines() if json.loads(l).get('depth') == 2][0]
        if d2_ours != d2_theirs:
            problems.append(f'perft 2: plyscope {d2_ours} / khet2ai {d2_theirs}')
        if problems:
            failures += 1
            print(f'  DIFF at {pos} (after {" ".join(moves)}):')
            for p in problems[:10]:
                print(f'    {p}')
        if bad:
            print(f'  {pos}: Khet2-AI also allows {" ".join(sorted(bad))} '
                  f'(swapped piece onto a square reserved against it)')
    print(f'\npositions compared: {compared}, legal moves compared: {moves_total}, '
          f'Khet2-AI swaps Plyscope forbids: {swaps_dropped}; failures: {failures}')
    drv.stdin.close()
    drv.wait()
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
