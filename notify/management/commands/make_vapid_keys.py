"""Print a new VAPID key pair for web push, as environment variables."""

from django.core.management.base import BaseCommand

from notify.keys import new_vapid_pair


class Command(BaseCommand):
    help = "Make a VAPID key pair for web push and print it as environment variables."

    def handle(self, *args, **options):
        private, public = new_vapid_pair()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}\n"
                          "VAPID_SUBJECT=mailto:you@example.com")
