#!/usr/bin/env bash
# Hand-run: compares Plyscope's Hive perft with another UHP engine's on random positions of every
# game type. The other engine is nokamute (https://github.com/edre/nokamute), built by whoever runs
# this, outside the repository; it is never a build or test dependency.
#
#   scripts/hive-perft-compare.sh /path/to/nokamute [depth] [positions per game type]
#
# Prints one line per position with both counts at `depth` (default 3) and a summary; exits 1 on any
# difference.
set -euo pipefail
noka=${1:?usage: $0 /path/to/nokamute [depth] [positions per game type]}
depth=${2:-3}
per=${3:-20}
cd "$(dirname "$0")/.."
cargo build --release --quiet
HIVE_POSITIONS=$per cargo test --release --quiet --test hive dump_random_positions -- --ignored --nocapture \
  | sed -n 's/^POSITION //p' > target/hive-positions.txt
# nokamute's UHP mode has a `perft N` command: one process answers every position.
while IFS= read -r g; do printf 'newgame %s\nperft %s\n' "$g" "$depth"; done < target/hive-positions.txt \
  | "$noka" uhp | awk -v d="$depth" '$1==d && NF>=3 {print $2}' > target/hive-positions.theirs
same=0; diff=0; i=0
while IFS= read -r g; do
  i=$((i+1))
  ours=$(./target/release/plyscope perft hive "$depth" --position "$g" | awk -v d="$depth" '$1==d {print $2}')
  theirs=$(sed -n "${i}p" target/hive-positions.theirs)
  if [ "$ours" = "$theirs" ]; then same=$((same+1)); else diff=$((diff+1)); echo "DIFF ours=$ours theirs=$theirs $g"; fi
done < target/hive-positions.txt
echo "positions: $((same+diff)), equal: $same, different: $diff (perft depth $depth)"
[ "$diff" -eq 0 ]
