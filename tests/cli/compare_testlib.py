"""What the compare tests share: numpy and PIL, which CMake's Python may lack while Debian's
has them (scripts/setup installs python3-numpy and python3-pil): without them the test
re-runs itself under /usr/bin/python3, or skips (77)."""
import os
import sys

try:
    import numpy as np
    from PIL import Image
except ImportError:
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    print("skipped: no numpy or PIL")
    sys.exit(77)

__all__ = ["np", "Image"]
