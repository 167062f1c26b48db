#!/usr/bin/env python3
"""A STUN responder (RFC 5389 Binding only) for the simulated internet.

Why the tests need it: Debian's miniupnpd 2.3.1 refuses to forward ports
when its WAN address is reserved, and every address of the simulated
internet is TEST-NET (reserved). With ext_perform_stun=yes it instead asks a
STUN server for its public address and forwards when all four of its
Binding Requests come back with its own address and port (no NAT above it,
no filtering), without checking that address against the reserved list.
This machine on the public segment is that server: it answers every
Binding Request from the socket it arrived on with the request's source
address, in MAPPED-ADDRESS and XOR-MAPPED-ADDRESS, and ignores
CHANGE-REQUEST (it has one address and one port).

Usage: stun.py ADDRESS PORT. Prints "ready" once bound; runs until killed.
"""

import socket
import struct
import sys

MAGIC = 0x2112A442
BINDING_REQUEST = 0x0001
BINDING_SUCCESS = 0x0101
MAPPED_ADDRESS = 0x0001
XOR_MAPPED_ADDRESS = 0x0020


def answer(request, source):
    """The Binding success response to `request` from `source`, or None."""
    if len(request) < 20:
        return None
    kind, _length, cookie = struct.unpack("!HHI", request[:8])
    if kind != BINDING_REQUEST or cookie != MAGIC:
        return None
    transaction = request[8:20]
    host, port = source
    address = socket.inet_aton(host)
    mapped = struct.pack("!HHBBH", MAPPED_ADDRESS, 8, 0, 1, port) + address
    xor_address = struct.pack("!I", struct.unpack("!I", address)[0] ^ MAGIC)
    xored = (
        struct.pack("!HHBBH", XOR_MAPPED_ADDRESS, 8, 0, 1, port ^ (MAGIC >> 16))
        + xor_address
    )
    body = mapped + xored
    return struct.pack("!HHI", BINDING_SUCCESS, len(body), MAGIC) + transaction + body


def main():
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((sys.argv[1], int(sys.argv[2])))
    print("ready", flush=True)
    while True:
        request, source = sock.recvfrom(2048)
        response = answer(request, source)
        if response is not None:
            sock.sendto(response, source)


if __name__ == "__main__":
    main()
