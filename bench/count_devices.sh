#!/usr/bin/env bash
# `nqueens count` on the GPUs by number (issue 17), for the device check (bench/gpu_check.py checks): the --devices
# errors (exit 2), each GPU on its own, and, with two or more, the first two together and every
# GPU with the CPU threads (--device all); each count must give the OEIS totals.
#
# Usage: bench/count_devices.sh NQUEENS GPUS [N]
# N: the size of the last count, every GPU with the CPU threads (default 20; the device
# check's dry run, on a machine without a GPU, gives 12).
# Exit: 0 every case as expected, 1 one was not, 2 usage.
set -uo pipefail

if [[ $# -lt 2 || $# -gt 3 || ! $2 =~ ^[0-9]+$ || ! ${3:-20} =~ ^(12|16|18|20)$ ]]; then
  echo "usage: bench/count_devices.sh NQUEENS GPUS [12|16|18|20]" >&2
  exit 2
fi
nqueens=$1 gpus=$2 all_n=${3:-20} failed=0
err=$(mktemp)
trap 'rm -f "$err"' EXIT
declare -A solutions=([12]=14200 [16]=14772512 [18]=666090624 [20]=39029188884)

# expect CODE ARGS...: `count ARGS` exits CODE.
expect() {
  local want=$1 code=0
  shift
  "$nqueens" count "$@" -q >/dev/null 2>"$err" || code=$?
  if ((code == want)); then
    echo "ok   exit $code: count $* ($(head -c 200 "$err"))"
  else
    echo "FAIL exit $code, expected $want: count $* ($(head -c 200 "$err"))"
    failed=1
  fi
}

# exact N ARGS...: `count -n N ARGS` gives the OEIS total; prints its JSON.
exact() {
  local n=$1 answer
  shift
  answer=$("$nqueens" count -n "$n" "$@" -f json -q) || {
    echo "FAIL exit $?: count -n $n $*"
    failed=1
    return
  }
  if grep -q "\"solutions\":${solutions[$n]}," <<<"$answer"; then
    echo "ok   count -n $n $*: $answer"
  else
    echo "FAIL count -n $n $*: $answer (expected ${solutions[$n]} solutions)"
    failed=1
  fi
}

expect 2 -n 12 --devices 0,0
# A number past the last GPU is a usage error; without any GPU, the device is missing (3).
if ((gpus > 0)); then expect 2 -n 12 --devices "$gpus"; else expect 3 -n 12 --devices 0; fi
expect 2 -n 12 --devices x
expect 2 -n 12 --devices 0 --device cpu
for ((d = 0; d < gpus; ++d)); do exact 18 --devices "$d"; done
if ((gpus >= 2)); then
  exact 20 --devices 0,1
  exact 20 --device gpu
fi
exact "$all_n" --device all
exit "$failed"
