"""The game as a state machine: ``apply(state, action) -> (new state, events)``.

Seats are numbered clockwise; a seat's "left" is the next seat number. A game
is deterministic from its seed (see :mod:`.fairness`), so
``replay(rules, names, seed, actions)`` rebuilds any state from the log.

``apply`` checks the action against the state first and raises
:class:`IllegalAction` (with a reason code and a sentence) without touching
anything; only a legal action is applied, to a copy. The state passed in is
never changed.

Choices the rules leave open, made here and written down for players:

* **Dealing** -- the deck for hand *n* is the seeded shuffle ``hand:n``; cards go
  one at a time from the dealer's left, then the widow (three cards) or the
  first discard, and the rest is the stock (top first).
* **Rotation** -- the player who starts the play moves one place left each hand
  (to the next player still in); the dealer is the player still in on the
  starter's right. This is the pagat "deal again" rule put generally: if the
  player due to deal was just put out, the same dealer deals again, and the
  next surviving player still starts.
* **Floating** -- a floating player has no lives but is still in; every life
  lost beyond the last one is the float, and the next one puts the player out.
  With ``stopper_penalty = 2`` a stopper on one life who loses goes out at once.
* **Nobody out** -- if one showdown would put every remaining player out, it
  changes nothing: no lives are taken and the next hand is dealt.
* **Places** -- players put out by the same showdown share a place: the best
  place not yet taken by those still in (with four in and two out together,
  both are 3rd).
* **Blitz** -- automatic: a turn (any turn, also the stop or a final turn) that
  ends with a blitz hand in the player's hands ends play at once.
* **Reshuffle** -- when a turn ends with the stock empty, the discard pile but
  its top card is shuffled (seeded, committed like the deal) into a new stock.
* **Pot** -- a split pot gives the odd chips one each to the tied players
  nearest the dealer's left. A player left with no chips cannot ante and is
  out at that showdown.
* **Commerce's dealer** -- before play, the dealer (who has not looked) may
  swap cards by position for middle cards; a three-card swap here is the
  dealer's one three-card swap of the hand.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from . import fairness
from .cards import CODES, CardError, parse_card
from .rules import HouseRules

SWAP = "swap"
STOP = "stop"
PASS = "pass"
DRAW = "draw"
TAKE_DISCARD = "take_discard"
DISCARD = "discard"
DEALER_SWAP = "dealer_swap"
NEXT_HAND = "next_hand"
ACTION_KINDS = (SWAP, STOP, PASS, DRAW, TAKE_DISCARD, DISCARD, DEALER_SWAP, NEXT_HAND)

# Phases
DEALER_SWAP_PHASE = "dealer_swap"
PLAY = "play"
SHOWDOWN = "showdown"
OVER = "over"

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    return ORDINALS.get(n, f"{n}th") if n < 20 else f"{n}th"


class IllegalAction(ValueError):
    """An action the rules do not allow now.

    ``code`` is stable: what kind of refusal it is (callers branch on it). ``message``
    says it in English. ``reason`` names the sentence (several share a code, "bad_swap"
    say; it is the code where one sentence has it alone) and ``params`` hold what the
    sentence names, so that the site can say it in its reader's language without the
    engine knowing any (``games/refusals.py``).
    """

    def __init__(self, code: str, message: str, reason: str | None = None, **params):
        self.code = code
        self.message = message
        self.reason = reason or code
        self.params = params
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class Action:
    kind: str
    seat: int | None = None
    give: tuple[int, ...] = ()  # cards from the hand: swapped away, or the discard
    take: tuple[int, ...] = ()  # cards taken from the widow
    positions: tuple[int, ...] = ()  # the dealer's unseen swap: places in the hand
    stop: bool = False  # swap, then stop the bus (stop_after_swap)

    def to_dict(self) -> dict:
        data: dict = {"kind": self.kind}
        if self.seat is not None:
            data["seat"] = self.seat
        if self.give:
            data["give"] = [CODES[c] for c in self.give]
        if self.take:
            data["take"] = [CODES[c] for c in self.take]
        if self.positions:
            data["positions"] = list(self.positions)
        if self.stop:
            data["stop"] = True
        return data

    @classmethod
    def from_dict(cls, data) -> Action:
        """Parse untrusted input; anything malformed raises IllegalAction('malformed')."""
        if not isinstance(data, dict):
            raise IllegalAction("malformed", "An action must be an object.", "not_an_object")
        kind = data.get("kind")
        if kind not in ACTION_KINDS:
            raise IllegalAction("malformed", f"Unknown action {str(kind)[:40]!r}.",
                                "unknown_action", kind=repr(str(kind)[:40]))
        seat = data.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise IllegalAction("malformed", "The seat must be a number.", "seat_not_a_number")

        def card_list(key: str) -> tuple[int, ...]:
            raw = data.get(key, [])
            if isinstance(raw, str):
                raw = [raw]
            if not isinstance(raw, list | tuple) or len(raw) > 3:
                raise IllegalAction("malformed", f"'{key}' must be a list of up to 3 cards.",
                                    "not_a_card_list", field=key)
            try:
                return tuple(parse_card(c) for c in raw)
            except CardError as exc:
                raise IllegalAction("malformed", str(exc), exc.reason, text=exc.text) from None

        positions = data.get("positions", [])
        if (
            not isinstance(positions, list | tuple)
            or len(positions) > 3
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in positions)
        ):
            raise IllegalAction("malformed", "'positions' must be a list of up to 3 numbers.",
                                "not_a_position_list")
        stop = data.get("stop", False)
        if not isinstance(stop, bool):
            raise IllegalAction("malformed", "'stop' must be true or false.", "stop_not_a_flag")
        return cls(kind, seat, card_list("give"), card_list("take"), tuple(positions), stop)


def swap(seat, give, take, stop=False) -> Action:
    return Action(SWAP, seat, tuple(give), tuple(take), (), stop)


def stop_bus(seat) -> Action:
    return Action(STOP, seat)


def pass_turn(seat) -> Action:
    return Action(PASS, seat)


def draw(seat) -> Action:
    return Action(DRAW, seat)


def take_discard(seat) -> Action:
    return Action(TAKE_DISCARD, seat)


def discard(seat, card) -> Action:
    return Action(DISCARD, seat, (card,))


def dealer_swap(seat, positions=(), take=()) -> Action:
    return Action(DEALER_SWAP, seat, (), tuple(take), tuple(positions))


def next_hand() -> Action:
    return Action(NEXT_HAND)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, in words. ``private`` is what ``seat`` alone sees instead.

    ``kind`` and ``data`` (with ``seat``) are the event's code and parameters: enough to
    say it again in any language without the English ``text`` (games/event_text.py does).
    ``private_data`` holds the parameters of ``private``, which only ``seat`` may see.
    """

    kind: str
    text: str
    seat: int | None = None
    private: str | None = None
    data: dict = field(default_factory=dict)
    private_data: dict | None = None

    def text_for(self, viewer: int | None) -> str:
        if self.private is not None and viewer is not None and viewer == self.seat:
            return self.private
        return self.text

    def to_dict(self) -> dict:
        out = {"kind": self.kind, "text": self.text}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.private is not None:
            out["private"] = self.private
        if self.data:
            out["data"] = self.data
        if self.private_data is not None:
            out["private_data"] = self.private_data
        return out

    @classmethod
    def from_dict(cls, data: dict) -> Event:
        return cls(data["kind"], data["text"], data.get("seat"), data.get("private"),
                   data.get("data", {}), data.get("private_data"))


def _join(cards) -> str:
    return ", ".join(CODES[c] for c in cards)


class GameState:
    """One moment of a game. Treat as immutable: ``apply`` returns a new one."""

    __slots__ = (
        "rules", "names", "seed", "version", "phase", "hand_no", "dealer", "starter",
        "lives", "out", "points", "chips", "pot", "hands", "widow", "stock", "discard", "stub",
        "turn", "pending", "pending_from_discard", "stopper", "final_left", "blitzer",
        "turns", "three_swapped", "known", "showdown", "places", "winner", "cut",
        "fairness", "reshuffles",
    )

    def clone(self) -> GameState:
        new = GameState.__new__(GameState)
        new.rules = self.rules
        new.names = self.names
        new.seed = self.seed
        new.version = self.version
        new.phase = self.phase
        new.hand_no = self.hand_no
        new.dealer = self.dealer
        new.starter = self.starter
        new.lives = self.lives[:]
        new.out = self.out[:]
        new.points = self.points[:]
        new.chips = self.chips[:]
        new.pot = self.pot
        new.hands = [h[:] for h in self.hands]
        new.widow = self.widow[:]
        new.stock = self.stock[:]
        new.discard = self.discard[:]
        new.stub = self.stub  # never changed within a hand; replaced whole at the deal
        new.turn = self.turn
        new.pending = self.pending
        new.pending_from_discard = self.pending_from_discard
        new.stopper = self.stopper
        new.final_left = self.final_left[:]
        new.blitzer = self.blitzer
        new.turns = self.turns
        new.three_swapped = self.three_swapped[:]
        new.known = [k[:] for k in self.known]
        new.showdown = self.showdown  # replaced whole, never changed in place
        new.places = self.places[:]
        new.winner = self.winner
        new.cut = self.cut
        new.fairness = self.fairness[:]
        new.reshuffles = self.reshuffles
        return new

    # -- reading the state -------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def active(self) -> list[int]:
        return [s for s in range(len(self.names)) if not self.out[s]]

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def floating(self, seat: int) -> bool:
        return (self.rules.scoring == "lives" and self.rules.floating
                and not self.out[seat] and self.lives[seat] == 0)

    def next_active(self, seat: int) -> int:
        n = len(self.names)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if not self.out[candidate]:
                return candidate
        return seat

    def previous_active(self, seat: int) -> int:
        n = len(self.names)
        for step in range(1, n + 1):
            candidate = (seat - step) % n
            if not self.out[candidate]:
                return candidate
        return seat

    def value_of(self, seat: int):
        return self.rules.hand_ranking.evaluate(tuple(self.hands[seat]))

    # -- persistence -------------------------------------------------------

    def to_dict(self) -> dict:
        """Everything, including secrets: for the server's snapshot, never for a client."""
        def cards(cs):
            return [CODES[c] for c in cs]

        return {
            "rules": self.rules.to_dict(),
            "names": list(self.names),
            "seed": self.seed.hex(),
            "version": self.version,
            "phase": self.phase,
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "starter": self.starter,
            "lives": self.lives,
            "out": self.out,
            "points": self.points,
            "chips": self.chips,
            "pot": self.pot,
            "hands": [cards(h) for h in self.hands],
            "widow": cards(self.widow),
            "stock": cards(self.stock),
            "discard": cards(self.discard),
            "stub": cards(self.stub),
            "turn": self.turn,
            "pending": None if self.pending is None else CODES[self.pending],
            "pending_from_discard": self.pending_from_discard,
            "stopper": self.stopper,
            "final_left": self.final_left,
            "blitzer": self.blitzer,
            "turns": self.turns,
            "three_swapped": self.three_swapped,
            "known": [cards(k) for k in self.known],
            "showdown": self.showdown,
            "places": self.places,
            "winner": self.winner,
            "cut": cards(self.cut),
            "fairness": self.fairness,
            "reshuffles": self.reshuffles,
        }

    @classmethod
    def from_dict(cls, data: dict) -> GameState:
        def cards(cs):
            return [parse_card(c) for c in cs]

        s = cls.__new__(cls)
        s.rules = HouseRules.from_dict(data["rules"])
        s.names = tuple(data["names"])
        s.seed = bytes.fromhex(data["seed"])
        s.version = data["version"]
        s.phase = data["phase"]
        s.hand_no = data["hand_no"]
        s.dealer = data["dealer"]
        s.starter = data["starter"]
        s.lives = list(data["lives"])
        s.out = list(data["out"])
        s.points = list(data["points"])
        s.chips = list(data["chips"])
        s.pot = data["pot"]
        s.hands = [cards(h) for h in data["hands"]]
        s.widow = cards(data["widow"])
        s.stock = cards(data["stock"])
        s.discard = cards(data["discard"])
        s.stub = cards(data["stub"])
        s.turn = data["turn"]
        s.pending = None if data["pending"] is None else parse_card(data["pending"])
        s.pending_from_discard = data["pending_from_discard"]
        s.stopper = data["stopper"]
        s.final_left = list(data["final_left"])
        s.blitzer = data["blitzer"]
        s.turns = data["turns"]
        s.three_swapped = list(data["three_swapped"])
        s.known = [cards(k) for k in data["known"]]
        s.showdown = data["showdown"]
        s.places = list(data["places"])
        s.winner = data["winner"]
        s.cut = cards(data["cut"])
        s.fairness = list(data["fairness"])
        s.reshuffles = data["reshuffles"]
        return s

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_dict() == other.to_dict()

    __hash__ = None  # mutable internals

    def __repr__(self) -> str:
        return (f"<GameState v{self.version} hand {self.hand_no} {self.phase} "
                f"turn={self.turn} names={self.names}>")


# -- starting a game ----------------------------------------------------------


def new_game(rules: HouseRules, names, seed: bytes | None = None) -> tuple[GameState, list[Event]]:
    """Cut for the deal and deal the first hand."""
    names = tuple(names)
    n = len(names)
    if not rules.min_players <= n <= rules.max_players:
        raise IllegalAction(
            "players", f"These rules are for {rules.min_players} to {rules.max_players} "
            f"players, not {n}.", fewest=rules.min_players, most=rules.max_players, count=n)
    if seed is None:
        seed = fairness.new_seed()
    s = GameState.__new__(GameState)
    s.rules = rules
    s.names = names
    s.seed = seed
    s.version = 0
    s.phase = PLAY
    s.hand_no = 0
    s.lives = [rules.starting_lives if rules.scoring == "lives" else 0] * n
    s.out = [False] * n
    s.points = [0] * n
    s.chips = [rules.starting_chips if rules.scoring == "pot" else 0] * n
    s.pot = 0
    s.hands = [[] for _ in range(n)]
    s.widow, s.stock, s.discard, s.stub = [], [], [], []
    s.turn = None
    s.pending = None
    s.pending_from_discard = False
    s.stopper = None
    s.final_left = []
    s.blitzer = None
    s.turns = 0
    s.three_swapped = [False] * n
    s.known = [[] for _ in range(n)]
    s.showdown = None
    s.places = [None] * n
    s.winner = None
    s.reshuffles = 0

    cut_deck = fairness.shuffled(seed, "cut")
    s.cut = cut_deck[:n]
    record = fairness.commit(seed, "cut", cut_deck)
    s.fairness = [{"hand": 0, **record}]
    dealer = min(range(n), key=lambda seat: s.cut[seat])
    s.dealer = dealer
    s.starter = s.next_active(dealer)
    events = [Event(
        "cut",
        "Cut for the deal: " + ", ".join(f"{names[i]} {CODES[s.cut[i]]}" for i in range(n))
        + f". {names[dealer]} has the lowest card and deals.",
        data={"cut": [CODES[c] for c in s.cut], "dealer": dealer},
    )]
    _deal(s, events)
    return s, events


def sealed_event(record: dict) -> Event:
    """The log line that publishes a deck's commitment before any of it is played."""
    return Event("commitment", f"Hand {record['hand']}'s deck is sealed: SHA-256 "
                 f"{record['commitment']}. The deck and salt are revealed after the showdown.",
                 data={"hand": record["hand"], "label": record["label"],
                       "commitment": record["commitment"]})


def _deal(s: GameState, events: list[Event]) -> None:
    rules = s.rules
    n = len(s.names)
    s.hand_no += 1
    label = f"hand:{s.hand_no}"
    deck = fairness.shuffled(s.seed, label)
    s.fairness.append({"hand": s.hand_no, **fairness.commit(s.seed, label, deck)})
    s.hands = [[] for _ in range(n)]
    s.known = [[] for _ in range(n)]
    s.three_swapped = [False] * n
    s.pending = None
    s.pending_from_discard = False
    s.stopper = None
    s.final_left = []
    s.blitzer = None
    s.turns = 0
    s.showdown = None
    s.reshuffles = 0

    order = []
    seat = s.dealer
    for _ in range(len(s.active)):
        seat = s.next_active(seat)
        order.append(seat)
    text = f"Hand {s.hand_no}: {s.names[s.dealer]} deals."
    params = {"hand": s.hand_no, "dealer": s.dealer}
    if rules.scoring == "pot":
        for seat in order:
            s.chips[seat] -= 1
        s.pot += len(order)
        text += f" Everyone antes 1 chip; the pot is {s.pot}."
        params["pot"] = s.pot
    i = 0
    for _ in range(3):
        for seat in order:
            s.hands[seat].append(deck[i])
            i += 1
    if rules.exchange == "widow":
        s.widow = deck[i:i + 3]
        s.stub = deck[i + 3:]  # set aside, out of play this hand
        s.stock = []
        s.discard = []
        text += f" The widow: {_join(s.widow)}."
        params["widow"] = [CODES[c] for c in s.widow]
    else:
        s.widow = []
        s.stub = []
        s.discard = [deck[i]]
        s.stock = deck[i + 1:][::-1]  # the end of the list is the top of the stock
        text += f" The discard pile starts with {CODES[s.discard[0]]}."
        params["discard"] = CODES[s.discard[0]]
    params["commitment"] = s.fairness[-1]["commitment"]
    events.append(Event("deal", text, data=params))
    events.append(sealed_event(s.fairness[-1]))
    if rules.dealer_blind_swap and rules.exchange == "widow":
        s.phase = DEALER_SWAP_PHASE
        s.turn = s.dealer
    else:
        s.phase = PLAY
        s.turn = s.starter


# -- checking -----------------------------------------------------------------


_FIELDS = {
    SWAP: {"give", "take", "stop"},
    DISCARD: {"give"},
    DEALER_SWAP: {"take", "positions"},
}


def check(s: GameState, action: Action) -> None:
    """Raise IllegalAction if ``action`` is not allowed in ``s``; never changes ``s``."""
    if not isinstance(action, Action) or action.kind not in _HANDLERS:
        raise IllegalAction("malformed", "Not an action.", "not_an_action")
    allowed = _FIELDS.get(action.kind, set())
    for name in ("give", "take", "positions", "stop"):
        if getattr(action, name) and name not in allowed:
            raise IllegalAction("malformed", f"A {action.kind.replace('_', ' ')} takes no "
                                f"'{name}'.", "field_not_taken",
                                kind=action.kind.replace('_', ' '), field=name)
    if s.phase == OVER:
        raise IllegalAction("game_over", "The game is over.")
    if action.kind == NEXT_HAND:
        if action.seat is not None:
            raise IllegalAction("not_yours", "The next deal is the table's to make, not a "
                                "player's.", "next_deal_not_yours")
        if s.phase != SHOWDOWN:
            raise IllegalAction("wrong_phase", "The hand is still being played.",
                                "hand_in_play")
        return
    if s.phase == SHOWDOWN:
        raise IllegalAction("wrong_phase", "The hand is over: wait for the next deal.",
                            "hand_over")
    seat = action.seat
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(s.names):
        raise IllegalAction("not_seated", "There is no such seat at this table.")
    if s.out[seat]:
        raise IllegalAction("out", "You are out of the game.")
    if seat != s.turn:
        raise IllegalAction("not_your_turn",
                            f"It is not your turn: it is {s.names[s.turn]}'s turn.",
                            name=s.names[s.turn])

    rules = s.rules
    kind = action.kind
    hand = s.hands[seat]
    stop_word = rules.stop_word

    if s.phase == DEALER_SWAP_PHASE:
        if kind != DEALER_SWAP:
            raise IllegalAction("wrong_phase", "First decide whether to swap cards unseen with "
                                "the middle before looking at your hand.", "dealer_swap_first")
        positions, take = action.positions, action.take
        if len(positions) != len(take):
            raise IllegalAction("bad_swap", "Choose as many middle cards as places in your hand.",
                                "swap_positions_count")
        if len(set(positions)) != len(positions) or any(not 0 <= p < 3 for p in positions):
            raise IllegalAction("bad_swap", "Choose different places in your hand, 1 to 3.",
                                "swap_positions_repeated")
        _check_from_widow(s, take)
        return
    if kind == DEALER_SWAP:
        raise IllegalAction("wrong_phase", "Only the dealer, before looking, may swap unseen.",
                            "dealer_swap_only")

    if s.pending is not None:
        if kind != DISCARD:
            raise IllegalAction("must_discard", "You have drawn: now discard one card.")
        if len(action.give) != 1:
            raise IllegalAction("malformed", "Discard exactly one card.", "discard_one")
        card = action.give[0]
        if card not in hand:
            raise IllegalAction("card_not_in_hand", f"{CODES[card]} is not in your hand.",
                                card=CODES[card])
        if s.pending_from_discard and card == s.pending:
            raise IllegalAction("same_discard", "You must discard a different card than the "
                                "discard you took.")
        return

    if kind == DISCARD:
        raise IllegalAction("must_draw", "Draw from the stock or take the discard first.")
    if kind == STOP:
        if s.stopper is not None:
            if stop_word == "stop the bus":
                raise IllegalAction("already_stopped", f"The bus is already stopped by "
                                    f"{s.names[s.stopper]}.", name=s.names[s.stopper])
            raise IllegalAction("already_stopped", f"{s.names[s.stopper]} has already knocked.",
                                "already_knocked", name=s.names[s.stopper])
        return
    if kind == PASS:
        if s.stopper is None and not rules.may_pass:
            if stop_word == "stop the bus":
                raise IllegalAction("pass_not_allowed", "Passing is allowed only after the bus "
                                    "has stopped.")
            raise IllegalAction("pass_not_allowed", "Passing is allowed only after someone "
                                "has knocked.", "pass_before_knock")
        return
    if kind == SWAP:
        if rules.exchange != "widow":
            raise IllegalAction("wrong_exchange", "At this table you draw and discard; there "
                                "is no widow to swap with.", "no_widow")
        give, take = action.give, action.take
        if not give or len(give) != len(take):
            raise IllegalAction("bad_swap", "Swap as many cards from your hand as you take "
                                "from the middle.", "swap_count")
        if len(give) > rules.swap_limit:
            raise IllegalAction("swap_limit", f"You may swap at most {rules.swap_limit} "
                                f"card{'s' if rules.swap_limit > 1 else ''} in a turn.",
                                limit=rules.swap_limit)
        if len(give) == 3 and s.three_swapped[seat]:
            raise IllegalAction("three_swap_used", "You have already swapped three cards at "
                                "once this hand.")
        if len(set(give)) != len(give):
            raise IllegalAction("bad_swap", "Choose different cards from your hand.",
                                "swap_hand_repeated")
        for card in give:
            if card not in hand:
                raise IllegalAction("card_not_in_hand", f"{CODES[card]} is not in your hand.",
                                card=CODES[card])
        _check_from_widow(s, take)
        if action.stop:
            if not rules.stop_after_swap:
                raise IllegalAction("stop_after_swap", "At this table you cannot swap and stop "
                                    "in the same turn.")
            if s.stopper is not None:
                raise IllegalAction("already_stopped", f"The bus is already stopped by "
                                    f"{s.names[s.stopper]}.", name=s.names[s.stopper])
        return
    if kind in (DRAW, TAKE_DISCARD):
        if rules.exchange != "stock":
            raise IllegalAction("wrong_exchange", "At this table you swap with the widow; "
                                "there is no stock.", "no_stock")
        if kind == DRAW and not s.stock:
            raise IllegalAction("stock_empty", "The stock is empty.")
        if kind == TAKE_DISCARD and not s.discard:
            raise IllegalAction("no_discard", "The discard pile is empty.")
        return
    raise IllegalAction("malformed", f"Unknown action {kind!r}.", "unknown_action",
                        kind=repr(kind))


def _check_from_widow(s: GameState, take) -> None:
    if len(set(take)) != len(take):
        raise IllegalAction("bad_swap", "Choose different cards from the middle.",
                            "swap_widow_repeated")
    for card in take:
        if card not in s.widow:
            raise IllegalAction("not_in_widow", f"{CODES[card]} is not in the middle.",
                                card=CODES[card])


def legal_actions(s: GameState, seat: int | None) -> list[Action]:
    """Every action ``seat`` may take now (``None`` asks for the system's: the next deal)."""
    if s.phase == OVER:
        return []
    if s.phase == SHOWDOWN:
        return [next_hand()] if seat is None else []
    if seat is None or seat != s.turn:
        return []
    rules = s.rules
    hand = s.hands[seat]
    if s.phase == DEALER_SWAP_PHASE:
        out = [dealer_swap(seat)]
        for k in (1, 2, 3):
            for positions in itertools.combinations(range(3), k):
                for take in itertools.combinations(s.widow, k):
                    out.append(dealer_swap(seat, positions, take))
        return out
    if s.pending is not None:
        return [discard(seat, c) for c in hand
                if not (s.pending_from_discard and c == s.pending)]
    out = []
    if rules.exchange == "widow":
        limit = rules.swap_limit
        for k in range(1, limit + 1):
            if k == 3 and s.three_swapped[seat]:
                continue
            for give in itertools.combinations(hand, k):
                for take in itertools.combinations(s.widow, k):
                    out.append(swap(seat, give, take))
                    if rules.stop_after_swap and s.stopper is None:
                        out.append(swap(seat, give, take, stop=True))
    else:
        if s.stock:
            out.append(draw(seat))
        if s.discard:
            out.append(take_discard(seat))
    if s.stopper is None:
        out.append(stop_bus(seat))
    if s.stopper is not None or rules.may_pass:
        out.append(pass_turn(seat))
    return out


def is_legal(s: GameState, action: Action) -> bool:
    try:
        check(s, action)
    except IllegalAction:
        return False
    return True


# -- applying -----------------------------------------------------------------


def apply(s: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """The new state after ``action`` and the events it caused. Raises IllegalAction."""
    check(s, action)
    new = s.clone()
    events: list[Event] = []
    _HANDLERS[action.kind](new, action, events)
    new.version = s.version + 1
    return new, events


def _forget(s: GameState, seat: int, card: int) -> None:
    known = s.known[seat]
    if card in known:
        known.remove(card)


def _do_swap(s: GameState, a: Action, events: list[Event]) -> None:
    seat = a.seat
    hand = s.hands[seat]
    for given, taken in zip(a.give, a.take, strict=True):
        s.widow[s.widow.index(taken)] = given
        hand[hand.index(given)] = taken
        _forget(s, seat, given)
        s.known[seat].append(taken)
    if len(a.give) == 3:
        s.three_swapped[seat] = True
    name = s.names[seat]
    events.append(Event(
        "swap", f"{name} swapped {_join(a.give)} for {_join(a.take)}", seat,
        data={"give": [CODES[c] for c in a.give], "take": [CODES[c] for c in a.take]},
    ))
    if a.stop:
        _announce_stop(s, seat, events)
    _end_turn(s, seat, events, stopped=a.stop)


def _announce_stop(s: GameState, seat: int, events: list[Event]) -> None:
    name = s.names[seat]
    knock = s.rules.ranking == "commerce"
    text = f"{name} knocked" if knock else f"{name} stopped the bus"
    events.append(Event("stop", text, seat, data={"knock": knock}))


def _do_stop(s: GameState, a: Action, events: list[Event]) -> None:
    _announce_stop(s, a.seat, events)
    _end_turn(s, a.seat, events, stopped=True)


def _do_pass(s: GameState, a: Action, events: list[Event]) -> None:
    events.append(Event("pass", f"{s.names[a.seat]} passed", a.seat))
    _end_turn(s, a.seat, events, stopped=False)


def _do_draw(s: GameState, a: Action, events: list[Event]) -> None:
    card = s.stock.pop()
    s.hands[a.seat].append(card)
    s.pending = card
    s.pending_from_discard = False
    name = s.names[a.seat]
    events.append(Event("draw", f"{name} drew from the stock", a.seat,
                        private=f"You drew {CODES[card]} from the stock",
                        private_data={"card": CODES[card]}))


def _do_take_discard(s: GameState, a: Action, events: list[Event]) -> None:
    card = s.discard.pop()
    s.hands[a.seat].append(card)
    s.known[a.seat].append(card)
    s.pending = card
    s.pending_from_discard = True
    events.append(Event("take_discard", f"{s.names[a.seat]} took {CODES[card]} from the "
                        "discard pile", a.seat, data={"card": CODES[card]}))


def _do_discard(s: GameState, a: Action, events: list[Event]) -> None:
    seat = a.seat
    card = a.give[0]
    s.hands[seat].remove(card)
    s.discard.append(card)
    _forget(s, seat, card)
    s.pending = None
    s.pending_from_discard = False
    events.append(Event("discard", f"{s.names[seat]} discarded {CODES[card]}", seat,
                        data={"card": CODES[card]}))
    _end_turn(s, seat, events, stopped=False)


def _do_dealer_swap(s: GameState, a: Action, events: list[Event]) -> None:
    seat = a.seat
    hand = s.hands[seat]
    name = s.names[seat]
    given = []
    for position, taken in zip(a.positions, a.take, strict=True):
        given.append(hand[position])
        s.widow[s.widow.index(taken)] = hand[position]
        hand[position] = taken
        s.known[seat].append(taken)
    if len(a.take) == 3:
        s.three_swapped[seat] = True
    if a.take:
        n = len(a.take)
        text = (f"{name} swapped {n} card{'s' if n > 1 else ''} unseen for {_join(a.take)}; "
                f"{_join(given)} went face up to the middle")
    else:
        text = f"{name} keeps the dealt hand unseen"
    events.append(Event("dealer_swap", text, seat,
                        data={"take": [CODES[c] for c in a.take],
                              "give": [CODES[c] for c in given]}))
    s.phase = PLAY
    s.turn = s.starter


def _end_turn(s: GameState, seat: int, events: list[Event], stopped: bool) -> None:
    s.turns += 1
    rules = s.rules
    if rules.blitz and s.value_of(seat).blitz:
        s.blitzer = seat
        value = s.value_of(seat)
        events.append(Event("blitz", f"{s.names[seat]} blitzes with "
                            f"{value.description}! Play ends at once.", seat,
                            data={"category": value.category,
                                  "cards": [CODES[c] for c in value.cards]}))
        _showdown(s, events)
        return
    if s.stopper is not None:
        s.final_left.remove(seat)
        if not s.final_left:
            _showdown(s, events)
            return
        s.turn = s.final_left[0]
    elif stopped:
        s.stopper = seat
        others = []
        nxt = s.next_active(seat)
        while nxt != seat:
            others.append(nxt)
            nxt = s.next_active(nxt)
        s.final_left = others
        s.turn = others[0]
    else:
        s.turn = s.next_active(seat)
    if rules.exchange == "stock" and not s.stock and len(s.discard) > 1:
        _reshuffle(s, events)


def _reshuffle(s: GameState, events: list[Event]) -> None:
    top = s.discard[-1]
    rest = sorted(s.discard[:-1])
    s.reshuffles += 1
    label = f"hand:{s.hand_no}:reshuffle:{s.reshuffles}"
    order = fairness.shuffled(s.seed, label, rest)
    s.fairness.append({"hand": s.hand_no, **fairness.commit(s.seed, label, order)})
    s.stock = order[::-1]
    s.discard = [top]
    events.append(Event("reshuffle", f"The stock ran out: the discard pile but its top card "
                        f"was shuffled into a new stock of {len(order)} cards, sealed as "
                        f"SHA-256 {s.fairness[-1]['commitment']}.",
                        data={"commitment": s.fairness[-1]["commitment"],
                              "label": s.fairness[-1]["label"], "count": len(order)}))


def _showdown(s: GameState, events: list[Event]) -> None:
    rules = s.rules
    names = s.names
    ranking = rules.hand_ranking
    active = s.active
    values = {seat: ranking.evaluate(tuple(s.hands[seat])) for seat in active}
    s.turn = None
    s.pending = None
    showdown = {
        "hand": s.hand_no,
        "stopper": s.stopper,
        "blitzer": s.blitzer,
        "hands": {str(seat): [CODES[c] for c in values[seat].cards] for seat in active},
        "values": {str(seat): values[seat].description for seat in active},
        "categories": {str(seat): values[seat].category for seat in active},
        "strengths": {str(seat): values[seat].strength for seat in active},
        "losers": [],
        "winners": [],
        "lives_lost": {},
        "eliminated": [],
        "floating": [],
        "void": False,
        "pot_won": {},
    }
    events.append(Event("showdown", "Showdown: " + "; ".join(
        f"{names[seat]} {values[seat].description} ({_join(values[seat].cards)})"
        for seat in active), data={
            "hand": s.hand_no,
            "seats": active,
            "categories": [values[seat].category for seat in active],
            "cards": [[CODES[c] for c in values[seat].cards] for seat in active],
        }))

    if rules.scoring == "lives":
        _score_lives(s, values, showdown, events)
    elif rules.scoring == "points":
        _score_points(s, values, showdown, events)
    else:
        _score_pot(s, values, showdown, events)

    s.showdown = showdown
    remaining = s.active
    over = False
    if rules.scoring == "points":
        best = max(s.points)
        leaders = [seat for seat in range(len(names)) if s.points[seat] == best]
        over = best >= rules.target_points and len(leaders) == 1
        if over:
            for seat in range(len(names)):
                s.places[seat] = 1 + sum(1 for p in s.points if p > s.points[seat])
    elif len(remaining) == 1:
        over = True
        s.places[remaining[0]] = 1
    if over:
        s.winner = s.places.index(1)
        s.phase = OVER
        events.append(Event("game_over", f"{names[s.winner]} wins the game!", s.winner,
                            data={"places": s.places}))
    else:
        s.phase = SHOWDOWN


def _score_lives(s, values, showdown, events) -> None:
    rules = s.rules
    names = s.names
    active = s.active
    worst = min(v.strength for v in values.values())
    losers = [seat for seat in active if values[seat].strength == worst]
    showdown["losers"] = losers
    planned = {}
    for seat in losers:
        lost = rules.stopper_penalty if seat == s.stopper else 1
        lives = s.lives[seat]
        if rules.floating:
            # the float is one more life: going below zero puts the player out
            out = lost > lives
            new_lives = max(lives - lost, 0)
        else:
            out = lost >= lives
            new_lives = max(lives - lost, 0)
        planned[seat] = (lost, new_lives, out)
    if all(planned.get(seat, (0, 0, False))[2] for seat in active):
        showdown["void"] = True
        events.append(Event("void", "Everyone left would be out, so nobody loses a life "
                            "this hand.", data={"losers": losers}))
        return
    eliminated = []
    for seat in losers:
        lost, new_lives, out = planned[seat]
        before = s.lives[seat]
        s.lives[seat] = new_lives
        showdown["lives_lost"][str(seat)] = lost
        name = names[seat]
        why = " (the stopper's penalty)" if lost > 1 and seat == s.stopper else ""
        if out:
            eliminated.append(seat)
            continue
        lives_word = "a life" if lost == 1 else f"{lost} lives"
        if rules.floating and new_lives == 0:
            showdown["floating"].append(seat)
            text = f"{name} lost {lives_word}{why} and is floating"
        else:
            left = f"{new_lives} {'life' if new_lives == 1 else 'lives'} left"
            text = f"{name} lost {lives_word}{why} ({left})"
        events.append(Event("life_lost", text, seat, data={
            "lost": lost, "lives": new_lives, "before": before,
            "floating": bool(rules.floating and new_lives == 0), "penalty": bool(why)}))
    _put_out(s, eliminated, showdown, events, "worst_hand")


_OUT_REASONS = {"worst_hand": "has the worst hand", "no_chips": "has no chips left to ante"}


def _put_out(s, eliminated, showdown, events, reason: str) -> None:
    if not eliminated:
        return
    for seat in eliminated:
        s.out[seat] = True
    place = len(s.active) + 1
    showdown["eliminated"] = eliminated
    for seat in eliminated:
        s.places[seat] = place
        shared = " (shared)" if len(eliminated) > 1 else ""
        events.append(Event("out", f"{s.names[seat]} {_OUT_REASONS[reason]} and is out in "
                            f"{ordinal(place)} place{shared}", seat,
                            data={"place": place, "reason": reason,
                                  "shared": len(eliminated) > 1}))


def _score_points(s, values, showdown, events) -> None:
    best = max(v.strength for v in values.values())
    winners = [seat for seat in s.active if values[seat].strength == best]
    showdown["winners"] = winners
    for seat in winners:
        s.points[seat] += 1
        events.append(Event("point", f"{s.names[seat]} has the best hand and scores a point "
                            f"({s.points[seat]})", seat, data={"points": s.points[seat]}))


def _score_pot(s, values, showdown, events) -> None:
    best = max(v.strength for v in values.values())
    # tied winners in order from the dealer's left, for the odd chips
    order = []
    seat = s.dealer
    for _ in range(len(s.active)):
        seat = s.next_active(seat)
        order.append(seat)
    winners = [seat for seat in order if values[seat].strength == best]
    showdown["winners"] = winners
    share, odd = divmod(s.pot, len(winners))
    pot = s.pot
    for i, seat in enumerate(winners):
        won = share + (1 if i < odd else 0)
        s.chips[seat] += won
        showdown["pot_won"][str(seat)] = won
    s.pot = 0
    if len(winners) == 1:
        events.append(Event("pot", f"{s.names[winners[0]]} wins the pot of {pot} chips",
                            winners[0], data={"won": pot, "pot": pot}))
    else:
        events.append(Event("pot", " and ".join(s.names[w] for w in winners)
                            + f" split the pot of {pot} chips",
                            data={"winners": winners, "pot": pot}))
    broke = [seat for seat in s.active if s.chips[seat] == 0]
    _put_out(s, broke, showdown, events, "no_chips")


def _do_next_hand(s: GameState, a: Action, events: list[Event]) -> None:
    s.starter = s.next_active(s.starter)
    s.dealer = s.previous_active(s.starter)
    _deal(s, events)


_HANDLERS = {
    SWAP: _do_swap,
    STOP: _do_stop,
    PASS: _do_pass,
    DRAW: _do_draw,
    TAKE_DISCARD: _do_take_discard,
    DISCARD: _do_discard,
    DEALER_SWAP: _do_dealer_swap,
    NEXT_HAND: _do_next_hand,
}


def replay(rules: HouseRules, names, seed: bytes, actions) -> GameState:
    """Rebuild a game from its seed and its action log."""
    state, _ = new_game(rules, names, seed)
    for action in actions:
        if isinstance(action, dict):
            action = Action.from_dict(action)
        state, _ = apply(state, action)
    return state


def fairness_reveals(s: GameState) -> list[dict]:
    """The shuffle records whose secrets may be shown now: the cut and finished hands."""
    finished = s.hand_no if s.phase in (SHOWDOWN, OVER) else s.hand_no - 1
    return [r for r in s.fairness if r["hand"] <= finished]
