#!/usr/bin/env python3
"""Malformed frames to the firmware's serial agent (issue 17).

    serial_frames.py SOCK

Speaks the serial protocol (include/hartpool/frame.h) by hand on QEMU's UART
socket: HELLO, then BATCH frames whose ops are out of bounds, unknown, cut
short, or a WAIT on an unaligned word. Each must get a NAK naming the op,
HP_INVALID_VALUE; a frame ahead of the one expected gets a GAP; a read of
the mailbox's magic must still be answered after all of them. Exit 0, or 1
with what went wrong.
"""
import socket
import struct
import sys
import zlib

HP_INVALID_VALUE = -30  # include/hartpool/error.h


def frame(t, seq, payload):
    body = struct.pack("<BBH", t, seq, len(payload)) + payload
    body += struct.pack("<I", zlib.crc32(body) & 0xFFFFFFFF)
    esc = {0xC0: b"\xdb\xdc", 0xC1: b"\xdb\xdd", 0xDB: b"\xdb\xde"}
    return b"\xc0" + b"".join(esc.get(b, bytes([b])) for b in body) + b"\xc1"


def varint(v):
    out = b""
    while v >= 0x80:
        out += bytes([(v & 0x7F) | 0x80])
        v >>= 7
    return out + bytes([v])


class Link:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(path)
        self.s.settimeout(10)
        self.buf = b""

    def reply(self):
        """The next frame from the device (console text skipped)."""
        while True:
            start = self.buf.find(b"\xc0")
            end = self.buf.find(b"\xc1", start + 1) if start >= 0 else -1
            if end > 0:
                raw, self.buf = self.buf[start + 1:end], self.buf[end + 1:]
                body = raw.replace(b"\xdb\xdc", b"\xc0").replace(
                    b"\xdb\xdd", b"\xc1").replace(b"\xdb\xde", b"\xdb")
                t, seq, n = struct.unpack("<BBH", body[:4])
                if zlib.crc32(body[:-4]) & 0xFFFFFFFF != struct.unpack("<I", body[-4:])[0]:
                    sys.exit("serial_frames: a reply with a bad CRC")
                return t, seq, body[4:4 + n]
            data = self.s.recv(4096)
            if not data:
                sys.exit("serial_frames: the device hung up")
            self.buf += data


def main():
    link = Link(sys.argv[1])
    link.s.sendall(frame(0x01, 0, struct.pack("<I", 2)))
    t, seq, p = link.reply()
    if t != 0x81 or seq != 0:
        sys.exit("serial_frames: HELLO answered with type 0x%02x" % t)
    mbox = struct.unpack("<Q", p[8:16])[0]
    a = lambda addr: varint(addr ^ mbox)
    bad = [
        ("a read of address 0", 0, b"\x02" + a(0) + varint(8)),
        ("a read of 1025 bytes", 0, b"\x02" + a(mbox) + varint(1025)),
        ("a write to the header", 0, b"\x01" + a(mbox) + varint(1) + b"\x00\x41"),
        ("an unknown op", 0, b"\x7f" + a(mbox) + varint(8)),
        ("an op cut short", 0, b"\x02" + a(mbox)),
        ("a read then more", 1, b"\x02" + a(mbox) + varint(8) + b"\x02" + a(mbox) + varint(8)),
        ("a wait on an unaligned word", 0, b"\x03" + a(mbox + 4) + varint(1) + varint(8) + varint(5)),
        ("a wait of 61 s", 0, b"\x03" + a(mbox) + varint(1) + varint(8) + varint(61000)),
    ]
    seq = 1
    for what, op, payload in bad:
        link.s.sendall(frame(0x04, seq, payload))
        t, rseq, p = link.reply()
        if t != 0x84 or rseq != seq or struct.unpack("<iI", p) != (HP_INVALID_VALUE, op):
            sys.exit("serial_frames: %s: reply type 0x%02x seq %d %r" % (what, t, rseq, p))
        seq += 1
    # A frame ahead of the expected one: GAP naming the expected seq.
    link.s.sendall(frame(0x04, seq + 3, b"\x02" + a(mbox) + varint(8)))
    t, rseq, p = link.reply()
    if t != 0x85 or p != bytes([seq]):
        sys.exit("serial_frames: a frame ahead: reply type 0x%02x %r" % (t, p))
    # Still serving: the magic, zero-run encoded (8 literal bytes).
    link.s.sendall(frame(0x04, seq, b"\x02" + a(mbox) + varint(8)))
    t, rseq, p = link.reply()
    if t != 0x82 or rseq != seq or p != b"\x07HARTPOOL":
        sys.exit("serial_frames: the magic: reply type 0x%02x %r" % (t, p))
    print("serial_frames: %d malformed frames refused by op, a gap told, "
          "and the agent still serving" % len(bad))


if __name__ == "__main__":
    main()
