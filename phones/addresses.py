"""Where the phones' page is served when the config names no address:
every IPv4 address of the box's own interfaces that belongs to a local
network (private or link-local). Never a public address, never 0.0.0.0."""

from __future__ import annotations

import fcntl
import socket
import struct

from wolfbox.config import local_address

SIOCGIFADDR = 0x8915          # Linux: an interface's IPv4 address


def local_addresses() -> list[str]:
    """The box's local-network IPv4 addresses, loopback left out."""
    found = []
    for _index, name in socket.if_nameindex():
        address = _ipv4(name)
        if address and local_address(address) and not address.startswith("127."):
            found.append(address)
    return found


def _ipv4(interface: str) -> str | None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR,
                                 struct.pack("256s", interface[:15].encode()))
        except OSError:                 # no IPv4 address on this interface
            return None
    return socket.inet_ntoa(packed[20:24])
