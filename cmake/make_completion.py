#!/usr/bin/env python3
"""Writes the bash completion of hdrtone from its option table (hdrtone --help-completion:
one line per option, "COMMANDS --option [CHOICE...]", COMMANDS a comma list), so completion
cannot drift from the parser. Usage: make_completion.py HDRTONE OUT"""
import subprocess
import sys

binary, out = sys.argv[1], sys.argv[2]
table = subprocess.run([binary, "--help-completion"], check=True, capture_output=True,
                       text=True).stdout
commands = ["view", "export", "stats", "bench", "analyze", "compare"]
per_command = {c: [] for c in commands}
choices = []
for line in table.splitlines():
    fields = line.split()
    if len(fields) < 2:
        continue
    for c in fields[0].split(","):
        per_command.setdefault(c, []).append(fields[1])
    if len(fields) > 2:
        choices.append('        %s) COMPREPLY=($(compgen -W "%s" -- "$cur")); return ;;'
                       % (fields[1], " ".join(fields[2:])))
cases = "\n".join('        %s) opts="%s" ;;' % (c, " ".join(o)) for c, o in per_command.items())
script = """# bash completion for hdrtone (generated from its option table)
_hdrtone()
{
    local cur prev cmd opts
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    case $prev in
%s
        -o|--output) _filedir; return ;;
    esac
    cmd=view
    if ((COMP_CWORD > 1)); then
        case ${COMP_WORDS[1]} in export|stats|bench|analyze|compare|view) cmd=${COMP_WORDS[1]} ;; esac
    fi
    case $cmd in
%s
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts --help" -- "$cur"))
    elif ((COMP_CWORD == 1)); then
        _filedir '@(exr|EXR|hdr|HDR|pic|PIC|pfm|PFM)'
        COMPREPLY+=($(compgen -W "%s" -- "$cur"))
    else
        _filedir '@(exr|EXR|hdr|HDR|pic|PIC|pfm|PFM)'
    fi
}
complete -F _hdrtone hdrtone
""" % ("\n".join(choices), cases, " ".join(commands))
with open(out, "w") as f:
    f.write(script)
