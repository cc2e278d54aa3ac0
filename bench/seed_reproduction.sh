#!/usr/bin/env bash
# Runs every experiment of docs/algorithms.md's "Reproducing the write-ups" table (the labels
# use the short names its list "The write-ups" gives them) and appends one JSON record per line
# (the batch record plus "label" and "command") to OUT.
#
# Usage: bench/seed_reproduction.sh OUT.jsonl    (NQ: the binary, default build/nqueens)
# Takes about 10 minutes on 2 cores, most of it in `sa --reject-equal`.
set -euo pipefail
usage="usage: bench/seed_reproduction.sh OUT.jsonl   (NQ=path/to/nqueens, default build/nqueens)"
if [[ $# -eq 1 && ( $1 == -h || $1 == --help ) ]]; then echo "$usage"; exit 0; fi
if [[ $# -ne 1 ]]; then echo "$usage" >&2; exit 2; fi
nq=${NQ:-build/nqueens}
out=$1
[[ -x $nq ]] || { echo "seed_reproduction: no binary at $nq (set NQ)" >&2; exit 2; }
run() {  # label, n, then the batch arguments
  local label=$1 n=$2 rec
  shift 2
  rec=$("$nq" batch -n "$n" --threads 2 -f json "$@")
  python3 -c 'import json, sys
r = json.loads(sys.argv[1]); r["label"] = sys.argv[2]; r["command"] = sys.argv[3]
print(json.dumps(r))' "$rec" "$label" "nqueens batch -n $n --threads 2 -f json $*" >> "$out"
  echo "seed_reproduction: $label done" >&2
}
run "hc first tie" 8 --algo hc --ties first --seed 1 --runs 10000
run "hc first tie 100k" 8 --algo hc --ties first --seed 1 --runs 100000
run "hc default" 8 --algo hc --seed 1 --runs 10000
run "hc-sideways default" 8 --algo hc-sideways --seed 1 --runs 10000
run "hc-sideways first tie total" 8 --algo hc-sideways --ties first --sideways-limit total --seed 1 --runs 10000
run "hc-sideways first tie total 100k seed 7" 8 --algo hc-sideways --ties first --sideways-limit total --seed 7 --runs 100000
run "hc-sideways random tie total" 8 --algo hc-sideways --sideways-limit total --seed 1 --runs 10000
run "sa default" 8 --algo sa --seed 1 --runs 10000
run "sa reject-equal" 8 --algo sa --reject-equal --seed 1 --runs 10000
run "sa cooling per move" 8 --algo sa --cooling-per move --seed 1 --runs 10000
run "first-choice fixed order" 8 --algo first-choice --order fixed --seed 1 --runs 10000
run "first-choice random order" 8 --algo first-choice --seed 1 --runs 10000
run "case study climber" 8 --algo hc-sideways --ties last --plateau-jump --sideways 4294967295 --seed 1 --runs 10000
run "random-opt sweep" 8 --algo random-opt --step sweep --seed 1 --runs 10000
run "random-opt queen" 8 --algo random-opt --seed 1 --runs 10000
run "ga report preset" 8 --algo ga --preset report --seed 1 --runs 1000
run "hc-restart random tie total" 8 --algo hc-restart --sideways-limit total --seed 1 --runs 10000
run "hc-sideways random tie total n=8 1000 runs" 8 --algo hc-sideways --sideways-limit total --seed 1 --runs 1000
run "hc-sideways random tie total n=10" 10 --algo hc-sideways --sideways-limit total --seed 1 --runs 1000
run "hc-sideways random tie total n=15" 15 --algo hc-sideways --sideways-limit total --seed 1 --runs 1000
run "hc-memory q=4 n=32 1000 iterations" 32 --algo hc-memory --q 4 --max-steps 1000 --seed 1 --runs 1000
