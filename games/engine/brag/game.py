"""Three Card Brag as a state machine: ``apply(state, action) -> (new state, events)``.

The rules are RULES.md, "Three Card Brag (seed 000)". Seats are numbered
clockwise; a seat's "left" is the next seat number. A game is deterministic
from its seed (see :mod:`games.engine.fairness`), so ``replay(rules, names,
seed, actions)`` rebuilds any state from the log. ``apply`` checks first and
raises :class:`~games.engine.game.IllegalAction` (a stable code and a
sentence) without touching anything; the state passed in is never changed.

Stakes are counted in *seen* chips: a seen player pays the stake, a blind
player pays half of it, rounded up (:func:`cost_of`).

Choices the rules leave open, made here and written down for players:

* **First dealer** -- a seeded, committed cut: the lowest card deals (as in
  Stop the Bus). The cut is face up, so its pack is revealed at once.
* **Pack** -- the first hand of a game is dealt from a fresh shuffle
  (``shuffle:1``). With ``prial_only`` the 52 cards then stay in the order play
  leaves them: the deal takes the top, folded hands go under the bottom as
  they are folded, and at the end of the hand the hands not folded are
  gathered under it, seat by seat from the dealer's left, each in the order
  its cards were dealt.
* **Fair play** -- every shuffle (``shuffle:k``, drawn from the game's seed) is
  committed to with SHA-256 at the deal that uses it (the ``deal`` event and
  every view carry the commitment). :func:`fairness_reveals` gives a pack's
  order and salt once the next shuffle has replaced it or the game is over,
  and :func:`verify_fairness` checks them against the commitments.
* **A prial shown** -- a pot counts as "won by a prial that was shown" when the
  hand that takes it is a prial and that hand was shown in the settlement (at
  a see, or at a closed pot's comparison). An open pot won unshown, whose
  winner then shows the prial against a covered hand, counts: it was shown.
* **Looking** is free and takes no turn. It is allowed to a player whose hand
  is still betting or has covered, on or off their turn, until the hand is
  settled. A player who looked keeps seeing their cards after a fold, until
  the next deal; nobody else ever sees a folded hand.
* **A see** costs twice what the smallest bet open to the seer costs them now
  (before any bet: the ``min_bet`` stake, halved for a blind seer). It does not
  change the stake: it ends the betting. "You can't see a blind man" refuses
  the see of a seen player against a blind opponent; a blind player may see
  anyone.
* **Cover** is offered only to a player who cannot pay the smallest bet open
  to them, blind or seen as they are; looking first may make a bet dearer,
  never cheaper. The closed pot holds every chip in the open pot and the
  coverer's last chips; the stake is unchanged.
* **Pot limit** -- the largest stake is every chip in the middle (open and
  closed pots) before the bet, but never below the smallest stake open.
* **Settlement** -- the open pot goes to the last player betting (unshown), or
  to the winner of the see. Closed pots are then settled newest first: the
  holder (the open pot's winner, then each later closed pot's winner) shows
  against the covered hand; the better hand takes the pot, a tie goes to the
  holder (the winner of the later pot).
* **No ante** (``ante`` 0, a house rule) -- the middle starts empty and the
  first bet opens the pot (with ``pot_limit`` that first stake is ``min_bet``:
  the pot it may not exceed is empty). A hand in which everyone but one player
  folds before anybody bets, sees or covers has nothing to win: it is **void**
  (a ``void_hand`` event, a settlement with no pots and ``"void": True``), as
  a real table throws such a hand in. Nobody wins or pays anything, no hand is
  shown (the last player's cards, blind or seen, go under the pack with the
  hands not folded, as at any settlement), the hand counts towards
  ``max_hands``, and the deal passes left. Chips are conserved trivially. A
  first bet followed by folds is an ordinary hand: the bettor takes the pot,
  their own chips, without showing.
* **Fixed stakes** (``max_raise`` 0 with ``limit``, a house rule) -- the first
  bet sets the stake (``min_bet`` to ``max_bet``) and every later bet repeats
  it: no bet may raise it, blind or seen (a blind player still pays half).
* **Out and the end** -- after each hand a player with fewer chips than the
  ante is out (with no ante: a player with no chips), except after the last
  hand of ``max_hands``, when only a player with no chips is out. A player
  out keeps any chips left (they still count for places and for the chip
  total). Places: players still in by chips, then
  those out, later first and by chips; equal places are shared (1, 1, 3).
* **Words** -- a blind bet reads "Ann, blind, bets 4 (stake 8)", a seen one "Bob
  bets 8". A see names the seen hand, and the seer's only when it wins: "Bob sees
  Ann for 16 — Bob's run, 4-5-6 beats Ann's pair of sevens, king kicker", or
  "... — Ann's pair of sevens, king kicker wins; Bob's hand is not shown" (naming
  a losing seer's hand would show it). Every fact an event's words say is in its
  ``data`` too (``private_data`` for a look's cards), so that games/event_text.py can
  say it again in any language: a deal's ante and pot, the hands a see or a closed
  pot shows (``{"category", "cards"}``, cards in the order dealt, as a settlement's
  ``shown``), whether a pot was won showing, a tie. A hand not shown is never in it.
* **Timeouts** -- the server folds a player whose clock runs out; fold is
  always legal on one's turn.
"""

from __future__ import annotations

from typing import NamedTuple

from .. import fairness
from ..cards import CODES, parse_card
from ..game import Event, IllegalAction, ordinal
from .rules import BragRules

LOOK = "look"
FOLD = "fold"
BET = "bet"
SEE = "see"
COVER = "cover"
NEXT_HAND = "next_hand"
ACTION_KINDS = (LOOK, FOLD, BET, SEE, COVER, NEXT_HAND)

# phases
BETTING = "betting"
SHOWDOWN = "showdown"  # the hand is settled; the table deals the next with next_hand
OVER = "over"

# a seat's part in the current hand
IN = "in"  # still betting
FOLDED = "folded"
COVERED = "covered"
OUT = "out"  # out of the game


class BragAction(NamedTuple):
    """One move. ``stake`` (seen chips) belongs to a bet only; ``seat`` is None for the deal.

    A named tuple, not a frozen dataclass: bots make one per decision and the
    simulator makes millions, and a tuple is several times cheaper to build.
    """

    kind: str
    seat: int | None = None
    stake: int | None = None

    def to_dict(self) -> dict:
        data: dict = {"kind": self.kind}
        if self.seat is not None:
            data["seat"] = self.seat
        if self.stake is not None:
            data["stake"] = self.stake
        return data

    @classmethod
    def from_dict(cls, data) -> BragAction:
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
        stake = data.get("stake")
        if isinstance(stake, str) and stake.strip().isdigit() and len(stake.strip()) < 10:
            stake = int(stake.strip())  # form fields arrive as text
        if stake is not None and (not isinstance(stake, int) or isinstance(stake, bool)):
            raise IllegalAction("malformed", "The stake must be a whole number of chips.",
                                "stake_not_a_number")
        return cls(kind, seat, stake)


def look(seat) -> BragAction:
    return BragAction(LOOK, seat)


def fold(seat) -> BragAction:
    return BragAction(FOLD, seat)


def bet(seat, stake) -> BragAction:
    return BragAction(BET, seat, stake)


def see(seat) -> BragAction:
    return BragAction(SEE, seat)


def cover(seat) -> BragAction:
    return BragAction(COVER, seat)


def next_hand() -> BragAction:
    return BragAction(NEXT_HAND)


def cost_of(stake: int, blind: bool) -> int:
    """What a stake costs: all of it seen, half of it (rounded up) blind."""
    return (stake + 1) // 2 if blind else stake


class LegalAction(NamedTuple):
    """A move open to a seat now, with its price in chips for that seat.

    For a bet, any stake from ``min_stake`` to ``max_stake`` is allowed (the top
    already cut to what the player can pay), costing ``cost(stake)``; for the
    other kinds ``min_cost == max_cost`` is the price (a cover: every chip left).
    """

    kind: str
    seat: int
    min_stake: int = 0
    max_stake: int = 0
    min_cost: int = 0
    max_cost: int = 0
    blind: bool = False
    against: int | None = None  # a see: the opponent

    def cost(self, stake: int | None = None) -> int:
        if self.kind == BET:
            return cost_of(self.min_stake if stake is None else stake, self.blind)
        return self.min_cost

    def action(self, stake: int | None = None) -> BragAction:
        if self.kind == BET:
            return BragAction(BET, self.seat, self.min_stake if stake is None else stake)
        return BragAction(self.kind, self.seat)

    @property
    def quick_stakes(self) -> tuple[int, ...]:
        """The bet control's quick choices: the minimum, double it, the maximum."""
        if self.kind != BET:
            return ()
        double = min(max(2 * self.min_stake, self.min_stake), self.max_stake)
        return tuple(sorted({self.min_stake, double, self.max_stake}))

    def to_dict(self) -> dict:
        data = {"kind": self.kind, "seat": self.seat, "cost": self.min_cost}
        if self.kind == BET:
            data.update(min_stake=self.min_stake, max_stake=self.max_stake,
                        min_cost=self.min_cost, max_cost=self.max_cost, blind=self.blind,
                        quick=[{"stake": q, "cost": cost_of(q, self.blind)}
                               for q in self.quick_stakes])
        if self.against is not None:
            data["against"] = self.against
        return data


def _join(cards) -> str:
    return " ".join(CODES[c] for c in cards)


def _lower(description: str) -> str:
    return description[:1].lower() + description[1:]


def _chips(n: int) -> str:
    return f"{n} chip{'s' if n != 1 else ''}"


def _hand_data(cards, value) -> dict:
    """A hand as an event's data: its category and its cards in the order dealt (what a
    settlement's ``shown`` lists), all a sentence needs to say its value in any language."""
    return {"category": value.category, "cards": [CODES[c] for c in cards]}


class BragState:
    """One moment of a Brag game. Treat as immutable: ``apply`` returns a new one.

    ``pack`` is the pack without the cards in play, top first. ``hands`` hold
    each seat's cards in the order they were dealt. ``pot`` is the open pot and
    ``closed`` the closed pots, oldest first, as ``[chips, coverer]``.
    """

    __slots__ = (
        "rules", "names", "seed", "version", "phase", "hand_no", "dealer", "turn",
        "chips", "out", "out_hand", "places", "winner", "pack", "hands", "status", "seen",
        "stake", "pot", "closed", "put_in", "bets", "blind_bets", "shuffles",
        "shuffle_next", "fairness", "settlement", "cut", "starting_total",
    )

    def clone(self) -> BragState:
        """A shallow copy. The lists are shared: each handler copies a list before it
        changes it (copy on write), so an action pays only for what it touches."""
        new = BragState.__new__(BragState)
        new.rules = self.rules
        new.names = self.names
        new.seed = self.seed
        new.version = self.version
        new.phase = self.phase
        new.hand_no = self.hand_no
        new.dealer = self.dealer
        new.turn = self.turn
        new.chips = self.chips
        new.out = self.out
        new.out_hand = self.out_hand
        new.places = self.places
        new.winner = self.winner
        new.pack = self.pack
        new.hands = self.hands
        new.status = self.status
        new.seen = self.seen
        new.stake = self.stake
        new.pot = self.pot
        new.closed = self.closed
        new.put_in = self.put_in
        new.bets = self.bets
        new.blind_bets = self.blind_bets
        new.shuffles = self.shuffles
        new.shuffle_next = self.shuffle_next
        new.fairness = self.fairness
        new.settlement = self.settlement
        new.cut = self.cut
        new.starting_total = self.starting_total
        return new

    # -- reading the state -------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def active(self) -> list[int]:
        """Seats still in the game."""
        return [s for s in range(len(self.names)) if not self.out[s]]

    @property
    def betting(self) -> list[int]:
        """Seats still betting in this hand (not folded, not covered)."""
        return [s for s, st in enumerate(self.status) if st == IN]

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def middle(self) -> int:
        """Every chip in the middle: the open pot and the closed pots."""
        return self.pot + sum(c[0] for c in self.closed)

    def next_active(self, seat: int) -> int:
        n = len(self.names)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if not self.out[candidate]:
                return candidate
        return seat

    def next_betting(self, seat: int) -> int:
        n = len(self.names)
        status = self.status
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if status[candidate] == IN:
                return candidate
        return seat

    def from_dealers_left(self) -> list[int]:
        """Seats still in the game, from the dealer's left round to the dealer."""
        n = len(self.names)
        return [s for s in ((self.dealer + k) % n for k in range(1, n + 1)) if not self.out[s]]

    def value_of(self, seat: int):
        return self.rules.hand_ranking.evaluate(tuple(self.hands[seat]))

    def min_stake(self) -> int:
        return self.stake or self.rules.min_bet

    def max_stake(self) -> int:
        """The largest stake the rules allow now (before what a player can pay)."""
        rules = self.rules
        if rules.betting == "pot_limit":
            return max(self.min_stake(), self.middle)
        return self.stake + rules.max_raise if self.stake else rules.max_bet

    def chips_total(self) -> int:
        return sum(self.chips) + self.middle

    # -- persistence -------------------------------------------------------

    def to_dict(self) -> dict:
        """Everything, secrets included: for the server's snapshot, never for a client."""
        return {
            "game": "brag",
            "rules": self.rules.to_dict(),
            "names": list(self.names),
            "seed": self.seed.hex(),
            "version": self.version,
            "phase": self.phase,
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "turn": self.turn,
            "chips": self.chips,
            "out": self.out,
            "out_hand": self.out_hand,
            "places": self.places,
            "winner": self.winner,
            "pack": [CODES[c] for c in self.pack],
            "hands": [[CODES[c] for c in h] for h in self.hands],
            "status": self.status,
            "seen": self.seen,
            "stake": self.stake,
            "pot": self.pot,
            "closed": [list(c) for c in self.closed],
            "put_in": self.put_in,
            "bets": self.bets,
            "blind_bets": self.blind_bets,
            "shuffles": self.shuffles,
            "shuffle_next": self.shuffle_next,
            "fairness": self.fairness,
            "settlement": self.settlement,
            "cut": [CODES[c] for c in self.cut],
            "starting_total": self.starting_total,
        }

    @classmethod
    def from_dict(cls, data: dict) -> BragState:
        s = cls.__new__(cls)
        s.rules = BragRules.from_dict(data["rules"])
        s.names = tuple(data["names"])
        s.seed = bytes.fromhex(data["seed"])
        s.version = data["version"]
        s.phase = data["phase"]
        s.hand_no = data["hand_no"]
        s.dealer = data["dealer"]
        s.turn = data["turn"]
        s.chips = list(data["chips"])
        s.out = list(data["out"])
        s.out_hand = list(data["out_hand"])
        s.places = list(data["places"])
        s.winner = data["winner"]
        s.pack = [parse_card(c) for c in data["pack"]]
        s.hands = [[parse_card(c) for c in h] for h in data["hands"]]
        s.status = list(data["status"])
        s.seen = list(data["seen"])
        s.stake = data["stake"]
        s.pot = data["pot"]
        s.closed = [tuple(c) for c in data["closed"]]
        s.put_in = list(data["put_in"])
        s.bets = list(data["bets"])
        s.blind_bets = list(data["blind_bets"])
        s.shuffles = data["shuffles"]
        s.shuffle_next = data["shuffle_next"]
        s.fairness = list(data["fairness"])
        s.settlement = data["settlement"]
        s.cut = [parse_card(c) for c in data["cut"]]
        s.starting_total = data["starting_total"]
        return s

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BragState) and self.to_dict() == other.to_dict()

    __hash__ = None  # mutable internals

    def __repr__(self) -> str:
        return (f"<BragState v{self.version} hand {self.hand_no} {self.phase} "
                f"turn={self.turn} names={self.names}>")


# -- starting a game ----------------------------------------------------------


def new_game(rules: BragRules, names, seed: bytes | None = None, *, dealer: int | None = None,
             pack=None) -> tuple[BragState, list[Event]]:
    """Cut for the deal and deal the first hand.

    ``dealer`` and ``pack`` (52 card codes or ints, top first) set the first
    dealer and the first hand's pack instead of the seeded cut and shuffle: for
    lessons and tests, never for a table. The chosen pack is committed to and
    revealed like a shuffle.
    """
    names = tuple(names)
    n = len(names)
    if not rules.min_players <= n <= rules.max_players:
        raise IllegalAction("players", f"These rules are for {rules.min_players} to "
                            f"{rules.max_players} players, not {n}.",
                            fewest=rules.min_players, most=rules.max_players, count=n)
    if seed is None:
        seed = fairness.new_seed()
    s = BragState.__new__(BragState)
    s.rules = rules
    s.names = names
    s.seed = seed
    s.version = 0
    s.phase = BETTING
    s.hand_no = 0
    s.turn = None
    s.chips = [rules.starting_chips] * n
    s.out = [False] * n
    s.out_hand = [None] * n
    s.places = [None] * n
    s.winner = None
    s.pack = []
    s.hands = [[] for _ in range(n)]
    s.status = [IN] * n
    s.seen = [False] * n
    s.stake = 0
    s.pot = 0
    s.closed = []
    s.put_in = [0] * n
    s.bets = [0] * n
    s.blind_bets = [0] * n
    s.shuffles = 0
    s.shuffle_next = True
    s.settlement = None
    s.starting_total = rules.starting_chips * n
    events = []
    if dealer is None:
        cut_deck = fairness.shuffled(seed, "cut")
        s.cut = cut_deck[:n]
        s.fairness = [{"hand": 0, "shuffle": 0, **fairness.commit(seed, "cut", cut_deck)}]
        s.dealer = min(range(n), key=lambda seat: s.cut[seat])
        events.append(Event(
            "cut",
            "Cut for the deal: " + ", ".join(f"{names[i]} {CODES[s.cut[i]]}" for i in range(n))
            + f". {names[s.dealer]} has the lowest card and deals.",
            data={"cut": [CODES[c] for c in s.cut], "dealer": s.dealer},
        ))
    else:
        if not isinstance(dealer, int) or not 0 <= dealer < n:
            raise IllegalAction("not_seated", "There is no such seat to deal.", "no_such_dealer")
        s.cut = []
        s.fairness = []
        s.dealer = dealer
    chosen = None
    if pack is not None:
        chosen = [parse_card(c) for c in pack]
        if sorted(chosen) != list(range(52)):
            raise IllegalAction("malformed", "A chosen pack must hold each of the 52 cards once.",
                                "not_a_pack")
    _deal(s, events, chosen)
    return s, events


def _deal(s: BragState, events: list[Event], chosen=None) -> None:
    rules = s.rules
    s.hand_no += 1
    shuffled = chosen is not None or s.shuffle_next or rules.shuffle == "every_hand"
    text = f"Hand {s.hand_no}: {s.names[s.dealer]} deals"
    data = {"hand": s.hand_no, "dealer": s.dealer, "shuffled": shuffled, "after_prial": False}
    if shuffled:
        s.shuffles += 1
        label = f"shuffle:{s.shuffles}"
        deck = chosen if chosen is not None else fairness.shuffled(s.seed, label)
        record = {"hand": s.hand_no, "shuffle": s.shuffles, **fairness.commit(s.seed, label, deck)}
        s.fairness = [*s.fairness, record]
        s.pack = list(deck)
        data["commitment"] = record["commitment"]
        text += f" from a freshly shuffled pack (commitment {record['commitment'][:12]}…)"
        if s.hand_no > 1 and chosen is None and rules.shuffle == "prial_only":
            data["after_prial"] = True
            text += ", because the last pot was won with a prial"
    else:
        text += " from the unshuffled pack"
    s.shuffle_next = False

    order = s.from_dealers_left()
    k = len(order)
    n = len(s.names)
    ante = rules.ante
    pack = s.pack
    hands = [[] for _ in range(n)]
    for i, seat in enumerate(order):
        hands[seat] = [pack[i], pack[i + k], pack[i + 2 * k]]
    s.pack = pack[3 * k:]
    s.hands = hands
    s.status = [OUT if s.out[seat] else IN for seat in range(n)]
    blind = rules.blind_play
    s.seen = [not blind and not s.out[seat] for seat in range(n)]
    s.put_in = [0] * n
    s.chips = s.chips[:]
    for seat in order:
        s.chips[seat] -= ante
        s.put_in[seat] = ante
    s.pot = ante * k
    s.closed = []
    s.stake = 0
    s.bets = [0] * n
    s.blind_bets = [0] * n
    s.settlement = None
    s.phase = BETTING
    s.turn = order[0]
    if ante:
        text += f". Everyone antes {_chips(ante)}; the pot is {s.pot}."
    else:
        text += ". There is no ante: the first bet opens the pot."
    data["ante"] = ante
    data["pot"] = s.pot
    events.append(Event("deal", text, data=data))


# -- checking -----------------------------------------------------------------


def check(s: BragState, action: BragAction) -> None:
    """Raise IllegalAction if ``action`` is not allowed in ``s``; never changes ``s``."""
    if not isinstance(action, BragAction) or action.kind not in _HANDLERS:
        raise IllegalAction("malformed", "Not an action.", "not_an_action")
    kind = action.kind
    if action.stake is not None and kind != BET:
        raise IllegalAction("malformed", f"A {kind.replace('_', ' ')} takes no stake.",
                            "stake_not_taken", kind=kind.replace('_', ' '))
    if s.phase == OVER:
        raise IllegalAction("game_over", "The game is over.")
    if kind == NEXT_HAND:
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
    if seat.__class__ is not int or not 0 <= seat < len(s.status):
        raise IllegalAction("not_seated", "There is no such seat at this table.")
    status = s.status[seat]
    if status == OUT:
        raise IllegalAction("out", "You are out of the game.")
    if kind == LOOK:
        if not s.rules.blind_play:
            raise IllegalAction("no_blind_play", "At this table every hand is looked at as "
                                "it is dealt.")
        if status == FOLDED:
            raise IllegalAction("folded", "You folded: your cards went unseen to the bottom "
                                "of the pack.", "folded_unseen")
        if s.seen[seat]:
            raise IllegalAction("already_seen", "You have already looked at your cards.")
        return
    if status == FOLDED:
        raise IllegalAction("folded", "You folded this hand.")
    if status == COVERED:
        raise IllegalAction("covered", "You covered the pot: the others play on without you.")
    if seat != s.turn:
        raise IllegalAction("not_your_turn",
                            f"It is not your turn: it is {s.names[s.turn]}'s turn.",
                            name=s.names[s.turn])
    if kind == FOLD:
        return
    blind = not s.seen[seat]
    low = s.min_stake()
    chips = s.chips[seat]
    low_cost = cost_of(low, blind)
    if kind == COVER:
        if low_cost <= chips:
            raise IllegalAction("cover_not_allowed", f"You can still pay the smallest bet "
                                f"({_chips(low_cost)}): you may cover the pot only when you "
                                "cannot.", cost=low_cost)
        return
    if kind == BET:
        stake = action.stake
        if not isinstance(stake, int) or isinstance(stake, bool):
            raise IllegalAction("malformed", "Name a stake: a whole number of chips.",
                                "no_stake")
        if low_cost > chips:
            raise IllegalAction("cannot_afford", f"The smallest bet costs you "
                                f"{_chips(low_cost)} and you have {chips}: fold or cover "
                                "the pot.", cost=low_cost, chips=chips)
        if stake < low:
            raise IllegalAction("stake_too_low", f"The stake must be at least {low}.",
                                lowest=low)
        high = s.max_stake()
        if stake > high:
            raise IllegalAction("stake_too_high", f"The stake may be at most {high}.",
                                highest=high)
        cost = cost_of(stake, blind)
        if cost > chips:
            raise IllegalAction("not_enough_chips", f"A stake of {stake} costs you "
                                f"{_chips(cost)} and you have {chips}.", "stake_costs_too_much",
                                stake=stake, cost=cost, chips=chips)
        return
    if kind == SEE:
        betting = s.betting
        if len(betting) != 2:
            verb = "is" if len(betting) == 1 else "are"
            raise IllegalAction("see_not_allowed", "You may see only when two players are "
                                f"still betting ({len(betting)} {verb}).", count=len(betting))
        other = betting[0] if betting[1] == seat else betting[1]
        if not blind and not s.seen[other]:
            raise IllegalAction("blind_man", f"You can't see a blind man: {s.names[other]} "
                                "has not looked at their cards.", name=s.names[other])
        cost = 2 * low_cost
        if cost > chips:
            raise IllegalAction("not_enough_chips", f"Seeing costs you {_chips(cost)} and "
                                f"you have {chips}.", "seeing_costs_too_much",
                                cost=cost, chips=chips)
        return
    raise IllegalAction("malformed", f"Unknown action {kind!r}.", "unknown_action",
                        kind=repr(kind))


# tuple.__new__ skips the named tuple's Python-level __new__: legal_actions runs for
# every bot decision, so its moves are built as plain tuples of the right class
_new = tuple.__new__


def legal_actions(s: BragState, seat: int | None) -> list:
    """Every move open to ``seat`` now (``None`` asks for the table's: the next deal).

    Betting moves are :class:`LegalAction` (stake range and cost); the next deal
    is a plain :class:`BragAction`.
    """
    phase = s.phase
    if phase != BETTING:
        return [next_hand()] if phase == SHOWDOWN and seat is None else []
    if seat.__class__ is not int or not 0 <= seat < len(s.status):
        return []
    status = s.status[seat]
    if status in (OUT, FOLDED):
        return []
    blind = not s.seen[seat]
    rules = s.rules
    out = [_new(LegalAction, (LOOK, seat, 0, 0, 0, 0, False, None))] if (
        blind and rules.blind_play) else []
    if status != IN or seat != s.turn:
        return out
    out.append(_new(LegalAction, (FOLD, seat, 0, 0, 0, 0, False, None)))
    chips = s.chips[seat]
    stake = s.stake
    low = stake or rules.min_bet
    low_cost = (low + 1) // 2 if blind else low
    if low_cost > chips:
        out.append(_new(LegalAction, (COVER, seat, 0, 0, chips, chips, False, None)))
        return out
    if rules.betting == "pot_limit":
        high = s.middle
        if high < low:
            high = low
    else:
        high = stake + rules.max_raise if stake else rules.max_bet
    afford = 2 * chips if blind else chips
    if afford < high:
        high = afford
    out.append(_new(LegalAction, (BET, seat, low, high, low_cost,
                                  (high + 1) // 2 if blind else high, blind, None)))
    if 2 * low_cost <= chips:
        statuses = s.status
        if statuses.count(IN) == 2:
            other = statuses.index(IN)
            if other == seat:
                other = statuses.index(IN, seat + 1)
            if blind or s.seen[other]:
                out.append(_new(LegalAction, (SEE, seat, 0, 0, 2 * low_cost, 2 * low_cost,
                                              blind, other)))
    return out


def is_legal(s: BragState, action: BragAction) -> bool:
    try:
        check(s, action)
    except IllegalAction:
        return False
    return True


# -- applying -----------------------------------------------------------------


def apply(s: BragState, action: BragAction) -> tuple[BragState, list[Event]]:
    """The new state after ``action`` and the events it caused. Raises IllegalAction."""
    check(s, action)
    new = s.clone()
    events: list[Event] = []
    _HANDLERS[action.kind](new, action, events)
    new.version = s.version + 1
    return new, events


def _do_look(s: BragState, a: BragAction, events: list[Event]) -> None:
    seat = a.seat
    s.seen = s.seen[:]
    s.seen[seat] = True
    value = s.value_of(seat)
    events.append(Event(
        "look", f"{s.names[seat]} looks at their cards and is now seen", seat,
        private=f"You look at your cards: {_join(s.hands[seat])}, {_lower(value.description)}",
        private_data=_hand_data(s.hands[seat], value),
    ))


def _do_fold(s: BragState, a: BragAction, events: list[Event]) -> None:
    seat = a.seat
    s.status = s.status[:]
    s.status[seat] = FOLDED
    s.pack = s.pack + s.hands[seat]  # unseen, to the bottom, in the order dealt
    events.append(Event("fold", f"{s.names[seat]} folds", seat,
                        data={"blind": not s.seen[seat]}))
    _next_turn(s, seat, events)


def _do_bet(s: BragState, a: BragAction, events: list[Event]) -> None:
    seat = a.seat
    blind = not s.seen[seat]
    cost = cost_of(a.stake, blind)
    s.chips = s.chips[:]
    s.put_in = s.put_in[:]
    s.bets = s.bets[:]
    s.chips[seat] -= cost
    s.pot += cost
    s.put_in[seat] += cost
    s.bets[seat] += 1
    if blind:
        s.blind_bets = s.blind_bets[:]
        s.blind_bets[seat] += 1
    s.stake = a.stake
    name = s.names[seat]
    text = (f"{name}, blind, bets {cost} (stake {a.stake})" if blind
            else f"{name} bets {cost}")
    events.append(Event("bet", text, seat, data={"stake": a.stake, "cost": cost,
                                                 "blind": blind, "pot": s.pot}))
    s.turn = s.next_betting(seat)


def _do_cover(s: BragState, a: BragAction, events: list[Event]) -> None:
    seat = a.seat
    chips = s.chips[seat]
    s.chips = s.chips[:]
    s.put_in = s.put_in[:]
    s.status = s.status[:]
    s.chips[seat] = 0
    s.put_in[seat] += chips
    amount = s.pot + chips
    s.closed = [*s.closed, (amount, seat)]
    s.pot = 0
    s.status[seat] = COVERED
    name = s.names[seat]
    what = f"with their last {_chips(chips)}" if chips else "with nothing left to bet"
    events.append(Event("cover", f"{name} covers the pot {what}: a closed pot of {amount}; "
                        "the others play on for a new pot", seat,
                        data={"chips": chips, "pot": amount, "blind": not s.seen[seat],
                              "closed": len(s.closed)}))
    _next_turn(s, seat, events)


def _next_turn(s: BragState, seat: int, events: list[Event]) -> None:
    betting = s.betting
    if len(betting) == 1:
        _settle(s, events, betting[0], None)
    else:
        s.turn = s.next_betting(seat)


def _do_see(s: BragState, a: BragAction, events: list[Event]) -> None:
    seat = a.seat
    blind = not s.seen[seat]
    cost = 2 * cost_of(s.min_stake(), blind)
    s.chips = s.chips[:]
    s.put_in = s.put_in[:]
    s.chips[seat] -= cost
    s.pot += cost
    s.put_in[seat] += cost
    betting = s.betting
    other = betting[0] if betting[1] == seat else betting[1]
    ranking = s.rules.hand_ranking
    mine = ranking.evaluate(tuple(s.hands[seat]))
    theirs = ranking.evaluate(tuple(s.hands[other]))
    seer_wins = mine.strength > theirs.strength
    name, other_name = s.names[seat], s.names[other]
    blind_word = ", blind," if blind else ""
    if seer_wins:
        text = (f"{name}{blind_word} sees {other_name} for {cost} — {name}'s "
                f"{_lower(mine.description)} beats {other_name}'s "
                f"{_lower(theirs.description)}")
    else:
        text = (f"{name}{blind_word} sees {other_name} for {cost} — {other_name}'s "
                f"{_lower(theirs.description)} wins; {name}'s hand is not shown")
    data = {"against": other, "cost": cost, "blind": blind, "seer_won": seer_wins,
            "against_hand": _hand_data(s.hands[other], theirs)}
    if seer_wins:  # a losing seer's hand is not shown, so it is not in the data either
        data["seer_hand"] = _hand_data(s.hands[seat], mine)
    events.append(Event("see", text, seat, data=data))
    see_record = {"seer": seat, "seen": other, "cost": cost, "blind": blind,
                  "seer_won": seer_wins}
    _settle(s, events, seat if seer_wins else other, see_record)


def _settle(s: BragState, events: list[Event], winner: int, see_record) -> None:
    """Pay the open pot, then the closed pots newest first; gather the hands; see who is out."""
    ranking = s.rules.hand_ranking
    names = s.names
    shown: list[int] = []
    s.chips = s.chips[:]
    s.pack = s.pack[:]
    s.out = s.out[:]
    s.out_hand = s.out_hand[:]

    def show(seat):
        if seat not in shown:
            shown.append(seat)

    if not s.pot and not s.closed:
        # nothing in the middle: only with no ante, everyone else folded before a bet
        _void_hand(s, events, winner)
        return
    if see_record is not None:
        show(see_record["seen"])
        if see_record["seer_won"]:
            show(see_record["seer"])
    pots = []
    won = [0] * len(names)
    amount = s.pot
    s.chips[winner] += amount
    won[winner] += amount
    pots.append({"kind": "open", "chips": amount, "winner": winner, "coverer": None})
    events.append(Event("pot", f"{names[winner]} wins the pot of {amount}"
                        + ("" if see_record else " without showing"), winner,
                        data={"chips": amount, "kind": "open",
                              "shown": see_record is not None}))
    s.pot = 0
    holder = winner
    for chips, coverer in reversed(s.closed):
        show(holder)
        show(coverer)
        mine = ranking.evaluate(tuple(s.hands[holder]))
        theirs = ranking.evaluate(tuple(s.hands[coverer]))
        taker = coverer if theirs.strength > mine.strength else holder
        s.chips[taker] += chips
        won[taker] += chips
        pots.append({"kind": "closed", "chips": chips, "winner": taker, "coverer": coverer})
        tie = theirs == mine
        if taker == coverer:
            text = (f"{names[coverer]}'s covered {_lower(theirs.description)} beats "
                    f"{names[holder]}'s {_lower(mine.description)}: {names[coverer]} takes "
                    f"the closed pot of {chips}")
        else:
            said = " (a tie goes to the later pot's winner)" if tie else ""
            text = (f"{names[holder]}'s {_lower(mine.description)} beats {names[coverer]}'s "
                    f"covered {_lower(theirs.description)}{said}: {names[holder]} takes the "
                    f"closed pot of {chips}")
        events.append(Event("closed_pot", text, taker, data={
            "chips": chips, "coverer": coverer, "holder": holder, "tie": tie,
            "holder_hand": _hand_data(s.hands[holder], mine),
            "coverer_hand": _hand_data(s.hands[coverer], theirs)}))
        holder = taker
    s.closed = []

    shown_hands = {}
    for seat in shown:
        value = ranking.evaluate(tuple(s.hands[seat]))
        shown_hands[str(seat)] = {"cards": [CODES[c] for c in s.hands[seat]],
                                  "description": value.description,
                                  "category": value.category}
    shown_set = set(shown)
    prial = any(p["winner"] in shown_set
                and ranking.evaluate(tuple(s.hands[p["winner"]])).category == "prial"
                for p in pots)
    if prial and s.rules.shuffle == "prial_only":
        s.shuffle_next = True
        events.append(Event("prial", "A pot was won with a prial shown: the pack will be "
                            "shuffled before the next hand."))
    _gather_hands(s)
    last, gone = _put_out(s, events)
    s.settlement = {
        "hand": s.hand_no,
        "see": see_record,
        "pots": pots,
        "shown": shown_hands,
        "won": won,
        "net": [won[i] - s.put_in[i] for i in range(len(names))],
        "prial_shuffle": bool(prial and s.rules.shuffle == "prial_only"),
        "out": gone,
        "void": False,
    }
    _end_hand(s, events, last)


def _void_hand(s: BragState, events: list[Event], last_in: int) -> None:
    """Settle a hand with nothing in the middle (no ante, and everyone but ``last_in``
    folded before anybody bet): nobody wins, nothing is shown, the deal passes."""
    n = len(s.names)
    events.append(Event("void_hand", f"Everyone but {s.names[last_in]} folded before anyone "
                        "bet: there is no pot, and the hand is void", last_in,
                        data={"last_in": last_in}))
    _gather_hands(s)
    last, gone = _put_out(s, events)
    s.settlement = {
        "hand": s.hand_no, "see": None, "pots": [], "shown": {}, "won": [0] * n,
        "net": [0] * n, "prial_shuffle": False, "out": gone, "void": True,
    }
    _end_hand(s, events, last)


def _gather_hands(s: BragState) -> None:
    """The hands not folded go under the pack, from the dealer's left round to the dealer."""
    for seat in s.from_dealers_left():
        if s.status[seat] != FOLDED:
            s.pack.extend(s.hands[seat])


def _put_out(s: BragState, events: list[Event]) -> tuple[bool, list[int]]:
    """Put out the players who cannot ante the next hand; (last hand of the game?, out)."""
    last = bool(s.rules.max_hands) and s.hand_no >= s.rules.max_hands
    ante = s.rules.ante
    names = s.names
    gone = []
    for seat in s.active:
        chips = s.chips[seat]
        if chips == 0 or (chips < ante and not last):
            gone.append(seat)
    for seat in gone:
        s.out[seat] = True
        s.out_hand[seat] = s.hand_no
        if not ante:  # with no ante only a player with no chips goes out
            text = f"{names[seat]} has no chips left and is out"
        elif s.chips[seat] == 0:
            text = f"{names[seat]} has no chips, too few to ante, and is out"
        else:
            text = f"{names[seat]} has only {_chips(s.chips[seat])}, too few to ante, and is out"
        events.append(Event("out", text, seat, data={"chips": s.chips[seat], "ante": ante}))
    return last, gone


def _end_hand(s: BragState, events: list[Event], last: bool) -> None:
    s.turn = None
    if len(s.active) < 2 or last:
        _game_over(s, events)
    else:
        s.phase = SHOWDOWN


def _game_over(s: BragState, events: list[Event]) -> None:
    n = len(s.names)
    still = s.active
    gone = [seat for seat in range(n) if s.out[seat]]
    s.places = s.places[:]
    for seat in still:
        s.places[seat] = 1 + sum(1 for o in still if s.chips[o] > s.chips[seat])

    def key(seat):
        return (s.out_hand[seat], s.chips[seat])

    for seat in gone:
        s.places[seat] = len(still) + 1 + sum(1 for o in gone if key(o) > key(seat))
    s.phase = OVER
    s.turn = None
    firsts = [seat for seat in range(n) if s.places[seat] == 1]
    s.winner = firsts[0] if len(firsts) == 1 else None
    if s.winner is not None:
        text = f"{s.names[s.winner]} wins the game with {_chips(s.chips[s.winner])}"
    else:
        text = (" and ".join(s.names[seat] for seat in firsts)
                + f" share first place with {_chips(s.chips[firsts[0]])} each")
    text += ". " + "; ".join(f"{ordinal(s.places[seat])} {s.names[seat]} "
                             f"({s.chips[seat]})"
                             for seat in sorted(range(n), key=lambda i: s.places[i])) + "."
    events.append(Event("game_over", text, s.winner, data={"places": s.places,
                                                          "chips": s.chips}))


def _do_next_hand(s: BragState, a: BragAction, events: list[Event]) -> None:
    s.dealer = s.next_active(s.dealer)
    _deal(s, events)


_HANDLERS = {
    LOOK: _do_look,
    FOLD: _do_fold,
    BET: _do_bet,
    SEE: _do_see,
    COVER: _do_cover,
    NEXT_HAND: _do_next_hand,
}


def replay(rules: BragRules, names, seed: bytes, actions, *, dealer=None, pack=None):
    """Rebuild a game from its seed and its action log (dicts or BragActions)."""
    state, _ = new_game(rules, names, seed, dealer=dealer, pack=pack)
    for action in actions:
        if isinstance(action, dict):
            action = BragAction.from_dict(action)
        state, _ = apply(state, action)
    return state


def fairness_commitments(s: BragState) -> list[dict]:
    """The public part of every shuffle so far: published as each shuffle is made."""
    return [fairness.public_part(r) | {"hand": r["hand"]} for r in s.fairness]


def fairness_reveals(s: BragState) -> list[dict]:
    """The shuffle records whose pack may be shown now.

    The cut is face up, so it is shown at once; a pack is revealed when the
    next shuffle replaces it or when the game is over, never while one of its
    cards could still be dealt or lies hidden in play.
    """
    over = s.phase == OVER
    return [r for r in s.fairness if r["shuffle"] == 0 or over or r["shuffle"] < s.shuffles]


def verify_fairness(s: BragState) -> list[dict]:
    """Check every pack revealed so far against the commitment published at its shuffle."""
    out = []
    for r in fairness_reveals(s):
        ok, reason = fairness.verify(r["commitment"], r["salt"], r["cards"])
        out.append({"label": r["label"], "hand": r["hand"], "ok": ok, "reason": reason})
    return out
