#!/usr/bin/env bash
# Line coverage of kernels/ by the host execution: builds host_kernel_test with gcov
# instrumentation (no CUDA, Debug), runs it, and prints gcovr's table for kernels/*.cu and
# kernels/*.cuh. Needs gcovr (apt-get install -y gcovr).
#
# Usage: bench/kernel_coverage.sh [BUILD_DIR]   (default build-coverage)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-coverage}
command -v gcovr >/dev/null || { echo "kernel_coverage: needs gcovr (apt-get install -y gcovr)" >&2; exit 3; }
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DNQ_ENABLE_CUDA=OFF \
  -DCMAKE_CXX_FLAGS=--coverage -DCMAKE_EXE_LINKER_FLAGS=--coverage >/dev/null
cmake --build "$build" -j"$(nproc)" --target host_kernel_test >/dev/null
find "$build" -name "*.gcda" -delete
find "$build/CMakeFiles" -name "*.gcno" -delete  # CMake's compiler probes: no sources to report
"$build/tests/host_kernel_test" --gtest_brief=1 >/dev/null
gcovr --root . --object-directory "$build" --filter 'kernels/' --txt
