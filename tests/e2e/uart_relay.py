#!/usr/bin/env python3
"""A UART link with the boot text still in it, for the U-Boot e2e tier.

    uart_relay.py LISTEN DEVICE REPLAY

Listens on the Unix socket LISTEN. Each client in turn gets the bytes of the
file REPLAY first (what the UART sent from power-on: OpenSBI's, U-Boot's and
the firmware's boot text, as a tty or a board's USB serial adapter would
still hold it), then is relayed both ways to the Unix socket DEVICE (QEMU's
UART) until either side closes. So the host's serial transport must find the
device's frames after all of that text. Prints one line per client on
stderr; runs until killed.
"""
import os
import selectors
import socket
import sys


def relay(client, device):
    sel = selectors.DefaultSelector()
    sel.register(client, selectors.EVENT_READ, device)
    sel.register(device, selectors.EVENT_READ, client)
    up = down = 0
    while True:
        for key, _ in sel.select():
            data = key.fileobj.recv(65536)
            if not data:
                return up, down
            key.data.sendall(data)
            if key.fileobj is client:
                up += len(data)
            else:
                down += len(data)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    listen, device_path, replay = sys.argv[1:]
    with open(replay, "rb") as f:
        text = f.read()
    if os.path.exists(listen):
        os.unlink(listen)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(listen)
    server.listen(1)
    n = 0
    while True:
        client, _ = server.accept()
        n += 1
        device = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            device.connect(device_path)
            client.sendall(text)
            up, down = relay(client, device)
            print("uart_relay: client %d: %d bytes of boot text first, then "
                  "%d bytes to the device, %d back" % (n, len(text), up, down),
                  file=sys.stderr, flush=True)
        except OSError as e:
            print("uart_relay: client %d: %s" % (n, e), file=sys.stderr,
                  flush=True)
        finally:
            device.close()
            client.close()


if __name__ == "__main__":
    main()
