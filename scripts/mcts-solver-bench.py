#!/usr/bin/env python3
"""Iterations MCTS needs to find a forced win, with and without the solver (hand-run benchmark).

With the solver: the iterations until the root is proven (the search then stops), for seeds 1-5.
Without: the smallest budget in 8, 16, 32, ... 65,536 iterations at which every seed plays a
winning move (winning moves come from alpha-beta searched to the end). Counts, not times: the
figures do not depend on the machine. Run from the repository after `cargo build --release`.
"""
import json, subprocess, sys

BIN = './target/release/plyscope'
POSITIONS = [
    ('tictactoe', ['--position', 'XO--X---O X']),
    ('tictactoe', ['--position', 'XO------- X']),
    ('tictactoe', ['--position', 'X-------O X']),
    ('connect4', ['--moves', '4 4 3 3']),
]
SEEDS = range(1, 6)
# Alpha-beta's depth for the exact values (tic-tac-toe: to the end; Connect Four: the win is
# found well within it).
DEPTH = {'tictactoe': '9', 'connect4': '12'}


def run(game, pos, *extra):
    out = subprocess.run([BIN, 'search', game, *pos, *extra, '--json'], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main():
    rows = []
    for game, pos in POSITIONS:
        # Exact values of every move: alpha-beta to the end, each move searched on its own.
        r = run(game, pos, '--algo', 'alphabeta', '--depth', DEPTH[game])
        wins = set()
        for m in r['root_moves']:
            child = list(pos)
            if child[0] == '--moves':
                child[1] = child[1] + ' ' + m['move']
            else:
                child += ['--moves', m['move']]
            c = run(game, child, '--algo', 'alphabeta', '--depth', DEPTH[game])
            # The opponent, to move, loses by force (decided values are beyond 10^5).
            if c['value'] < -1e5:
                wins.add(m['move'])
        proven = []
        for s in SEEDS:
            x = run(game, pos, '--algo', 'mcts', '--iterations', '1000000', '--seed', str(s))
            ok = x['root_moves'][0]['exact'] and x['move'] in wins
            proven.append(x['stats']['leaves'] if ok else None)
        budget = None
        b = 8
        while b <= 65536 and budget is None:
            if all(run(game, pos, '--algo', 'mcts', '--no-solver', '--iterations', str(b), '--seed', str(s))['move'] in wins for s in SEEDS):
                budget = b
            b *= 2
        rows.append((game, ' '.join(pos[1:]), sorted(wins), proven, budget))
        print(rows[-1], flush=True)
    print()
    print('| game | position | winning moves | solver: iterations to prove (seeds 1-5) | no solver: budget at which all 5 seeds play a win |')
    print('| --- | --- | --- | --- | ---: |')
    for game, pos, wins, proven, budget in rows:
        print(f"| {game} | `{pos}` | {', '.join(wins)} | {', '.join('-' if p is None else str(p) for p in proven)} | {budget if budget else '> 65,536'} |")


if __name__ == '__main__':
    sys.exit(main())
