#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A TCP relay that delays what it carries: a simulated link latency.

    relay.py LISTEN_ADDR LISTEN_PORT TARGET_PORT DELAY_MS LOG [--trickle BPS]

Listens on LISTEN_ADDR:LISTEN_PORT and forwards each connection to
127.0.0.1:TARGET_PORT.  Every chunk read on one side reaches the other
DELAY_MS later, in order, in both directions: each way of the link adds
DELAY_MS, as a wire would (tc netem is refused by this machine's kernel).
With --trickle, what the server sends goes out at BPS bytes a second, in
small pieces: a server that trickles.  Each HTTP request line going to the
server is appended to LOG ("GET /buildid/..."), so that a test can count
what the server was asked.  Writes "listening" to stdout once it listens.
"""
import asyncio
import sys
import time


async def pump(reader, writer, delay, log=None, trickle=0):
    queue = asyncio.Queue()

    async def deliver():
        while True:
            due, data = await queue.get()
            if data is None:
                break
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if trickle:
                # a piece each 10 ms or so
                step = max(64, trickle // 100)
                for i in range(0, len(data), step):
                    writer.write(data[i:i + step])
                    await writer.drain()
                    await asyncio.sleep(step / trickle)
            else:
                writer.write(data)
                await writer.drain()
        writer.close()

    task = asyncio.ensure_future(deliver())
    pending = b""
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            if log is not None:
                pending += data
                while b"\r\n" in pending:
                    line, pending = pending.split(b"\r\n", 1)
                    if line[:4] in (b"GET ", b"HEAD"):
                        log.write(line.decode("latin-1") + "\n")
                        log.flush()
                pending = pending[-4096:]
            queue.put_nowait((time.monotonic() + delay, data))
    except (ConnectionError, OSError):
        pass
    queue.put_nowait((0, None))
    try:
        await task
    except (ConnectionError, OSError):
        pass


async def main():
    addr, port, target, delay_ms, logname = sys.argv[1:6]
    trickle = int(sys.argv[7]) if len(sys.argv) > 7 and sys.argv[6] == "--trickle" else 0
    delay = int(delay_ms) / 1000.0
    log = open(logname, "a")

    async def handle(creader, cwriter):
        try:
            sreader, swriter = await asyncio.open_connection("127.0.0.1", int(target))
        except OSError:
            cwriter.close()
            return
        await asyncio.gather(pump(creader, swriter, delay, log),
                             pump(sreader, cwriter, delay, None, trickle))

    server = await asyncio.start_server(handle, addr, int(port), backlog=128)
    print("listening", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
