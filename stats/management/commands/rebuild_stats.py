"""Recompute every player's aggregates and ratings from the action logs."""

import time

from django.core.management.base import BaseCommand

from stats.brag import rebuild_brag
from stats.recording import rebuild


class Command(BaseCommand):
    help = ("Recompute all stats and ratings from the logs of finished games, in the order "
            "they finished. Replaces what is stored; runs in one transaction.")

    def handle(self, *args, **options):
        started = time.perf_counter()

        def progress(n):
            if n % 1000 == 0:
                self.stdout.write(f"  {n} games...")

        games, results = rebuild(progress=progress if options["verbosity"] > 1 else None)
        brag_games, brag_results = rebuild_brag()
        self.stdout.write(self.style.SUCCESS(
            f"Rebuilt stats from {games} finished games ({results} player results) in "
            f"{time.perf_counter() - started:.1f}s."))
        self.stdout.write(self.style.SUCCESS(
            f"Rebuilt Brag stats from {brag_games} finished Brag games ({brag_results} "
            "player results)."))
