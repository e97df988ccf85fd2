"""Run the clock (bot moves, turn deadlines, next deals) as a process of its own.

Every daphne process already runs the clock; this is for deployments that turn
that off (STOPBUS_CLOCK_AUTOSTART=false) and prefer one or more dedicated
workers. Several may run at once: jobs are claimed with row locks.
"""

import asyncio
import signal

from django.core.management.base import BaseCommand

from games import clock
from notify import loop as notify_loop


class Command(BaseCommand):
    help = "Run due jobs (bot moves, turn deadlines, next deals) until stopped."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true",
                            help="Run what is due now and exit.")

    def handle(self, *args, once=False, **options):
        if once:
            ran = clock.run_due_jobs()
            self.stdout.write(f"ran {ran} job{'s' if ran != 1 else ''}")
            return
        self.stdout.write(f"clock running as {clock.WORKER_ID}; Ctrl-C to stop")
        asyncio.run(self._run())

    async def _run(self):
        loop = asyncio.get_running_loop()
        # the clock, and beside it the notifications' pushes and emails
        task = asyncio.gather(clock.run_forever(), notify_loop.run_forever())
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, task.cancel)
        try:
            await task
        except asyncio.CancelledError:
            self.stdout.write("clock stopped")
