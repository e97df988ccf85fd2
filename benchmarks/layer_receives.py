"""Pages' frames off the channel layer: channels-redis's receive against the batched one.

    .venv/bin/python -m benchmarks.layer_receives [--pages 400] [--moves 3000] [--rate 100]

Starts a Redis of its own (``redis-server`` on the PATH). This process plays one daphne:
``--pages`` pages, each a task waiting on the layer for its next message, as a Channels
consumer does. Another process plays the rest of the room: ``--rate`` moves a second,
each sending a 1.4 KB frame to two of the pages (a table of four has two pages on each
of the two processes), one after the other. Timed: the CPU of the receiving process,
per frame received, with channels-redis's ``RedisChannelLayer`` and with
``stopbus_site.layers.BatchedRedisChannelLayer``, by turns, twice each; then the same
with the moves sent as fast as they go (a process that has fallen behind). Every frame
must arrive once, in the order it was sent to its page, or the run fails.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import time

LAYERS = {"channels-redis RedisChannelLayer": "channels_redis.core.RedisChannelLayer",
          "BatchedRedisChannelLayer": "stopbus_site.layers.BatchedRedisChannelLayer"}


def _layer(path: str, url: str):
    from django.utils.module_loading import import_string

    # room for a whole run in the process's queue: the fast run sends faster than a
    # process takes (the product keeps channels-redis's capacity of 100)
    return import_string(path)(hosts=[{"address": url, "socket_timeout": None}],
                               prefix="bench", capacity=100_000)


def _send(path: str, url: str, channels: list[str], moves: int, rate: float | None,
          seed: int) -> None:
    """The other process: ``moves`` moves, each a frame to two pages."""
    import django

    django.setup()

    async def run():
        layer = _layer(path, url)
        rng = random.Random(seed)
        start = time.perf_counter()
        for n in range(moves):
            if rate:
                delay = start + n / rate - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
            first = rng.randrange(0, len(channels), 2)
            for channel in channels[first:first + 2]:
                await layer.send(channel, {"type": "table.frame", "n": n, "text": "f" * 1400})
        await layer.close_pools()

    asyncio.run(run())


async def _receive(path: str, url: str, pages: int, moves: int, rate: float | None,
                   seed: int) -> tuple[float, float]:
    layer = _layer(path, url)
    await layer.flush()
    channels = [await layer.new_channel() for _ in range(pages)]
    got: dict[str, list[int]] = {c: [] for c in channels}
    expected = 2 * moves
    done = asyncio.Event()
    count = 0
    first_at = None

    async def page(channel):
        nonlocal count, first_at
        while True:
            message = await layer.receive(channel)
            if first_at is None:
                first_at = time.process_time(), time.perf_counter()
            got[channel].append(message["n"])
            count += 1
            if count == expected:
                done.set()

    tasks = [asyncio.create_task(page(c)) for c in channels]
    await asyncio.sleep(0.5)  # every page waiting
    sender = multiprocessing.get_context("spawn").Process(
        target=_send, args=(path, url, channels, moves, rate, seed))
    sender.start()
    await asyncio.wait_for(done.wait(), timeout=120 + moves / (rate or 1000))
    cpu, wall = time.process_time() - first_at[0], time.perf_counter() - first_at[1]
    sender.join(30)
    await asyncio.sleep(0.3)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if count != expected:
        raise SystemExit(f"{count} frames received, {expected} sent")
    for channel, ns in got.items():
        if ns != sorted(ns):
            raise SystemExit(f"{channel} received out of order: {ns[:10]}")
    await layer.flush()
    await layer.close_pools()
    return cpu / expected * 1000, wall


def main(argv=None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=400)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--rate", type=float, default=100.0)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stopbus_site.settings")
    import django

    django.setup()
    from benchmarks.load import own_redis

    with own_redis() as url:
        for rate in (args.rate, None):
            paced = f"{rate:g} moves/s" if rate else "as fast as they go"
            print(f"{args.moves} moves of two frames to {args.pages} pages, {paced}:")
            for turn in range(2):
                for name, path in LAYERS.items():
                    cpu, wall = asyncio.run(_receive(path, url, args.pages, args.moves,
                                                     rate, seed=turn))
                    print(f"  {name:34} {cpu:6.3f} ms CPU a frame received "
                          f"({wall:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
