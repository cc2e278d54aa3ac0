"""What every benchmark driver records about the machine and the build, and how it appends
JSON lines to bench/results/."""

import datetime
import json
import os
import pathlib
import platform
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent


def cpu_model():
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def memory_total_bytes():
    for line in pathlib.Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) * 1024
    return None


def git(*args):
    result = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    return result.stdout.strip() if result.returncode == 0 else None


def machine_record(binary):
    """The CPU, the build and the commit, for every record of a CPU run."""
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
    build_type = re.search(r"\((\w+) build", version)
    return {
        "device": "cpu",
        "device_name": cpu_model(),
        "cores": os.cpu_count(),
        "memory_total_bytes": memory_total_bytes(),
        "kernel": platform.release(),
        "version": version,
        "build_type": build_type.group(1) if build_type else None,
        "git_sha": git("rev-parse", "--short", "HEAD"),
        "git_dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
        "date": datetime.date.today().isoformat(),
    }


def default_output(date):
    return ROOT / "bench" / "results" / f"{date}-cpu.jsonl"


def repo_relative(command):
    return command.replace(str(ROOT) + "/", "")


def append_records(output, records):
    output = pathlib.Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    with output.open("a") as out:
        for record in records:
            out.write(json.dumps(record) + "\n")
    shown = output.relative_to(ROOT) if output.is_relative_to(ROOT) else output
    print(f"appended {len(records)} records to {shown}")
