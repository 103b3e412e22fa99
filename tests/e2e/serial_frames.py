#!/usr/bin/env python3
"""Malformed frames to the firmware's serial agent, and its flow
control (protocol version 3).

    serial_frames.py SOCK [--holds]

Speaks the serial protocol (include/hartpool/frame.h) by hand on QEMU's UART
socket: a version 2 HELLO (refused, naming version 3), HELLO, then BATCH
frames whose ops are out of bounds, unknown, cut short, or a WAIT on an
unaligned word. Each must get a NAK naming the op, HP_INVALID_VALUE; a frame
ahead of the one expected gets a GAP; a read of the mailbox's magic must
still be answered after all of them. Then a HELLO asking for a receive
window of 64 bytes: with --holds (a UART that drops what its socket does
not take: sifive-u) the device must hold its replies to it, never more than
64 bytes past what the CREDITs said, and answer a read of 1 KiB through
CREDITs; without, it must say it holds nothing. Exit 0, or 1 with what went
wrong.
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


def hello(link, seq, host, window):
    link.s.sendall(frame(0x01, seq, struct.pack("<III", 3, host, window)))
    t, rseq, p = link.reply()
    if t != 0x81 or rseq != seq or len(p) != 24 or struct.unpack("<I", p[16:20])[0] != host:
        sys.exit("serial_frames: HELLO answered with type 0x%02x seq %d %r" % (t, rseq, p))
    return struct.unpack("<Q", p[8:16])[0], struct.unpack("<I", p[20:24])[0]


def flow(link, holds):
    """A window of 64 bytes: a read of 1 KiB of the mailbox comes through
    CREDITs, never more than the window past the last one."""
    mbox, credit = hello(link, 40, 0x5EED, 64)
    if credit != (64 if holds else 0):
        sys.exit("serial_frames: a window of 64 asked for, the device holds to %d" % credit)
    link.s.sendall(frame(0x04, 41, b"\x02" + varint(0) + varint(1024)))
    got, credited, credits = b"", 0, 0
    while True:
        start = got.find(b"\xc0")
        end = got.find(b"\xc1", start + 1) if start >= 0 else -1
        if end > 0:
            break
        data = link.s.recv(4096)
        if not data:
            sys.exit("serial_frames: the device hung up")
        got += data
        if holds and len(got) > credited + 64:
            sys.exit("serial_frames: %d bytes came, %d taken said: past the window of 64" % (len(got), credited))
        if holds:
            credited = len(got)
            link.s.sendall(frame(0x05, 0, struct.pack("<H", credited & 0xFFFF)))
            credits += 1
    if holds and credits < 2:
        sys.exit("serial_frames: a reply of %d bytes in %d pieces through a window of 64" % (len(got), credits))
    link.buf = got
    t, rseq, p = link.reply()
    if t != 0x82 or rseq != 41 or p[1:9] != b"HARTPOOL":
        sys.exit("serial_frames: the read through the window: type 0x%02x %r" % (t, p[:16]))
    return len(got), credits


def main():
    link = Link(sys.argv[1])
    holds = "--holds" in sys.argv[2:]
    # A version 2 host: refused, the device's version named.
    link.s.sendall(frame(0x01, 0, struct.pack("<I", 2)))
    t, seq, p = link.reply()
    if t != 0x84 or seq != 0 or struct.unpack("<iI", p) != (HP_INVALID_VALUE, 3):
        sys.exit("serial_frames: a version 2 HELLO: reply type 0x%02x %r" % (t, p))
    mbox, _ = hello(link, 0, 0x1234, 0)
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
    n, credits = flow(link, holds)
    print("serial_frames: %d malformed frames refused by op, a gap told, "
          "and the agent still serving; a read of %d bytes %s" % (
              len(bad), n, "through %d CREDITs to a window of 64" % credits if holds
              else "at once (the UART waits for its socket: no window)"))


if __name__ == "__main__":
    main()
