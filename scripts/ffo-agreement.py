#!/usr/bin/env python3
"""Midgame agreement with the exact best moves: a hand-run benchmark, not a test.

For each FFO position #40-#79 (the "fforum" problem files shipped with Edax's public source,
github:abulmo/edax-reversi, folder problem/, which list every legal move's exact final margin),
Plyscope searches for T ms with each evaluator and the endgame solver off (`--exact 0`), and the
move it chooses is looked up: its margin against the best margin is the discs it gives away.

    scripts/ffo-agreement.py --plyscope target/release/plyscope \\
        --problems /path/to/edax-reversi/problem --time-ms 10000 --evals patterns,strong > out.jsonl

Prints one JSON line per position and evaluator, then a summary per evaluator on standard error.
"""
import argparse, json, os, subprocess, sys

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--plyscope", default="target/release/plyscope")
ap.add_argument("--problems", required=True, help="Edax's problem/ folder (fforum-40-59.obf, fforum-60-79.obf)")
ap.add_argument("--time-ms", default="10000")
ap.add_argument("--evals", default="patterns,strong")
args = ap.parse_args()

lines = []
for f in ["fforum-40-59.obf", "fforum-60-79.obf"]:
    lines += [l.strip() for l in open(os.path.join(args.problems, f)) if l.strip()]
rows = []
for k, line in enumerate(lines):
    parts = [p.strip() for p in line.split(";") if p.strip()]
    pos = parts[0]
    scores = {m.split(":")[0].lower(): int(m.split(":")[1]) for m in parts[1:]}
    best = max(scores.values())
    for ev in args.evals.split(","):
        out = subprocess.run([args.plyscope, "search", "reversi", "--position", pos, "--time-ms", args.time_ms,
                              "--depth", "60", "--exact", "0", "--eval", ev, "--json"],
                             capture_output=True, text=True, check=True)
        d = json.loads(out.stdout)
        margin = scores.get(d["move"])
        row = {"ffo": 40 + k, "empties": pos.split()[0].count("-"), "eval": ev, "move": d["move"],
               "margin": margin, "best": best, "loss": None if margin is None else best - margin,
               "depth": d["stats"]["depth_reached"], "nodes": d["stats"]["nodes"],
               "load": float(open("/proc/loadavg").read().split()[0])}
        rows.append(row)
        print(json.dumps(row), flush=True)
for ev in args.evals.split(","):
    r = [x for x in rows if x["eval"] == ev and x["loss"] is not None]
    if r:
        print(f"{ev}: {sum(x['loss'] == 0 for x in r)}/{len(r)} best moves, mean loss "
              f"{sum(x['loss'] for x in r) / len(r):.2f} discs, depth {sum(x['depth'] for x in r) / len(r):.1f}",
              file=sys.stderr)
