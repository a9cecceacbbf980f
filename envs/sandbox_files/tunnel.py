"""The pod end of a k8s sandbox's model tunnel: 127.0.0.1:PORT -> frames on stdout/stdin.

Run by the driver in the warden container (which shares the pod's loopback with the task container)
through one exec; the driver's end turns each connection into one to the host's model relay, which lets
through only the sandbox's own model routes. The pod itself has no egress at all. A frame is a type
byte, a connection id and a length (big-endian), then that many bytes. Python stdlib only, since it runs
on whatever python3 the task image has.
"""

import asyncio
import contextlib
import itertools
import struct
import sys

OPEN, DATA, CLOSE, READY = 1, 2, 3, 4
HEADER = struct.Struct(">BII")


async def main(host: str, port: int) -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 24)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin.buffer)
    transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, sys.stdout.buffer)
    out = asyncio.StreamWriter(transport, protocol, None, loop)
    conns: dict[int, asyncio.StreamWriter] = {}
    ids = itertools.count(1)

    async def send(kind: int, cid: int, data: bytes = b"") -> None:
        out.write(HEADER.pack(kind, cid, len(data)) + data)
        await out.drain()

    async def handle(conn_reader: asyncio.StreamReader, conn_writer: asyncio.StreamWriter) -> None:
        cid = next(ids)
        conns[cid] = conn_writer
        await send(OPEN, cid)
        try:
            while data := await conn_reader.read(65536):
                await send(DATA, cid, data)
        except OSError:
            pass
        finally:
            if conns.pop(cid, None) is not None:
                await send(CLOSE, cid)
                with contextlib.suppress(OSError):
                    conn_writer.close()

    server = await asyncio.start_server(handle, host, port)
    await send(READY, 0)
    try:
        while True:
            kind, cid, size = HEADER.unpack(await reader.readexactly(HEADER.size))
            data = await reader.readexactly(size) if size else b""
            writer = conns.get(cid)
            if writer is None:
                continue
            if kind == DATA:
                writer.write(data)
                with contextlib.suppress(OSError):
                    await writer.drain()
            elif kind == CLOSE:
                conns.pop(cid, None)
                with contextlib.suppress(OSError):
                    writer.close()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass  # the driver closed the tunnel: the sandbox's way to the model is cut
    server.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
