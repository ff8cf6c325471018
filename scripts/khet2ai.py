"""Shared pieces of the hand-run Khet scripts (khet-perft-compare.py, khet-match.py).

Khet2-AI (https://github.com/AlexKent3141/Khet2-AI) is a peer engine built by whoever runs the
scripts, outside the repository; it is never a build or test dependency. Its CMake build needs
CMake; `build()` compiles the same sources with g++ directly, which is all it takes.
"""

import json
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PLYSCOPE = os.path.join(ROOT, 'target', 'release', 'plyscope')

# The setups both engines know, by Plyscope id and by Khet2-AI's `position` name.
SETUPS = {'khet': 'standard', 'khet-imhotep': 'imhotep', 'khet-dynasty': 'dynasty'}


def build(src):
    """Compiles Khet2-AI's engine and this repository's perft driver from its source tree `src`
    (a checkout of Khet2-AI) into src/build-plyscope/; returns (engine path, driver path)."""
    out = os.path.join(src, 'build-plyscope')
    os.makedirs(out, exist_ok=True)
    core = sorted(os.path.join(src, 'src', 'core', f)
                  for f in os.listdir(os.path.join(src, 'src', 'core')) if f.endswith('.cpp'))
    flags = ['g++', '-O2', '-std=c++17', '-DNDEBUG', '-I', os.path.join(src, 'src')]
    engine = os.path.join(out, 'khet')
    driver = os.path.join(out, 'driver')
    targets = [
        (engine, core + [os.path.join(src, 'src', 'CommsHandler.cpp'), os.path.join(src, 'src', 'main.cpp')]),
        (driver, core + [os.path.join(HERE, 'khet2ai-driver.cpp')]),
    ]
    for exe, sources in targets:
        newest = max(os.path.getmtime(s) for s in sources)
        if not os.path.exists(exe) or os.path.getmtime(exe) < newest:
            subprocess.run(flags + sources + ['-o', exe, '-pthread'], check=True)
    return engine, driver


def ensure_plyscope():
    subprocess.run(['cargo', 'build', '--release', '--quiet', '--bin', 'plyscope'], cwd=ROOT, check=True)


def state(game, moves=(), position=None):
    """Plyscope's arbiter: the position after `moves` (each checked), its outcome and legal moves.
    Raises ValueError with Plyscope's message when a move is illegal."""
    cmd = [PLYSCOPE, 'state', game, '--moves', ' '.join(moves), '--json']
    if position:
        cmd += ['--position', position]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise ValueError(r.stderr.strip().splitlines()[0] if r.stderr.strip() else f'exit {r.returncode}')
    return json.loads(r.stdout)


def to_khet2ai_move(m):
    """Plyscope's move text -> Khet2-AI's: h2-h3 -> h2h3, e4=e5 -> e4e5, c1cw -> c1+, c1ccw -> c1-."""
    if m.endswith('ccw'):
        return m[:-3] + '-'
    if m.endswith('cw'):
        return m[:-2] + '+'
    return m.replace('-', '').replace('=', '')


def from_khet2ai_move(m):
    """Khet2-AI's move text -> one Plyscope reads: h2h3 and e4e5 as they are, c1+ -> c1cw, c1- -> c1ccw."""
    if m.endswith('+'):
        return m[:-1] + 'cw'
    if m.endswith('-'):
        return m[:-1] + 'ccw'
    return m


def board_and_side(position):
    """The first two fields of a position text (the board and the side to move)."""
    return ' '.join(position.split()[:2])


def to_khet2ai_position(position):
    """Plyscope's position text -> Khet2-AI's `position` string (its board ranks and side to move:
    a piece letter with its orientation digit 1 to 4, clockwise from north (from north-east for a
    Pyramid or Scarab), none for a Pharaoh; gaps of at most 9). Only the base game's pieces."""
    board, side = position.split()[:2]
    one, two = ['n', 'e', 's', 'w'], ['ne', 'se', 'sw', 'nw']
    ranks = []
    for rank in board.split('/'):
        out, gap, i = '', 0, 0
        while i < len(rank):
            c = rank[i]
            if c.isdigit():
                j = i
                while j < len(rank) and rank[j].isdigit():
                    j += 1
                gap += int(rank[i:j])
                i = j
                continue
            while gap:
                out += str(min(gap, 9))
                gap -= min(gap, 9)
            kind = c.lower()
            if kind not in 'psakx':
                raise ValueError(f'Khet2-AI has no piece {c}')
            out += c
            i += 1
            if kind == 'k':
                continue
            n = 1 if kind in 'ax' else 2
            f = rank[i:i + n]
            i += n
            out += str((one if n == 1 else two).index(f) + 1)
        while gap:
            out += str(min(gap, 9))
            gap -= min(gap, 9)
        ranks.append(out)
    return '/'.join(ranks) + (' 0' if side == 's' else ' 1')
