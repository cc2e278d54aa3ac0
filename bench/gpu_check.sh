#!/usr/bin/env bash
# The device check, bench/gpu_check.py (its --help, docs/gpu.md): this name kept for those who
# know it. On the GPU machine, figures first:  bash bench/gpu_check.sh figures "$OUT"
exec python3 "$(dirname "${BASH_SOURCE[0]}")/gpu_check.py" "$@"
