"""Django's template engine against Jinja2 for the regions the live loop renders a move.

    .venv/bin/python -m benchmarks.templates_jinja [--renders 300] [--moves 60]

On a fresh SQLite database (a temporary file, migrated) four people sit at a Stop the
Bus table (classic) and at a Three Card Brag table, each with a page open, and greedy
bots play through ``games.actions``, each change published by
``games/actions/publish.py`` as the servers do (its frames dropped); what each of
``--moves`` changes renders is counted (``publish.RENDERS``, the first few of the game
left out). At the position reached (someone to play after another seat's move) the
regions a move renders -- the public ones (the status, the piles, the seal, the bus, the
hand and controls a spectator sees, the showdown and standings panels, the log, every
seat's box) and the own ones of the seat to play and of the seat that moved -- are
rendered from the same context (``games.render.board_for``) by Django's engine, as
``games.render.own_regions`` does (``template#name`` through django-template-partials),
and by Jinja2, from a port of exactly those templates in ``benchmarks/jinja_regions/``
(autoescape on, Jinja2's i18n extension wired to Django's gettext, the card tags'
Python shared). The product keeps its Django templates: Jinja2 is a benchmark-only
dependency (requirements-dev.txt).

Each region is rendered ``--renders`` times by each engine, interleaved, and timed by
CPU time (``time.process_time``), in two ways: "cold", the per-process memos of
``games/templatetags/cards.py`` (card markup, seat boxes, log rows; the port keeps its
seat boxes the same way) emptied before every render, so that every render is a real
one; and "warm", the memos as the last render left them (a move that changed no seat's
box). The table gives each region's median; "a move" adds up, for the changes counted,
the public regions once per public pass and each seat's own regions as often as
``publish.RENDERS`` counted them (a region's time for a seat: the mean of the two seats
measured).

After every change both engines' output of every region of the port, for a spectator
and each seat, in English and Japanese by turns, is compared with white space
normalised (each run of it one space); after the measurement play goes on (to the
game's end, or ``--check-moves`` changes), one seat with hints on, comparing. A region
that differs is printed.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JINJA_DIR = Path(__file__).resolve().parent / "jinja_regions"
KINDS = {  # the board's variant -> the directory of its Jinja2 port
    "classic": "stop_the_bus",
    "three-card-brag": "brag",
}
SEATS = 4
WARM_UP = 4  # changes not counted: the first passes of a new game
JINJA_SEATS: dict = {}  # the port's seat boxes, kept as cards.seat_box keeps Django's


def setup_django() -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/templates_jinja.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stopbus_site.settings")
    os.environ["STOPBUS_CLOCK_AUTOSTART"] = "false"
    os.environ.pop("REDIS_URL", None)  # the local-memory cache: one process
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    # a region holding {% csrf_token %} is rendered without a request, as the loop does
    warnings.filterwarnings("ignore", message=r"A \{% csrf_token %\}")


# -- Jinja2 --------------------------------------------------------------------------------------


def jinja_environment():
    """The Jinja2 environment of the port: the same filters and tags (the same Python),
    i18n through Django's catalogue. Old-style gettext: as with Django's tags, the
    catalogue's words are not escaped (``{% trans %}``) and the values put in them are."""
    import jinja2
    from django.urls import reverse
    from django.utils.translation import get_language, gettext, ngettext, npgettext, pgettext
    from markupsafe import Markup

    from games.templatetags import cards, i18n_cards
    from stats.templatetags import stats_format

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(JINJA_DIR), autoescape=True,
        extensions=["jinja2.ext.i18n"], undefined=jinja2.ChainableUndefined,
        keep_trailing_newline=True, auto_reload=False)
    env.install_gettext_callables(gettext, ngettext, newstyle=False, pgettext=pgettext,
                                  npgettext=npgettext)

    def seat_template(name):
        def render_seat(p, scoring):
            # the seat box sees only the seat and the scoring, and is kept by its content,
            # as cards.seat_box's is (clear_memos empties both)
            key = (name, get_language(), scoring,
                   repr([(k, v) for k, v in p.items() if k not in cards._NOT_SHOWN]))
            html = JINJA_SEATS.get(key)
            if html is None:
                html = JINJA_SEATS[key] = Markup(  # noqa: S704 -- a template's output
                    env.get_template(name).render(p=p, view={"scoring": scoring}))
            return html
        return render_seat

    def csrf_input(token):
        if token and token != "NOTPROVIDED":  # noqa: S105 -- Django's "no token" mark
            return Markup('<input type="hidden" name="csrfmiddlewaretoken" value="{}">').format(
                token)
        return ""

    env.filters.update({
        "avatar_colour": cards.avatar_colour, "initials": cards.initials,
        "around": cards.around, "pretty_card": cards.pretty_card,
        "place_label": i18n_cards.place_label, "place": stats_format.place,
        "signed": stats_format.signed,
        "default_if_none": lambda value, arg: arg if value is None else value,
    })
    env.globals.update({
        "card": cards.card, "card_backs": cards.card_backs, "card_choice": cards.card_choice,
        "icon": cards.icon, "log_entries": cards.log_entries,
        "seat_box": seat_template("_seat.html"), "seat_badges": seat_template("_seat_badges.html"),
        "url": lambda name, *args: reverse(name, args=args), "csrf_input": csrf_input,
    })
    return env


# -- a game in progress ---------------------------------------------------------------------------


class Play:
    """A table of four people, each with a page open, whose moves greedy bots choose and
    ``games.actions`` makes, each published by ``games/actions/publish.py`` (its frames
    dropped)."""

    def __init__(self, slug: str, seed: int):
        from django.contrib.auth import get_user_model

        from games import actions, presence
        from games.actions import publish
        from games.models import Variant

        self.rng = random.Random(seed)
        self.people = [get_user_model().objects.create_user(
            username=f"{slug[:5]}{i}", email=f"{slug}{i}@example.org") for i in range(SEATS)]
        table = actions.do_create_table(self.people[0], name=slug, seats=SEATS,
                                        variant=Variant.objects.get(slug=slug))
        for person in self.people[1:]:
            actions.do_join_table(table, person)  # the last one starts the game
        for person in self.people:
            presence.note_page(table.pk, f"page-{person.pk}", person.pk, "en")
        self.table_id = table.pk
        self.game_id = table.current_game().pk
        self.mover = None  # the seat that made the last change (None: the table did)
        publish.run_pass(table.pk)

    def state(self):
        from games import actions
        from games.kinds import kind_for
        from games.models import Game

        game = Game.objects.get(pk=self.game_id)
        if game.status != Game.Status.PLAYING:
            return game, None, None
        return game, kind_for(game), actions.state_of(game)

    def step(self) -> list | None:
        """One change (a move, or the next hand dealt); what publishing it rendered
        (``publish.RENDERS``), or None once the game is over."""
        from games import actions
        from games.actions import publish

        game, kind, state = self.state()
        if state is None:
            return None
        publish.RENDERS = []
        try:
            if state.phase != kind.play_phase:
                actions.do_play(game.pk, None, kind.next_hand(), game.version, by="table")
                self.mover = None
            else:
                bot = kind.make_bot("greedy", state.rules, self.rng)
                move = kind.to_action(bot.choose(kind.seat_view(state, state.turn)))
                actions.do_play(game.pk, state.turn, move, game.version)
                self.mover = state.turn
            publish.run_pass(self.table_id)  # published on commit already: a no-op
            return publish.RENDERS
        finally:
            publish.RENDERS = None

    def mid_move(self) -> bool:
        """Is someone to play, after another seat's move?"""
        _, kind, state = self.state()
        return (state is not None and state.phase == kind.play_phase
                and self.mover is not None and self.mover != state.turn)


# -- rendering ------------------------------------------------------------------------------------

_SPACE = re.compile(r"\s+")


def clear_memos() -> None:
    """Empty the per-process memos of the card tags: every render then does its work."""
    from games.templatetags import cards

    for cached in (cards._parts, cards._card_html, cards._backs_html, cards._choice_html,
                   cards._log_words):
        cached.cache_clear()
    cards._SEATS.clear()
    JINJA_SEATS.clear()


class Regions:
    """One view's regions, rendered by either engine from one context."""

    def __init__(self, env, context: dict, names, seats):
        from django.template.loader import get_template

        self.context = context
        self.template = context["board_template"]
        self.kind_dir = KINDS_BY_TEMPLATE[self.template]
        self.names = list(names)
        self.seats = [p for p in context.get("opponents") or () if p["seat"] in seats]
        self.get_django = get_template
        self.env = env

    def django(self, name: str) -> str:
        """Region ``name`` as ``games.render.own_regions`` renders it ("spots": every
        seat's box, as the others see it)."""
        if name == "spots":
            spot = self.get_django(f"{self.template}#spot")
            return "".join(spot.render({**self.context, "p": p, "spot": "", "seat": str(p["seat"])})
                           for p in self.seats)
        return self.get_django(f"{self.template}#{name}").render(self.context).strip()

    def jinja(self, name: str) -> str:
        if name == "spots":
            spot = self.env.get_template(f"{self.kind_dir}/spot.html")
            return "".join(spot.render({**self.context, "p": p, "spot": "", "seat": str(p["seat"])})
                           for p in self.seats)
        return self.env.get_template(f"{self.kind_dir}/{name}.html").render(
            self.context).strip()

    def regions(self) -> list[str]:
        return self.names + (["spots"] if self.seats else [])


KINDS_BY_TEMPLATE: dict[str, str] = {}


def as_sent(html: str, spots: list | None = None) -> str:
    """What the loop sends of a rendered region (``games.render._as_sent``; of the seats'
    spots, each seat's box), white space then normalised for the comparison."""
    from games import render

    sent = render._as_sent(html)
    if spots is not None:
        found = render.regions_of(sent, [f"seat-{p['seat']}" for p in spots])
        sent = "".join(found.values())
    return _SPACE.sub(" ", sent).strip()


def compare(env, data, people, language: str) -> tuple[int, list[str]]:
    """Every region of the port (those a move renders, of any kind's board: the piles of
    other variants, the panels of a showdown or a game's end) rendered by both engines for
    a spectator and each seat, in ``language``: (regions compared, those that differ)."""
    from django.utils import translation

    from games import render

    compared, differ = 0, []
    with translation.override(language):
        for user in (None, *people):
            context = render.board_for(data, user)
            kind_dir = KINDS_BY_TEMPLATE[context["board_template"]]
            names = sorted(f.stem for f in (JINJA_DIR / kind_dir).glob("*.html")
                           if not f.stem.startswith("_") and f.stem != "spot")
            seats = {p["seat"] for p in context.get("opponents") or ()}
            regions = Regions(env, context, names, seats)
            for name in regions.regions():
                spots = regions.seats if name == "spots" else None
                clear_memos()
                django_html = as_sent(regions.django(name), spots)
                jinja_html = as_sent(regions.jinja(name), spots)
                compared += 1
                if django_html != jinja_html:
                    who = "spectator" if user is None else f"seat of {user.username}"
                    differ.append(f"{kind_dir}/{name} ({who}, {language})")
                    if len(differ) <= 3:
                        print(f"  !! {kind_dir}/{name} ({who}, {language}) differs:\n"
                              f"     Django: {django_html}\n     Jinja2: {jinja_html}")
    return compared, differ


def measure(regions: Regions, renders: int) -> dict:
    """{region: {"cold": (Django median ms, Jinja2 median ms), "warm": (...), "same": outputs
    equal}}: cold, the memos emptied before every render; warm, kept from the last render
    (what a move that changed nothing the memos hold costs)."""
    out = {}
    for name in regions.regions():
        spots = regions.seats if name == "spots" else None
        clear_memos()
        django_html, jinja_html = as_sent(regions.django(name), spots), as_sent(
            regions.jinja(name), spots)
        if django_html != jinja_html:
            print(f"  !! {regions.kind_dir}/{name} differs:\n     Django: {django_html}\n"
                  f"     Jinja2: {jinja_html}")
        out[name] = {"same": django_html == jinja_html}
        for mode in ("cold", "warm"):
            times = {"django": [], "jinja": []}
            for _ in range(renders):
                for engine in ("django", "jinja"):
                    render = getattr(regions, engine)
                    if mode == "cold":
                        clear_memos()
                    started = time.process_time()
                    render(name)
                    times[engine].append(time.process_time() - started)
            out[name][mode] = (statistics.median(times["django"]) * 1000,
                               statistics.median(times["jinja"]) * 1000)
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--renders", type=int, default=300,
                        help="renders of each region by each engine")
    parser.add_argument("--moves", type=int, default=60,
                        help="moves played at each table before the position measured")
    parser.add_argument("--check-moves", type=int, default=400,
                        help="after measuring, play on (to the game's end or this many "
                             "changes), comparing both engines' regions after every change")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    setup_django()
    from django.core.cache import cache
    from django.utils import translation

    from games import actions, render
    from games.actions import publish
    from games.kinds import kind_for
    from games.models import Variant

    # the pages' frames go nowhere: what publishing costs beyond rendering is not measured
    actions.base.group_send_many = lambda messages: True
    env = jinja_environment()
    for slug, kind_dir in KINDS.items():
        KINDS_BY_TEMPLATE[kind_for(Variant.objects.get(slug=slug)).board_template] = kind_dir
    compared, differ = 0, []
    for slug in KINDS:
        table = Play(slug, args.seed)
        per_move = []  # what each of the moves counted rendered
        for step in range(args.moves * 3):
            if step >= args.moves and table.mid_move():
                break
            renders = table.step()
            if renders is None:
                break
            data = render.table_data(table.table_id)
            n, d = compare(env, data, table.people, ("en", "ja")[step % 2])
            compared, differ = compared + n, differ + d
            if step >= WARM_UP and step < args.moves:
                per_move.append(renders)
        data = render.table_data(table.table_id)
        state, mover = data.state, table.mover
        outline = cache.get(f"loop:{table.table_id}")["public"]["en"]["outline"]
        public_names = [n for n in outline
                        if not n.startswith("seat-") and n not in publish.KEPT_PUBLIC]
        seats = {int(n[5:]) for n in outline if n.startswith("seat-")}
        own_counts = Counter(what for renders in per_move for audience, what in renders
                             if audience[0] == "seat" and what != "board")
        whole = sum(1 for renders in per_move for audience, what in renders
                    if audience[0] == "seat" and what == "board")
        public_passes = sum(1 for renders in per_move for audience, what in renders
                            if audience[0] == "public")
        by_seat = {p.seat: next(u for u in table.people if u.pk == p.user_id)
                   for p in data.players}
        viewers = [("public", None), (f"seat {state.turn} (to play)", by_seat[state.turn]),
                   (f"seat {mover} (moved last)", by_seat[mover])]
        print(f"\n{slug}: measured at hand {data.state.hand_no}, {len(data.events)} log "
              f"events, seat {state.turn} to play after seat {mover}'s move; "
              f"{args.renders} renders of each region by each engine")
        results = {}
        with translation.override("en"):
            for label, user in viewers:
                context = render.board_for(data, user)
                names = public_names if user is None else sorted(own_counts)
                regions = Regions(env, context, names, seats if user is None else ())
                results[label] = measure(regions, args.renders)
            started = time.process_time()
            for _ in range(100):
                render.board_for(data, by_seat[state.turn])
            context_ms = (time.process_time() - started) / 100 * 1000
        print(f"  {'region':34s} {'Django ms':>10s} {'Jinja2 ms':>10s} {'Jinja2/Django':>14s}"
              f"   warm: {'Django':>7s} {'Jinja2':>7s}")
        for label, rows in results.items():
            for name, row in rows.items():
                (dj, jj), (wdj, wjj) = row["cold"], row["warm"]
                mark = "" if row["same"] else "  (output differs)"
                print(f"  {label + ': ' + name:34s} {dj:10.3f} {jj:10.3f} {jj / dj:14.2f}"
                      f"         {wdj:7.3f} {wjj:7.3f}{mark}")
        # a move: the public set once per pass, each own region as often as it was rendered
        moves = len(per_move)
        public = results["public"]
        own = [rows for label, rows in results.items() if label != "public"]
        totals = {}
        for mode in ("cold", "warm"):
            for engine in (0, 1):
                public_ms = sum(v[mode][engine] for v in public.values()) * public_passes
                own_ms = sum(count * statistics.mean(rows[name][mode][engine] for rows in own)
                             for name, count in own_counts.items())
                totals[mode, engine] = (public_ms + own_ms) / moves
        contexts = sum(len({audience for audience, _ in renders}) for renders in per_move)
        print(f"  a move ({moves} moves): {public_passes / moves:.2f} public sets "
              f"({len(public)} regions, the seats' {len(seats)} boxes as one) and "
              f"{sum(own_counts.values()) / moves:.2f} own regions ("
              + ", ".join(f"{n} {c / moves:.2f}" for n, c in sorted(own_counts.items()))
              + f"), {contexts / moves:.2f} contexts (board_for, {context_ms:.2f} ms each: "
              f"{contexts / moves * context_ms:.2f} ms, the same for both engines)")
        for mode, what in (("cold", "every render real"), ("warm", "memos warm")):
            dj, jj = totals[mode, 0], totals[mode, 1]
            print(f"  rendering a move, {what}: Django {dj:.2f} ms, Jinja2 {jj:.2f} ms CPU "
                  f"(Jinja2/Django {jj / dj:.2f}: {dj - jj:.2f} ms less a move)")
        if whole:
            print(f"  (and {whole} whole boards of a seat, not counted above)")
        # play on, a seat with hints on (its own part of the hand region), comparing
        table.people[0].hints = True
        table.people[0].save(update_fields=["hints"])
        played = 0
        while played < args.check_moves and table.step() is not None:
            n, d = compare(env, render.table_data(table.table_id), table.people,
                           ("en", "ja")[played % 2])
            compared, differ, played = compared + n, differ + d, played + 1
        _, _, state = table.state()
        print(f"  played on {played} changes, "
              + ("to the game's end" if state is None else f"to hand {state.hand_no}"))
    print(f"\ncompared after every change, in English and Japanese by turns: {compared} "
          f"renders of a region by both engines (white space normalised): "
          + (f"{len(differ)} differ: {', '.join(sorted(set(differ)))}" if differ
             else "every one the same"))

if __name__ == "__main__":
    main()
