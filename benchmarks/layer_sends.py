"""A change's frames through the channel layer: one group send each, or all at once.

    .venv/bin/python -m benchmarks.layer_sends [--passes 2000] [--tables 50]

Starts a Redis of its own (``redis-server`` on the PATH), two layers as two daphne
processes have them, and tables of four pages (two on each layer) with a group each:
the public one of a language (nobody listening, as at a table without spectators) and
each seated player's own, as ``games.actions.publish`` sends them. Times, in CPU of the
sending process, one pass's five frames (1.4 KB each) sent with channels-redis's
``group_send`` for each group (all of them at once, ``asyncio.gather``, as the product
did), and with ``stopbus_site.layers.BatchedRedisChannelLayer.group_send_many``; the two
alternate, twice each. The receiving side is the same for both and is not timed here
(``benchmarks.load --py-spy`` shows it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time


async def _run(url: str, passes: int, tables: int) -> None:
    from stopbus_site.layers import BatchedRedisChannelLayer

    layers = [BatchedRedisChannelLayer(hosts=[{"address": url}], prefix="bench"),
              BatchedRedisChannelLayer(hosts=[{"address": url}], prefix="bench")]
    layer = layers[0]
    for table in range(tables):
        for seat in range(4):
            on = layers[seat // 2]
            await on.group_add(f"t{table}.u{seat}.en", await on.new_channel())

    def frames(table: int) -> list[tuple[str, dict]]:
        return [(f"t{table}.all.en", {"type": "table.frame", "text": "p" * 1400})] + [
            (f"t{table}.u{seat}.en", {"type": "table.frame", "text": "s" * 1400})
            for seat in range(4)]

    async def one_by_one(messages):
        await asyncio.gather(*(layer.group_send(g, m) for g, m in messages))

    ways = {"group_send each (gather)": one_by_one, "group_send_many": layer.group_send_many}
    for _round in range(2):
        for name, send in ways.items():
            await layer.flush()
            cpu, wall = time.process_time(), time.perf_counter()
            for i in range(passes):
                await send(frames(i % tables))
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            print(f"  {name:26} {cpu / passes * 1000:6.3f} ms CPU a pass "
                  f"({wall / passes * 1000:.3f} ms wall)")
    await layer.flush()
    for on in layers:
        await on.close_pools()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--passes", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=50)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stopbus_site.settings")
    import django

    django.setup()
    from benchmarks.load import own_redis

    with own_redis() as url:
        print(f"{args.passes} passes of five frames, {args.tables} tables of four pages "
              "on two layers:")
        asyncio.run(_run(url, args.passes, args.tables))


if __name__ == "__main__":
    main()
