"""What the docs promise of the command line (issue 33), each as a user meets it:
- the hand-off (src/viewer/handoff.c, its client): `hdrtone FILE` with an hdrtone listening
  (here a stand-in speaking the protocol of handoff.h) refuses a missing or unreadable FILE
  before sending anything (exit 1, the reason), exits 1 when the viewer answers "error TEXT"
  (TEXT said), 0 on "ok N" with the paths sent absolute;
- a typo'd command is no file to view: "no such command or file", the nearest command, exit 2
  (exit 1 for a name with '.' or '/': a missing file);
- a malformed --region (corners swapped) is a usage error (exit 2), --msaa 3 too;
- a sequence's -o may be a folder (the input's pattern there, the format's extension);
- compare makes the folders of -o (maps/ for several tests, newdir/ of newdir/flip.png);
- the CPU backend writing .hdr says nothing of the GPU; help says stats IN...;
- --ldmax changes the picture with --ceiling human only, as its help says;
- --help-markdown's rows are whole (the -o row ended "analyze: the fo")."""
import os, socket, stat, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from htpy import check, finish, samples_or_skip  # noqa: E402

HT = os.environ["HT_BIN"]
samples = samples_or_skip()
desk, tiny = os.path.join(samples, "Desk.exr"), os.path.join(samples, "2by2.exr")
tmp = tempfile.mkdtemp()


def run(*args, env=None, cwd=tmp):
    return subprocess.run([HT, *args], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=120)


class FakeViewer:
    """Listens on RUN/hdrtone.sock as a running hdrtone does (handoff.h): greets, reads the
    NUL-ended paths up to the empty one, answers REPLY (None: "ok N")."""

    def __init__(self, run_dir, reply=None):
        self.reply, self.received, self.connections = reply, [], 0
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.path = os.path.join(run_dir, "hdrtone.sock")
        self.sock.bind(self.path)
        self.sock.listen(4)
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            c.sendall(b"hdrtone-handoff 1\n")
            data = b""
            c.settimeout(10)
            try:
                while not data.endswith(b"\0\0") and data != b"\0":
                    chunk = c.recv(4096)
                    if not chunk:
                        break
                    data += chunk
            except socket.timeout:
                pass
            paths = [p.decode() for p in data.split(b"\0") if p]
            self.received.append(paths)
            if data.endswith(b"\0"):
                c.sendall((self.reply or "ok %d\n" % len(paths)).encode())
            c.close()

    def close(self):
        self.sock.close()
        os.unlink(self.path)


def handoff_env():
    run_dir = tempfile.mkdtemp(dir=tmp)
    os.chmod(run_dir, 0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=run_dir)
    env.pop("HT_HANDOFF", None)   # the tests' environment turns the hand-off off
    return env, run_dir


# The hand-off: a file that is there, one that is not, one that cannot be read, a refusal.
env, run_dir = handoff_env()
viewer = FakeViewer(run_dir)
r = run("Desk.exr", env=env, cwd=samples)
check(r.returncode == 0 and "handed 1 file" in r.stderr, "handing Desk.exr: %d %s" %
      (r.returncode, r.stderr))
sent = os.path.join(os.path.realpath(samples), "Desk.exr")   # the working folder, as getcwd says
check(viewer.received == [[sent]], "the path sent: %s, not %s" % (viewer.received, sent))
r = run(desk, os.path.join(tmp, "missing.exr"), env=env)
check(r.returncode == 1 and "missing.exr" in r.stderr and "No such file" in r.stderr,
      "a missing second file: %d %s" % (r.returncode, r.stderr))
for _ in range(100):   # the stand-in's thread sees the client close after the client exits
    if len(viewer.received) == 2:
        break
    time.sleep(0.05)
check(len(viewer.received) == 2 and viewer.received[1] == [],
      "nothing sent for a list with a missing file: %s" % viewer.received)
locked = os.path.join(tmp, "locked.exr")
open(locked, "wb").write(open(tiny, "rb").read())
os.chmod(locked, 0)
if os.access(locked, os.R_OK):   # root reads anything: the check cannot fail here
    print("note: running as root, the unreadable file is readable")
else:
    r = run(locked, env=env)
    check(r.returncode == 1 and "Permission denied" in r.stderr,
          "an unreadable file: %d %s" % (r.returncode, r.stderr))
os.chmod(locked, stat.S_IRUSR | stat.S_IWUSR)
viewer.close()
env, run_dir = handoff_env()
viewer = FakeViewer(run_dir, reply="error %s: not an image hdrtone reads\n" % tiny)
r = run(tiny, env=env)
check(r.returncode == 1 and "could not show it" in r.stderr and
      "not an image hdrtone reads" in r.stderr,
      "a refusal by the viewer: %d %s" % (r.returncode, r.stderr))
viewer.close()

# A typo'd command, a missing file as the first word.
for word, nearest in (("stat", "stats"), ("exprot", "export"), ("comapre", "compare")):
    r = run(word, desk)
    check(r.returncode == 2 and "%s: no such command or file" % word in r.stderr and
          "nearest command: %s" % nearest in r.stderr, "%s: %d %s" % (word, r.returncode,
                                                                      r.stderr))
for word in ("nonexistent.exr", "dir/shot"):   # a missing file: exit 1, as handed off
    r = run(word)
    check(r.returncode == 1 and "%s: no such command or file" % word in r.stderr,
          "%s: %d %s" % (word, r.returncode, r.stderr))

# Usage errors before any image is read.
r = run("stats", desk, "--region", "300,200,100,50")
check(r.returncode == 2 and "X0 > X1" in r.stderr, "swapped --region: %d %s" %
      (r.returncode, r.stderr))
r = run("stats", desk, "--region", "0,0,700,10")
check(r.returncode == 1 and "outside the data window" in r.stderr, "--region outside: %d %s" %
      (r.returncode, r.stderr))
for cmd in ("view", "bench"):
    r = run(cmd, tiny, "--msaa", "3")
    check(r.returncode == 2 and "1, 2, 4 or 8" in r.stderr, "%s --msaa 3: %d %s" %
          (cmd, r.returncode, r.stderr))

# A sequence into a folder: the input's pattern there.
seq = os.path.join(tmp, "seq")
os.mkdir(seq)
for f in range(3):
    os.symlink(tiny, os.path.join(seq, "shot.%04d.exr" % f))
r = run("export", "seq/shot.%04d.exr", "-o", "seqdir/", "--backend", "cpu")
check(r.returncode == 0 and sorted(os.listdir(os.path.join(tmp, "seqdir"))) ==
      ["shot.%04d.png" % f for f in range(3)], "sequence -o seqdir/: %d %s" %
      (r.returncode, r.stderr))
r = run("export", "seq/shot.####.exr", "-o", "seqjpg", "--format", "jpeg", "--backend", "cpu")
check(r.returncode == 2, "sequence -o seqjpg (no folder, no pattern): %d" % r.returncode)
os.mkdir(os.path.join(tmp, "seqjpg"))
r = run("export", "seq/shot.####.exr", "-o", "seqjpg", "--format", "jpeg", "--backend", "cpu")
check(r.returncode == 0 and sorted(os.listdir(os.path.join(tmp, "seqjpg"))) ==
      ["shot.%04d.jpg" % f for f in range(3)], "sequence -o seqjpg (a folder): %d %s" %
      (r.returncode, r.stderr))

# compare makes -o's folders.
r = run("compare", tiny, tiny, os.path.join(seq, "shot.0001.exr"), "-o", "maps/",
        "--backend", "cpu")
check(r.returncode == 0 and sorted(os.listdir(os.path.join(tmp, "maps"))) ==
      ["2by2.png", "shot.0001.png"], "compare -o maps/: %d %s" % (r.returncode, r.stderr))
r = run("compare", tiny, tiny, "-o", "newdir/flip.png", "--backend", "cpu")
check(r.returncode == 0 and os.path.isfile(os.path.join(tmp, "newdir", "flip.png")),
      "compare -o newdir/flip.png: %d %s" % (r.returncode, r.stderr))
r = run("compare", tiny, tiny, tiny, "-o", "newdir/flip.png", "--backend", "cpu")
check(r.returncode == 2, "compare with several tests into a file: %d" % r.returncode)

# The CPU backend's linear output: no word of the GPU; --backend gpu says it goes to the CPU.
r = run("export", tiny, "-o", "x.hdr", "--backend", "cpu")
check(r.returncode == 0 and "GPU" not in r.stderr, "export -o x.hdr: %s" % r.stderr)

# --ldmax moves the picture only with the human ceiling (its help and docs/operator.md say so).
outs = {}
for name, extra in (("plain", []), ("ldmax", ["--ldmax", "200"]), ("human", ["--ceiling", "human"]),
                    ("human_ldmax", ["--ceiling", "human", "--ldmax", "200"])):
    r = run("export", desk, "-o", name + ".png", "--backend", "cpu", *extra)
    outs[name] = open(os.path.join(tmp, name + ".png"), "rb").read() if r.returncode == 0 else b""
check(outs["plain"] and outs["plain"] == outs["ldmax"], "--ldmax 200 changed the default mapping")
check(outs["human"] and outs["human"] != outs["human_ldmax"],
      "--ldmax 200 did not change --ceiling human")

# Help: stats takes several inputs; the Markdown table's rows are whole.
for args in (("--help",), ("stats", "--help")):
    check("stats IN..." in run(*args).stdout, "%s says stats IN..." % " ".join(args))
md = run("--help-markdown").stdout
row = [line for line in md.splitlines() if line.startswith("| `-o, --output PATH`")]
check(len(row) == 1 and row[0].endswith("analyze: the folder of the analyses |"),
      "the -o row of --help-markdown: %s" % row)
finish("test_cli_promises")
