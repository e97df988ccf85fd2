"""A finished game, step by step, rebuilt from its log.

Step 0 is the start (the cut and the first deal); step N is the state after
the log's action N. Once a game is over nothing in it is secret any more, so a
replay shows every hand, and every shuffle's revealed deck next to the
commitment the players saw before it was played.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.bot_names import shown_names
from games.engine import Action as EngineAction
from games.engine import GameState, HouseRules, apply, fairness_reveals, new_game, verify_deck
from games.engine.cards import CODES
from games.engine.game import NEXT_HAND, OVER, SHOWDOWN
from games.event_text import category_label, event_text, hand_words


@dataclass
class ShuffleCheck:
    hand: int
    label: str
    commitment: str
    salt: str
    cards: list[str]
    full_pack: bool
    ok: bool
    reason: str
    announced: bool  # the log shows this commitment was given to players before play
    published: str | None = None  # the commitment the log published at the deal

    @property
    def recomputed(self) -> str:
        """SHA-256 of the revealed salt and deck, computed again now."""
        return hashlib.sha256(self.hashed_text.encode()).hexdigest()

    @property
    def matches(self) -> bool:
        return self.published is not None and self.recomputed == self.published

    @property
    def hashed_text(self) -> str:
        """Exactly what was hashed: anyone can recompute SHA-256 of it."""
        return self.salt + ":" + " ".join(self.cards)

    @property
    def what(self) -> str:
        if self.hand == 0:
            return _("The cut for the deal")
        if ":reshuffle:" in self.label:
            return _("Hand %(hand)d: the discard pile reshuffled into a new stock") % {
                "hand": self.hand}
        return _("Hand %(hand)d: the deck") % {"hand": self.hand}


@dataclass
class SeatAtStep:
    seat: int
    name: str
    username: str | None
    bot_level: str
    cards: list[str]
    lives: int
    points: int
    chips: int
    out: bool
    floating: bool
    to_play: bool
    dealer: bool
    stopper: bool
    final_place: int | None
    showdown_value: str = ""
    showdown_category: str = ""
    lost: bool = False
    won: bool = False


@dataclass
class Replay:
    rules: HouseRules
    step: int
    last_step: int
    state: GameState
    by: str
    events: list[str]
    seats: list[SeatAtStep]
    hand_starts: dict[int, int]
    shuffles: list[ShuffleCheck]
    widow: list[str] = field(default_factory=list)
    discard_top: str | None = None
    # the seats' names as the reader reads them (a bot's in their language), by seat
    names: list[str] = field(default_factory=list)
    discard_count: int = 0
    stock_count: int = 0

    @property
    def hand_no(self) -> int:
        return self.state.hand_no

    @property
    def hand_shuffles(self) -> list[ShuffleCheck]:
        """The shuffles of the hand on show (and the cut, at the start)."""
        return [s for s in self.shuffles
                if s.hand == self.hand_no or (self.step == 0 and s.hand == 0)]

    @property
    def all_verified(self) -> bool:
        return all(s.ok for s in self.shuffles)

    @property
    def at_showdown(self) -> bool:
        return self.state.phase in (SHOWDOWN, OVER) and self.state.showdown is not None

    @property
    def phase_text(self) -> str:
        s = self.state
        if s.phase == OVER:
            return _("Game over: %(name)s wins.") % {"name": self.names[s.winner]}
        if s.phase == SHOWDOWN:
            return _("Showdown of hand %(hand)d.") % {"hand": s.hand_no}
        if s.turn is not None:
            return _("Hand %(hand)d: %(name)s to play.") % {"hand": s.hand_no,
                                                            "name": self.names[s.turn]}
        return _("Hand %(hand)d.") % {"hand": s.hand_no}


# The engine's verdicts (games/engine/fairness.py verify_deck), marked for translation.
_VERDICTS = frozenset((
    gettext_noop("The revealed deck holds the same card twice."),
    gettext_noop("The revealed deck is not one full pack of 52 cards."),
    gettext_noop("The revealed deck does not match the commitment made at the deal."),
    gettext_noop("The deck revealed matches the commitment made before play: it was not "
                 "changed."),
))


def check_shuffle(record: dict, published: dict[str, str]) -> ShuffleCheck:
    """Verify a revealed shuffle against the commitment the log published at its deal.

    The cut is dealt face up, so it has no commitment in the log; every deck and
    reshuffle does (the deal's events and the reshuffle event carry it).
    """
    full_pack = ":reshuffle:" not in record["label"]
    ok, reason = verify_deck(record["commitment"], record["salt"], record["cards"],
                             full_pack=full_pack)
    at_deal = published.get(record["label"])
    was_announced = record["hand"] == 0 or at_deal == record["commitment"]
    reason = _(reason) if reason in _VERDICTS else reason
    if ok and not was_announced:
        ok, reason = False, _("The revealed deck matches its commitment, but that is not the "
                              "commitment announced to the players at the deal.")
    return ShuffleCheck(record["hand"], record["label"], record["commitment"], record["salt"],
                        list(record["cards"]), full_pack, ok, reason, was_announced,
                        published=at_deal)


def published_commitments(actions) -> dict[str, str]:
    """Each shuffle's label -> the commitment the log showed the players before play.

    Read from the deal and reshuffle events (older logs have no "commitment" event,
    and their reshuffles no label: the k-th reshuffle of hand N is "hand:N:reshuffle:k").
    """
    published: dict[str, str] = {}
    hand, reshuffles = 0, 0
    for row in actions:
        for event in row.events:
            data = event.get("data", {})
            if "commitment" not in data:
                continue
            if event.get("kind") == "deal":
                hand, reshuffles = data.get("hand", hand + 1), 0
                published.setdefault(f"hand:{hand}", data["commitment"])
            elif event.get("kind") == "reshuffle":
                reshuffles += 1
                label = data.get("label", f"hand:{hand}:reshuffle:{reshuffles}")
                published.setdefault(label, data["commitment"])
            elif event.get("kind") == "commitment" and "label" in data:
                published.setdefault(data["label"], data["commitment"])
    return published


def event_texts(events: list[dict], names=None, ranking: str = "brag") -> list[str]:
    """The events in the reader's language (in their stored English without ``names``)."""
    if names is None:
        return [e["text"] for e in events]
    return [event_text(e, names, None, ranking=ranking) for e in events]


def replay(game, players, actions, step: int) -> Replay:
    """The game at ``step``. ``actions``: the log's rows in order, seq 0 (the start) first."""
    rules = HouseRules.from_dict(game.rules)
    names = [p.name for p in players]  # as the game recorded them: the engine's
    state, _ = new_game(rules, names, bytes.fromhex(game.seed))
    shown = shown_names(names, players)
    moves = [a for a in actions if a.seq >= 1]
    last_step = len(moves)
    step = max(0, min(step, last_step))
    at, at_row = state, (actions[0] if actions and actions[0].seq == 0 else None)
    hand_starts = {1: 0}
    for row in moves:
        state, _ = apply(state, EngineAction.from_dict(row.payload))
        if row.payload.get("kind") == NEXT_HAND:
            hand_starts[state.hand_no] = row.seq
        if row.seq == step:
            at, at_row = state, row
    final = state
    published = published_commitments(actions)
    shuffles = [check_shuffle(r, published) for r in fairness_reveals(final)]

    sd = at.showdown if at.phase in (SHOWDOWN, OVER) else None
    seats = []
    for p in players:
        i = p.seat
        key = str(i)
        seat = SeatAtStep(
            seat=i, name=shown[i], username=p.user.username if p.user_id else None,
            bot_level=p.bot_level, cards=[CODES[c] for c in at.hands[i]],
            lives=at.lives[i], points=at.points[i], chips=at.chips[i], out=at.out[i],
            floating=at.floating(i), to_play=at.turn == i and at.phase not in (SHOWDOWN, OVER),
            dealer=at.dealer == i, stopper=at.stopper == i,
            final_place=p.place if p.place is not None else final.places[i])
        if sd is not None and key in sd["hands"]:
            seat.cards = list(sd["hands"][key])
            seat.showdown_value = hand_words(sd["categories"][key], sd["hands"][key],
                                             rules.ranking)
            seat.showdown_category = category_label(sd["categories"][key])
            if rules.scoring == "lives":
                seat.lost = i in sd["losers"] and not sd["void"]
            else:
                seat.won = i in sd["winners"]
        seats.append(seat)
    return Replay(
        rules=rules, step=step, last_step=last_step, state=at,
        by=at_row.by if at_row is not None else "table",
        events=(event_texts(at_row.events, shown, rules.ranking) if at_row is not None
                else []),
        seats=seats, hand_starts=hand_starts, shuffles=shuffles,
        widow=[CODES[c] for c in at.widow],
        discard_top=CODES[at.discard[-1]] if at.discard else None,
        discard_count=len(at.discard), stock_count=len(at.stock), names=shown)
