#!/usr/bin/env python3
"""The house's layering, checked on the source tree (issue 45): one way down,
cli, python -> engine -> {cpu, kernels, cluster} -> core -> include.

    layering_test.py CHECK ROOT     run one check on the tree at ROOT
    layering_test.py selftest       each check on a small tree that breaks it, and one that
                                    keeps it: a check that cannot fail fails here

Checks:
  file-size      no file under src/, kernels/ or include/ is over 450 lines
  cli-size       src/cli holds at most 2,000 lines of C++
  kernels        nothing in kernels/ includes a header of src/
  kernel-paths   the kernel libraries (kernels/CMakeLists.txt) have no include path into src
  faces          src/cli and src/python include only their own headers, the public headers
                 (include/nqueens, not its detail/) and core's utilities (src/core)
  doc-paths      every repository path docs/*.md and README.md name (`src/...` in backticks)
                 exists
  doc-outside    no page a user reads (README.md, docs/*.md, examples/) names a path outside
                 the repository: a link is followed from its page, any other `../` path from
                 the repository's root (where the docs' commands run)
"""

import os
import re
import sys
import tempfile

MAX_FILE_LINES = 450
MAX_CLI_LINES = 2000
CPP = (".cpp", ".hpp", ".cu", ".cuh", ".h")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def files_under(root, folder, suffixes=None):
    base = os.path.join(root, folder)
    for directory, _, names in os.walk(base):
        for name in sorted(names):
            if suffixes is None or name.endswith(suffixes):
                yield os.path.join(directory, name)


def line_count(path):
    with open(path, "rb") as f:
        return f.read().count(b"\n")


def includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return INCLUDE.findall(f.read())


def rel(root, path):
    return os.path.relpath(path, root)


def check_file_size(root):
    return [f"{rel(root, p)}: {n} lines (at most {MAX_FILE_LINES})"
            for folder in ("src", "kernels", "include")
            for p in files_under(root, folder) if (n := line_count(p)) > MAX_FILE_LINES]


def check_cli_size(root):
    total = sum(line_count(p) for p in files_under(root, "src/cli", CPP))
    return [] if total <= MAX_CLI_LINES else [
        f"src/cli: {total} lines of C++ (at most {MAX_CLI_LINES}): move what is not parsing or "
        "printing under the engine"]


def check_kernels(root):
    # A kernel file includes its neighbours ("kernels/...") and the shared headers
    # ("nqueens/..."); a name of src/ (core/, cpu/, engine/, ...) is a way up.
    return [f"{rel(root, p)}: includes \"{h}\" (kernels/ reaches only kernels/ and nqueens/)"
            for p in files_under(root, "kernels")
            for h in includes(p) if not h.startswith(("kernels/", "nqueens/"))
            and "/" in h]


def check_kernel_paths(root):
    path = os.path.join(root, "kernels", "CMakeLists.txt")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return [f"kernels/CMakeLists.txt: an include path into src ({m.group(0).strip()})"
            for m in re.finditer(r"[^\n]*(\$\{PROJECT_SOURCE_DIR\}/src|\bsrc)\s*\)?\s*$", text,
                                 re.M)
            if "include_directories" in m.group(0) or "PRIVATE" in m.group(0)]


def check_faces(root):
    problems = []
    for face, own in (("src/cli", "cli/"), ("src/python", "python/")):
        for p in files_under(root, face, CPP):
            for h in includes(p):
                public = h.startswith("nqueens/") and not h.startswith("nqueens/detail/")
                if not (h.startswith((own, "core/")) or public):
                    problems.append(f"{rel(root, p)}: includes \"{h}\" (a face includes its own "
                                    "headers, nqueens/ and core/)")
    return problems


def check_doc_paths(root):
    pages = [os.path.join(root, "README.md")] + sorted(files_under(root, "docs", (".md",)))
    problems = []
    for page in pages:
        if not os.path.exists(page):
            continue
        with open(page, encoding="utf-8") as f:
            text = f.read()
        for name in sorted(set(re.findall(r"`((?:src|kernels|include|tests|bench|examples|docs)/"
                                          r"[A-Za-z0-9_./-]*[A-Za-z0-9_/])`", text))):
            if "*" in name or not os.path.exists(os.path.join(root, name.rstrip("/"))):
                if "*" not in name:
                    problems.append(f"{rel(root, page)} names {name}, which does not exist")
    return problems


# A relative path that climbs: `../x`, not the `.../x` of an elided prefix.
CLIMB = re.compile(r"(?<![\w.])(?:\.\./)+[^\s`'\")\]]*")


def user_pages(root):
    yield os.path.join(root, "README.md")
    yield from sorted(files_under(root, "docs", (".md",)))
    yield from sorted(files_under(root, "examples"))


def check_doc_outside(root):
    problems = []
    for page in user_pages(root):
        if not os.path.isfile(page):
            continue
        with open(page, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        for number, line in enumerate(lines, 1):
            for m in CLIMB.finditer(line):
                link = line[:m.start()].endswith("](")
                base = os.path.dirname(page) if link else root
                target = os.path.relpath(os.path.normpath(os.path.join(base, m.group(0))), root)
                if target == ".." or target.startswith("../"):
                    problems.append(f"{rel(root, page)}:{number}: {m.group(0)} leads out of the "
                                    "repository (a reader has only the repository)")
    return problems


CHECKS = {
    "file-size": check_file_size,
    "cli-size": check_cli_size,
    "kernels": check_kernels,
    "kernel-paths": check_kernel_paths,
    "faces": check_faces,
    "doc-paths": check_doc_paths,
    "doc-outside": check_doc_outside,
}


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as f:
        f.write(text)


def good_tree(root):
    write(root, "src/cli/main.cpp", '#include "cli/x.hpp"\n#include "core/y.hpp"\n'
          '#include "nqueens/engine.hpp"\n#include <cxxopts.hpp>\n')
    write(root, "src/python/module.cpp", '#include "python/rows.hpp"\n#include "nqueens/settings.hpp"\n')
    write(root, "kernels/count.cu", '#include "kernels/exec.cuh"\n#include "nqueens/detail/lines.hpp"\n'
          '#include "local.cuh"\n')
    write(root, "kernels/CMakeLists.txt", "target_include_directories(nq_cuda PUBLIC "
          "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>)\n")
    write(root, "include/nqueens/engine.hpp", "// short\n" * MAX_FILE_LINES)
    write(root, "docs/architecture.md", "See `src/cli/main.cpp` and `kernels/`.\n")
    write(root, "docs/python.md", "[Quick start](../README.md#quick-start), `.../q_above_n`.\n")
    write(root, "examples/cpp/CMakeLists.txt", "# from the repository: ./examples/cpp\n")


BREAKS = {
    "file-size": ("include/nqueens/engine.hpp", "// long\n" * (MAX_FILE_LINES + 1)),
    "cli-size": ("src/cli/big.cpp", "// line\n" * (MAX_CLI_LINES + 1)),
    "kernels": ("kernels/lattice.cu", '#include "core/memory.hpp"\n'),
    "kernel-paths": ("kernels/CMakeLists.txt",
                     "target_include_directories(nq_cuda PUBLIC x\n"
                     "                                   PRIVATE ${PROJECT_SOURCE_DIR}/src)\n"),
    "faces": ("src/cli/count.cpp", '#include "engine/count_engines.hpp"\n'),
    "doc-paths": ("docs/architecture.md", "See `src/cli/gone.cpp`.\n"),
    "doc-outside": ("docs/gpu.md", "Run `bash ../shared/device/pack-deps.sh` first.\n"),
}


def selftest():
    failures = []
    for name, check in CHECKS.items():
        with tempfile.TemporaryDirectory() as root:
            good_tree(root)
            if (found := check(root)):
                failures.append(f"{name}: a tree that keeps it fails: {found}")
            path, text = BREAKS[name]
            write(root, path, text)
            if not check(root):
                failures.append(f"{name}: a tree that breaks it ({path}) passes")
    # The faces' rule also refuses the shared internals of include/nqueens/detail/.
    with tempfile.TemporaryDirectory() as root:
        good_tree(root)
        write(root, "src/python/x.cpp", '#include "nqueens/detail/frame_walk.hpp"\n')
        if not check_faces(root):
            failures.append("faces: a face including nqueens/detail/ passes")
    # A link that climbs out from its page, and an example that names a path outside.
    for path, text in (("docs/algorithms.md", "[the write-ups](../../shared/seeds/)\n"),
                       ("README.md", "[docs](docs/../../notes.md)\n"),
                       ("examples/plot.py", '"""Reads ../shared/seeds/000.txt."""\n')):
        with tempfile.TemporaryDirectory() as root:
            good_tree(root)
            write(root, path, text)
            if not check_doc_outside(root):
                failures.append(f"doc-outside: {path} naming a path outside passes")
    return failures


def main(argv):
    if len(argv) == 2 and argv[1] == "selftest":
        failures = selftest()
    elif len(argv) == 3 and argv[1] in CHECKS:
        failures = CHECKS[argv[1]](argv[2])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for line in failures:
        print(line, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
