"""Where a move's server time goes, in one process, without the network.

    .venv/bin/python -m benchmarks.profile_board [--moves 400] [--tables 10] [--profile]

On a fresh PostgreSQL database (``stopbus_profile``, with the cache on Redis as the
servers have it) it plays greedy moves at a few tables of four the way
``TableConsumer`` does (``actions.do_play`` for the page's user), every seat with a
page open (its presence noted as a page does), and splits each move's CPU time
(``time.process_time``) into:

* the move's own transaction (``do_play`` up to its commit);
* the pass that publishes it (``games.actions.publish``: the table read once, the
  public regions and the seats' own regions rendered, frames made, the cache kept);
  within it the table read and the rendering;
* handing the frames to the channel layer is not counted here: it needs the servers'
  event loop, and is measured there (``benchmarks.load --py-spy``).

Prints milliseconds and queries per move and per pass, what was rendered per move, and
the bytes each audience is sent; ``--profile`` adds cProfile's top functions (CPU
time).
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import pstats
import time


def main(argv=None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--profile", action="store_true", help="cProfile the moves (CPU time)")
    parser.add_argument("--database", default="stopbus_profile")
    parser.add_argument("--region-memo", action="store_true",
                        help="render a region again only when a value it reads changed "
                             "(benchmarks.region_memo: tried, not kept)")
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
    from games import actions, presence, render
    from games.actions import base, publish
    from games.engine import GreedyBot, seat_view
    from games.models import Game

    if args.region_memo:
        from benchmarks import region_memo

        region_memo.install()
        region_memo.clear()
    tables = make_started_tables(args.tables)
    users = {u.pk: u for u in get_user_model().objects.all()}
    seats_of = {}
    for table_id, _ in tables:
        game = Game.objects.get(table_id=table_id)
        seats_of[table_id] = [users[p.user_id] for p in game.players.order_by("seat")]
        for i, user in enumerate(seats_of[table_id]):
            presence.note_page(table_id, f"page-{table_id}-{i}", user.pk, "en")

    cpu = collections.Counter()
    queries = collections.Counter()
    sent = []  # bytes of each frame (public or a seat's)
    passes = [0]

    def timed(counter, name, fn):
        def wrapper(*a, **k):
            started = time.process_time()
            try:
                return fn(*a, **k)
            finally:
                counter[name] += time.process_time() - started
        return wrapper

    def sent_frames(messages):
        sent.extend(len(m["text"].encode()) for _, m in messages if m.get("type") == "table.frame"
                    and m.get("text"))
        return True

    base.group_send_many = sent_frames
    real_pass = publish.run_pass

    def run_pass(table_id):
        passes[0] += 1
        before = len(connection.queries)
        started = time.process_time()
        try:
            real_pass(table_id)
        finally:
            cpu["pass"] += time.process_time() - started
            queries["pass"] += len(connection.queries) - before

    publish.run_pass = run_pass
    render.table_data = timed(cpu, "read", render.table_data)
    render.own_regions = timed(cpu, "render", render.own_regions)
    render.board = timed(cpu, "render", render.board)

    def one_move(table_id) -> bool:
        game = Game.objects.filter(table_id=table_id).order_by("-number").first()
        state = actions.state_of(game)
        if game.status != Game.Status.PLAYING:
            actions.do_play_again(game.table, seats_of[table_id][0])
            return False
        if state.phase != "play":
            actions.do_play(game.pk, None, {"kind": "next_hand"}, game.version, by="table")
            return False
        user = seats_of[table_id][state.turn]
        action = GreedyBot(state.rules).choose(seat_view(state, state.turn)).to_dict()
        action.pop("seat", None)
        reset_queries()
        started = time.process_time()
        actions.do_play(game.pk, None, action, game.version, player=user)
        cpu["move"] += time.process_time() - started
        queries["move"] += len(connection.queries)
        return True

    for i in range(20):  # warm the caches
        one_move(tables[i % len(tables)][0])
    connection.force_debug_cursor = True
    cpu.clear()
    queries.clear()
    sent.clear()
    passes[0] = 0
    publish.RENDERS = []
    if args.region_memo:
        region_memo.clear()
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    if profiler:
        profiler.enable()
    moves = 0
    counted_renders = collections.Counter()
    started = time.perf_counter()
    for i in range(args.moves):
        publish.RENDERS.clear()
        if one_move(tables[i % len(tables)][0]):
            moves += 1
            for audience, what in publish.RENDERS:
                counted_renders[audience[0], what] += 1
    wall = time.perf_counter() - started
    if profiler:
        profiler.disable()
    moves = max(moves, 1)
    own = cpu["move"] - cpu["pass"]
    print(f"{moves} moves (and the deals between hands, not counted) at {args.tables} tables "
          f"of four, every seat with a page open, in {wall:.1f} s")
    print(f"  a move, CPU of one process: {cpu['move'] / moves * 1000:.2f} ms  "
          f"({queries['move'] / moves:.1f} queries)")
    print(f"    its transaction           {own / moves * 1000:6.2f} ms  "
          f"({(queries['move'] - queries['pass']) / moves:.1f} queries)")
    print(f"    the pass publishing it    {cpu['pass'] / moves * 1000:6.2f} ms  "
          f"({queries['pass'] / moves:.1f} queries; {passes[0] / moves:.2f} passes a move)")
    print(f"      the table read          {cpu['read'] / moves * 1000:6.2f} ms")
    print(f"      rendering regions       {cpu['render'] / moves * 1000:6.2f} ms")
    rest = cpu["pass"] - cpu["read"] - cpu["render"]
    print(f"      the rest (cache, frames) {rest / moves * 1000:5.2f} ms")
    print("  rendered a move: " + ", ".join(
        f"{who} {what} {n / moves:.2f}" for (who, what), n in sorted(counted_renders.items())))
    if args.region_memo:
        memo = region_memo.stats()
        names = sorted({n for n, _ in memo})
        print("  regions asked for, a move (rendered / memo hits / not keyable): " + ", ".join(
            f"{n.split('#')[-1]} {memo[n, 'render'] / moves:.2f}/{memo[n, 'hit'] / moves:.2f}"
            + (f"/{memo[n, 'unkeyed'] / moves:.2f}" if memo[n, "unkeyed"] else "")
            for n in names))
        for name, why in sorted(region_memo.WHY.items()):
            print(f"    {name.split('#')[-1]} not keyable: {why}")
    if sent:
        sent.sort()
        print(f"  frames a move {len(sent) / moves:.2f}, bytes a frame: median "
              f"{sent[len(sent) // 2]}, mean {sum(sent) / len(sent):.0f}, "
              f"p90 {sent[len(sent) * 9 // 10]}")
    if profiler:
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(40)
        stats.sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
