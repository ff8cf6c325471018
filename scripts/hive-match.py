#!/usr/bin/env python3
"""Hand-run match between two UHP (Universal Hive Protocol) engines.

Plays GAMES games, colours alternating, each game starting from a varied opening (the first
--random-plies plies are drawn at random from the legal moves, the same opening for each pair of
games so that both engines play both sides of it). Each engine gets the same limit a move
(`bestmove time hh:mm:ss` or `bestmove depth N`). Writes every game as a UHP GameString and prints
the score of engine A with a 95 % error bar.

Examples (nokamute is built by whoever runs this; it is never part of the build):

  scripts/hive-match.py --a 'target/release/plyscope uhp' --b '/path/to/nokamute uhp' \
      --games 40 --time 00:00:01 --type Base+MLP --out target/hive-match.txt
  # depth N against depth N - 2, same engine:
  scripts/hive-match.py --a 'target/release/plyscope uhp' --b 'target/release/plyscope uhp' \
      --depth-a 4 --depth-b 2 --games 20
"""

import argparse
import math
import random
import shlex
import subprocess
import sys
import time


class Engine:
    """A UHP engine process: send a command, read its answer up to `ok`."""

    def __init__(self, cmd, name):
        self.name = name
        self.p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.read()  # the greeting (id, capabilities, ok)

    def read(self):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if line == '':
                raise RuntimeError(f'{self.name} closed its output')
            line = line.rstrip('\n')
            if line == 'ok':
                return lines
            lines.append(line)

    def ask(self, command):
        self.p.stdin.write(command + '\n')
        self.p.stdin.flush()
        answer = self.read()
        for line in answer:
            if line.startswith('err') or line.startswith('invalidmove'):
                raise RuntimeError(f'{self.name}: {command!r} -> {line}')
        return answer

    def close(self):
        try:
            self.p.stdin.close()
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def game_state(game_string):
    return game_string.split(';')[1]


def play_game(white, black, game_type, opening, limits, max_plies):
    """Plays one game; returns (result from white's view 1 / 0.5 / 0, final GameString)."""
    gs = None
    for e in (white, black):
        gs = e.ask(f'newgame {game_type}')[0]
    for mv in opening:
        for e in (white, black):
            gs = e.ask(f'play {mv}')[0]
    plies = len(opening)
    while game_state(gs) in ('NotStarted', 'InProgress') and plies < max_plies:
        mover = white if plies % 2 == 0 else black
        limit = limits[mover.name]
        mv = mover.ask(f'bestmove {limit}')[0]
        answers = [e.ask(f'play {mv}')[0] for e in (white, black)]
        # The engines may disagree on the end (a repetition rule one of them lacks): the game ends
        # as soon as either says it is over, with that engine's verdict.
        gs = next((a for a in answers if game_state(a) not in ('NotStarted', 'InProgress')),
                  answers[-1])
        plies += 1
    state = game_state(gs)
    if state == 'WhiteWins':
        return 1.0, gs
    if state == 'BlackWins':
        return 0.0, gs
    return 0.5, gs  # a draw, or stopped at max_plies (adjudicated a draw)


def random_opening(engine, game_type, plies, rng):
    gs = engine.ask(f'newgame {game_type}')[0]
    moves = []
    for _ in range(plies):
        valid = engine.ask('validmoves')[0].split(';')
        mv = rng.choice(valid)
        gs = engine.ask(f'play {mv}')[0]
        moves.append(mv)
        if game_state(gs) not in ('NotStarted', 'InProgress'):
            break
    return moves


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--a', required=True, help='command of engine A')
    ap.add_argument('--b', required=True, help='command of engine B')
    ap.add_argument('--games', type=int, default=40)
    ap.add_argument('--type', default='Base+MLP', help='UHP game type')
    ap.add_argument('--time', default=None, help='time a move for both, hh:mm:ss')
    ap.add_argument('--depth-a', type=int, default=None)
    ap.add_argument('--depth-b', type=int, default=None)
    ap.add_argument('--random-plies', type=int, default=4, help='random plies of each opening')
    ap.add_argument('--max-plies', type=int, default=300, help='adjudicate a draw after this many plies')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--out', default=None, help='file for the GameStrings')
    args = ap.parse_args()

    def limit(depth):
        if depth is not None:
            return f'depth {depth}'
        return f'time {args.time or "00:00:01"}'

    a, b = Engine(args.a, 'A'), Engine(args.b, 'B')
    limits = {'A': limit(args.depth_a), 'B': limit(args.depth_b)}
    rng = random.Random(args.seed)
    out = open(args.out, 'w') if args.out else None
    score, results = 0.0, []
    started = time.time()
    opening = []
    try:
        for g in range(args.games):
            if g % 2 == 0:
                opening = random_opening(a, args.type, args.random_plies, rng)
            a_white = g % 2 == 0
            white, black = (a, b) if a_white else (b, a)
            r, gs = play_game(white, black, args.type, opening, limits, args.max_plies)
            ra = r if a_white else 1.0 - r
            score += ra
            results.append(ra)
            line = f'game {g + 1}: A {"white" if a_white else "black"} scores {ra} ; {gs}'
            print(line, flush=True)
            if out:
                out.write(line + '\n')
                out.flush()
    finally:
        a.close()
        b.close()
    n = len(results)
    mean = score / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in results) / max(n - 1, 1))
    err = 1.96 * sd / math.sqrt(n)
    wins = sum(1 for x in results if x == 1.0)
    draws = sum(1 for x in results if x == 0.5)
    summary = (f'A scores {score} / {n} = {100 * mean:.1f} % +- {100 * err:.1f} % (95 %), '
               f'{wins} wins, {draws} draws, {n - wins - draws} losses; '
               f'limits A: {limits["A"]}, B: {limits["B"]}; {args.type}; {time.time() - started:.0f} s')
    print(summary)
    if out:
        out.write(summary + '\n')


if __name__ == '__main__':
    sys.exit(main())
