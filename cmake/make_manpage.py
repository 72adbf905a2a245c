#!/usr/bin/env python3
"""Writes hdrtone.1 from the program's own tables, so the man page cannot drift from them:
the usage (hdrtone --help), the option table (hdrtone --help-markdown) and the key table
(hdrtone --help-keys-markdown). Usage: make_manpage.py HDRTONE OUT.1"""
import re
import subprocess
import sys


def run(binary, *args):
    return subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout


def roff(text):
    """Markdown cell text -> roff: code spans bold, escapes for backslash, dash and quote."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    text = re.sub(r"`([^`]*)`", r"\\fB\1\\fR", text)
    return re.sub(r"^([.'])", r"\\&\1", text)


def table_rows(markdown):
    """The body rows of the first Markdown table, as lists of cells."""
    rows = []
    for line in markdown.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([c.strip() for c in line.strip().strip("|").split(" | ")])
    return rows[1:]


def main():
    binary, out = sys.argv[1], sys.argv[2]
    version = run(binary, "--version").split()[-1]
    usage = run(binary, "--help")
    lines = [
        '.TH HDRTONE 1 "" "hdrtone %s" "User Commands"' % version,
        ".SH NAME",
        "hdrtone \\- HDR tone-mapping viewer and batch tool (Ward '97 histogram adjustment)",
        ".SH SYNOPSIS", ".nf",
    ]
    lines += [roff(l.replace("usage: ", "").strip()) for l in usage.splitlines()
              if "hdrtone" in l]
    lines += [".fi", ".SH DESCRIPTION"]
    lines += [roff(l) for l in usage.splitlines() if "hdrtone" not in l and l.strip()]
    lines.append(".SH OPTIONS")
    for name, commands, default, meaning in table_rows(run(binary, "--help-markdown")):
        lines += [".TP", roff(name)]
        extra = "commands: %s" % commands + ("; default: %s" % default if default else "")
        lines.append(roff(meaning) + " (" + roff(extra) + ")")
    lines.append(".SH KEYS (the viewer)")
    for row in table_rows(run(binary, "--help-keys-markdown")):
        lines += [".TP", roff(row[-2]), roff(row[-1])]   # group | keys | action
    lines += [".SH SEE ALSO", "pcond(1), pfstmo_pattanaik00(1)"]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


main()
