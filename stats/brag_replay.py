"""A finished Brag game, step by step, with every shuffle checked against the commitment
the table published when it was made.

The log is replayed with the Brag engine. A step shows what the table showed at that
moment plus what the end of the game reveals: each seat's chips, its part in the
hand, and its cards (the game is over, so every pack is revealed and nothing is
secret any more; folded hands are shown too, marked as such).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games.bot_names import shown_names
from games.engine.brag import BragAction, apply, fairness_reveals, new_game
from games.engine.brag.game import FOLDED, NEXT_HAND, OVER, SHOWDOWN
from games.engine.cards import CODES
from games.engine.fairness import verify as verify_deck
from games.event_text import brag_event_text
from games.kinds import BRAG

from .replay import _VERDICTS


@dataclass
class BragShuffleCheck:
    hand: int
    label: str
    commitment: str
    salt: str
    cards: list[str]
    published: str | None
    ok: bool
    reason: str

    @property
    def hashed_text(self) -> str:
        return self.salt + ":" + " ".join(self.cards)

    @property
    def recomputed(self) -> str:
        return hashlib.sha256(self.hashed_text.encode()).hexdigest()

    @property
    def matches(self) -> bool:
        return self.published is not None and self.recomputed == self.published

    @property
    def what(self) -> str:
        if self.hand == 0:
            return _("The cut for the deal")
        return _("Hand %(hand)d: a fresh shuffle of the pack") % {"hand": self.hand}


@dataclass
class BragSeatAtStep:
    seat: int
    name: str
    username: str | None
    chips: int
    part: str  # "in", "folded", "covered", "out"
    blind: bool
    cards: list[str]
    to_play: bool
    dealer: bool
    final_place: int | None


@dataclass
class BragReplay:
    step: int
    last_step: int
    state: object
    by: str
    events: list[str]
    seats: list[BragSeatAtStep]
    hand_starts: dict[int, int]
    shuffles: list[BragShuffleCheck]
    # the seats' names as the reader reads them (a bot's in their language), by seat
    names: list[str] = field(default_factory=list)

    @property
    def hand_no(self) -> int:
        return self.state.hand_no

    @property
    def pot(self) -> int:
        return self.state.pot

    @property
    def closed(self) -> list[dict]:
        return [{"chips": chips, "name": self.names[seat]} for chips, seat in self.state.closed]

    @property
    def all_verified(self) -> bool:
        return all(s.ok for s in self.shuffles)

    @property
    def hand_shuffles(self) -> list[BragShuffleCheck]:
        return [s for s in self.shuffles
                if s.hand == self.hand_no or (self.step == 0 and s.hand == 0)]

    @property
    def phase_text(self) -> str:
        s = self.state
        if s.phase == OVER:
            return _("Game over.")
        if s.phase == SHOWDOWN:
            return _("Hand %(hand)d is settled.") % {"hand": s.hand_no}
        return _("Hand %(hand)d: %(name)s to play.") % {"hand": s.hand_no,
                                                        "name": self.names[s.turn]}


def published_brag_commitments(actions) -> dict[str, str]:
    """Each shuffle's label ("shuffle:N") -> the commitment the deal published for it."""
    published, shuffles = {}, 0
    for row in actions:
        for event in row.events:
            if event.get("kind") == "deal" and "commitment" in event.get("data", {}):
                shuffles += 1
                published[f"shuffle:{shuffles}"] = event["data"]["commitment"]
    return published


def check_brag_shuffle(record: dict, published: dict[str, str]) -> BragShuffleCheck:
    ok, reason = verify_deck(record["commitment"], record["salt"], record["cards"])
    at_deal = published.get(record["label"])
    if record["label"] != "cut" and at_deal != record["commitment"]:
        ok, reason = False, _("The revealed pack matches its commitment, but that is not the "
                              "commitment announced to the players at the deal.")
    reason = _(reason) if reason in _VERDICTS else reason
    return BragShuffleCheck(record["hand"], record["label"], record["commitment"],
                            record["salt"], list(record["cards"]),
                            at_deal if record["label"] != "cut" else record["commitment"],
                            ok, reason)


def brag_replay(game, players, actions, step: int) -> BragReplay:
    """The Brag game at ``step``; ``actions`` are the log's rows, seq 0 first."""
    rules = BRAG.rules_from(game.rules)
    names = [p.name for p in players]  # as the game recorded them: the engine's
    state, _events = new_game(rules, names, bytes.fromhex(game.seed))
    shown = shown_names(names, players)
    moves = [a for a in actions if a.seq >= 1]
    last_step = len(moves)
    step = max(0, min(step, last_step))
    at, at_row = state, (actions[0] if actions and actions[0].seq == 0 else None)
    hand_starts = {1: 0}
    for row in moves:
        state, _events = apply(state, BragAction.from_dict(row.payload))
        if row.payload.get("kind") == NEXT_HAND:
            hand_starts[state.hand_no] = row.seq
        if row.seq == step:
            at, at_row = state, row
    published = published_brag_commitments(actions)
    shuffles = [check_brag_shuffle(r, published) for r in fairness_reveals(state)]
    seats = [BragSeatAtStep(
        seat=p.seat, name=shown[p.seat], username=p.user.username if p.user_id else None,
        chips=at.chips[p.seat], part=at.status[p.seat],
        blind=at.status[p.seat] not in (FOLDED, "out") and not at.seen[p.seat],
        cards=[CODES[c] for c in at.hands[p.seat]] if at.status[p.seat] != "out" else [],
        to_play=at.turn == p.seat, dealer=at.dealer == p.seat,
        final_place=p.place if p.place is not None else state.places[p.seat])
        for p in players]
    return BragReplay(step=step, last_step=last_step, state=at,
                      by=at_row.by if at_row is not None else "table",
                      events=[brag_event_text(e, shown, stored_names=names)
                              for e in at_row.events]
                      if at_row else [],
                      seats=seats, hand_starts=hand_starts, shuffles=shuffles, names=shown)


__all__ = ["BragReplay", "brag_replay", "check_brag_shuffle",
           "published_brag_commitments"]
