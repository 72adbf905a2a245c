#!/usr/bin/env python3
"""Writes a small test sequence of PFM frames: make_sequence.py DIR N [K GAIN]. Frame f is
DIR/shot.NNNN.pfm, 64 x 48, a log ramp of luminance 0.01 .. 100 (image units) with a warm
tint; from frame K on every pixel is GAIN times brighter (a step; default: none)."""
import struct
import sys

d, n = sys.argv[1], int(sys.argv[2])
k = int(sys.argv[3]) if len(sys.argv) > 3 else n
gain = float(sys.argv[4]) if len(sys.argv) > 4 else 1.0
w, h = 64, 48
for f in range(n):
    g = gain if f >= k else 1.0
    px = []
    for i in range(w * h):
        lum = 0.01 * 10 ** (4.0 * i / (w * h - 1)) * g
        px.append(struct.pack("<fff", lum * 1.1, lum, lum * 0.8))
    with open("%s/shot.%04d.pfm" % (d, f), "wb") as out:
        out.write(b"PF\n%d %d\n-1.0\n" % (w, h))
        out.write(b"".join(px))
