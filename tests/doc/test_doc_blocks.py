"""The documentation's shell blocks, run (issue 33): every fenced block tagged sh, bash, shell
or console in README.md and docs/*.md (any page added there is picked up) runs in a folder of
its page's (the page's blocks in order, as a reader follows them) where the names the docs use
are the files of PLACEHOLDERS (the one table mapping them to ../shared's samples or to files
made from them), with `hdrtone` on PATH. A
block that cannot run here carries the marker `<!-- doctest: skip REASON -->` on the line
before its fence, and is listed and counted as skipped with that reason. A fenced block with
no tag that begins with a command is a failure (tag it, so that it runs).

Each command line (a trailing backslash joins lines; lines of a block share one shell, so a
script's variables carry) must exit as documented: 0, or N where its comment says `exit N`;
what its comment quotes ("...") it must print (on standard output or error), and in a
`console` block (commands after "$ ") the lines shown after a command, each a whole line.
What it printed and wrote is checked against what the docs promise of the command
(check_line): export's outputs exist in the format of their extension, stats' text lines and
JSON keys (docs/command-line.md), compare's JSON keys and its maps, analyze's files, the
viewer's window (under Xvfb, with the test hooks --screenshot and --frames appended) showing
the file and the reference named, ffmpeg's output. The result: one line per block, run and
passed (its commands counted) or skipped and why, and the totals."""
import glob, json, os, re, shlex, shutil, subprocess, sys, tempfile, time

HT = os.environ["HT_BIN"]
SRC = os.environ["HT_SOURCE_DIR"]
SHARED = os.environ.get("HT_SHARED", "")
COMMANDS = ("export", "stats", "bench", "analyze", "compare", "view")

# The names the docs use, each made in every page's folder: a sample of ../shared (a
# symbolic link), or made by a shell command ('$S' is ../shared; $HT_EXR_COLOUR writes an
# OpenEXR file with chromaticities through OpenEXR's library, tests/tools/exr_colour.cpp). Sequences
# (shot.%04d.exr and shot.####.exr): FRAMES frames shot.NNNN.exr of 2by2.exr (the docs' farm
# examples split 1000 frames).
# Variables a block's script reads: ENV.
PLACEHOLDERS = {
    "shot.exr": "exr-samples/composite_b.exr",   # small: HDR-FLIP of shot.exr and ref.exr
    "ref.exr": "exr-samples/composite_b.exr",    # is quick also under ASan
    "Desk.exr": "exr-samples/Desk.exr",
    "a.exr": "exr-samples/Desk.exr",
    "b.exr": "exr-samples/Cannon.exr",
    "truth.exr": "pcond-reference/bimodal_narrow/input_decoded.exr",   # both 512x256: small,
    "render.exr": "pcond-reference/lowrange_1_50/input_decoded.exr",   # for FLIP under ASan
    "venice.hdr": "exr-samples/venice_sunset_1k.hdr",
    "venice_sunset_1k.hdr": "exr-samples/venice_sunset_1k.hdr",
    "Desk/input_decoded.exr": "pcond-reference/Desk/input_decoded.exr",
    # PNGs a little apart: FLIP 0.04 and 0.03, within README's --fail-above 0.05.
    "ref.png": "hdrtone export $S/exr-samples/composite_b.exr -o ref.png --backend cpu",
    "a.png": "hdrtone export $S/exr-samples/composite_b.exr -o a.png --backend cpu --drange 95",
    "b.png": "hdrtone export $S/exr-samples/composite_b.exr -o b.png --backend cpu --drange 98",
    "shot.%04d.exr": "exr-samples/2by2.exr",   # FRAMES frames, shot.0000.exr ...
    # ACEScg (AP1 primaries, the ACES white): a 64x48 log ramp, 0.01 .. 100, warm.
    "render_acescg.exr": "python3 -c 'import struct, sys; sys.stdout.buffer.write(b\"\".join("
                         "struct.pack(\"<3f\", *(0.01 * 10 ** (4 * i / 3071) * c for c in "
                         "(1.2, 1, 0.7))) for i in range(3072)))' | \"$HT_EXR_COLOUR\" "
                         "render_acescg.exr 64 48 0.713 0.293 0.165 0.830 0.128 0.044 0.32168 "
                         "0.33767",
}
FRAMES = 1000
ENV = {"SLURM_ARRAY_TASK_ID": "3"}
TIMEOUT = 120   # seconds a block may take

# What docs/command-line.md promises in stats' output (text lines; --json keys of each line).
STATS_TEXT = ("size", "pixels", "luminance", "units", "mapping")
STATS_KEYS = ("width", "height", "data_window", "display_window", "channels", "compression",
              "pixels", "values", "luminance", "units", "luminance_cd_m2", "tonemap", "human",
              "histogram", "curve", "brightest", "darkest", "rgba_histogram",
              "grey_histogram", "backend")
COMPARE_KEYS = ("reference", "test", "metric", "mode", "ppd", "mean", "weighted_median", "q1",
                "q3", "min", "max", "mse", "rmse", "psnr", "relmse", "mae")
MAGIC = {".png": b"\x89PNG", ".jpg": b"\xff\xd8", ".jpeg": b"\xff\xd8", ".hdr": b"#?",
         ".pfm": b"PF", ".exr": b"\x76\x2f\x31\x01", ".txt": b""}

failures = []


def fail(where, msg):
    failures.append("%s: %s" % (where, msg))
    print("FAIL: %s: %s" % (where, msg), file=sys.stderr)


def doc_pages():
    return [os.path.join(SRC, "README.md")] + sorted(glob.glob(os.path.join(SRC, "docs", "*.md")))


def blocks_of(path):
    """(first line number, tag, lines, skip reason or None) of each fenced block; an untagged
    block that begins with a command, or a marker with no block after it, is a failure."""
    lines, out, i = open(path).read().split("\n"), [], 0
    rel = os.path.relpath(path, SRC)
    while i < len(lines):
        m = re.match(r"^```(\S*)\s*$", lines[i])
        if not m:
            if "<!-- doctest:" in lines[i] and not (i + 1 < len(lines) and
                                                    lines[i + 1].startswith("```")):
                fail("%s:%d" % (rel, i + 1), "a doctest marker not on the line before a block")
            i += 1
            continue
        end = next((k for k in range(i + 1, len(lines)) if lines[k].startswith("```")),
                   len(lines))
        body = lines[i + 1:end]
        marker = re.match(r"^<!-- doctest: skip (.+?) -->$", lines[i - 1]) if i else None
        tag = m.group(1)
        if tag in ("sh", "bash", "shell", "console"):
            out.append((i + 1, tag, body, marker.group(1) if marker else None))
        elif not tag and body and re.match(r"^(\$ |hdrtone |scripts/)", body[0]):
            fail("%s:%d" % (rel, i + 1), "an untagged block of commands: tag it ```sh")
        i = end + 1
    return out


def logical_lines(body, console):
    """The block's command lines: backslash continuations joined, comments and blanks out;
    each with its comment (the text after ' #', where expectations are said) and the lines
    the block shows it printing (a console block: its commands begin "$ ", the lines after
    one are its output)."""
    out, cur = [], ""
    for line in body:
        if console and not cur and not line.startswith("$ "):
            if out and line.strip():
                out[-1][2].append(line.strip())
            continue
        if console and not cur:
            line = line[2:]
        if line.endswith("\\"):
            cur += line[:-1] + " "
            continue
        cur += line
        code, comment = split_comment(cur)
        if code.strip():
            out.append((code.strip(), comment, []))
        cur = ""
    return out


def split_comment(line):
    """The line's code and its comment: a '#' at the start or after a space, outside quotes."""
    quote = None
    for k, c in enumerate(line):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "#" and (k == 0 or line[k - 1] in " \t"):
            return line[:k], line[k + 1:]
    return line, ""


def make_folder(root, frames):
    """A page's folder with the placeholders (the sequences' FRAMES frames only when FRAMES)."""
    d = tempfile.mkdtemp(dir=root)
    for name, src in PLACEHOLDERS.items():
        if " " in src or ("%04d" in name and not frames):   # a command, or frames not needed
            continue
        target = os.path.join(SHARED, src)
        if "%04d" in name:
            for f in range(FRAMES):
                os.symlink(target, os.path.join(d, name % f))
        else:
            os.makedirs(os.path.dirname(os.path.join(d, name)), exist_ok=True)
            os.symlink(target, os.path.join(d, name))
    for name, cmd in PLACEHOLDERS.items():
        if " " in cmd:
            r = subprocess.run(cmd.replace("$S", SHARED), shell=True, cwd=d, env=ENVIRON,
                               capture_output=True, text=True)
            if r.returncode:
                fail("placeholder " + name, "%s: %s" % (cmd, r.stderr.strip()))
    return d


def viewer_args(words):
    """Whether hdrtone WORDS opens the viewer (no command, or view)."""
    return not words or words[0] not in COMMANDS[:-1]


def hdrtone_calls(code):
    """The argument lists of each `hdrtone` in the line (a pipe, ':::', ';', '&&' end one)."""
    try:
        words = shlex.split(code)
    except ValueError:
        return []
    calls, cur = [], None
    for w in words:
        if w == "hdrtone":
            cur = []
            calls.append(cur)
        elif w in ("|", ":::", ";", "&&", "||", ">"):
            cur = None
        elif cur is not None:
            cur.append(w)
    return calls


def run_block(where, lines, folder):
    """Runs the LINES in one bash in FOLDER; returns [(rc, out, err)] of each."""
    script = ["set -o pipefail"]
    for n, (code, _, _) in enumerate(lines):
        calls = hdrtone_calls(code)
        if calls and viewer_args(calls[0]) and code.split()[0] == "hdrtone":
            code += " --screenshot view.%d.png --frames 2" % n   # the test hooks: then it exits
        script.append("{ %s\n} >out.%d 2>err.%d </dev/null; echo $? >rc.%d" % (code, n, n, n))
    try:
        subprocess.run(["bash", "-c", "\n".join(script)], cwd=folder, env=ENVIRON,
                       timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        fail(where, "ran past %d s" % TIMEOUT)
    out = []
    for n in range(len(lines)):
        def read(name):
            p = os.path.join(folder, "%s.%d" % (name, n))
            return open(p, errors="replace").read() if os.path.exists(p) else ""
        rc = read("rc").strip()
        out.append((int(rc) if rc else None, read("out"), read("err")))
    return out


def check_file(where, path, ext=None):
    ext = (ext or os.path.splitext(path)[1]).lower()
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        return fail(where, "%s was not written" % os.path.basename(path))
    head = open(path, "rb").read(8)
    if ext in MAGIC and not head.startswith(MAGIC[ext]):
        fail(where, "%s is not %s (begins %r)" % (os.path.basename(path), ext, head))


def check_output_path(where, folder, target, fmt):
    """-o TARGET of export: a file, a folder of files, or a sequence's pattern."""
    ext = "." + fmt if fmt and fmt not in ("auto",) else None
    path = os.path.join(folder, target)
    if re.search(r"%0?\d*d|#+", target):
        pat = re.sub(r"%0?\d*d|#+", "*", path)
        files = sorted(glob.glob(pat))
        if not files:
            return fail(where, "no file matches -o %s" % target)
        for f in files[:3] + files[-1:]:
            check_file(where, f, ext)
    elif target.endswith("/") or os.path.isdir(path):
        files = sorted(os.listdir(path)) if os.path.isdir(path) else []
        if not files:
            return fail(where, "-o %s: no file in the folder" % target)
        for f in files[:3]:
            check_file(where, os.path.join(path, f), ext or ".png")
    else:
        check_file(where, path, ext)


def option(args, *names):
    for k, a in enumerate(args[:-1]):
        if a in names:
            return args[k + 1]
    return None


def positional(args):
    """The arguments that are not options or their values (a flag takes none)."""
    flags = {"--json", "--curve", "--human", "--veil", "--acuity", "--color-loss", "--linear",
             "--export", "--decode", "--playback", "--display-window", "--new-window",
             "--watch", "--continuous", "--no-panels"}
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a.startswith("-") and a != "-":
            skip = a not in flags and "=" not in a
        else:
            out.append(a)
    return out


def check_stats(where, args, out):
    if option(args, "--curve-format") == "pcond":
        rows = out.split("\n")[:-1]
        if len(rows) != 100 or not all(len(r.split()) == 2 for r in rows):
            fail(where, "--curve-format pcond: %d lines, not 100 'Lw Ld'" % len(rows))
        return
    inputs = positional(args)
    if "--json" in args:
        rows = out.split("\n")[:-1]
        if "%" not in inputs[0] and "#" not in inputs[0] and len(rows) != len(inputs):
            fail(where, "%d JSON lines for %d inputs" % (len(rows), len(inputs)))
        for r in rows[:2]:
            try:
                obj = json.loads(r)
            except ValueError:
                return fail(where, "a line is not JSON: %s" % r[:80])
            keys = STATS_KEYS + (("region",) if "--region" in args else ()) + \
                (("peaks",) if "--peaks" in args else ()) + \
                (("frame", "adapt") if "%" in inputs[0] or "#" in inputs[0] else ())
            missing = [k for k in keys if k not in obj]
            if missing:
                fail(where, "JSON without %s" % ", ".join(missing))
    else:
        heads = {line.split()[0] for line in out.split("\n") if line.strip()}
        want = STATS_TEXT + (("region",) if "--region" in args else ())
        missing = [k for k in want if k not in heads]
        if missing:
            fail(where, "the text has no line %s" % ", ".join(missing))


def check_compare(where, args, out, folder):
    tests = positional(args)[1:]
    rows = out.split("\n")[:-1]
    if len(rows) != len(tests):
        fail(where, "%d lines for %d tests" % (len(rows), len(tests)))
    if "--json" in args:
        for r in rows:
            missing = [k for k in COMPARE_KEYS if k not in json.loads(r)]
            if missing:
                fail(where, "JSON without %s" % ", ".join(missing))
    target = option(args, "-o", "--output")
    if target:
        check_output_path(where, folder, target, None)


def check_viewer(where, args, out, n, folder):
    """The screenshot hook's printout: the window's status lines name the file and reference."""
    check_file(where, os.path.join(folder, "view.%d.png" % n))
    status = [line for line in out.split("\n") if line.startswith("status:")]
    name = os.path.basename(positional(args)[0]) if positional(args) else "default.exr"
    if not status or name not in status[0]:
        fail(where, "the window's status does not name %s: %s" % (name, status[:1]))
    ref = option(args, "--reference")
    if ref and not any("reference " + os.path.basename(ref) in s for s in status):
        fail(where, "the status names no reference %s" % ref)


def check_line(where, folder, n, code, args, out, err, piped):
    """What the docs promise of hdrtone ARGS, from its outputs."""
    cmd = args[0] if args and args[0] in COMMANDS else "view"
    rest = args[1:] if args and args[0] in COMMANDS else args
    if cmd == "export":
        target, fmt = option(rest, "-o", "--output"), option(rest, "--format")
        if target == "-" and not piped and not out:
            fail(where, "nothing on standard output")
        elif target and target != "-":
            check_output_path(where, folder, target.replace("{}", "*"), fmt)
    elif cmd == "stats" and not piped:
        check_stats(where, rest, out)
    elif cmd == "compare" and not piped:
        check_compare(where, rest, out, folder)
    elif cmd == "analyze":
        d = os.path.join(folder, option(rest, "-o", "--output") or "")
        if not glob.glob(os.path.join(d, "analysis.*.txt")):
            fail(where, "no analysis files in %s" % d)
    elif cmd == "view" and code.split()[0] == "hdrtone":
        check_viewer(where, rest, out, n, folder)


def check_ffmpeg(where, folder, code):
    """ffmpeg ... -i - OUT: OUT holds video frames."""
    words = shlex.split(code.split("| ffmpeg", 1)[1])
    path = os.path.join(folder, words[-1])
    r = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-show_entries",
                        "stream=nb_read_frames", "-of", "csv=p=0", path], capture_output=True,
                       text=True)
    if r.returncode or not r.stdout.strip().isdigit() or int(r.stdout) < 1:
        fail(where, "ffmpeg's %s has no frames: %s" % (words[-1], r.stderr.strip()))


def check_block(rel, line, tag, body, folder):
    lines = logical_lines(body, tag == "console")
    results = run_block("%s:%d" % (rel, line), lines, folder)
    for n, ((code, comment, shown), (rc, out, err)) in enumerate(zip(lines, results)):
        where = "%s:%d: the block's `%s`" % (rel, line, code[:70])
        m = re.search(r"\bexits? (\d+)\b", comment)
        want = int(m.group(1)) if m else 0
        if rc != want:
            hint = " (a name the docs use? PLACEHOLDERS maps them)" if "o such file" in err else ""
            fail(where, "exit status %s, documented %d: %s%s" % (rc, want, err.strip()[-300:],
                                                                 hint))
            continue
        printed = {text.strip() for text in (out + err).split("\n")}
        for said in re.findall(r'"([^"]+)"', comment):   # what the comment quotes is printed
            if said not in out and said not in err:
                fail(where, "printed no \"%s\": %s" % (said, (out + err).strip()[-300:]))
        for said in shown:   # and what a console block shows after it, line for line
            if said not in printed:
                fail(where, "printed no line '%s'" % said)
        if want:   # an error documented: its message, not an output, is what there is
            continue
        words = shlex.split(code)
        if ">" in words[:-1]:   # standard output into a file: the file is the output
            check_file(where, os.path.join(folder, words[words.index(">") + 1]))
        for args in hdrtone_calls(code):
            check_line(where, folder, n, code, args, out, err, "|" in words or ">" in words)
        if "| ffmpeg" in code:
            check_ffmpeg(where, folder, code)
    return len(results)


def main():
    if not os.path.isdir(os.path.join(SHARED, "exr-samples")):
        print("skipped: no %s/exr-samples" % SHARED)
        sys.exit(77)
    for tool in ("xvfb-run", "ffmpeg", "ffprobe", "parallel", os.environ.get("HT_EXR_COLOUR")):
        if not tool or not shutil.which(tool):
            print("skipped: no %s (scripts/setup installs it)" % (tool or "OpenEXR's C++ "
                                                                    "library: HT_EXR_COLOUR"))
            sys.exit(77)
    if not os.environ.get("HT_DOCTEST_XVFB"):   # the viewer's lines need a display
        os.environ["HT_DOCTEST_XVFB"] = "1"
        os.execvp("xvfb-run", ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24",
                               sys.executable] + sys.argv)
    root = tempfile.mkdtemp(prefix="ht_doctest_")
    bindir = os.path.join(root, "bin")
    os.mkdir(bindir)
    os.symlink(HT, os.path.join(bindir, "hdrtone"))
    global ENVIRON
    ENVIRON = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"], HT_HANDOFF="off", **ENV)
    ran = skipped = commands = 0
    for page in doc_pages():
        rel, folder = os.path.relpath(page, SRC), None
        blocks = blocks_of(page)
        for line, tag, body, skip in blocks:
            if skip:
                skipped += 1
                print("%s:%d: skipped: %s" % (rel, line, skip))
                continue
            before, start = len(failures), time.time()
            frames = any(re.search(r"shot\.(%|#)", "\n".join(b)) for _, _, b, _ in blocks)
            folder = folder or make_folder(root, frames)   # a page's blocks, in one folder
            n = check_block(rel, line, tag, body, folder)
            ran += 1
            commands += n
            print("%s:%d: ran %d command%s: %s (%.1f s)" % (
                rel, line, n, "" if n == 1 else "s",
                "passed" if len(failures) == before else "FAILED", time.time() - start))
        if folder:
            shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(root, ignore_errors=True)
    if ran < 5:
        fail("the docs", "only %d blocks ran" % ran)
    print("test_doc_blocks: %d blocks run (%d commands), %d skipped, %d failures" %
          (ran, commands, skipped, len(failures)))
    if failures:   # again at the end, where a long log's reader looks, with how to fix them
        print("\nTo fix (PAGE:LINE is the block's opening fence): the page or the program; a "
              "block that cannot run here gets\n`<!-- doctest: skip REASON -->` on the line "
              "before its fence; the sample names the docs use are\nPLACEHOLDERS in "
              "tests/doc/test_doc_blocks.py.")
        for f in failures:
            print("  " + f)
    sys.exit(1 if failures else 0)


ENVIRON = None
main()
