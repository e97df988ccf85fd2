"""The one place that changes a table or a game, and tells pages about it.

Views, consumers, the clock and bots all call the ``do_*`` functions here; nothing
else writes game state (``tests/test_one_writer.py`` checks). Each validates, writes
in one transaction, appends to the log where there is one, and announces after
commit. A game action locks the game row, appends the action under the next
sequence number (a unique constraint makes a racing duplicate fail instead of
applying twice), stores the new snapshot and schedules what comes next (a bot's
move, a turn deadline, the next deal). The announcement carries no cards: pages
render their own viewer's view (``games.render``).

One module per concern: ``moves``, ``tables`` (and seats), ``clock``, ``presence``
(and leaving), ``chat``; ``base`` holds what they share.
"""

from .base import (
                   LOBBY_GROUP,
                   Refused,
                   announce_lobby,
                   current_game,
                   do_end_sessions,
                   group_send,
                   seats_in_order,
                   state_of,
                   user_group,
)
from .chat import clean_chat, do_chat, guest_kept_out
from .clock import (
                   LEASE,
                   TIMEOUTS_BEFORE_AWAY,
                   WORKER_ID,
                   do_claim_due_jobs,
                   do_run_due_jobs,
                   do_run_job,
                   next_due_in,
)
from .guests import do_forget_guests, idle_guests
from .moves import (
                   Played,
                   bot_choice,
                   do_play,
                   do_ready,
                   do_take_seat_back,
                   player_seat,
                   seat_of_player,
)
from .post import (
                   check_post_table_limit,
                   do_skip_table,
                   do_take_holiday,
                   may_open_post_table,
                   post_table_limit,
)
from .presence import (
                   abandon_after,
                   bot_name_for,
                   do_arrive,
                   do_check_abandoned,
                   do_depart,
                   do_leave_table,
                   do_ping,
)
from .tables import (
                   do_add_bot,
                   do_create_table,
                   do_invite,
                   do_join_table,
                   do_play_again,
                   do_remove_bot,
                   do_set_spectators,
                   do_start_game,
                   do_withdraw_invite,
)

__all__ = [
    "check_post_table_limit", "do_skip_table", "do_take_holiday", "may_open_post_table",
    "post_table_limit",
    "LEASE", "LOBBY_GROUP", "TIMEOUTS_BEFORE_AWAY", "WORKER_ID", "Played", "Refused",
    "abandon_after", "announce_lobby", "bot_choice", "bot_name_for", "clean_chat",
    "current_game", "do_add_bot", "do_arrive", "do_chat", "do_check_abandoned", "guest_kept_out",
    "do_claim_due_jobs", "do_create_table", "do_depart", "do_invite", "do_end_sessions",
    "do_forget_guests",
    "do_join_table", "do_leave_table",
    "do_ping", "do_play", "do_play_again", "do_ready", "do_remove_bot", "do_run_due_jobs",
    "do_run_job", "do_set_spectators", "do_start_game", "do_take_seat_back",
    "do_withdraw_invite", "group_send",
    "idle_guests", "next_due_in", "player_seat", "seat_of_player", "seats_in_order", "state_of",
    "user_group",
]
