#!/usr/bin/env python3
"""Hand-run match: Plyscope against Khet2-AI at Khet 2.0, with Plyscope's rules as the arbiter.

Khet2-AI (https://github.com/AlexKent3141/Khet2-AI) is compiled from its source tree with g++ by
khet2ai.py (no CMake needed), outside the repository; it is never a build or test dependency.

Both engines get the same wall-clock time a move: `--time-ms T` for `plyscope search` (a new
process a move, so Plyscope keeps no table between moves, while Khet2-AI does), and for Khet2-AI a
`go movetime` scaled so that its wall time a move is T too (its movetime counts CPU time, less than
wall time on a loaded machine). One search thread each. The wall and CPU time each actually used
are printed. Games are played in pairs from the same opening (a
base setup, cycling through --setups, then --random-plies random moves that capture nothing), with
colours swapped, so both engines play both sides of it. Every move, from either engine, is checked
and applied by `plyscope state` (the arbiter): it decides legality, captures, wins and draws
(threefold repetition, 100 plies without a capture; docs/khet.md). A game still going after
--max-plies plies is adjudicated a draw.

The rule sets differ in one place (docs/khet.md): Khet2-AI lets a Scarab swap an enemy piece onto
a square reserved for the Scarab's colour. If Khet2-AI plays such a swap the game is void (listed,
not scored); any other move the arbiter refuses loses the game for Khet2-AI. Khet2-AI answers
`bestmove none` when its first depth did not finish in the time: it is then asked for a depth-1
search (counted in the summary). If that also says `none`, its own draw rules think the game is
over where ours do not (its repetition test can see false repetitions after swaps, whose
swapped piece its hash key leaves out): it is then asked again from the current position alone,
without the history (also counted). If it still gives no move, every move loses at once by its
search: when a depth-2 search of ours confirms that, Khet2-AI has resigned (a win for Plyscope);
otherwise the game is adjudicated a draw.

  scripts/khet-match.py --khet2ai /path/to/Khet2-AI --games 20 --time-ms 200 \\
      --out docs/data/khet-vs-khet2ai.txt

Prints each game and Plyscope's score with a 95 % error bar, the milliseconds a move each engine
actually used, and the load average.
"""

import argparse
import json
import math
import os
import random
import resource
import subprocess
import sys
import time

import khet2ai as k


class Khet2AI:
    """Khet2-AI's engine process (its UCI-like protocol: protocol.txt in its repository)."""

    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + '\n')
        self.p.stdin.flush()

    def cpu_ms(self):
        """CPU time the process has used (user + system), in milliseconds."""
        with open(f'/proc/{self.p.pid}/stat') as f:
            fields = f.read().rsplit(')', 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf('SC_CLK_TCK')

    def best(self, setup, moves, ms, now=None):
        """Its move after `moves` from `setup` (or, given `now`, from that position alone, with no
        history), searching `ms` milliseconds (None: to depth 1)."""
        if now is None:
            self.send(' '.join(['position', k.SETUPS[setup]] + [k.to_khet2ai_move(m) for m in moves]))
        else:
            self.send('position ' + k.to_khet2ai_position(now))
        self.send(f'go movetime {ms}' if ms is not None else 'go depth 1')
        depth = 0
        while True:
            line = self.p.stdout.readline()
            if line == '':
                raise RuntimeError('Khet2-AI closed its output')
            w = line.split()
            if w[:1] == ['info'] and 'depth' in w:
                depth = int(w[w.index('depth') + 1])
            if w[:1] == ['bestmove']:
                return w[1], depth

    def close(self):
        try:
            self.send('quit')
            self.p.stdin.close()
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def child_cpu_ms():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r.ru_utime + r.ru_stime) * 1000


def plyscope_best(setup, moves, ms):
    out = subprocess.run([k.PLYSCOPE, 'search', setup, '--moves', ' '.join(moves), '--time-ms', str(ms),
                          '--depth', '64', '--json'], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f'plyscope search failed: {out.stderr.strip()}')
    r = json.loads(out.stdout)
    return r['move'], r['stats']['depth_reached']


def plyscope_decided(setup, moves):
    """Plies to a decided end for the side to move by a depth-2 search (negative: it loses), or 0."""
    out = subprocess.run([k.PLYSCOPE, 'search', setup, '--moves', ' '.join(moves), '--depth', '2', '--json'],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)['value_text'].get('decided') or 0


def pieces(position):
    return sum(c.isalpha() and c.upper() in 'PSAKXH' for c in position.split()[0] if c not in 'nesw')


def opening(setup, plies, rng):
    """`plies` random moves from the setup, each capturing nothing (so openings stay level)."""
    moves = []
    st = k.state(setup)
    for _ in range(plies):
        cands = list(st['legal'])
        rng.shuffle(cands)
        for m in cands:
            nxt = k.state(setup, moves + [m])
            if not nxt['outcome'] and pieces(nxt['position']) == pieces(st['position']):
                moves.append(m)
                st = nxt
                break
    return moves


def play_game(setup, start, plyscope_silver, ms, max_plies, stats, peer):
    """Plays one game; returns (Plyscope's score 1 / 0.5 / 0 or None for a void game, reason, moves)."""
    moves = list(start)
    peer.send('newgame')
    st = k.state(setup, moves)
    while not st['outcome'] and len(moves) < max_plies:
        silver_to_move = len(moves) % 2 == 0
        ours = silver_to_move == plyscope_silver
        t = time.time()
        if ours:
            cpu = child_cpu_ms()
            mv, depth = plyscope_best(setup, moves, ms)
            cpu = child_cpu_ms() - cpu
        else:
            # Khet2-AI's movetime counts the CPU time of its process (clock()), which on a loaded
            # machine is less than the wall time: ask for less so that its wall time a move stays
            # at `ms`, as Plyscope's does (the ratio seen so far).
            k2 = stats['khet2ai']
            ratio = k2['ms'] / k2['asked'] if k2['asked'] else 1.0
            asked = max(1, round(ms / max(ratio, 0.2)))
            cpu = peer.cpu_ms()
            raw, depth = peer.best(setup, moves, asked)
            k2['asked'] += asked
            if raw == 'none':
                # Khet2-AI keeps only completed depths, and says `none` when its first depth did
                # not finish in time: ask again for depth 1, which has no time limit.
                k2['none'] += 1
                raw, depth = peer.best(setup, moves, None)
            if raw == 'none':
                # Its draw rules say the game is over where ours do not. Its repetition test
                # compares hash keys, and its swap leaves the swapped piece out of the key
                # (Board::MakeMove), so after swaps it can see a repetition that is not there:
                # ask again from the current position alone, without the history.
                k2['fresh'] += 1
                raw, depth = peer.best(setup, moves, asked, now=st['position'])
                if raw == 'none':
                    raw, depth = peer.best(setup, moves, None, now=st['position'])
            cpu = peer.cpu_ms() - cpu
            if raw == 'none':
                # Khet2-AI gives no move when every move loses at once by its search (it resigns).
                # The arbiter checks that with a depth-2 search; otherwise the game is a draw.
                lost = plyscope_decided(setup, moves) < 0
                if lost:
                    return 1.0, 'Khet2-AI resigns: it gives no move, and every move loses within 2 plies (checked)', moves
                return 0.5, 'Khet2-AI gives no move (its own draw rules); adjudicated a draw', moves
            mv = k.from_khet2ai_move(raw)
        side = 'plyscope' if ours else 'khet2ai'
        stats[side]['ms'] += (time.time() - t) * 1000
        stats[side]['cpu'] += cpu
        stats[side]['moves'] += 1
        stats[side]['depth'] += depth
        try:
            nxt = k.state(setup, moves + [mv])
        except ValueError as e:
            if ours:
                raise RuntimeError(f'the arbiter refused Plyscope\'s own move {mv}: {e}')
            if 'would land on' in str(e):  # our words for a swapped piece sent onto a reserved square
                return None, f'void: Khet2-AI played {raw}, a swap its rules allow and ours do not ({e})', moves
            return 0.0 if not plyscope_silver else 1.0, f'Khet2-AI played an illegal move {raw}: {e}', moves
        moves = nxt['moves']
        st = nxt
    if not st['outcome']:
        return 0.5, f'adjudicated a draw at {max_plies} plies', moves
    o = st['outcome']
    if o == 'draw':
        return 0.5, 'draw (both Pharaohs, repetition or 100 plies without a capture)', moves
    silver_won = o.startswith('silver')
    return (1.0 if silver_won == plyscope_silver else 0.0), o, moves


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--khet2ai', required=True, help="Khet2-AI's source tree (built here with g++)")
    ap.add_argument('--games', type=int, default=20)
    ap.add_argument('--time-ms', type=int, default=200, help='time a move for both engines')
    ap.add_argument('--setups', default='khet,khet-imhotep,khet-dynasty', help='base setups, cycled per pair')
    ap.add_argument('--random-plies', type=int, default=4)
    ap.add_argument('--max-plies', type=int, default=300)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--out', default=None, help='file for the games and the result')
    a = ap.parse_args()
    setups = a.setups.split(',')
    for s in setups:
        if s not in k.SETUPS:
            sys.exit(f'unknown setup {s}: Khet2-AI knows {", ".join(k.SETUPS)}')
    k.ensure_plyscope()
    engine, _ = k.build(a.khet2ai)
    peer = Khet2AI(engine)
    rng = random.Random(a.seed)
    out = open(a.out, 'w') if a.out else None

    def emit(line):
        print(line, flush=True)
        if out:
            out.write(line + '\n')
            out.flush()

    load0 = os.getloadavg()
    started = time.time()
    emit(f'# Plyscope (alpha-beta, strong evaluator, 1 thread) against Khet2-AI, '
         f'{a.time_ms} ms a move each; seed {a.seed}; load average at the start '
         f'{load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}')
    stats = {s: {'ms': 0.0, 'cpu': 0.0, 'asked': 0, 'none': 0, 'fresh': 0, 'moves': 0, 'depth': 0} for s in ('plyscope', 'khet2ai')}
    results, void = [], []
    start = []
    setup = setups[0]
    try:
        for g in range(a.games):
            if g % 2 == 0:
                setup = setups[(g // 2) % len(setups)]
                start = opening(setup, a.random_plies, rng)
            plyscope_silver = g % 2 == 0
            r, why, moves = play_game(setup, start, plyscope_silver, a.time_ms, a.max_plies, stats, peer)
            colour = 'silver' if plyscope_silver else 'red'
            emit(f'game {g + 1}: {setup}, Plyscope {colour}, opening {" ".join(start)}; '
                 f'Plyscope scores {r if r is not None else "-"} ({why}), {len(moves)} plies: {" ".join(moves)}')
            if r is None:
                void.append(g + 1)
            else:
                results.append(r)
    finally:
        peer.close()
    n = len(results)
    score = sum(results)
    mean = score / max(n, 1)
    sd = math.sqrt(sum((x - mean) ** 2 for x in results) / max(n - 1, 1))
    err = 1.96 * sd / math.sqrt(max(n, 1))
    wins = sum(1 for x in results if x == 1.0)
    draws = sum(1 for x in results if x == 0.5)
    load1 = os.getloadavg()
    per = {s: (v['ms'] / max(v['moves'], 1), v['depth'] / max(v['moves'], 1), v['cpu'] / max(v['moves'], 1))
           for s, v in stats.items()}
    emit(f'Plyscope scores {score} / {n} = {100 * mean:.1f} % +- {100 * err:.1f} % (95 %): {wins} wins, '
         f'{draws} draws, {n - wins - draws} losses; void games: {len(void)} {void}; '
         f'{a.time_ms} ms a move; used a move (wall, CPU): Plyscope {per["plyscope"][0]:.0f} ms, '
         f'{per["plyscope"][2]:.0f} ms CPU, mean depth {per["plyscope"][1]:.1f}; Khet2-AI {per["khet2ai"][0]:.0f} ms, '
         f'{per["khet2ai"][2]:.0f} ms CPU, mean depth {per["khet2ai"][1]:.1f} (Khet2-AI answered none in the time '
         f'{stats["khet2ai"]["none"]} times, then none at depth 1 too {stats["khet2ai"]["fresh"]} times); '
         f'{time.time() - started:.0f} s; load average at the end {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}')


if __name__ == '__main__':
    sys.exit(main())
