#!/usr/bin/env python3
"""Hand-run diagnostic: Zataxx's network as a Plyscope `nnue` weights file, to measure Plyscope's
search with Zataxx's evaluation (docs/ataxx.md, "Session 28").

Zataxx (a public Ataxx engine; whoever runs this builds or clones it from its source) evaluates
with 36 overlapping 2x2 windows read as base-3 numbers (0 empty, 1 the side to move's piece, 2
the other side's; the window's lower-left cell is digit 0, the one to its right 1, the one above
2, above-right 3), 256 hidden units with a squared clipped ReLU and one output, in the same
integer form as Plyscope's `nnue` (QA 255, QB 64). Its file is the first layer (2,916 rows of 256
`i16`), the 256 biases, the 256 output weights and the output bias (`i16`), little-endian, with
no header. Plyscope's windows read the same cells as base-4 numbers (3 a wall); this script
copies each row to every Plyscope state that has the same pieces (a wall reads as empty, which
Zataxx has no input for: use the result on the open board only), and writes Plyscope's header
with one output bucket, no material weight and the scale given (200 by default, Plyscope's
networks' hundredths of a piece per logit, so the search's margins mean what they mean with
the shipped network).

The file is for measurement only: it is never part of the build, the repository or a release.

  scripts/zataxx-net-to-nnue.py /path/to/zataxx/src/net6.bin zataxx.nnue
  PLYSCOPE_ATAXX_NNUE=zataxx.nnue target/release/plyscope uai
"""

import argparse
import struct
import sys
from array import array

HIDDEN = 256
WINDOWS = 36
ZATAXX_STATES = 81
STATES = 256
MAGIC = b'PLYATXNU'


def convert(data, scale):
    """Plyscope's weights file for Zataxx's network `data` (bytes)."""
    rows = WINDOWS * ZATAXX_STATES
    expected = 2 * (rows * HIDDEN + 2 * HIDDEN + 1)
    if len(data) != expected:
        raise ValueError(f'expected {expected} bytes (2,916 x 256 weights, 256 biases, '
                         f'256 output weights, 1 output bias, as i16), found {len(data)}')
    w = array('h')
    w.frombytes(data[:2 * rows * HIDDEN])
    if sys.byteorder != 'little':
        w.byteswap()
    at = 2 * rows * HIDDEN
    biases = data[at:at + 2 * HIDDEN]
    outputs = data[at + 2 * HIDDEN:at + 4 * HIDDEN]
    (out_bias,) = struct.unpack('<h', data[at + 4 * HIDDEN:])
    w1 = array('h')
    for window in range(WINDOWS):
        for state in range(STATES):
            digits = [(state >> (2 * k)) & 3 for k in range(4)]
            row = window * ZATAXX_STATES + sum((d if d < 3 else 0) * 3 ** k
                                               for k, d in enumerate(digits))
            w1.extend(w[row * HIDDEN:(row + 1) * HIDDEN])
    if sys.byteorder != 'little':
        w1.byteswap()
    header = MAGIC + struct.pack('<4I', HIDDEN, WINDOWS * STATES, 1, scale)
    return header + w1.tobytes() + biases + outputs + struct.pack('<ii', out_bias, 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('zataxx_net', help="Zataxx's network file (src/net6.bin in its source)")
    ap.add_argument('out', help='the Plyscope nnue file to write')
    ap.add_argument('--scale', type=int, default=200,
                    help='hundredths of a piece per logit (default 200)')
    args = ap.parse_args()
    if not 1 <= args.scale <= 10000:
        sys.exit('--scale: expected 1 to 10000')
    try:
        with open(args.zataxx_net, 'rb') as f:
            out = convert(f.read(), args.scale)
    except (OSError, ValueError) as e:
        sys.exit(f'{args.zataxx_net}: {e}')
    with open(args.out, 'wb') as f:
        f.write(out)
    print(f'wrote {args.out} ({len(out)} bytes)')


if __name__ == '__main__':
    main()
