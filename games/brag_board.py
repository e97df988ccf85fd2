"""What a Three Card Brag table shows one viewer (the kind's ``board_builder``).

Built only from the engine's view for that viewer's seat (``view_for``), like the
Stop the Bus board: a blind player's own cards are not in it, folded hands are in
nobody's, and the settlement holds only the hands the rules show. The template
(``games/brag/_board.html``) sees this context and nothing else.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import pgettext

from .board import end_of_game, reveal_title, said_events, said_hands, seat_names
from .bot_names import stand_in_name
from .engine.brag import BragRules
from .engine.brag.game import BETTING, OVER, SHOWDOWN
from .event_text import brag_event_text, hand_words
from .models import Game
from .pace import time_left_words


def _badge(entry: dict, betting: bool) -> tuple[str, str]:
    """(css modifier, word) of a seat's part in the hand (blind or seen only while the
    hand is bet on: once it is settled the shown hands say more)."""
    if entry["out"]:
        return "out", pgettext("seat badge", "out")
    if entry["folded"]:
        return "folded", pgettext("seat badge", "folded")
    if entry["covered"]:
        return "covered", pgettext("seat badge", "covered")
    if betting and entry["blind"]:
        return "blind", pgettext("seat badge", "blind")
    if betting and entry["seen"]:
        return "seen", pgettext("seat badge", "seen")
    return "", ""


def _players(data, view: dict, me: int | None) -> list[dict]:
    playing = data.game.status == Game.Status.PLAYING
    seat_rows = dict(enumerate(data.seats)) if playing else {}
    names = seat_names(data)
    players = []
    for entry in view["seats"]:
        i = entry["seat"]
        record = data.players[i] if i < len(data.players) else None
        seat_row = seat_rows.get(i)
        left = bool(record and record.left_early)
        # a seat the clock handed to a bot (two timeouts) is named as the bot it is
        away = bool(seat_row and seat_row.away and seat_row.user_id)
        badge, word = _badge(entry, view["phase"] == BETTING)
        name = names[i] if i < len(names) else entry["name"]
        players.append({
            **entry,
            "name": stand_in_name(name) if (left or away) else name,
            "person": name,
            "is_me": i == me,
            "is_bot": record is None or record.user_id is None or left or away,
            "away": away,
            "left": left,
            "badge": badge,
            "badge_word": word,
            "shown_cards": entry["shown"]["cards"] if entry["shown"] else [],
        })
    return players


def _controls(view: dict, names: dict) -> dict:
    """Exactly the viewer's legal moves, with what each costs them."""
    legal = {a["kind"]: a for a in view["legal"]}
    bet = legal.get("bet")
    see = legal.get("see")
    cover = legal.get("cover")
    return {
        "any": bool(legal),
        "look": "look" in legal,
        "fold": "fold" in legal,
        "bet": bet,
        "see": see and {**see, "against_name": names.get(see.get("against"), "")},
        "cover": cover,
        "on_turn": bool(legal.keys() - {"look"}),
    }


def _settlement(view: dict, names: dict, me: int | None = None) -> dict | None:
    """The hand's result, with only the hands the rules show (a see names the viewer's
    own seat as "you": ``seer_is_me``, ``seen_is_me``)."""
    settled = view["settlement"]
    if not settled:
        return None
    see = settled.get("see")
    return {
        "hand": settled["hand"],
        "see": see and {**see, "seer_name": names[see["seer"]],
                        "seen_name": names[see["seen"]],
                        "seer_is_me": me is not None and see["seer"] == me,
                        "seen_is_me": me is not None and see["seen"] == me},
        # an open pot left empty by a cover is no news: the closed pots are
        "pots": [{**pot, "winner_name": names[pot["winner"]],
                  "coverer_name": names.get(pot["coverer"])} for pot in settled["pots"]
                 if pot["chips"] or pot["kind"] != "open" or len(settled["pots"]) == 1],
        "shown": [{"seat": int(seat), "name": names[int(seat)], "cards": hand["cards"],
                   "description": hand_words(hand["category"], hand["cards"], "brag")}
                  for seat, hand in settled["shown"].items()],
        "net": [{"name": names[i], "net": net} for i, net in enumerate(settled["net"])
                if net],
        "out": [names[i] for i in settled["out"]],
        "prial_shuffle": settled["prial_shuffle"],
        "void": settled.get("void", False),  # no ante, and nobody bet (stored before: no key)
    }


def brag_board(data, user) -> dict:
    """The Brag game's part of the board's context for ``user``."""
    game, state = data.game, data.state
    me = data.seat_of(user)
    rules = data.once("rules", lambda: BragRules.from_dict(game.rules))
    view = said_hands(data.view(me), "brag")
    players = _players(data, view, me)
    names = {p["seat"]: p["name"] for p in players}
    # a closed pot names who covered it, in the reader's language (the engine's names are
    # as the game stored them)
    people = {p["seat"]: p["person"] for p in players}
    view["closed_pots"] = [{**pot, "name": people.get(pot["coverer"], pot["name"])}
                           for pot in view.get("closed_pots") or ()]
    seconds_left = None
    if data.deadline is not None:
        seconds_left = max(0, int((data.deadline - timezone.now()).total_seconds()))
    over = state.phase == OVER
    standings = None
    if over:
        by_place = sorted(players, key=lambda p: (p["place"] or 99, -p["chips"], p["seat"]))
        standings = [{"place": p["place"], "name": p["name"], "is_me": p["is_me"],
                      "chips": p["chips"], **end_of_game(data, p)} for p in by_place]
    my_row = data.seats[me] if (me is not None and game.status == Game.Status.PLAYING
                                and me < len(data.seats)) else None
    me_player = next((p for p in players if p["is_me"]), None)
    return {
        "rules": rules,
        "rules_summary": rules.summary(),
        "version": view["version"],
        "view": view,
        "me": me,
        "is_player": me is not None,
        "players": players,
        "opponents": [p for p in players if not p["is_me"]],
        "me_player": me_player,
        "controls": _controls(view, names),
        "events": said_events(data, me, brag_event_text),
        "turn_name": names.get(view["turn"]) if view["turn"] is not None else None,
        "dealer_name": names.get(view["dealer"]),
        "seconds_left": seconds_left,
        # a post turn's hours and days, in words (its seconds would read "86398 s")
        "post_time_left": (time_left_words(seconds_left)
                           if seconds_left is not None and data.table.is_post else ""),
        "deadline_iso": data.deadline.isoformat(timespec="seconds") if data.deadline else None,
        "settlement": _settlement(view, names, me),
        "in_showdown": state.phase == SHOWDOWN,
        "over": over,
        "standings": standings,
        "ready": me is not None and me in (game.ready or []),
        "away": bool(my_row and my_row.away and my_row.user_id),
        "reveals": [{**r, "title": reveal_title(r["label"])} for r in view["reveals"]],
    }
