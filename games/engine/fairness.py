"""Fair shuffles that anyone can check afterwards.

A game has a 256-bit secret seed from :func:`secrets.token_bytes`. Every shuffle
of the game (the cut for the deal, each hand's deck, each reshuffle of the
discard pile) is drawn from HMAC-SHA256 keyed by that seed, in counter mode,
with unbiased Fisher-Yates (rejection sampling, no modulo bias). Knowing the
decks revealed so far tells nothing about the next one, and the same seed
always gives the same game, which is what replays rely on.

At the deal the players get a commitment: SHA-256 of a fresh salt and the deck
order. After the showdown the salt and the order are revealed and
:func:`verify` shows the deck was fixed before anyone played. The seed itself is
never part of a view.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from .cards import CODES, PACK, parse_card

SEED_BYTES = 32


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


class _Stream:
    """Deterministic bytes from HMAC-SHA256(seed, label || counter)."""

    __slots__ = ("seed", "label", "counter", "buffer", "offset")

    def __init__(self, seed: bytes, label: str):
        self.seed = seed
        self.label = label.encode() + b":"
        self.counter = 0
        self.buffer = b""
        self.offset = 0

    def below(self, n: int) -> int:
        """A uniform int in [0, n), n <= 2**32, by rejection sampling."""
        limit = (1 << 32) - ((1 << 32) % n)
        while True:
            if self.offset + 4 > len(self.buffer):
                self.buffer = hmac.new(
                    self.seed, self.label + self.counter.to_bytes(8, "big"), hashlib.sha256
                ).digest()
                self.counter += 1
                self.offset = 0
            value = int.from_bytes(self.buffer[self.offset:self.offset + 4], "big")
            self.offset += 4
            if value < limit:
                return value % n


def shuffled(seed: bytes, label: str, cards=PACK) -> list[int]:
    """``cards`` in the order the seeded shuffle named ``label`` gives."""
    deck = list(cards)
    stream = _Stream(seed, label)
    for i in range(len(deck) - 1, 0, -1):
        j = stream.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def salt_for(seed: bytes, label: str) -> str:
    return hmac.new(seed, b"salt:" + label.encode(), hashlib.sha256).hexdigest()[:32]


def commitment(salt: str, cards) -> str:
    """SHA-256 over ``salt:CODE CODE ...`` -- what players see before the cards are played."""
    text = salt + ":" + " ".join(CODES[c] for c in cards)
    return hashlib.sha256(text.encode()).hexdigest()


def commit(seed: bytes, label: str, cards) -> dict:
    """A sealed record of a shuffle: the public commitment plus what to reveal later."""
    salt = salt_for(seed, label)
    return {
        "label": label,
        "commitment": commitment(salt, cards),
        "salt": salt,
        "cards": [CODES[c] for c in cards],
    }


def public_part(record: dict) -> dict:
    return {"label": record["label"], "commitment": record["commitment"]}


def verify(commitment_hex: str, salt: str, deck, full_pack: bool = True) -> tuple[bool, str]:
    """Check a revealed deck against its commitment. Returns (ok, reason in words)."""
    try:
        cards = [parse_card(c) for c in deck]
    except ValueError as exc:
        return False, f"The revealed deck holds something that is not a card: {exc}"
    if len(set(cards)) != len(cards):
        return False, "The revealed deck holds the same card twice."
    if full_pack and sorted(cards) != list(PACK):
        return False, "The revealed deck is not one full pack of 52 cards."
    if not hmac.compare_digest(commitment(salt, cards), commitment_hex):
        return False, "The revealed deck does not match the commitment made at the deal."
    return True, "The deck revealed matches the commitment made before play: it was not changed."
