"""Where a move's server time goes, in one process, without the network.

    .venv/bin/python -m benchmarks.profile_board [--moves 400] [--profile]

On a fresh PostgreSQL database (``stopbus_profile``) it plays greedy moves at a
few tables the way ``TableConsumer`` does (``actions.do_play`` for the page's
user) and, after each, brings every seat's page up to date the way
each consumer does (``render.table_data`` once per change and process, then
``render.board`` -- once per distinct view -- and ``render.frame`` per viewer).
Prints milliseconds and queries per move, per table read and per viewer's
update, and the bytes each viewer is sent per move, by region; ``--profile`` adds
cProfile's top functions, ``--dump-frames FILE`` writes what one page is sent.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import time
import uuid


def main(argv=None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--profile", choices=("all", "play", "read", "render"),
                        help="cProfile everything, or one step")
    parser.add_argument("--no-query-log", action="store_true",
                        help="do not count queries (counting costs CPU too)")
    parser.add_argument("--database", default="stopbus_profile")
    parser.add_argument("--dump-frames", metavar="FILE",
                        help="write every frame one page (seat 1 of the first table) is sent")
    args = parser.parse_args(argv)

    from benchmarks.load import _load_stack_class

    stack = _load_stack_class()("stopbus_site.asgi:application", processes=0,
                                database=args.database, proxy=False,
                                env={"STOPBUS_CLOCK_AUTOSTART": "false"})
    stack._fresh_database()
    stack._configure_django()

    from django.contrib.auth import get_user_model
    from django.db import connection, reset_queries

    from benchmarks.load import make_started_tables
    from games import actions, render
    from games.engine import GreedyBot, seat_view
    from games.frames import parse
    from games.models import Game

    # telling the group needs a running event loop here, which the servers have and
    # this process does not: what it costs in a server is measured there, not here
    actions.base.group_send = lambda group, message: None
    tables = make_started_tables(args.tables)
    users = {u.pk: u for u in get_user_model().objects.all()}
    seats_of = {}
    for table_id, _ in tables:
        game = Game.objects.get(table_id=table_id)
        seats_of[table_id] = [users[p.user_id] for p in game.players.order_by("seat")]

    connection.force_debug_cursor = not args.no_query_log
    timings = {"play": [], "read": [], "render": []}
    queries = {"play": 0, "read": 0, "render": 0}
    cpu = {"play": 0.0, "read": 0.0, "render": 0.0}

    def measure(name, fn):
        reset_queries()
        started, cpu_started = time.perf_counter(), time.process_time()
        if profiler and args.profile == name:
            profiler.enable()
        result = fn()
        if profiler and args.profile == name:
            profiler.disable()
        timings[name].append(time.perf_counter() - started)
        cpu[name] += time.process_time() - cpu_started
        queries[name] += len(connection.queries)
        return result

    def one_move(table_id):
        game = Game.objects.filter(table_id=table_id).order_by("-number").first()
        state = actions.state_of(game)
        if game.status != Game.Status.PLAYING:
            actions.do_play_again(game.table, seats_of[table_id][0])
            return
        if state.phase != "play":
            actions.do_play(game.pk, None, {"kind": "next_hand"}, game.version, by="table")
            return
        user = seats_of[table_id][state.turn]
        action = GreedyBot(state.rules).choose(seat_view(state, state.turn)).to_dict()
        action.pop("seat", None)
        frame = parse(json.dumps({**action, "version": game.version}))

        def play():  # what TableConsumer._act does for a move
            actions.do_play(game.pk, None, frame.action, frame.version, player=user)

        measure("play", play)
        # two server processes, each with two of the table's four pages
        for pages in (seats_of[table_id][:2], seats_of[table_id][2:]):
            stamp = uuid.uuid4().hex
            measure("read", lambda s=stamp: render.table_data(table_id, s))
            for viewer in pages:
                def update(viewer=viewer, s=stamp):
                    board = render.board(render.table_data(table_id, s), viewer)
                    message = render.frame(shown.get((table_id, viewer.pk)), board)
                    shown[(table_id, viewer.pk)] = board
                    sizes.append(len(message.encode()))
                    if viewer.pk == watched:
                        dumped.append(f"\n=== move {len(timings['play'])} {len(message)} B\n"
                                      f"{message}\n")
                    body = message[len(PART):] if message.startswith(PART) else ""
                    for element in elements(body):
                        name = element_id(element) or "log"  # the log's new rows: an <ol>
                        kind = name.split("-")[0]  # spot-2 -> spot
                        by_region.setdefault(kind, []).append(len(element.encode()))
                    return message
                measure("render", update)

    from games.regions import PART, element_id, elements

    sizes, by_region, dumped = [], {}, []
    watched = seats_of[tables[0][0]][1].pk  # --dump-frames: what this page is sent
    profiler = None
    shown = {}  # (table, viewer) -> the board that page shows
    for table_id, _ in tables:  # every page sent its full board, as on connecting
        data = render.table_data(table_id)
        for viewer in seats_of[table_id]:
            shown[(table_id, viewer.pk)] = render.board(data, viewer)
    for i in range(20):  # warm caches
        one_move(tables[i % len(tables)][0])
    sizes.clear()
    by_region.clear()
    dumped.clear()
    for k in timings:
        timings[k].clear()
        queries[k] = 0
        cpu[k] = 0.0
    profiler = cProfile.Profile() if args.profile else None
    if profiler and args.profile == "all":
        profiler.enable()
    started = time.perf_counter()
    for i in range(args.moves):
        one_move(tables[i % len(tables)][0])
    total = time.perf_counter() - started
    if profiler and args.profile == "all":
        profiler.disable()
    moves = len(timings["play"])
    print(f"{moves} moves in {total:.2f} s: {total / max(moves, 1) * 1000:.2f} ms a move, "
          "with 2 table reads and 4 page updates")
    for name, values in timings.items():
        if values:
            values = sorted(values)
            print(f"  {name:7s} {len(values):5d} x  median {values[len(values) // 2] * 1000:6.2f}"
                  f" ms  mean {sum(values) / len(values) * 1000:6.2f} ms  CPU "
                  f"{cpu[name] / len(values) * 1000:6.2f} ms  "
                  f"queries {queries[name] / len(values):.1f} each")
    if args.dump_frames:
        with open(args.dump_frames, "w") as out:
            out.writelines(dumped)
    if sizes:
        sizes.sort()
        print(f"  bytes per viewer per move: median {sizes[len(sizes) // 2]}  mean "
              f"{sum(sizes) / len(sizes):.0f}  p90 {sizes[len(sizes) * 9 // 10]}")
        for name, values in sorted(by_region.items(), key=lambda kv: -sum(kv[1])):
            values.sort()
            print(f"    {name:12s} sent {len(values):5d} x  median {values[len(values) // 2]:6d} B"
                  f"  total {sum(values) / max(len(sizes), 1):7.0f} B per viewer-move")
    if profiler:
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(45)
        stats.sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
