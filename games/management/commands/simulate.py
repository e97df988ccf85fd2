"""``manage.py simulate``: the variant lab on the command line.

    python manage.py simulate --preset classic --players 4 \\
        --bots greedy,greedy,mc,random --games 2000 --seed 1
    python manage.py simulate --preset brag --bots greedy,random,mc --games 500 --json
    python manage.py simulate --preset brag --rule ante=0 --rule max_raise=0 --games 200

``--rule NAME=VALUE`` (repeatable) changes one house rule of the preset or variant for
this run, checked by the engine as the admin checks it: Brag's house rules "no ante"
(``ante=0``) and "fixed stakes" (``max_raise=0``), for example, or ``blind_play=off``.

Presets of every game kind are known (``brag`` is Three Card Brag's first preset);
the variant's game kind decides which engine plays it.

Plays every game asked for unless ``--time-budget`` says otherwise (the admin
page stops after a few seconds; here long runs are the point).
"""

from __future__ import annotations

import dataclasses
import json

from django.core.management.base import BaseCommand, CommandError

from games.engine import RulesError
from games.kinds import EngineMissing, UnknownKind, all_presets, find_preset
from games.lab import LabError, run_lab
from games.models import Variant


class Command(BaseCommand):
    help = ("Bots play many games of a preset or a variant of any game kind; prints win "
            "rates and the game's own figures (Stop the Bus: average places, hands per game, "
            "turns per hand, how often the stopper loses; Brag: average pot, hands per game, "
            "how often players play blind, see and cover).")

    def add_arguments(self, parser):
        source = parser.add_mutually_exclusive_group()
        source.add_argument("--preset", help=f"An engine preset: {', '.join(all_presets())}; "
                                             "or brag for three-card-brag (default: "
                                             "classic).")
        source.add_argument("--variant", help="The slug of a variant in the database.")
        parser.add_argument("--players", type=int,
                            help="Players at the table (default: as many as --bots names, "
                                 "or 4).")
        parser.add_argument("--bots", default="greedy",
                            help="One bot level for everyone or one per seat, comma-separated: "
                                 "random, greedy, mc (default: greedy).")
        parser.add_argument("--games", type=int, default=500, help="Games to play (default 500).")
        parser.add_argument("--seed", default="0", help="Same seed, same figures (default 0).")
        parser.add_argument("--time-budget", type=float, default=None,
                            help="Stop after this many seconds (default: play every game).")
        parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                            help="Change one house rule for this run (repeatable), e.g. "
                                 "--rule ante=0 --rule max_raise=0; on/off for yes-or-no "
                                 "rules.")
        parser.add_argument("--json", action="store_true",
                            help="Print the figures as JSON instead of text.")

    def handle(self, *args, **options):
        name, rules = self._rules(options)
        rules = self._changed(name, rules, options["rule"])
        progress = self._progress if options["verbosity"] >= 2 else None
        try:
            result = run_lab(rules, options["players"], options["bots"], options["games"],
                             seed=options["seed"], time_budget=options["time_budget"],
                             progress=progress)
        except (LabError, EngineMissing) as exc:
            raise CommandError(f"{name}: {exc}") from None
        if progress is not None:
            self.stderr.write("")  # end the progress line
        if options["json"]:
            self.stdout.write(json.dumps({"rules_name": name, **result.as_dict()}, indent=2))
            return
        self.stdout.write(f"{name}: {', '.join(result.bots)}; seed {result.seed}")
        if options["rule"]:
            for line in rules.summary():
                self.stdout.write(f"  {line}")
        for line in result.lines():
            self.stdout.write(line)

    def _rules(self, options):
        if options["variant"]:
            variant = Variant.objects.filter(slug=options["variant"]).first()
            if variant is None:
                slugs = ", ".join(Variant.objects.values_list("slug", flat=True)) or "none"
                raise CommandError(f"No variant with the slug {options['variant']!r} "
                                   f"(there are: {slugs}).")
            try:
                return variant.name, variant.rules
            except RulesError as exc:
                raise CommandError(f"{variant.name} has rules that cannot be played: "
                                   f"{exc}") from None
        try:
            _, preset = find_preset(options["preset"] or "classic")
        except UnknownKind as exc:
            raise CommandError(str(exc)) from None
        return preset.name, preset.rules

    def _changed(self, name, rules, changes):
        """``rules`` with the ``--rule NAME=VALUE`` changes, checked by the engine."""
        if not changes:
            return rules
        current = {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}
        values = {}
        for change in changes:
            key, sep, text = change.partition("=")
            key, text = key.strip(), text.strip()
            if not sep or key not in current:
                raise CommandError(f"--rule {change!r}: name one of {name}'s house rules as "
                                   f"NAME=VALUE ({', '.join(current)}).")
            values[key] = self._value(key, text, current[key])
        try:
            return dataclasses.replace(rules, **values)
        except RulesError as exc:
            raise CommandError(f"{name} with {', '.join(changes)}: {exc}") from None

    @staticmethod
    def _value(key, text, like):
        if isinstance(like, bool):
            words = {"on": True, "true": True, "yes": True, "1": True,
                     "off": False, "false": False, "no": False, "0": False}
            if text.lower() not in words:
                raise CommandError(f"--rule {key}: say on or off, not {text!r}.")
            return words[text.lower()]
        if isinstance(like, int):
            try:
                return int(text)
            except ValueError:
                raise CommandError(f"--rule {key}: a whole number, not {text!r}.") from None
        return text

    def _progress(self, done: int, asked: int) -> None:
        if done % max(1, asked // 20) == 0 or done == asked:
            self.stderr.write(f"\r{done}/{asked} games", ending="")
            self.stderr.flush()
