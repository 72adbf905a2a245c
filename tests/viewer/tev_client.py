#!/usr/bin/env python3
"""A client of tev's protocol for tests/test_viewer_listen.sh, independent of the C code:
packets are [uint32 length, header included][uint8 type][payload], little-endian, strings
NUL-terminated.

  tev_client.py PORT image NAME FILE.pfm [TILE]  CreateImage R,G,B,A, then UpdateImage tiles
                                                 (layout 6) of the PFM's pixels
  tev_client.py PORT open PATH                   OpenImage (grabs focus)
  tev_client.py PORT close NAME                  CloseImage
  tev_client.py PORT reload NAME                 ReloadImage
  tev_client.py PORT vector NAME                 VectorGraphics (a rectangle)
  tev_client.py PORT hostile KIND                random | lying-length | huge-image | truncated
  tev_client.py PORT idle N SECONDS              N connections that send nothing
"""
import os
import random
import socket
import struct
import sys
import time


def cstr(s):
    return s.encode() + b'\0'


def packet(kind, payload):
    return struct.pack('<IB', 5 + len(payload), kind) + payload


def create_image(name, w, h, channels, focus=True):
    body = struct.pack('<B', focus) + cstr(name) + struct.pack('<iii', w, h, len(channels))
    return packet(4, body + b''.join(cstr(c) for c in channels))


def update_image(name, x, y, w, h, planes, focus=False):
    """planes: one list of w*h floats per channel (R, G, B, A), written interleaved with
    per-channel offsets and strides (layout 6)."""
    n = len(planes)
    body = struct.pack('<B', focus) + cstr(name) + struct.pack('<i', n)
    body += b''.join(cstr(c) for c in 'RGBA'[:n])
    body += struct.pack('<iiii', x, y, w, h)
    body += struct.pack('<%dq' % n, *range(n)) + struct.pack('<%dq' % n, *([n] * n))
    data = [planes[c][i] for i in range(w * h) for c in range(n)]
    return packet(6, body + struct.pack('<%df' % len(data), *data))


def read_pfm(path):
    """(width, height, rows of RGB floats top row first)."""
    with open(path, 'rb') as f:
        data = f.read()
    parts, pos = [], 0
    while len(parts) < 4:
        end = pos
        while data[end:end + 1] not in (b' ', b'\n', b'\t', b'\r'):
            end += 1
        if end > pos:
            parts.append(data[pos:end])
        pos = end + 1
    kind, w, h, scale = parts[0], int(parts[1]), int(parts[2]), float(parts[3])
    assert kind == b'PF', 'colour PFM only'
    fmt = ('<' if scale < 0 else '>') + '%df' % (w * h * 3)
    px = struct.unpack(fmt, data[pos:pos + w * h * 12])
    rows = [px[(h - 1 - y) * w * 3:(h - y) * w * 3] for y in range(h)]   # PFM: bottom row first
    return w, h, rows


def connect(port):
    s = socket.create_connection(('127.0.0.1', port), timeout=10)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def send_and_close(port, data):
    s = connect(port)
    s.sendall(data)
    s.shutdown(socket.SHUT_WR)
    try:   # the server closes once it has read everything
        while s.recv(256):
            pass
    except OSError:
        pass
    s.close()


def send_image(port, name, pfm, tile):
    w, h, rows = read_pfm(pfm)
    out = [create_image(name, w, h, ['R', 'G', 'B', 'A'])]
    for ty in range(0, h, tile):
        for tx in range(0, w, tile):
            tw, th = min(tile, w - tx), min(tile, h - ty)
            planes = [[], [], [], []]
            for y in range(ty, ty + th):
                for x in range(tx, tx + tw):
                    for c in range(3):
                        planes[c].append(rows[y][3 * x + c])
                    planes[3].append(1.0)
            out.append(update_image(name, tx, ty, tw, th, planes))
    send_and_close(port, b''.join(out))


def hostile(port, kind):
    s = connect(port)
    try:
        if kind == 'random':
            s.sendall(os.urandom(4096))
        elif kind == 'lying-length':   # says 3 GB, sends a few bytes
            s.sendall(struct.pack('<IB', 3 << 30, 4) + b'\1x\0')
        elif kind == 'huge-image':
            s.sendall(create_image('huge', 1 << 30, 1 << 30, ['R', 'G', 'B']))
        elif kind == 'truncated':
            p = create_image('cut', 4, 4, ['R', 'G', 'B'])
            s.sendall(p[:len(p) - 3])
        time.sleep(0.3)
    except OSError:
        pass   # refused and closed: what a hostile client deserves
    s.close()


def main():
    port, cmd, args = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    if cmd == 'image':
        send_image(port, args[0], args[1], int(args[2]) if len(args) > 2 else 16)
    elif cmd == 'open':
        send_and_close(port, packet(7, struct.pack('<B', 1) + cstr(args[0]) + cstr('')))
    elif cmd == 'close':
        send_and_close(port, packet(2, cstr(args[0])))
    elif cmd == 'reload':
        send_and_close(port, packet(1, struct.pack('<B', 1) + cstr(args[0])))
    elif cmd == 'vector':   # beginPath, rect(1, 1, 8, 8), stroke
        cmds = b'\6' + b'\22' + struct.pack('<4f', 1, 1, 8, 8) + b'\5'
        body = struct.pack('<B', 0) + cstr(args[0]) + struct.pack('<Bi', 0, 3) + cmds
        send_and_close(port, packet(8, body))
    elif cmd == 'hostile':
        hostile(port, args[0])
    elif cmd == 'idle':
        socks = [connect(port) for _ in range(int(args[0]))]
        time.sleep(float(args[1]))
        for s in socks:
            s.close()
    else:
        sys.exit('unknown command ' + cmd)


if __name__ == '__main__':
    random.seed(1)
    main()
