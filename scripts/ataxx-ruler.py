#!/usr/bin/env python3
"""A fixed-node ruler for Ataxx evaluations and search settings against a reference engine:
several blocks of games, each block its own seed (its own openings) and its own node count.

  scripts/ataxx-ruler.py --a 'CMD' --b 'CMD' --dir DIR [--options-a 'Name=value'] [--scale 0.7]
      [--seeds 905,906,907,908,909,910] [--nodes 50000,56000,62000,68000,74000,80000]
      [--ratio 1.7] [--games 100] [--concurrency 2] [--base BASEDIR]

Block i plays `--games` games of scripts/ataxx-match.py from seed `seeds[i]`, engine A at
`nodes[i] * scale` nodes a move and engine B at `nodes[i] / ratio`, and writes DIR/SEED-NODES.txt
(and .games). A block whose file already holds a finished match is not played again, so a run can
be stopped and started again. Then it prints each block's score and the total with a 95 % error
bar; with `--base BASEDIR` (a ruler run of another engine A with the same blocks) it also compares
the two runs game by game (scripts/ataxx-paired.py).

Why blocks: fixed-node games repeat to the move under any load, which makes paired comparisons
sharp, but it also means that two close networks play many of the same games at one node count,
and a network chosen for its score at one count and on one set of openings is lucky there
(docs/ataxx.md, session 37). Spreading the games over several counts and seeds, and never choosing
a network on the blocks it is then measured on, keeps the ruler fair. `--scale` gives a slower
engine A fewer nodes (say 0.7 for a network that runs at 0.7 of the base's speed) while engine B's
counts stay the same, so its games stay comparable.

Engine B (say Zataxx) is built by whoever runs this script; it is never part of the build.
"""

import argparse
import math
import os
import re
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DONE = re.compile(r': ([0-9.]+)/(\d+) = [0-9.]+ %')


def finished(path):
    """(score, games) of a finished ataxx-match.py output, or None."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        for line in f:
            m = DONE.search(line)
            if m and line.startswith('A '):
                return float(m.group(1)), int(m.group(2))
    return None


def interval(score, n):
    """Score share and the half-width of its 95 % normal interval."""
    p = score / n
    return p, 1.96 * math.sqrt(max(p * (1 - p), 0.25 / n) / n)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--a', required=True, help='command of engine A (the one measured)')
    ap.add_argument('--b', required=True, help='command of engine B (the reference)')
    ap.add_argument('--options-a', default='', help="A's options, 'Name=value;Name=value'")
    ap.add_argument('--dir', required=True, help='directory for the blocks')
    ap.add_argument('--seeds', default='905,906,907,908,909,910')
    ap.add_argument('--nodes', default='50000,56000,62000,68000,74000,80000')
    ap.add_argument('--ratio', type=float, default=1.7, help="A's nodes over B's (default 1.7)")
    ap.add_argument('--scale', type=float, default=1.0, help="multiplies A's nodes only")
    ap.add_argument('--games', type=int, default=100, help='games a block (even)')
    ap.add_argument('--concurrency', type=int, default=2)
    ap.add_argument('--base', default=None, help='a ruler directory of another engine A to compare with')
    args = ap.parse_args()

    seeds = [int(s) for s in args.seeds.split(',')]
    nodes = [int(n) for n in args.nodes.split(',')]
    if len(seeds) != len(nodes):
        sys.exit(f'--seeds has {len(seeds)} entries and --nodes {len(nodes)}: give one count a seed')
    if args.games < 2 or args.games % 2:
        sys.exit('--games must be even (each opening is played with both colours)')
    os.makedirs(args.dir, exist_ok=True)

    blocks = []
    for seed, n in zip(seeds, nodes):
        name = f'{seed}-{n}'
        out = os.path.join(args.dir, name + '.txt')
        if finished(out) is None:
            cmd = [sys.executable, os.path.join(HERE, 'ataxx-match.py'), '--a', args.a, '--b', args.b,
                   '--go-a', f'nodes {round(n * args.scale)}', '--go-b', f'nodes {round(n / args.ratio)}',
                   '--games', str(args.games), '--concurrency', str(args.concurrency),
                   '--seed', str(seed), '--out', os.path.join(args.dir, name + '.games')]
            if args.options_a:
                cmd += ['--options-a', args.options_a]
            print(f'block {name}: playing {args.games} games', flush=True)
            with open(out, 'w') as f:
                child = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT)
                # Stopped (SIGTERM or Ctrl-C): the match is stopped too, so that it closes its
                # engines, and the unfinished block is played again on the next run.
                stopped = []
                def stop(*_):
                    stopped.append(True)
                    child.terminate()
                signal.signal(signal.SIGTERM, stop)
                signal.signal(signal.SIGINT, stop)
                rc = child.wait()
            if stopped:
                sys.exit(f'block {name}: stopped; run again to play it')
            if rc != 0 or finished(out) is None:
                sys.exit(f'block {name}: the match failed (exit {rc}); see {out}')
        blocks.append((name, out))

    total, games = 0.0, 0
    for name, out in blocks:
        s, n = finished(out)
        p, h = interval(s, n)
        print(f'block {name}: {s:g}/{n} = {100 * p:.1f} % +- {100 * h:.1f}')
        total, games = total + s, games + n
    p, h = interval(total, games)
    print(f'together: {total:g}/{games} = {100 * p:.1f} % +- {100 * h:.1f} (95 %)')

    if args.base:
        pairs = []
        for name, out in blocks:
            base = os.path.join(args.base, name + '.txt')
            if finished(base) is None:
                sys.exit(f'{base} is not a finished block: the base run must have the same blocks')
            pairs += [base, out]
        sys.stdout.flush()
        sys.exit(subprocess.call([sys.executable, os.path.join(HERE, 'ataxx-paired.py')] + pairs))


if __name__ == '__main__':
    main()
