#!/usr/bin/env bash
# The whole check on a GPU machine, in under 9 minutes on one H100 or H200, most telling first:
# build for sm_90; the gpu tests (four at a time, 60 s each at most); compute-sanitizer
# (memcheck, racecheck, synccheck) on gpu_test at the host execution's sizes; `nqueens bench
# --suite full --device all` (issue 31: every workload on one core, every core and each GPU,
# its record kept and drawn); bench_gpu.py (the GPU cases beyond the suite); the lattice and the
# parallel placement (bench_placement.py, 10^8 and 10^9 queens); the stop and --device all count
# steps; MPI where it is installed; the host-kernel tests last.
# Each step runs under a time cap, clipped to an overall deadline (8.5 minutes); a step that
# fails does not stop the others, and steps not begun by the deadline are skipped. OUTDIR gets
# at most 8 files (what the device machine sends back): env.txt, build.log, ctest-gpu.txt (the
# gpu tests, compute-sanitizer, the host-kernel tests), bench.txt (the drivers' output),
# gpu.jsonl (the drivers' records), bench-full.json (the bench record), bench-full.png (it
# drawn, where matplotlib imports) and summary.txt.
# The stop steps: a SIGINT 3 s into n = 21 (out within 1 s, the resume exact); then
# --device all (the GPUs and the CPU) timed at 18 and 20, stopped at 21 and resumed on the
# GPUs, and --devices (bench/count_devices.sh); then n = 18 on every rank's GPUs under mpiexec.
# On 2026-11-25 (bench/results/2026-11-25-h200/) the build took 53 s and the gpu tests 95 s.
#
# Usage: bench/gpu_check.sh OUTDIR
# Exit: 0 all steps passed or were skipped, 1 a step failed or timed out, 2 usage, 3 no GPU.
# Environment: NQ_GPU_BUILD_DIR (default build-gpu), NQ_GPU_CHECK_DEADLINE (seconds, default
# 510), NQ_GIT_SHA (recorded where the checkout has no .git, as on the device machine),
# NQ_CUDA_ROOT (default /usr/local/cuda).
set -euo pipefail

usage="usage: bench/gpu_check.sh OUTDIR"
if [[ $# -ne 1 || -z $1 ]]; then
  echo "$usage" >&2
  exit 2
fi
if [[ $1 == -h || $1 == --help ]]; then
  echo "$usage"
  exit 0
fi
command_line=$(printf '%q ' "$0" "$@")
command_line=${command_line% }
deadline=${NQ_GPU_CHECK_DEADLINE:-510}
if [[ ! $deadline =~ ^[0-9]+$ ]]; then
  echo "gpu_check: NQ_GPU_CHECK_DEADLINE must be whole seconds, got '$deadline'" >&2
  exit 2
fi
SECONDS=0
root=$(cd -P "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
cd "$root"
build_dir=${NQ_GPU_BUILD_DIR:-build-gpu}
cuda=${NQ_CUDA_ROOT:-/usr/local/cuda}
min_step=20  # seconds: a step with less than this left before the deadline is skipped
# Time caps in seconds. Typical times are far lower; the deadline bounds the sum.
cap_configure=90 cap_build=300 cap_ctest=150 cap_host=60 cap_bench_gpu=150 cap_bench_count=90
cap_stop=120 cap_devices=120 cap_mpi=60
cap_bench_placement=90
# nqueens bench: its --time-budget is the cap (or what the deadline leaves) less bench_margin,
# the time to end the figure under way and write the record; with less than bench_least seconds
# left it is skipped, since a full suite's figures on so little time say little.
cap_bench=240 bench_margin=30 bench_least=120
declare -A cap_sanitizer=([memcheck]=75 [racecheck]=45 [synccheck]=30)

# An earlier run's files would be appended to (the drivers append JSON lines).
for f in env.txt build.log ctest-gpu.txt bench.txt gpu.jsonl bench-full.json bench-full.png \
  summary.txt; do
  rm -f "${out:?}/$f"
done

gpu_list() {
  if command -v nvidia-smi >/dev/null 2>&1 && timeout 30 nvidia-smi -L 2>/dev/null | grep '^GPU '
  then
    return 0
  fi
  [[ -x $cuda/bin/__nvcc_device_query ]] &&
    timeout 30 "$cuda/bin/__nvcc_device_query" 2>/dev/null | grep -E '^[0-9]'
}
if ! gpus=$(gpu_list); then
  echo "gpu_check: no GPU found (neither nvidia-smi -L nor __nvcc_device_query sees one)" >&2
  exit 3
fi

failed=0 status="" rc=0 took=0 mark=0
# summary STEP STATUS SECONDS LOG [NOTE]: one line in summary.txt and on stderr.
summary() {
  local line
  if [[ -n ${5:-} ]]; then
    line=$(printf '%-18s %-7s %4ss  %-15s %s' "$1" "$2" "$3" "$4" "$5")
  else
    line=$(printf '%-18s %-7s %4ss  %s' "$1" "$2" "$3" "$4")
  fi
  echo "$line" >>"$out/summary.txt"
  printf '[%3ds] %s\n' "$SECONDS" "$line" >&2
  if [[ $2 == FAIL || $2 == TIMEOUT ]]; then failed=1; fi
}

# The lines a step added to LOG since its header.
since_mark() { tail -n +"$((mark + 1))" "$1"; }

# timed NAME CAP LOG CMD...: runs CMD with its output appended to LOG under a header, capped at
# CAP seconds or the deadline, whichever is first; sets rc, took, status (PASS, FAIL, TIMEOUT)
# and mark (LOG's line count before the header, so that the step's own lines can be read back).
timed() {
  local name=$1 cap=$2 log=$3 start=$SECONDS
  shift 3
  if ((cap > deadline - SECONDS)); then cap=$((deadline - SECONDS)); fi
  touch "$log"
  mark=$(wc -l <"$log")
  printf '\n===== %s: %s(cap %d s, at %d s) =====\n' "$name" "$(printf '%q ' "$@")" "$cap" \
    "$SECONDS" >>"$log"
  rc=0
  timeout --kill-after=10 "$cap" "$@" >>"$log" 2>&1 </dev/null || rc=$?
  took=$((SECONDS - start))
  if ((rc == 0)); then
    status=PASS
  elif ((rc == 124 || (rc == 137 && took >= cap))); then
    status=TIMEOUT
  else
    status=FAIL
  fi
  printf '===== %s: exit %d after %d s: %s =====\n' "$name" "$rc" "$took" "$status" >>"$log"
  if [[ $status != PASS ]]; then since_mark "$log" | tail -n 15 | sed 's/^/    | /' >&2; fi
}

time_left() { ((deadline - SECONDS >= min_step)); }

# step NAME CAP LOG CMD...: one summary line for CMD, or SKIP when the deadline is too near.
step() {
  local name=$1 cap=$2 log=$3
  shift 3
  if ! time_left; then
    summary "$name" SKIP 0 "$log" "deadline"
    return 0
  fi
  timed "$name" "$cap" "$out/$log" "$@"
  summary "$name" "$status" "$took" "$log" "$([[ $status == PASS ]] || echo "exit $rc")"
}

# show CMD...: CMD's output under a header, in env.txt; a failure is noted, not fatal.
show() {
  printf '\n--- %s\n' "$*"
  timeout 20 "$@" 2>&1 || echo "(exit $?)"
}

# 1. The machine and the checkout: queries only, no GPU setting is changed.
nvcc=$cuda/bin/nvcc
[[ -x $nvcc ]] || nvcc=nvcc
gpu_fields=name,pci.bus_id,driver_version,memory.total,persistence_mode,compute_mode
gpu_fields+=,mig.mode.current,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu
echo "gpu_check: $(head -n 1 <<<"$gpus"); writing to $out; deadline ${deadline}s" >&2
{
  echo "command: $command_line"
  echo "directory: $root"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(uname -srm)"
  echo "nproc: $(nproc)"
  if [[ $(git rev-parse --show-toplevel 2>/dev/null) == "$root" ]]; then
    dirty=no
    if [[ -n $(git status --porcelain --untracked-files=no) ]]; then dirty=yes; fi
    echo "git: $(git rev-parse HEAD) (tracked files changed: $dirty)"
    git status --short
  else
    echo "git: no repository here; NQ_GIT_SHA=${NQ_GIT_SHA:-unset}"
  fi
  echo "gpus:"
  echo "$gpus"
  echo "build directory: $build_dir"
  if [[ -d .deps/root/usr ]]; then echo ".deps/root/usr: present"; else echo ".deps: absent"; fi
  show nvidia-smi
  show nvidia-smi --format=csv --query-gpu="$gpu_fields"
  show "$nvcc" --version
  show cmake --version
  show c++ --version
  show python3 --version
  show "$cuda/bin/compute-sanitizer" --version
} >"$out/env.txt" 2>&1
summary env PASS "$SECONDS" env.txt

# 2. Configure and build, with the Debian packages from .deps when they were carried along.
cmake_args=(-S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90)
if [[ -d .deps/root/usr ]]; then
  cmake_args+=("-DCMAKE_PREFIX_PATH=$PWD/.deps/root/usr"
               "-DCMAKE_INCLUDE_PATH=$PWD/.deps/root/usr/include")
  deps_lib=$PWD/.deps/root/usr/lib/x86_64-linux-gnu
  export LD_LIBRARY_PATH="$deps_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
export PYTHONUNBUFFERED=1
step configure "$cap_configure" build.log cmake "${cmake_args[@]}"
built=0
if [[ $status == PASS ]]; then
  step build "$cap_build" build.log cmake --build "$build_dir" -j"$(nproc)"
  if [[ $status == PASS ]]; then
    built=1
    show "$build_dir/nqueens" --version >>"$out/env.txt"
  fi
else
  summary build SKIP 0 build.log "configure did not pass"
fi

# needs NAME LOG PATH: true when the build passed and PATH is there; else a SKIP line.
needs() {
  if ((built == 0)); then
    summary "$1" SKIP 0 "$2" "build did not pass"
    return 1
  elif [[ ! -x $3 ]]; then
    summary "$1" SKIP 0 "$2" "no $3"
    return 1
  fi
}

# 3. The gpu tests (GpuLattice: the lattice kernel's boards equal the CPU's up to 10^8 queens),
# four at a time, none past 60 s (on 2026-11-25 one slow test took the whole cap).
# A gpu test skips itself when it sees no device: here, where there is one, that fails. Other
# skips (a test for two devices on a machine with one, a test of the host execution's memory
# cap) are named in the log with their reasons and pass.
gpu_test=$build_dir/tests/gpu_test
if needs ctest-gpu ctest-gpu.txt "$gpu_test"; then
  if time_left; then
    timed ctest-gpu "$cap_ctest" "$out/ctest-gpu.txt" ctest --test-dir "$build_dir" -L gpu \
      --output-on-failure -j4 --timeout 60 --no-tests=error
    note=$([[ $status == PASS ]] || echo "exit $rc")
    blind=0
    skipped=$(since_mark "$out/ctest-gpu.txt" |
      sed -n 's/.*Test *#[0-9]*: \([^ ]*\) .*\*\*\*Skipped.*/\1/p')
    for name in $skipped; do
      reason=$(timeout 30 "$gpu_test" "--gtest_filter=$name" 2>&1 | grep -m 1 -A 1 ': Skipped$' |
        tail -n 1 || true)
      echo "skipped: $name: ${reason:-no reason printed}" >>"$out/ctest-gpu.txt"
      if [[ -z $reason || $reason == *"no CUDA device"* ]]; then blind=$((blind + 1)); fi
    done
    {
      echo "slowest:"
      since_mark "$out/ctest-gpu.txt" | sed -n 's/.*Test *#[0-9]*: \([^ ]*\) .* \([0-9.]*\) sec$/\2 \1/p' |
        sort -rn | head -n 8
    } >>"$out/ctest-gpu.txt"
    if ((blind > 0)); then
      note="${note:+$note; }$blind tests skipped: they see no GPU"
      if [[ $status == PASS ]]; then status=FAIL; fi
    fi
    summary ctest-gpu "$status" "$took" ctest-gpu.txt "$note"
  else
    summary ctest-gpu SKIP 0 ctest-gpu.txt deadline
  fi
fi

# bench_note: why a driver that exited 1 did so (it exits 1 too when a target is missed).
bench_note() {
  if [[ $rc == 1 ]] && since_mark "$out/bench.txt" | grep -q '^appended '; then
    echo "a target missed; records written"
  elif [[ $status == TIMEOUT ]]; then
    echo "timed out"
  elif [[ $status != PASS ]]; then
    echo "exit $rc"
  fi
}

# 4. compute-sanitizer (its log in ctest-gpu.txt: the device machine sends back 8 files), first
# after the gpu tests, on the host execution's sizes (NQ_TEST_SIZES=host;
# the device sizes ran past 150 s under memcheck and racecheck on 2026-11-25): memcheck without
# the slow statistics, OEIS, population comparison and long serial tests; racecheck and synccheck
# on the block-collective kernels (chains, ga and beam).
sanitizer=$cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  if ! needs "$tool" ctest-gpu.txt "$gpu_test"; then continue; fi
  if [[ ! -x $sanitizer ]]; then
    summary "$tool" SKIP 0 ctest-gpu.txt "no $sanitizer"
    continue
  fi
  filter='--gtest_filter=GpuBlockChains*:GpuRace*:GpuEdges.Races*:GpuEdges.TimeLimits*'
  filter+=':GpuFrameCount.CountsAnySubset*:Searches/GpuPopulation.Traces*:GpuPopulationControl.*'
  filter+=':Searches/GpuPopulationGrid.Traces*:Searches/GpuBeamGrid.Traces*'
  if [[ $tool == memcheck ]]; then
    filter='--gtest_filter=-*BatchesMatch*:GpuCount.MatchesOeis*:GpuFrameCount.MatchesOeis*'
    filter+=':GpuFrameCount.EveryFrame*:GpuFrameCheckpoint*:*GpuPopulation.MatchesTheCpu*'
    filter+=':GpuDevices.OneTwoOrThree*'
    filter+=':*GpuPopulationGrid*.MatchesTheCpu*:*GpuBeamGrid*.MatchesTheCpu*'
    filter+=':*GpuBeamGrid*.LargeBoards*:GpuLattice.SameBoardAsTheCpu:GpuLattice.ATimeLimitWhile*'
    filter+=':GpuPlacement.SameBoardAsTheCpu:GpuEdges.ScratchChainsMatchTheCpuOnLargeBoards'
  fi
  step "$tool" "${cap_sanitizer[$tool]}" ctest-gpu.txt env NQ_TEST_SIZES=host "$sanitizer" \
    --tool "$tool" --error-exitcode 1 "$gpu_test" "$filter"
done

# 5. Benchmarks: the GPU against the CPU.
# First `nqueens bench --suite full --device all` (issue 31): every workload of the suite on one
# core, every core and each GPU, with its count at n = 18 and 20 on the GPU (what bench_count.py
# --device gpu timed here before). A build without the subcommand skips it. Its record is written
# only at its end, so the step's cap leaves it bench_margin seconds past its --time-budget.
if needs bench bench.txt "$build_dir/nqueens"; then
  left=$((deadline - SECONDS))
  if ! "$build_dir/nqueens" bench --help >/dev/null 2>&1; then
    summary bench SKIP 0 bench.txt "this nqueens has no bench subcommand"
  elif ((left < bench_least)); then
    summary bench SKIP 0 bench.txt "deadline: ${left} s left, bench needs ${bench_least} s"
  else
    budget=$(((left < cap_bench ? left : cap_bench) - bench_margin))
    timed bench "$((budget + bench_margin))" "$out/bench.txt" "$build_dir/nqueens" bench \
      --suite full --device all --time-budget "$budget" -f json -o "$out/bench-full.json" -q
    summary bench "$status" "$took" bench.txt \
      "budget ${budget} s$([[ $status == PASS ]] || echo "; exit $rc")"
    # Drawn where matplotlib imports (on the device machine, the image's python3 has it).
    if [[ ! -s $out/bench-full.json ]]; then
      summary bench-plot SKIP 0 bench.txt "no record written"
    elif ! python3 -c 'import matplotlib' >/dev/null 2>&1; then
      summary bench-plot SKIP 0 bench.txt "no matplotlib for python3"
    else
      step bench-plot 60 bench.txt python3 bench/plot_bench.py "$out/bench-full.json" \
        -o "$out/bench-full.png"
    fi
  fi
fi
# The GPU cases beyond the suite: sa at n = 256, hc at n = 1024 and one step's time there, small
# ga and beam batches, single ga runs at n = 1000 and a whole-grid beam, with issues 5 and 16's
# targets. The placement comes last: at 10^9 its device and host passes are estimated at 10-20 s
# each (docs/gpu-costs.md).
if needs bench-gpu bench.txt "$build_dir/nqueens"; then
  if time_left; then
    timed bench-gpu "$cap_bench_gpu" "$out/bench.txt" python3 bench/bench_gpu.py \
      --binary "$build_dir/nqueens" --repeats 3 --output "$out/gpu.jsonl"
    summary bench-gpu "$status" "$took" bench.txt "$(bench_note)"
  else
    summary bench-gpu SKIP 0 bench.txt deadline
  fi
fi
# The lattice on the device (issue 15): 10^8 and 10^9 queens, 3 runs each, the board kept on the
# device (summary format); targets at 10^9: 2 s of kernels, 5 s end to end.
if needs bench-lattice bench.txt "$build_dir/nqueens"; then
  if time_left; then
    timed bench-lattice "$cap_bench_placement" "$out/bench.txt" python3 bench/bench_placement.py \
      --binary "$build_dir/nqueens" --algo lattice --device gpu --sizes 1e8,1e9 --repeats 3 \
      --output "$out/gpu.jsonl"
    summary bench-lattice "$status" "$took" bench.txt "$(bench_note)"
  else
    summary bench-lattice SKIP 0 bench.txt deadline
  fi
fi
# Huge boards by parallel placement on the device (issue 15), records appended to gpu.jsonl.
if needs bench-placement bench.txt "$build_dir/nqueens"; then
  if time_left; then
    timed bench-placement "$cap_bench_placement" "$out/bench.txt" python3 bench/bench_placement.py \
      --binary "$build_dir/nqueens" --device gpu --sizes 1e8,1e9 --output "$out/gpu.jsonl"
    summary bench-placement "$status" "$took" bench.txt "$(bench_note)"
  else
    summary bench-placement SKIP 0 bench.txt deadline
  fi
fi
# Issue 17: SIGINT 3 s into a count of n = 21 (start-up included), out within 1 s, then the
# resume exact.
if needs stop-resume bench.txt "$build_dir/nqueens"; then
  if time_left; then
    timed stop-resume "$cap_stop" "$out/bench.txt" python3 bench/bench_count.py \
      --binary "$build_dir/nqueens" --device gpu --sizes 21 --stop-after 3 \
      --output "$out/gpu.jsonl"
    summary stop-resume "$status" "$took" bench.txt "$(bench_note)"
  else
    summary stop-resume SKIP 0 bench.txt deadline
  fi
fi

# Issue 17, every GPU and the CPU: --device all timed at n = 18 and 20, a SIGINT 3 s into
# --device all at n = 21 resumed on --device gpu, and --devices (errors, each GPU, the first
# two together) through bench/count_devices.sh.
if needs count-all bench.txt "$build_dir/nqueens"; then
  if time_left; then
    timed count-all "$cap_bench_count" "$out/bench.txt" python3 bench/bench_count.py \
      --binary "$build_dir/nqueens" --device all --sizes 18,20 --repeats 3 \
      --output "$out/gpu.jsonl"
    summary count-all "$status" "$took" bench.txt "$(bench_note)"
  else
    summary count-all SKIP 0 bench.txt deadline
  fi
fi
if needs stop-all bench.txt "$build_dir/nqueens"; then
  if time_left; then
    timed stop-all "$cap_stop" "$out/bench.txt" python3 bench/bench_count.py \
      --binary "$build_dir/nqueens" --device all --resume-device gpu --sizes 21 \
      --stop-after 3 --output "$out/gpu.jsonl"
    summary stop-all "$status" "$took" bench.txt "$(bench_note)"
  else
    summary stop-all SKIP 0 bench.txt deadline
  fi
fi
if needs count-devices bench.txt "$build_dir/nqueens"; then
  step count-devices "$cap_devices" bench.txt bench/count_devices.sh "$build_dir/nqueens" \
    "$(grep -c . <<<"$gpus")"
fi

# Issue 19: every rank's GPUs under mpiexec (two ranks, sharing the machine's GPUs), where Open
# MPI is installed and the build has it (the device machine may have neither): n = 18 with
# --device gpu, then all, each equal to A000170(18) with every rank's GPUs counting.
if needs mpi-gpu bench.txt "$build_dir/nqueens"; then
  if ! command -v mpiexec >/dev/null 2>&1 ||
    ! grep -q '^NQ_ENABLE_MPI:BOOL=ON' "$build_dir/CMakeCache.txt"; then
    summary mpi-gpu SKIP 0 bench.txt "no Open MPI here (mpiexec, or a build with NQ_ENABLE_MPI)"
  else
    step mpi-gpu "$cap_mpi" bench.txt bash -c '
      as_root=(); if [[ $(id -u) == 0 ]]; then as_root=(--allow-run-as-root); fi
      for device in gpu all; do
        record=$(mpiexec --oversubscribe "${as_root[@]}" -n 2 "$1" count -n 18 --device "$device" \
          -t 4 -f json -q) || exit 1
        echo "$record"
        python3 -c "import json, sys; r = json.loads(sys.argv[1]); \
          assert r[\"solutions\"] == 666090624, r[\"solutions\"]; \
          assert all(k[\"gpus\"] > 0 and k[\"subproblems\"] > 0 for k in r[\"by_rank\"]), r" \
          "$record" || exit 1
      done' mpi-gpu "$build_dir/nqueens"
  fi
fi

# The host_kernel_test's tests (kernels run on the host) on this machine's cores: CI runs them
# on every change, so they come last here.
if needs host-kernel-tests ctest-gpu.txt "$build_dir/tests/host_kernel_test"; then
  step host-kernel-tests "$cap_host" ctest-gpu.txt ctest --test-dir "$build_dir" \
    -R '^host\.' --output-on-failure -j"$(nproc)" --timeout 300 --no-tests=error
fi

# 6. A check on what the device machine will send back, and the verdict.
files=$(find "$out" -maxdepth 1 -type f | wc -l)
if ((files > 8)); then
  echo "gpu_check: $files files in $out; the device machine sends back 8 at most" |
    tee -a "$out/summary.txt" >&2
fi
verdict="no step failed"
if ((failed)); then verdict="some step failed or timed out"; fi
echo "total ${SECONDS}s, $verdict" | tee -a "$out/summary.txt" >&2
exit "$failed"
