#!/usr/bin/env python3
"""Docs that cannot drift (issue 33); the standard library only.

  docs_options_test.py options NQUEENS DOCS/COMMANDS.MD
      Every long option that `nqueens CMD --help` lists, for every command `nqueens --help`
      lists, is documented in docs/commands.md: in CMD's section (an option table's first
      column, or the section heading's synopsis) or in the shared table of the algorithm
      options. And every option that an option table or a synopsis documents is still listed
      by its command's --help.
  docs_options_test.py links ROOT
      Every relative link in README.md and docs/*.md leads to a file that exists, and its
      #anchor, if any, to a heading of that file (GitHub's heading ids).

Prints one line per problem and exits 1 if there is any; exits 0 and says what it checked
otherwise.
"""
import pathlib
import re
import subprocess
import sys

# An option line of cxxopts' help: "  -s, --seed arg ..." or "      --max-steps arg ..." (deeper
# lines, such as the shell's list of its own commands, are text).
OPTION_IN_HELP = re.compile(r"^  (?:-(\w), |    )--([a-z0-9][a-z0-9-]*)")
# A table row whose first cell is an option: "| `--name ...`" or "| `-x, --name ...`".
OPTION_ROW = re.compile(r"^\|\s*`(?:-\w, )?--([a-z0-9][a-z0-9-]*)")
COMMAND_HEADING = re.compile(r"^## `nqueens (\w+)")
ALGORITHM_TABLE_HEADER = "| option | algorithms | meaning (default) |"


def help_text(nqueens, *args):
    run = subprocess.run([nqueens, *args, "--help"], capture_output=True, text=True, timeout=30)
    if run.returncode != 0:
        sys.exit(f"FAIL: nqueens {' '.join(args)} --help exited {run.returncode}: {run.stderr}")
    return run.stdout


def commands_of(nqueens):
    """The commands `nqueens --help` lists under "Commands:"."""
    commands, inside = [], False
    for line in help_text(nqueens).splitlines():
        if line.startswith("Commands:"):
            inside = True
        elif inside and not line.strip():
            break
        elif inside:
            commands.append(line.split()[0])
    if not commands:
        sys.exit("FAIL: nqueens --help lists no commands under 'Commands:'")
    return commands


def help_options(text):
    """The long options of a --help, and the long option each short one stands for."""
    options, long_of_short = set(), {}
    for line in text.splitlines():
        if match := OPTION_IN_HELP.match(line):
            options.add(match.group(2))
            if match.group(1):
                long_of_short[match.group(1)] = match.group(2)
    return options, long_of_short


def documented_options(markdown):
    """Per command section: options of its tables and heading; and the algorithm table's."""
    by_command, algorithm_table = {}, set()
    command, in_algorithm_table, fence = None, False, False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fence = not fence
        if fence:
            continue
        if line.startswith("#"):
            heading = COMMAND_HEADING.match(line)
            command = heading.group(1) if heading else None
            if command:
                # "--name" or "-x" (resolved by the command's --help) in the synopsis
                by_command.setdefault(command, set()).update(
                    re.findall(r"(?<![\w-])(--[a-z0-9][a-z0-9-]*|-[a-zA-Z])(?![\w-])", line))
            continue
        if line.startswith(ALGORITHM_TABLE_HEADER):
            in_algorithm_table = True
        elif not line.startswith("|"):
            in_algorithm_table = False
        row = OPTION_ROW.match(line)
        if row:
            target = algorithm_table if in_algorithm_table else by_command.setdefault(command, set())
            target.add("--" + row.group(1))
    return by_command, algorithm_table


def check_options(nqueens, commands_md):
    by_command, algorithm_table = documented_options(pathlib.Path(commands_md).read_text())
    algorithm_table = {option[2:] for option in algorithm_table}
    problems, checked, listed = [], 0, {}
    for command in commands_of(nqueens):
        options, long_of_short = help_options(help_text(nqueens, command))
        listed[command] = options - {"help"}
        documented = set()
        for token in by_command.get(command, set()):
            if token.startswith("--"):
                documented.add(token[2:])
            elif token[1:] in long_of_short:
                documented.add(long_of_short[token[1:]])
            else:
                problems.append(f"{commands_md} gives {token} in {command}'s synopsis, which "
                                f"nqueens {command} --help does not list")
        by_command[command] = documented
        for option in sorted(listed[command]):
            checked += 1
            if option not in documented and option not in algorithm_table:
                problems.append(f"nqueens {command} --help lists --{option}, which "
                                f"{commands_md} does not document (in {command}'s section)")
    for command, options in sorted(by_command.items()):
        if command not in listed:
            problems.append(f"{commands_md} has a section for `nqueens {command}`, which "
                            "nqueens --help does not list")
            continue
        for option in sorted(options - listed[command]):
            problems.append(f"{commands_md} documents --{option} for {command}, which "
                            f"nqueens {command} --help no longer lists")
    every_listed = set().union(*listed.values())
    for option in sorted(algorithm_table - every_listed):
        problems.append(f"{commands_md}'s algorithm options table documents --{option}, which "
                        "no --help lists")
    return problems, f"{checked} options of {len(listed)} commands"


def github_id(heading):
    """The id GitHub gives a heading: its text lowercased, punctuation dropped, spaces as -."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors_of(path):
    ids, seen, fence = set(), {}, False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            fence = not fence
        match = None if fence else re.match(r"^#{1,6} (.*)", line)
        if match:
            base = github_id(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            ids.add(base if count == 0 else f"{base}-{count}")
    return ids


def links_of(text):
    """(line number, target) of every markdown link outside code."""
    fence = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            fence = not fence
        if fence:
            continue
        line = re.sub(r"`[^`]*`", "", line)
        for target in re.findall(r"\]\(([^)\s]+)\)", line):
            yield number, target


def check_links(root):
    root = pathlib.Path(root)
    files = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    problems, checked = [], 0
    for page in files:
        for number, target in links_of(page.read_text()):
            if re.match(r"^[a-z]+:", target):
                continue  # https:, mailto: ...: not ours to check
            checked += 1
            path, _, anchor = target.partition("#")
            resolved = (page.parent / path).resolve() if path else page
            where = f"{page.relative_to(root)}:{number}: ({target})"
            if not resolved.exists():
                problems.append(f"{where} leads to no file")
            elif anchor and resolved.suffix == ".md" and anchor not in anchors_of(resolved):
                problems.append(f"{where}: {resolved.name} has no heading #{anchor}")
    return problems, f"{checked} relative links in {len(files)} pages"


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "options":
        problems, what = check_options(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "links":
        problems, what = check_links(sys.argv[2])
    else:
        sys.exit(__doc__)
    for problem in problems:
        print("FAIL:", problem)
    if problems:
        return 1
    print(f"ok: {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
