#!/usr/bin/env python3
"""Compares two runs of scripts/ataxx-match.py played from the same openings (the same seed and
number of games, the same opponent as B), game by game:

  scripts/ataxx-paired.py base.txt new.txt [base2.txt new2.txt ...]

Each pair of files must hold the same game numbers with the same openings and colours. For every
game it compares A's score in the two runs: games both runs scored alike say nothing about which
A is stronger, so the verdict rests on the games that differ. It prints, per pair and in total,
the two scores, how many games differ, how many each run did better in, and a two-sided sign test
on those games (the chance of a split at least this uneven if neither run were stronger). A
matched game number with another opening or colour is an error: the runs are not paired.

The base run must not have been chosen for its score on these openings (say the best of several
networks): it is then lucky on exactly these games, and everything compared with it looks worse.
Compare against a fresh run (new seeds, or another node count); docs/ataxx.md, session 37.
"""

import math
import re
import sys

GAME = re.compile(r'^game (\d+): A plays (x|o); A scores ([01](?:\.5|\.0)?) \(.*?\); opening (.*?); moves')


def games(path):
    """{game number: (colour, opening, score)} of one match output."""
    out = {}
    with open(path) as f:
        for line in f:
            m = GAME.match(line)
            if m:
                out[int(m.group(1))] = (m.group(2), m.group(4), float(m.group(3)))
    return out


def sign_test(better, worse):
    """Two-sided binomial sign test: the chance of a split at least as uneven as better:worse."""
    n = better + worse
    if n == 0:
        return 1.0
    k = min(better, worse)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def main(argv):
    if len(argv) < 2 or len(argv) % 2:
        sys.exit(__doc__)
    total = [0.0, 0.0, 0, 0, 0, 0]
    for base_path, new_path in zip(argv[0::2], argv[1::2]):
        base, new = games(base_path), games(new_path)
        common = sorted(set(base) & set(new))
        if not common:
            sys.exit(f'{base_path} and {new_path} have no game numbers in common')
        row = [0.0, 0.0, 0, 0, 0, len(common)]
        for g in common:
            (c1, o1, s1), (c2, o2, s2) = base[g], new[g]
            if (c1, o1) != (c2, o2):
                sys.exit(f'game {g}: {base_path} has {c1} from "{o1}", {new_path} {c2} from "{o2}": not paired')
            row[0] += s1
            row[1] += s2
            if s1 != s2:
                row[2] += 1
                row[3 if s1 > s2 else 4] += 1
        total = [a + b for a, b in zip(total, row)]
        report(f'{base_path} -> {new_path}', row)
    if len(argv) > 2:
        report('together', total)


def report(name, row):
    base, new, differ, base_better, new_better, n = row
    print(f'{name}: {n} games, base {100 * base / n:.1f} %, new {100 * new / n:.1f} % '
          f'({100 * (new - base) / n:+.1f} points); {differ} differ: base better in {base_better}, '
          f'new better in {new_better}; sign test p = {sign_test(new_better, base_better):.2f}')


if __name__ == '__main__':
    main(sys.argv[1:])
