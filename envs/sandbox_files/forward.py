"""Loopback forwarder inside a model-only sandbox: 127.0.0.1:PORT -> the mounted model Unix socket.

The sandbox has no network interface but loopback; this is its one way out, and it leads only to the
model proxy. Python stdlib only, since it runs on whatever python3 the task image has.
"""

import asyncio
import contextlib
import pathlib
import sys


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        with contextlib.suppress(OSError):
            writer.close()


async def main(host: str, port: int, socket_path: str) -> None:
    async def handle(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_unix_connection(socket_path)
        except OSError as exc:
            print(f"cannot reach the model socket {socket_path}: {exc}", file=sys.stderr, flush=True)
            client_writer.close()
            return
        await asyncio.gather(pipe(client_reader, upstream_writer), pipe(upstream_reader, client_writer))

    server = await asyncio.start_server(handle, host, port)
    pathlib.Path("/run/forge/forward.ready").touch()
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
