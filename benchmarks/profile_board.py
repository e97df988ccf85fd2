"""Where a move's server time goes, in one process, without the network.

    .venv/bin/python -m benchmarks.profile_board [--moves 400] [--profile]

On a fresh PostgreSQL database (``stopbus_profile``) it plays greedy moves at a
few tables the way ``TableConsumer`` does (find the game and the seat, then
``actions.do_play``) and, after each, renders every seat's board the way each
consumer does (``load_table`` once per change, then ``board_for`` and the
template per viewer). Prints milliseconds and queries per move, per table read
and per viewer's render; ``--profile`` adds cProfile's top functions.
"""

from __future__ import annotations

import argparse
import cProfile
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
    args = parser.parse_args(argv)

    from benchmarks.load import _load_stack_class

    stack = _load_stack_class()("stopbus_site.asgi:application", processes=0,
                                database=args.database, proxy=False,
                                env={"STOPBUS_CLOCK_AUTOSTART": "false"})
    stack._fresh_database()
    stack._configure_django()

    from django.contrib.auth import get_user_model
    from django.db import connection, reset_queries
    from django.template.loader import render_to_string

    from benchmarks.load import make_started_tables
    from games import actions
    from games.board import board_for, load_table
    from games.consumers import TableConsumer
    from games.engine import GreedyBot, seat_view
    from games.models import Game

    # telling the group needs a running event loop here, which the servers have and
    # this process does not: what it costs in a server is measured there, not here
    actions._group_send = lambda group, message: None
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
        consumer = TableConsumer()
        consumer.table_id, consumer.user, consumer.playing = table_id, user, None
        measure("play", lambda: consumer._play(action, game.version))
        # the process that made the move has the game as committed; the other one
        # reads it (a "game only" change), or the whole table if it knows nothing yet
        for local in (True, False):
            stamp = uuid.uuid4().hex
            if local:
                actions._announced(table_id, stamp, Game.objects.get(table_id=table_id))
            measure("read", lambda s=stamp: load_table(table_id, s, game_only=True))
            for viewer in seats_of[table_id][:2]:
                def render(viewer=viewer, s=stamp):
                    d = load_table(table_id, s)
                    return render_to_string("games/_board.html", board_for(d, viewer))
                measure("render", render)

    profiler = None
    for table_id, _ in tables:  # every table read once in full, as on connecting
        load_table(table_id)
    for i in range(20):  # warm caches
        one_move(tables[i % len(tables)][0])
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
          "with 2 table reads and 4 renders")
    for name, values in timings.items():
        if values:
            values = sorted(values)
            print(f"  {name:7s} {len(values):5d} x  median {values[len(values) // 2] * 1000:6.2f}"
                  f" ms  mean {sum(values) / len(values) * 1000:6.2f} ms  CPU "
                  f"{cpu[name] / len(values) * 1000:6.2f} ms  "
                  f"queries {queries[name] / len(values):.1f} each")
    if profiler:
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(45)
        stats.sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
