"""How the two people of the Brag browser test play: one rule, followed by the browser
test (tests/test_brag_browser.py, reading the board) and checked against the engine and
the casual bot over many deals (tests/test_brag_script.py).

The test must show a blind bet, a look, a see and a cover whatever the cards. Ann never
looks, so she bets blind and, blind, may see anyone; Bob looks on his first turn of a
hand. The table's variant starts everybody with 10 chips (ante 1, stakes 1 to 10, raises
up to 10), and the bot is the casual one, whose rules (games/engine/brag/bots.py) make
the plan certain:

1. Until a person has seen, both bet the least, Ann sees as soon as she may, and Bob
   folds when the bot has looked and is still betting. With 9 chips after the ante the
   bot looks on its first turn (a blind bet is not cheap to it) and then folds, or bets
   at most double the stake. If it folds, Ann and Bob are the two left and Ann sees Bob
   on her next turn; if it bets, Bob folds, the bot (its hand good enough with three
   betting, so with two) bets again, and Ann sees it. So Ann sees in the first hand,
   for at most 4 chips: nobody can be out after it.
2. Then, until a person has covered, nobody sees or folds: Ann bets the least, Bob the
   most. A hand ends only when one player is left betting or at a see, and only the bot
   could still see, which takes one of the two people having covered already. Chips run
   out, so in the second hand Ann or Bob covers the pot.
3. After that both go on as in 2, Ann seeing when she may, to the end of the game.
"""

LOOK, SEE, COVER, FOLD, BET_MIN, BET_MAX = "look", "see", "cover", "fold", "bet-min", "bet-max"

# the log's words for what a person did (the bot's own sees and covers do not count)
PERSON_SEES = r"^(ann|bob)(, blind,)? sees "
PERSON_COVERS = r"^(ann|bob) covers the pot"


def scripted_move(name: str, offered: set[str], *, bot_seen_betting: bool,
                  person_saw: bool, person_covered: bool) -> str:
    """The move ``name`` ("ann" or "bob") makes on their turn.

    ``offered`` holds the moves the board offers: "look", "see", "cover", "fold" and
    "bet". ``bot_seen_betting``: the bot has looked and is still betting in this hand.
    """
    if name == "bob" and LOOK in offered:
        return LOOK  # free, and his turn goes on
    if COVER in offered:  # he cannot pay the smallest bet: it is that or fold
        return COVER
    if not person_saw:
        if name == "ann":
            return SEE if SEE in offered else BET_MIN
        return FOLD if bot_seen_betting else BET_MIN
    if not person_covered:
        return BET_MIN if name == "ann" else BET_MAX
    if name == "ann" and SEE in offered:
        return SEE
    return BET_MIN if name == "ann" else BET_MAX
