"""Which addresses a program tried to reach, read from an `strace -e trace=connect,sendto,sendmsg` log.

Harnesses phone home unless told not to; a rollout can run its harness under strace (the base image has
it) and this lists every connect()/sendto()/sendmsg() that named an address, so a test or a run can prove
that nothing but the model port was tried: no DNS lookup, no telemetry, no update check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

STRACE_ARGV = [
    "strace", "-f", "--seccomp-bpf", "-qq", "-s", "256",
    "-e", "trace=connect,sendto,sendmsg", "-e", "signal=none",
]  # fmt: skip
"""Prefix of the command line that traces a program (add `-o LOG --` and the program).

`--seccomp-bpf` stops the program only at the three traced calls, not at every system call: a Node
harness's traced rollout took 47 s with plain ptrace and 29 s with it (20 s untraced). The filter needs
no-new-privileges, so a traced program cannot gain privileges through a set-user-ID file (sudo)."""

Family = Literal["AF_INET", "AF_INET6", "AF_UNIX", "AF_NETLINK", "AF_UNSPEC", "other"]


@dataclass(frozen=True)
class Connect:
    """One socket address the CLI (or a child of it) connected or sent to, from strace."""

    syscall: str  # connect | sendto | sendmsg
    family: Family
    address: str  # "127.0.0.1:8080", "[::1]:53", a Unix path ("@name" for abstract), "" for netlink
    result: str  # "0", "-1 ENETUNREACH (...)", "?" when strace saw no result

    @property
    def host(self) -> str:
        return self.address.rsplit(":", 1)[0].strip("[]") if self.family in ("AF_INET", "AF_INET6") else ""

    @property
    def port(self) -> int | None:
        if self.family in ("AF_INET", "AF_INET6"):
            return int(self.address.rsplit(":", 1)[1])
        return None


_SYSCALL = re.compile(r"^(?:\[pid\s+)?(\d+)\]?\s+(connect|sendto|sendmsg)\((.*)$")
_RESUMED = re.compile(r"^(?:\[pid\s+)?(\d+)\]?\s+<\.\.\. (connect|sendto|sendmsg) resumed>.*\)\s+=\s+(.*)$")
_INET = re.compile(r'sa_family=AF_INET, sin_port=htons\((\d+)\), sin_addr=inet_addr\("([^"]+)"\)')
_INET6 = re.compile(r'sa_family=AF_INET6, sin6_port=htons\((\d+)\).*?inet_pton\(AF_INET6, "([^"]+)"')
_UNIX = re.compile(r'sa_family=AF_UNIX, sun_path=(@?)"((?:[^"\\]|\\.)*)"')
_FAMILY = re.compile(r"sa_family=(AF_\w+)")


def _parse_address(text: str) -> tuple[Family, str] | None:
    if m := _INET.search(text):
        return "AF_INET", f"{m.group(2)}:{m.group(1)}"
    if m := _INET6.search(text):
        return "AF_INET6", f"[{m.group(2)}]:{m.group(1)}"
    if m := _UNIX.search(text):
        return "AF_UNIX", m.group(1) + m.group(2)
    if m := _FAMILY.search(text):
        family = m.group(1)
        if family in ("AF_NETLINK", "AF_UNSPEC", "AF_UNIX"):
            return family, ""  # type: ignore[return-value]
        return "other", text[m.start() : m.start() + 200]
    return None


def parse_strace(text: str) -> list[Connect]:
    """connect()/sendto()/sendmsg() calls that name an address, in the order strace saw them."""
    found: list[Connect] = []
    pending: dict[tuple[str, str], int] = {}  # (pid, syscall) -> index in found awaiting its result
    for line in text.splitlines():
        if m := _RESUMED.match(line):
            index = pending.pop((m.group(1), m.group(2)), None)
            if index is not None:
                c = found[index]
                found[index] = Connect(c.syscall, c.family, c.address, m.group(3).strip())
            continue
        m = _SYSCALL.match(line)
        if not m:
            continue
        pid, syscall, rest = m.groups()
        parsed = _parse_address(rest)
        if parsed is None:  # sendto/sendmsg on a connected socket: no address
            continue
        family, address = parsed
        if rest.endswith("<unfinished ...>"):
            pending[(pid, syscall)] = len(found)
            result = "?"
        else:
            result = rest.rsplit(" = ", 1)[1].strip() if " = " in rest else "?"
        found.append(Connect(syscall, family, address, result))
    return found


def outside_connects(connects: list[Connect], allowed: set[str]) -> list[Connect]:
    """Every address that is not in `allowed` ("127.0.0.1:8000"), a Unix socket or netlink."""
    return [
        c
        for c in connects
        if not (
            c.family in ("AF_UNIX", "AF_NETLINK", "AF_UNSPEC")
            or (c.family in ("AF_INET", "AF_INET6") and c.address in allowed)
        )
    ]
