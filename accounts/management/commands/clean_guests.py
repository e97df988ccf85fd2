"""Remove guests idle for a while (run it daily, from cron or a scheduler)."""

from django.core.management.base import BaseCommand

from games import actions


class Command(BaseCommand):
    help = ("Remove guest players idle for STOPBUS_GUEST_DAYS days (or --days) who are not "
            "at a waiting or running table. Their finished games keep their names.")

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=None,
                            help="Idle days before a guest is removed (default: the setting).")
        parser.add_argument("--dry-run", action="store_true",
                            help="Say how many would go; remove nothing.")

    def handle(self, *args, days=None, dry_run=False, **options):
        if days is not None and days < 0:
            self.stderr.write("--days must be 0 or more.")
            return
        if dry_run:
            count = actions.idle_guests(days).count()
            self.stdout.write(f"{count} idle guest{'s' if count != 1 else ''} would be removed")
            return
        count = actions.do_forget_guests(days)
        self.stdout.write(f"removed {count} idle guest{'s' if count != 1 else ''}")
