# bash completion for nqueens: commands, options, --algo names, option values and file names.
# Everything is read from the nqueens being completed (its --help texts and `nqueens algorithms`)
# once per shell and command, so the completion follows the build and cannot drift from it.

# "prog|cmd" -> the table _nqueens_parse printed for that command's --help.
declare -gA _nqueens_tables=()

# Reads a command's --help on stdin; prints one line per long option:
#   --long|-s (or empty)|kind|values
# kind is flag (no argument), file (the help says FILE), algo (--algo), list (values given) or
# arg (anything else), and "positional file" when the usage line takes a FILE. Option lines are
# indented 2 ("  -n, --queens") or 6 ("      --seed") spaces; descriptions continue deeper.
_nqueens_parse() {
  awk '
    # The values an option names: "a, b (why) or c" at the start of its description, or just
    # after the first ": " (the options a scope such as "sa: ..." or "hc-sideways, hc-restart:"
    # precedes). A list needs " or " before its last value, so prose is not taken for one.
    function values_at(s,   out, n, last, depth, i, c) {
      out = ""; n = 0; last = 0
      while (1) {
        if (!match(s, /^[a-z][a-z0-9-]*/)) return ""
        out = out (n++ ? " " : "") substr(s, 1, RLENGTH)
        s = substr(s, RLENGTH + 1)
        if (substr(s, 1, 2) == " (") {
          depth = 0
          for (i = 2; i <= length(s); i++) {
            c = substr(s, i, 1)
            if (c == "(") depth++
            else if (c == ")" && --depth == 0) break
          }
          s = substr(s, i + 1)
        }
        if (last) return n >= 2 ? out : ""
        if (substr(s, 1, 5) == ", or ") { s = substr(s, 6); last = 1 }
        else if (substr(s, 1, 4) == " or ") { s = substr(s, 5); last = 1 }
        else if (substr(s, 1, 2) == ", ") s = substr(s, 3)
        else return ""
      }
    }
    function values(s,   v, i) {
      v = values_at(s)
      if (v == "" && (i = index(s, ": ")) > 0) v = values_at(substr(s, i + 2))
      return v
    }
    function flush(   kind, v) {
      if (long == "") return
      v = ""
      if (!takes_arg) kind = "flag"
      else if (long == "--algo") kind = "algo"
      else if (desc ~ /FILE/) kind = "file"
      else if ((v = values(desc)) != "") kind = "list"
      else kind = "arg"
      printf "%s|%s|%s|%s\n", long, short, kind, v
      long = ""
    }
    /^Usage:/ { usage = 1; next }
    usage == 1 { usage = 2; if ($0 ~ /\[FILE/) print "positional||file|"; next }
    /^  -[A-Za-z], --[A-Za-z0-9]/ || /^      --[A-Za-z0-9]/ {
      flush()
      line = $0; sub(/^ +/, "", line)
      short = ""
      if (line ~ /^-[A-Za-z], /) { short = substr(line, 1, 2); line = substr(line, 5) }
      long = line; sub(/ .*/, "", long)
      line = substr(line, length(long) + 1)
      takes_arg = (line ~ /^ arg( |$)/)
      if (takes_arg) line = substr(line, 5)
      sub(/^ +/, "", line); sub(/ +$/, "", line)
      desc = line
      next
    }
    /^        / && long != "" {
      line = $0; sub(/^ +/, "", line); sub(/ +$/, "", line)
      desc = (desc == "" ? line : desc " " line)
      next
    }
    { flush() }
    END { flush() }
  '
}

# Prints the table for command $2 of program $1 ("" for the commands of nqueens --help),
# reading it once per shell.
_nqueens_table() {
  local key="$1|$2"
  if [[ -z ${_nqueens_tables[$key]+set} ]]; then
    if [[ -z $2 ]]; then
      # The lines under "Commands:" up to the first blank line: "  solve   solve one board".
      _nqueens_tables[$key]=$("$1" --help 2>/dev/null |
        awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on && /^  [a-z]/ { print $1 }')
    else
      _nqueens_tables[$key]=$("$1" "$2" --help 2>/dev/null | _nqueens_parse)
    fi
  fi
  printf '%s\n' "${_nqueens_tables[$key]}"
}

_nqueens_algorithms() {
  local key="$1|--algo"
  if [[ -z ${_nqueens_tables[$key]+set} ]]; then
    _nqueens_tables[$key]=$("$1" algorithms 2>/dev/null | awk '/^[a-z]/ { print $1 }')
  fi
  printf '%s\n' "${_nqueens_tables[$key]}"
}

# COMPREPLY from the lines on stdin (mapfile's work; zsh, through bashcompinit, lacks mapfile).
_nqueens_reply() {
  local word
  COMPREPLY=()
  while IFS= read -r word; do
    [[ -n $word ]] && COMPREPLY+=("$word")
  done
}

_nqueens_files() {
  compopt -o filenames 2>/dev/null
  _nqueens_reply < <(compgen -f -- "$1")
}

_nqueens() {
  # zsh runs this through bashcompinit, with COMP_CWORD counted from 0 as in bash.
  [[ -n ${ZSH_VERSION-} ]] && setopt localoptions ksharrays
  local cur=${COMP_WORDS[COMP_CWORD]} prev="" opt="" prog=${COMP_WORDS[0]} cmd=""
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  COMPREPLY=()
  prog=${prog/#\~/$HOME}
  command -v "$prog" >/dev/null 2>&1 || return 0

  if ((COMP_CWORD <= 1)); then
    if [[ $cur == -* ]]; then
      _nqueens_reply < <(compgen -W "--help --version" -- "$cur")
    else
      _nqueens_reply < <(compgen -W "$(_nqueens_table "$prog" "")" -- "$cur")
    fi
    return 0
  fi
  cmd=${COMP_WORDS[1]}

  # The option whose value is being typed: "--algo x", or "--algo=x", which bash splits at "=".
  if [[ $cur == = ]]; then
    opt=$prev cur=""
  elif [[ $prev == = ]] && ((COMP_CWORD >= 3)); then
    opt=${COMP_WORDS[COMP_CWORD - 2]}
  elif [[ $prev == -* ]]; then
    opt=$prev
  fi

  local table long short kind vals
  table=$(_nqueens_table "$prog" "$cmd")
  if [[ -n $opt ]]; then
    while IFS="|" read -r long short kind vals; do
      [[ $opt == "$long" || (-n $short && $opt == "$short") ]] || continue
      case $kind in
        flag) break ;;
        file) _nqueens_files "$cur" ;;
        algo) _nqueens_reply < <(compgen -W "$(_nqueens_algorithms "$prog")" -- "$cur") ;;
        list) _nqueens_reply < <(compgen -W "$vals" -- "$cur") ;;
      esac
      return 0
    done <<<"$table"
  fi

  if [[ $cur == -* ]]; then
    _nqueens_reply < <(compgen -W "$(cut -d"|" -f1 <<<"$table" | grep -- '^--')" -- "$cur")
  elif grep -q '^positional' <<<"$table"; then
    _nqueens_files "$cur"
  fi
  return 0
}

complete -F _nqueens nqueens
