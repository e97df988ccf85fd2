"""Signals other apps listen to, so that ``games`` needs to know none of them."""

from django.dispatch import Signal

# Sent by games.actions inside the transaction of a game's last action, after every
# player's place is set: listeners that write to the database (stats) commit or roll
# back with the game. Arguments: game (models.Game), state (engine.GameState).
game_finished = Signal()
