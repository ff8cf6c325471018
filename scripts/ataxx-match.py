#!/usr/bin/env python3
"""Hand-run match between two UAI (Universal Ataxx Interface) engines.

Plays GAMES games, colours alternating: each pair of games starts from the same varied opening
(RANDOM_PLIES random legal plies from the start position, or the next line of an --openings file),
once with each engine on each side. Each engine gets the same time: a fixed time a move
(`go movetime T`) or a clock (`go wtime btime winc binc`, a flag fall loses). The script keeps its
own board and adjudicates with Plyscope's Ataxx rules (docs/ataxx.md): a move not in the legal-move
list loses; the game ends when a side has no pieces, when no empty cell is within two cells of any
piece, or when the halfmove clock reaches 100 (a draw whatever the counts); otherwise most pieces
wins. Writes every game (opening, moves, result, reason) and prints engine A's score with a 95 %
error bar and the load average.

Other engines are built by whoever runs this script; they are never part of the build. Examples:

  scripts/ataxx-match.py --a 'target/release/plyscope uai' --b /work/peers/zataxx/target/release/zataxx \\
      --games 40 --movetime 100 --out target/ataxx-zataxx.txt
  # clocks: 10 s each plus 0.1 s a move
  scripts/ataxx-match.py --b /path/to/engine --games 40 --clock 10000+100
  # two settings of the same engine (UAI setoption lines, ';'-separated)
  scripts/ataxx-match.py --b 'target/release/plyscope uai' --options-b 'Hash=1' --games 20

`--selftest` checks the script's rules against Plyscope's perft counts (tests/data/ataxx.perft).
"""

import argparse
import math
import os
import random
import shlex
import signal
import subprocess
import sys
import threading
import time

START = 'x5o/7/7/7/7/7/o5x x 0 1'
N = 7


def name(sq):
    return 'abcdefg'[sq % N] + str(sq // N + 1)


def cell(text):
    f, r = 'abcdefg'.find(text[0]), text[1:]
    if f < 0 or not r.isdigit() or not 1 <= int(r) <= N:
        raise ValueError(f'bad cell {text!r}')
    return (int(r) - 1) * N + f


def ring(sq, dist):
    """Cells at king distance exactly `dist` from `sq`."""
    r, f = divmod(sq, N)
    out = []
    for dr in range(-dist, dist + 1):
        for df in range(-dist, dist + 1):
            if max(abs(dr), abs(df)) == dist and 0 <= r + dr < N and 0 <= f + df < N:
                out.append((r + dr) * N + f + df)
    return out


NEAR = [ring(s, 1) for s in range(N * N)]
FAR = [ring(s, 2) for s in range(N * N)]


class Board:
    """An Ataxx position: 49 cells ('x', 'o', '-' wall, '.' empty), side to move, clocks."""

    def __init__(self, fen=START):
        parts = fen.split()
        ranks = parts[0].split('/')
        if len(ranks) != N:
            raise ValueError(f'bad FEN {fen!r}: {len(ranks)} ranks')
        self.cells = ['.'] * (N * N)
        for i, row in enumerate(ranks):
            rank, f = N - 1 - i, 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                elif ch in 'xo-':
                    if f >= N:
                        raise ValueError(f'bad FEN {fen!r}: rank {rank + 1} too long')
                    self.cells[rank * N + f] = ch
                    f += 1
                else:
                    raise ValueError(f'bad FEN {fen!r}: {ch!r}')
            if f != N:
                raise ValueError(f'bad FEN {fen!r}: rank {rank + 1} has {f} cells')
        side = parts[1] if len(parts) > 1 else 'x'
        self.turn = {'x': 'x', 'b': 'x', 'o': 'o', 'w': 'o'}[side]
        self.halfmove = int(parts[2]) if len(parts) > 2 else 0
        self.fullmove = int(parts[3]) if len(parts) > 3 else 1

    def fen(self):
        rows = []
        for rank in range(N - 1, -1, -1):
            row, run = '', 0
            for f in range(N):
                c = self.cells[rank * N + f]
                if c == '.':
                    run += 1
                    continue
                if run:
                    row, run = row + str(run), 0
                row += c
            rows.append(row + (str(run) if run else ''))
        return f"{'/'.join(rows)} {self.turn} {self.halfmove} {self.fullmove}"

    def count(self, side):
        return self.cells.count(side)

    def moves_of(self, side):
        """Legal moves of `side` as text, clones first, without the pass."""
        clones, jumps = set(), []
        for s, c in enumerate(self.cells):
            if c != side:
                continue
            for t in NEAR[s]:
                if self.cells[t] == '.':
                    clones.add(t)
            for t in FAR[s]:
                if self.cells[t] == '.':
                    jumps.append(name(s) + name(t))
        return [name(t) for t in sorted(clones)] + jumps

    def over(self):
        """None while the game goes on, else (result for x: 1 / 0.5 / 0, reason)."""
        x, o = self.count('x'), self.count('o')
        if x == 0 or o == 0:
            return (0.0 if x == 0 else 1.0), 'no pieces'
        if self.halfmove >= 100:
            return 0.5, '100-halfmove draw'
        if not self.moves_of('x') and not self.moves_of('o'):
            return (1.0 if x > o else 0.0 if o > x else 0.5), f'board closed {x}-{o}'
        return None

    def legal(self):
        ms = self.moves_of(self.turn)
        return ms if ms else ['0000']

    def play(self, text):
        """Plays a move given as text; raises ValueError when it is not legal here."""
        text = text.strip().lower()
        if text in ('0000', 'pass'):
            if self.moves_of(self.turn):
                raise ValueError('pass with a move available')
            self.halfmove += 1
        else:
            if len(text) == 2:
                frm, to = None, cell(text)
            elif len(text) == 4:
                frm, to = cell(text[:2]), cell(text[2:])
                if frm in NEAR[to]:  # a clone written with its origin
                    frm = None
            else:
                raise ValueError(f'bad move {text!r}')
            if self.cells[to] != '.':
                raise ValueError(f'{text}: target not empty')
            if frm is None:
                if not any(self.cells[s] == self.turn for s in NEAR[to]):
                    raise ValueError(f'{text}: no piece next to the target')
                self.halfmove = 0
            else:
                if self.cells[frm] != self.turn or to not in FAR[frm]:
                    raise ValueError(f'{text}: not a jump of the side to move')
                self.cells[frm] = '.'
                self.halfmove += 1
            self.cells[to] = self.turn
            enemy = 'o' if self.turn == 'x' else 'x'
            for s in NEAR[to]:
                if self.cells[s] == enemy:
                    self.cells[s] = self.turn
        if self.turn == 'o':
            self.fullmove += 1
        self.turn = 'o' if self.turn == 'x' else 'x'


class Engine:
    """A UAI engine process, read by a thread so that a late answer can be timed."""

    def __init__(self, cmd, label, options):
        self.label, self.cmd = label, cmd
        self.p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines, self.cv = [], threading.Condition()
        threading.Thread(target=self._reader, daemon=True).start()
        self.send('uai')
        self.name = label
        for line in self.wait_for('uaiok', 10):
            if line.startswith('id name '):
                self.name = line[8:]
        for opt in options:
            k, _, v = opt.partition('=')
            self.send(f'setoption name {k.strip()} value {v.strip()}')
        self.ready()

    def _reader(self):
        for line in self.p.stdout:
            with self.cv:
                self.lines.append(line.rstrip('\n'))
                self.cv.notify()
        with self.cv:
            self.lines.append(None)
            self.cv.notify()

    def send(self, text):
        self.p.stdin.write(text + '\n')
        self.p.stdin.flush()

    def wait_for(self, prefix, timeout):
        """Lines up to and including the first starting with `prefix`."""
        got, end = [], time.time() + timeout
        with self.cv:
            while True:
                while not self.lines:
                    left = end - time.time()
                    if left <= 0:
                        raise TimeoutError(f'{self.label} ({self.cmd}): no {prefix!r} in {timeout} s')
                    self.cv.wait(left)
                line = self.lines.pop(0)
                if line is None:
                    raise RuntimeError(f'{self.label} ({self.cmd}) closed its output')
                got.append(line)
                if line.startswith(prefix):
                    return got

    def ready(self):
        self.send('isready')
        self.wait_for('readyok', 30)

    def close(self):
        try:
            self.send('quit')
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def play_game(x_eng, o_eng, start_fen, opening, args):
    """Plays one game; returns (result for x, reason, moves after the opening, stats a side)."""
    board = Board(start_fen)
    for mv in opening:
        board.play(mv)
    for e in (x_eng, o_eng):
        e.send('uainewgame')
        e.ready()
    clock = {'x': args.clock_ms, 'o': args.clock_ms}
    stats = {id(e): {'moves': 0, 'ms': 0.0, 'max_ms': 0.0, 'depth': 0} for e in (x_eng, o_eng)}
    played = []
    while True:
        end = board.over()
        if end:
            return end[0], end[1], played, stats
        side = board.turn
        eng = x_eng if side == 'x' else o_eng
        moves = ' '.join(opening + played)
        eng.send(f'position fen {start_fen}' + (f' moves {moves}' if moves else ''))
        if args.clock:
            go = (f"go btime {clock['x']:.0f} wtime {clock['o']:.0f} "
                  f'binc {args.inc_ms} winc {args.inc_ms}')
            patience = clock[side] / 1000 + 5
        else:
            ms_move = args.movetime_b if eng.label == 'B' else args.movetime
            go = f'go movetime {ms_move}'
            patience = ms_move / 1000 * 10 + 5
            fixed = args.go_b if eng.label == 'B' else args.go_a
            if fixed:
                go, patience = f'go {fixed}', 60
        t0 = time.time()
        eng.send(go)
        try:
            lines = eng.wait_for('bestmove', patience)
        except TimeoutError:
            return (0.0 if side == 'x' else 1.0), f'{side} gave no move', played, stats
        ms = (time.time() - t0) * 1000
        st = stats[id(eng)]
        st['moves'] += 1
        st['ms'] += ms
        st['max_ms'] = max(st['max_ms'], ms)
        depth = 0  # the last completed depth the engine reported
        for line in lines:
            w = line.split()
            if w[:1] == ['info'] and 'depth' in w[:-1] and w[w.index('depth') + 1].isdigit():
                depth = int(w[w.index('depth') + 1])
        st['depth'] += depth
        if args.clock:
            clock[side] -= ms
            if clock[side] < 0:
                return (0.0 if side == 'x' else 1.0), f'{side} lost on time', played, stats
            clock[side] += args.inc_ms
        mv = lines[-1].split()[1] if len(lines[-1].split()) > 1 else ''
        try:
            board.play(mv)
        except (ValueError, IndexError) as err:
            return (0.0 if side == 'x' else 1.0), f'{side} played {mv!r}: {err}', played, stats
        played.append('0000' if mv in ('pass', '0000') else mv)


def random_opening(start_fen, plies, rng):
    """`plies` random legal moves from the start (fewer if the game ends)."""
    while True:
        board, moves = Board(start_fen), []
        for _ in range(plies):
            if board.over():
                break
            mv = rng.choice(board.legal())
            board.play(mv)
            moves.append(mv)
        if not board.over():
            return moves


def selftest():
    """The script's rules against Plyscope's perft counts (tests/data/ataxx.perft), depths 1-3."""
    def perft(b, d):
        if d == 0:
            return 1
        if b.over():
            return 0
        total = 0
        for m in b.legal():
            c = Board(b.fen())
            c.play(m)
            total += perft(c, d - 1)
        return total
    here = os.path.dirname(os.path.abspath(__file__))
    checked = 0
    for line in open(os.path.join(here, '..', 'tests', 'data', 'ataxx.perft')):
        if line.startswith('#') or ';' not in line:
            continue
        fen, counts = (x.strip() for x in line.split(';'))
        for d, want in enumerate(counts.split()[:3], 1):
            got = perft(Board(fen), d)
            print(f"{'ok ' if got == int(want) else 'BAD'} {fen}: perft {d} = {got}, expected {want}")
            if got != int(want):
                return 1
            checked += 1
    print(f'{checked} perft counts agree')
    return 0 if checked else 1


def load():
    try:
        return ' '.join(open('/proc/loadavg').read().split()[:3])
    except OSError:
        return '?'


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--a', default='target/release/plyscope uai', help='command of engine A')
    ap.add_argument('--b', help='command of engine B')
    ap.add_argument('--options-a', default='', help="A's options, 'Name=value;Name=value'")
    ap.add_argument('--options-b', default='', help="B's options")
    ap.add_argument('--games', type=int, default=40)
    ap.add_argument('--movetime', type=int, default=100, help='ms a move for both (default 100)')
    ap.add_argument('--movetime-b', type=int, default=None,
                    help="B's ms a move when it differs from A's (time odds; default --movetime)")
    ap.add_argument('--go-a', default=None,
                    help="A's own go arguments instead of the time, e.g. 'nodes 20000' or 'depth 9'")
    ap.add_argument('--go-b', default=None, help="B's own go arguments (a fixed-strength reference)")
    ap.add_argument('--concurrency', type=int, default=1,
                    help='games played at once, each pair of engines its own processes (default 1)')
    ap.add_argument('--clock', default=None, help='instead of movetime: BASE+INC in ms, each side')
    ap.add_argument('--fen', default=START, help='start position (walls: e.g. x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1)')
    ap.add_argument('--random-plies', type=int, default=2, help='random plies of each opening')
    ap.add_argument('--openings', default=None, help='file of openings, one line of moves each')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--out', default=None, help='file for the games')
    ap.add_argument('--selftest', action='store_true', help="check the script's rules and exit")
    args = ap.parse_args()
    if args.selftest:
        return selftest()
    if not args.b:
        ap.error('--b is required')
    args.clock_ms = args.inc_ms = 0
    if args.movetime_b is None:
        args.movetime_b = args.movetime
    if args.clock and args.movetime_b != args.movetime:
        ap.error('--movetime-b goes with --movetime, not --clock')
    if args.concurrency < 1:
        ap.error('--concurrency must be at least 1')
    if args.clock:
        base, _, inc = args.clock.partition('+')
        args.clock_ms, args.inc_ms = float(base), int(inc or 0)

    def opts(text):
        return [o for o in text.split(';') if o.strip()]

    book = None
    if args.openings:
        book = [l.split('#')[0].split() for l in open(args.openings)]
        book = [l for l in book if l]
    rng = random.Random(args.seed)
    out = open(args.out, 'w') if args.out else None
    if args.clock:
        limit = f'clock {args.clock} ms'
    elif args.movetime_b != args.movetime:
        limit = f'{args.movetime} ms a move for A, {args.movetime_b} for B'
    else:
        limit = f'{args.movetime} ms a move'
    if args.go_a or args.go_b:
        limit += f" (A: go {args.go_a or 'movetime'}; B: go {args.go_b or 'movetime'})"
    # The openings, fixed by the seed before any game is played (the same whatever the
    # concurrency): game g plays opening g // 2, A with x in the even games.
    openings = []
    for g in range(0, args.games, 2):
        if book is not None:
            openings.append(book[(g // 2) % len(book)])
        else:
            openings.append(random_opening(args.fen, args.random_plies, rng))
    # A SIGTERM (pkill, a stopped ruler) ends the match as Ctrl-C does: the engines are told to
    # quit and killed if they do not, rather than left running with their input closed (an engine
    # that spins on a closed input takes a core until it is killed by hand).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    pairs = [(Engine(args.a, 'A', opts(args.options_a)), Engine(args.b, 'B', opts(args.options_b)))
             for _ in range(args.concurrency)]
    a_name, b_name = pairs[0][0].name, pairs[0][1].name
    head = (f'# A = {a_name} ({args.a}) against B = {b_name} ({args.b}), {limit}, '
            f'{args.games} games, start {args.fen!r}, '
            + (f'openings {args.openings}' if book else f'{args.random_plies} random plies, seed {args.seed}')
            + (f', {args.concurrency} games at once' if args.concurrency > 1 else '')
            + f'; load average {load()}')
    print(head, flush=True)
    if out:
        out.write(head + '\n')
    done = {}  # game index -> (A's score, printed line, stats of A, stats of B)
    lock = threading.Lock()
    next_game = [0]
    started = time.time()

    def worker(a, b):
        while True:
            with lock:
                g = next_game[0]
                if g >= args.games:
                    return
                next_game[0] += 1
            opening = openings[g // 2]
            a_x = g % 2 == 0
            x_eng, o_eng = (a, b) if a_x else (b, a)
            try:
                r, reason, moves, stats = play_game(x_eng, o_eng, args.fen, opening, args)
            except Exception as err:  # an engine died: the game is lost by no one; stop
                with lock:
                    done[g] = None
                    print(f'game {g + 1}: not played ({err})', flush=True)
                return
            ra = r if a_x else 1.0 - r
            line = (f"game {g + 1}: A plays {'x' if a_x else 'o'}; A scores {ra} ({reason}); "
                    f"opening {' '.join(opening) or '-'}; moves {' '.join(moves)}")
            with lock:
                done[g] = (ra, line, stats[id(a)], stats[id(b)])
                print(line, flush=True)

    threads = [threading.Thread(target=worker, args=pair) for pair in pairs]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        for a, b in pairs:
            a.close()
            b.close()
    results, wdl = [], [0, 0, 0]
    totals = {'A': [0, 0.0, 0.0, 0], 'B': [0, 0.0, 0.0, 0]}
    for g in sorted(done):
        if done[g] is None:
            continue
        ra, line, sa, sb = done[g]
        results.append(ra)
        wdl[0 if ra == 1 else 1 if ra == 0.5 else 2] += 1
        for s, key in ((sa, 'A'), (sb, 'B')):
            t = totals[key]
            t[0] += s['moves']
            t[1] += s['ms']
            t[2] = max(t[2], s['max_ms'])
            t[3] += s['depth']
        if out:
            out.write(line + '\n')
    n = len(results)
    if n == 0:
        return 1
    mean = sum(results) / n
    var = sum((x - mean) ** 2 for x in results) / (n - 1) if n > 1 else 0.0
    err = 1.96 * math.sqrt(var / n)
    # Wilson's 95 % interval for the score as a proportion: still informative at 0 or n.
    z = 1.96
    centre = (mean + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    summary = [f'A {a_name}: {sum(results)}/{n} = {100 * mean:.1f} % +- {100 * err:.1f} % '
               f'(95 %; Wilson interval {100 * max(0.0, centre - half):.1f}-{100 * min(1.0, centre + half):.1f} %), '
               f'W-D-L {wdl[0]}-{wdl[1]}-{wdl[2]}']
    for key in ('A', 'B'):
        m, ms, mx, dep = totals[key]
        if m:
            summary.append(f'{key}: {m} moves, {ms / m:.1f} ms a move (longest {mx:.0f} ms), '
                           f'mean last depth {dep / m:.1f}')
    summary.append(f'{(time.time() - started) / 60:.1f} min; load average {load()}')
    for s in summary:
        print(s)
        if out:
            out.write('# ' + s + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
