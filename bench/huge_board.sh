#!/usr/bin/env bash
# A huge board end to end (issue 32): solve it into an .npy file, verify the file, and read it
# with numpy (memory-mapped: its shape, dtype, first and last rows, and the largest of the first
# million), each step's wall time and peak memory measured by /usr/bin/time. Not run by CI: at
# n = 2^32 - 1 it writes a 16 GiB file and needs about 17 GiB of memory for the solve.
#
# Usage: bench/huge_board.sh [N [THREADS]]   (N default 4294967295, THREADS default 2)
# Environment: NQ_BIN (default build/nqueens), NQ_SCRATCH (default /tmp: the .npy goes there,
# removed at the end), NQ_PYTHON (default /usr/bin/python3, Debian's, with numpy).
# Prints one markdown table row per step, then the machine; exit 1 when a step fails.
set -euo pipefail

if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
n=${1:-4294967295}
threads=${2:-2}
bin=${NQ_BIN:-build/nqueens}
scratch=${NQ_SCRATCH:-/tmp}
python=${NQ_PYTHON:-/usr/bin/python3}
if [[ ! $n =~ ^[0-9]+$ || ! $threads =~ ^[0-9]+$ ]]; then
  echo "huge_board: N and THREADS must be whole numbers, got '$n' '$threads'" >&2
  exit 2
fi
for tool in "$bin" /usr/bin/time "$python"; do
  if [[ ! -x $tool ]]; then
    echo "huge_board: $tool is not there (build with: cmake --build build --target nqueens)" >&2
    exit 2
  fi
done
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
board=$(mktemp "$scratch/huge-board-XXXXXX.npy")
trap 'rm -f "$board"' EXIT

# step NAME SHOWN COMMAND...: one table row, | step | command | exit | wall s | peak MiB |,
# the command shown as SHOWN (or as run, where SHOWN is empty).
failed=0
step() {
  local name=$1 shown=$2
  shift 2
  local measure
  measure=$(mktemp)
  local code=0
  /usr/bin/time -f '%e %M' -o "$measure" "$@" >"$measure.out" 2>"$measure.err" || code=$?
  read -r wall peak_kb <"$measure" || true
  printf '| %s | `%s` | %s | %s | %s |\n' "$name" "${shown:-$*}" "$code" "$wall" \
    "$(( ${peak_kb:-0} / 1024 ))"
  sed 's/^/    /' "$measure.out" "$measure.err" >&2
  rm -f "$measure" "$measure.out" "$measure.err"
  if [[ $code -ne 0 ]]; then failed=1; fi
}

echo "| step | command | exit | wall s | peak MiB |"
echo "|---|---|---|---|---|"
step solve "" "$bin" solve -n "$n" -t "$threads" --seed 1 -f npy -o "$board"
step verify "" "$bin" verify -t "$threads" "$board"
step numpy.load "numpy.load(board, mmap_mode='r'): shape, dtype, rows" "$python" -c "
import sys, numpy as np
a = np.load(sys.argv[1], mmap_mode='r')
assert a.shape == ($n,) and a.dtype == np.uint32, (a.shape, a.dtype)
print(a.shape, a.dtype, int(a[0]), int(a[-1]), int(a[:1000000].max()))
" "$board"
echo
echo "file: $(stat -c %s "$board") bytes; $("$bin" --version | head -1)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"\
  "$(free -g | awk '/Mem:/ {print $2}') GiB; load average before: $load_before, after:"\
  "$(cut -d' ' -f1-3 /proc/loadavg)"
exit "$failed"
