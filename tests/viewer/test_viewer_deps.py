"""The viewer's call circles stay small (docs/architecture.md, The viewer's parts): in the
graph "object A leaves a symbol undefined that object B defines" over src/viewer's objects
(scripts/viewer-deps, nm), no strongly connected component holds more than MAX_CIRCLE files:
with 1, no two files call each other, directly or round a circle (before the state split one
circle held 25 of the 32 files). The test also proves the script sees a circle: a graph made
of two objects that call each other is one of 2. And the panels' drawing reads the viewer as
const: in panels*.cpp and panels*.h no function but panels_build (and panels_done, which it
calls to run what the drawing asked for) takes a writable viewer *."""
import glob
import os
import re
import subprocess
import sys
import tempfile

MAX_CIRCLE = 1
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "viewer-deps")
OBJECTS = os.path.join(os.getcwd(), "CMakeFiles", "hdrtone_viewer.dir", "src", "viewer")
fails = 0


def check(ok, what):
    global fails
    print(("ok: " if ok else "FAIL: ") + what)
    fails += not ok


def deps(objects, sources, bound):
    return subprocess.run([sys.executable, SCRIPT, "--objects", objects, "--sources", sources,
                           "--max", str(bound)], capture_output=True, text=True)


if not os.path.isdir(OBJECTS):
    print("skipped: no viewer objects in %s (run from the build folder)" % OBJECTS)
    sys.exit(77)
r = deps(OBJECTS, os.path.join(ROOT, "src", "viewer"), MAX_CIRCLE)
print(r.stdout.strip())
check(r.returncode == 0, "no call circle of more than %d files in src/viewer %s"
      % (MAX_CIRCLE, r.stderr.strip()))
check("files " in r.stdout and int(r.stdout.split("files ")[1].split(",")[0]) >= 30,
      "the script read the viewer's objects")

# The panels' drawing takes const viewer * (a made line with a writable one must be caught).
def writable_viewer(text):
    """The functions of TEXT with a parameter `viewer *` or `struct viewer *` not const."""
    found = []
    for m in re.finditer(r"(\w+)\(([^()]*)\)", text):
        for param in m.group(2).split(","):
            words = param.replace("*", " * ").split()
            if "viewer" in words and "*" in words and "const" not in words:
                found.append(m.group(1))
    return found


check(writable_viewer("void f(const viewer *v, viewer_panel *p);\nvoid g(viewer *v);") == ["g"],
      "a panel function with a writable viewer * is found")
panels = sorted(glob.glob(os.path.join(ROOT, "src", "viewer", "panels*")))
bad = [f for path in panels for f in writable_viewer(open(path).read())
       if f not in ("panels_build", "panels_done")]
check(len(panels) >= 7 and not bad,
      "the panels' drawing takes const viewer * (%d files; writable: %s)" % (len(panels), bad))

# A circle of two made on purpose: the script must report it and refuse it with --max 1.
tmp = tempfile.mkdtemp()
src = os.path.join(tmp, "src")
os.mkdir(src)
for name, body in (("a.c", "void b(void); void a(void) { b(); }"),
                   ("b.c", "void a(void); void b(void) { a(); }"),
                   ("c.c", "void a(void); void c(void) { a(); }")):
    open(os.path.join(src, name), "w").write(body + "\n")
    subprocess.run(["cc", "-c", os.path.join(src, name), "-o",
                    os.path.join(tmp, name + ".o")], check=True)
r = deps(tmp, src, 1)
check(r.returncode == 1 and "circle of 2: a.c b.c" in r.stdout,
      "a made circle of two is found and refused: %s" % r.stdout.strip())
r = deps(tmp, src, 2)
check(r.returncode == 0, "and allowed with --max 2")
sys.exit(1 if fails else 0)
