"""The admin: house-rule variants to shape, and the room to inspect.

Variants are the one thing admins design here. A variant plays one game kind
(Stop the Bus or Three Card Brag, from the registry in ``games.kinds``): its page
shows that kind's house rules, in that kind's groups, and the kind's engine checks
them (``Variant.clean`` turns its ``RulesError`` into field errors, so the messages
appear under the fields they are about). The kind is chosen when the variant is
added and fixed after. The variant lab plays bots on them through the kind's
engine, and a variant that tables use cannot be deleted: it is deactivated.

Tables, games and jobs are for looking at. Only ``games.actions`` changes a
game, so their admins do not edit game state or the action log.

Everything written here follows the active language (the admin's): the field
labels (the models' verbose names; a variant's house rules are named as every form
names them, ``games.rules_text.RULE_LABELS``), the groups of house rules, the
columns, actions, messages and the lab's form and figures.
"""

from __future__ import annotations

import json
import re

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.actions import delete_selected
from django.contrib.admin.utils import quote, unquote
from django.core.exceptions import PermissionDenied
from django.db.models import Count, ProtectedError, Q, RestrictedError
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import (
    gettext_lazy,
    gettext_noop,
    ngettext,
    npgettext,
    pgettext,
    pgettext_lazy,
)

from .engine import RulesError
from .kinds import DEFAULT_KIND, KINDS, EngineMissing, UnknownKind, kind_for, kind_named
from .lab import DEFAULT_TIME_BUDGET, LabError, bot_lineup, default_players, run_lab
from .models import Action, Game, GamePlayer, Invitation, Job, Seat, Table, Variant
from .refusals import rules_problems, rules_problems_text
from .rules_text import variant_name
from .templatetags.i18n_cards import rules_summary

# A variant's fields as its admin page, its list and its filters name them: the model's
# verbose names, which give the house rules the words every form gives them (RULE_LABELS).
FIELD_LABELS = {field.name: field.verbose_name for field in Variant._meta.get_fields()
                if field.concrete and field.editable and not field.primary_key}

# The titles of the kinds' groups of house rules (games/kinds.py ``rule_sections``),
# marked for translation; tests/test_i18n_admin.py checks that every kind's are here.
SECTION_TITLES = frozenset((
    gettext_noop("Ranking"),
    gettext_noop("Exchange"),
    gettext_noop("Stopping the bus"),
    gettext_noop("Lives and scoring"),
    gettext_noop("Chips and betting"),
    gettext_noop("Play"),
))

# -- variants --------------------------------------------------------------------------------


def in_use_message(variant: Variant, tables: int | None = None, games: int | None = None):
    """Why ``variant`` cannot be deleted, in words, or None if nothing uses it."""
    tables = variant.tables.count() if tables is None else tables
    if tables:
        return ngettext(
            "“%(name)s” is used by %(count)d table; deactivate it instead.",
            "“%(name)s” is used by %(count)d tables; deactivate it instead.",
            tables) % {"name": variant.name, "count": tables}
    games = variant.games.count() if games is None else games
    if games:
        return ngettext(
            "“%(name)s” is used by %(count)d game; deactivate it instead.",
            "“%(name)s” is used by %(count)d games; deactivate it instead.",
            games) % {"name": variant.name, "count": games}
    return None


def _delete_unused_variants(modeladmin, request, queryset):
    """Django's bulk delete, refused with a clear message if a variant is in use."""
    in_use = (queryset.annotate(n_tables=Count("tables", distinct=True),
                                n_games=Count("games", distinct=True))
              .filter(Q(n_tables__gt=0) | Q(n_games__gt=0)))
    if in_use:
        for variant in in_use:
            modeladmin.message_user(
                request, in_use_message(variant, variant.n_tables, variant.n_games),
                messages.ERROR)
        modeladmin.message_user(request, _("Nothing was deleted."), messages.ERROR)
        return None
    try:
        return delete_selected(modeladmin, request, queryset)
    except (ProtectedError, RestrictedError) as exc:  # a table appeared meanwhile
        modeladmin.message_user(request, _still_used(exc), messages.ERROR)
        return None


def _still_used(exc) -> str:
    count = len(getattr(exc, "protected_objects", None) or getattr(exc, "restricted_objects", ()))
    return ngettext("Not deleted: %(count)d object still uses it; deactivate it instead.",
                    "Not deleted: %(count)d objects still use it; deactivate it instead.",
                    count) % {"count": count}


class VariantForm(forms.ModelForm):
    """The engine's words replace Django's generic range messages on a rule field.

    ``Variant.clean`` attaches the engine's messages to the fields; a field with a
    range validator would also show "Ensure this value is greater than or equal
    to 1." above the engine's clearer sentence. Fields that failed before the
    model was checked (not a number at all) keep their own message.
    """

    class Meta:
        model = Variant
        fields = "__all__"  # noqa: DJ007 -- the admin's fieldsets choose what is shown

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is None:
            # A new variant is of the kind its add page was opened for, with that kind's
            # defaults, so that its rules in words are that kind's before anything is typed.
            try:
                kind = kind_named(self.initial.get("game", DEFAULT_KIND))
            except UnknownKind:
                kind = KINDS[DEFAULT_KIND]
            self.instance.game = kind.slug
            for name, value in kind.variant_defaults.items():
                setattr(self.instance, name, value)

    def clean(self):
        data = super().clean()
        self._slug_follows_the_name(data)
        return data

    def _slug_follows_the_name(self, data) -> None:
        """A renamed variant that nobody has played yet, whose slug was its old name's,
        takes the new name's slug: a copy named "(copy)" and then renamed must not keep
        "...-copy" for ever. A slug an admin typed, or one tables link to, stays."""
        instance, name = self.instance, data.get("name")
        if (instance.pk is None or not name or "name" not in self.changed_data
                or "slug" in self.changed_data
                or data.get("slug") != slugify(self.initial.get("name", ""))[:80]
                or instance.tables.exists() or instance.games.exists()):
            return
        slug = slugify(name)[:80]
        if slug and not Variant.objects.filter(slug=slug).exclude(pk=instance.pk).exists():
            data["slug"] = slug

    def _post_clean(self):
        failed_as_typed = set(self._errors or ())
        super()._post_clean()
        try:
            self.instance.rules  # noqa: B018 -- built to collect the engine's messages
        except RulesError as exc:
            for field, engine_messages in rules_problems(exc).items():
                if field not in self._errors or field in failed_as_typed:
                    continue
                errors = self._errors[field]
                engines = [e for e in errors.as_data() if set(e.messages) & set(engine_messages)]
                if engines:
                    errors.data = engines
        except (TypeError, ValueError, LookupError):
            pass


class SimulateForm(forms.Form):
    """What to run in the lab. ``rules`` are those of the variant being tried."""

    MAX_GAMES = 5000
    MAX_MC_GAMES = 50

    players = forms.IntegerField()  # bounded by the rules, in __init__
    bots = forms.CharField(label=gettext_lazy("Bot line-up"),
                           max_length=200)  # levels of the kind, below
    games = forms.IntegerField(label=pgettext_lazy("lab form", "Games"), min_value=1,
                               max_value=MAX_GAMES, initial=500)
    seed = forms.CharField(
        label=gettext_lazy("Seed"), max_length=40, initial="1",
        help_text=gettext_lazy("The same seed, line-up and number of games give the same "
                               "figures."))

    def __init__(self, *args, rules, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = rules
        players = default_players(rules)
        self.fields["players"] = forms.IntegerField(
            label=pgettext_lazy("lab form", "Players"),
            min_value=rules.min_players, max_value=rules.max_players, initial=players,
            help_text=_("These rules are for %(min)d to %(max)d players.") % {
                "min": rules.min_players, "max": rules.max_players})
        self.fields["bots"].initial = ",".join(
            ["greedy"] * ((players + 1) // 2) + ["random"] * (players // 2))
        levels = kind_for(rules).bot_levels
        # The level codes are typed as they are in every language: shown as code.
        self.fields["bots"].help_text = format_html(
            _("One level for everyone ({one}) or one per seat, separated by commas: "
              "{example}. Levels: {levels}; {slow} is slow."),
            one=format_html("<code>{}</code>", "greedy"),
            example=format_html("<code>{}</code>", self.fields["bots"].initial),
            levels=format_html_join(", ", "<code>{}</code> ({})",
                                    ((level, _(label)) for level, label in levels.items())),
            slow=format_html("<code>{}</code>", "mc"))

    def clean(self):
        data = super().clean()
        if "bots" not in data or "players" not in data:
            return data
        try:
            data["lineup"] = bot_lineup(data["bots"], data["players"], self.rules)
        except LabError as exc:
            self.add_error("bots", str(exc))
            return data
        if "mc" in data["lineup"] and data.get("games", 0) > self.MAX_MC_GAMES:
            self.add_error("games", _(
                "Monte-Carlo bots think hard: a few games a second. Ask for at most "
                "%(most)d games with them here, or run “manage.py simulate” for long "
                "runs.") % {"most": self.MAX_MC_GAMES})
        return data


# The fields every kind's variant has, around its house rules.
HEAD_FIELDS = ("name", "slug", "description", "description_ja", "game_played", "active",
               "rules_in_plain_english")
TABLE_FIELDS = ("min_players", "max_players", "turn_seconds", "pace", "rated", "display_order")


def kind_fieldsets(kind, adding: bool = False) -> tuple:
    head = HEAD_FIELDS if not adding else ("game", *HEAD_FIELDS)
    return ((None, {"fields": head}),
            *((_(title), {"fields": names}) for title, names in kind.rule_sections),
            (pgettext_lazy("variant fields", "Table"), {"fields": TABLE_FIELDS}))


def _value_in_words(variant: Variant, name: str) -> str:
    value = getattr(variant, name)
    if isinstance(value, bool):
        return _("on") if value else _("off")
    display = getattr(variant, f"get_{name}_display", None)
    return str(display() if display else value)


def _glance_label(name: str) -> str:
    """A field's label inside a line of the list ("exchange: Widow")."""
    label = str(Variant._meta.get_field(name).verbose_name)
    return label[:1].lower() + label[1:]


@admin.register(Variant)
class VariantAdmin(admin.ModelAdmin):
    form = VariantForm
    list_display = ("name", "game", "rules_at_a_glance", "players", "turn_time", "rated",
                    "active", "display_order")
    list_display_links = ("name",)
    list_editable = ("display_order",)
    list_filter = ("game", "active", "rated", "exchange", "scoring", "ranking", "betting")
    search_fields = ("name", "slug", "description")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("rules_in_plain_english", "game_played")
    save_on_top = True
    actions = ["duplicate", "simulate"]

    # -- one page per game kind --------------------------------------------------------------

    def kind_of_request(self, request, obj=None):
        """The kind of ``obj``, or the kind a new variant's page is for (``?game=brag``)."""
        if obj is not None:
            return kind_for(obj)
        slug = request.POST.get("game") or request.GET.get("game") or DEFAULT_KIND
        try:
            return kind_named(slug)
        except UnknownKind:
            return KINDS[DEFAULT_KIND]

    def get_fieldsets(self, request, obj=None):
        return kind_fieldsets(self.kind_of_request(request, obj), adding=obj is None)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        if obj is None and "game" in form.base_fields:
            # Chosen by the link that opened the page; the form's fields depend on it.
            form.base_fields["game"].widget = forms.HiddenInput()
        return form

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if not change or not obj.description:
            return
        changed = set(form.changed_data)
        rules = changed - {"name", "slug", "description", "description_ja", "active",
                           "display_order", "game"}
        if rules and "description" not in changed:
            # the rules card lists the rules as they are now, under the old words
            self.message_user(request, _(
                "The rules of “%(name)s” changed but its description did not: check that it "
                "still says what the variant plays.") % {"name": obj.name}, messages.WARNING)
        if "description" in changed and "description_ja" not in changed:
            self.message_user(request, _(
                "Players reading in Japanese see “description in Japanese” where it is "
                "filled in, else the description as written (a preset's own words in their "
                "translation): check it too."), messages.WARNING)

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        kind = self.kind_of_request(request)
        return {**kind.variant_defaults, **initial, "game": kind.slug}

    def changelist_view(self, request, extra_context=None):
        kinds = [(_(kind.label), f"{self._url('add')}?game={kind.slug}")
                 for kind in KINDS.values()]
        return super().changelist_view(request, {**(extra_context or {}), "kinds": kinds})

    @admin.display(description=pgettext_lazy("variant column", "game"))
    def game_played(self, variant):
        kind = kind_for(variant)
        if variant.pk is not None:
            return _(kind.label)
        others = [other for other in KINDS.values() if other is not kind]
        return format_html(
            _("{kind} (add {others} instead)"), kind=_(kind.label),
            others=format_html_join(
                _(" or "), '<a href="{}?game={}">{}</a>',
                ((self._url("add"), o.slug, _("a %(game)s variant") % {"game": _(o.label)})
                 for o in others)))

    @admin.display(description=gettext_lazy("rules at a glance"))
    def rules_at_a_glance(self, variant):
        try:
            kind = kind_for(variant)
        except UnknownKind:
            return "?"
        return " · ".join(f"{_glance_label(name)}: {_value_in_words(variant, name)}"
                          for name in kind.glance_fields)

    @admin.display(description=pgettext_lazy("variant column", "players"),
                   ordering="max_players")
    def players(self, variant):
        return f"{variant.min_players}–{variant.max_players}"

    @admin.display(description=gettext_lazy("turn time"), ordering="turn_seconds")
    def turn_time(self, variant):
        if not variant.turn_seconds:
            return _("no clock")
        return _("%(seconds)d s") % {"seconds": variant.turn_seconds}

    @admin.display(description=gettext_lazy("Rules in plain English"))
    def rules_in_plain_english(self, variant):
        # On an add page or a form that did not validate, ``variant`` holds what was typed.
        try:
            sentences = rules_summary(variant.rules)
        except RulesError as exc:
            return format_html(
                "<p>{}</p><ul>{}</ul>", _("These rules cannot be played yet:"),
                format_html_join("", "<li>{}</li>",
                                 ((msg,) for msgs in rules_problems(exc).values()
                                  for msg in msgs)))
        except (TypeError, ValueError, LookupError):
            return _("Fill in the rules to see them in words.")
        return format_html("<ul>{}</ul>",
                           format_html_join("", "<li>{}</li>", ((s,) for s in sentences)))

    # -- duplicate ---------------------------------------------------------------------------

    @admin.action(permissions=["add"], description=gettext_lazy("Duplicate the selected variants"))
    def duplicate(self, request, queryset):
        made = []
        for variant in queryset.order_by("display_order", "name"):
            copy = Variant.objects.get(pk=variant.pk)
            copy.pk = copy.id = None
            copy._state.adding = True
            copy.name, copy.slug = self._copy_name_and_slug(variant)
            # Players would read the original's words as this variant's: say what it is
            # until an admin says what makes it different.
            copy.description = _("A copy of “%(name)s” with the same rules: describe what "
                                 "makes it different before offering it to players.") % {
                "name": variant.name}
            copy.description_ja = ""
            copy.active = False
            copy.save()
            self.log_addition(request, copy, [{"added": {}}])
            made.append(copy.name)
        self.message_user(
            request,
            ngettext("Made %(count)d copy: %(names)s. It is inactive: edit it, then tick "
                     "“Active” to offer it to players.",
                     "Made %(count)d copies: %(names)s. They are inactive: edit them, then "
                     "tick “Active” to offer them to players.",
                     len(made)) % {"count": len(made), "names": ", ".join(made)},
            messages.SUCCESS)

    @staticmethod
    def _copy_name_and_slug(variant: Variant) -> tuple[str, str]:
        name_length = Variant._meta.get_field("name").max_length
        slug_length = Variant._meta.get_field("slug").max_length
        for n in range(1, 1000):
            suffix = " (copy)" if n == 1 else f" (copy {n})"
            name = variant.name[: name_length - len(suffix)] + suffix
            slug = slugify(name)[:slug_length]
            if not Variant.objects.filter(Q(name=name) | Q(slug=slug)).exists():
                return name, slug
        raise RuntimeError(f"no free name for a copy of {variant.name}")

    # -- simulate ----------------------------------------------------------------------------

    @admin.action(permissions=["change"], description=gettext_lazy("Simulate the selected variant"))
    def simulate(self, request, queryset):
        variants = list(queryset[:2])
        if len(variants) != 1:
            self.message_user(request, _("Choose exactly one variant to simulate."),
                              messages.WARNING)
            return None
        return HttpResponseRedirect(self._url("simulate", variants[0].pk))

    def _url(self, view: str, *args) -> str:
        opts = self.model._meta
        return reverse(f"admin:{opts.app_label}_{opts.model_name}_{view}",
                       args=[quote(a) for a in args], current_app=self.admin_site.name)

    def get_urls(self):
        opts = self.model._meta
        own = [
            path("<path:object_id>/simulate/", self.admin_site.admin_view(self.simulate_view),
                 name=f"{opts.app_label}_{opts.model_name}_simulate"),
        ]
        return own + super().get_urls()  # before the admin's catch-all "<object_id>/"

    def simulate_view(self, request, object_id):
        variant = self.get_object(request, unquote(object_id))
        if variant is None:
            return self._get_obj_does_not_exist_redirect(request, self.model._meta, object_id)
        if not self.has_change_permission(request, variant):
            raise PermissionDenied
        result = problem = None
        try:
            rules = variant.rules
        except RulesError as exc:
            rules = None
            problem = _("These rules cannot be played: %(problem)s") % {
                "problem": rules_problems_text(exc)}
        form = None
        if rules is not None:
            form = SimulateForm(request.POST if request.method == "POST" else None,
                                rules=rules)
            if request.method == "POST" and form.is_valid():
                data = form.cleaned_data
                try:
                    result = run_lab(rules, data["players"], data["lineup"], data["games"],
                                     seed=data["seed"], time_budget=DEFAULT_TIME_BUDGET)
                except EngineMissing as exc:
                    problem = _("The bots cannot play %(name)s here: %(problem)s") % {
                        "name": variant_name(variant), "problem": exc}
        context = {
            **self.admin_site.each_context(request),
            "title": _("Simulate %(name)s") % {"name": variant_name(variant)},
            "variant_name": variant_name(variant),  # a preset's in the reader's language
            "opts": self.model._meta,
            "original": variant,
            "form": form,
            "rules": rules,  # in force, said in words (a Brag house rule such as "no ante")
            "problem": problem,
            "result": result,
            "time_budget": DEFAULT_TIME_BUDGET,
            "max_mc_games": SimulateForm.MAX_MC_GAMES,
            "has_view_permission": self.has_view_permission(request, variant),
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(request, "admin/games/variant/simulate.html", context)

    # -- deleting only what nothing uses -----------------------------------------------------

    def get_actions(self, request):
        actions = super().get_actions(request)
        if "delete_selected" in actions:  # present only for users who may delete
            _, name, description = actions["delete_selected"]
            actions["delete_selected"] = (_delete_unused_variants, name, description)
        return actions

    def delete_view(self, request, object_id, extra_context=None):
        variant = self.get_object(request, unquote(object_id))
        if variant is not None and self.has_delete_permission(request, variant):
            reason = in_use_message(variant)
            if reason:
                self.message_user(request, reason, messages.ERROR)
                return HttpResponseRedirect(self._url("change", variant.pk))
        try:
            return super().delete_view(request, object_id, extra_context)
        except (ProtectedError, RestrictedError) as exc:  # a table appeared meanwhile
            self.message_user(request, _still_used(exc), messages.ERROR)
            return HttpResponseRedirect(self._url("change", variant.pk))


# -- the room, read-mostly -------------------------------------------------------------------


class ReadOnlyAdmin(admin.ModelAdmin):
    """A model only ``games.actions`` writes: admins read it, never add, change or delete."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = readonly_fields = ("position", "user", "bot_level", "away", "timeouts", "joined_at")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("name", "variant", "host", "status", "seats", "private", "created_at")
    list_filter = ("status", "private", "variant")
    list_select_related = ("variant", "host")
    search_fields = ("name", "host__username", "invite_code")
    date_hierarchy = "created_at"
    fields = ("name", "variant", "host", "status", "seats", "turn_seconds", "private",
              "allow_spectators", "spectator_chat", "invite_code", "created_at", "updated_at",
              "humans_last_seen")
    # Who plays and how the game stands belong to games.actions; admins may only
    # change how the table is shown.
    readonly_fields = ("variant", "host", "status", "seats", "turn_seconds", "invite_code",
                       "created_at", "updated_at", "humans_last_seen")
    inlines = [SeatInline]

    def has_add_permission(self, request):
        return False  # a table is opened from the lobby, which seats its host


class GamePlayerInline(ReadOnlyInline):
    model = GamePlayer
    fields = readonly_fields = ("seat", "player_name", "user", "bot_level", "place",
                                "left_early")

    @admin.display(description=gettext_lazy("name"))
    def player_name(self, player):
        """The name the game recorded, as the reader reads it (a bot's in their language)."""
        return player.shown_name


class ActionInline(ReadOnlyInline):
    model = Action  # named by the model: "logged action", "action log"
    fields = readonly_fields = ("seq", "seat", "by", "payload", "created_at")


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):  # the log is the truth: replays, stats and audits come from it
    list_display = ("table", "number", "variant", "status", "version", "started_at",
                    "finished_at")
    list_filter = ("status", "rated", "variant")
    list_select_related = ("table", "variant")
    search_fields = ("table__name",)
    date_hierarchy = "started_at"
    fields = readonly_fields = (
        "table", "number", "variant", "status", "rated", "version", "rules_in_force",
        "started_at", "finished_at", "seed_if_over", "state_if_over")
    inlines = [GamePlayerInline, ActionInline]

    @admin.display(description=gettext_lazy("rules"))
    def rules_in_force(self, game):
        try:
            sentences = rules_summary(kind_for(game).rules_from(game.rules))
        except (RulesError, TypeError, LookupError):
            return str(game.rules)
        return format_html("<ul>{}</ul>",
                           format_html_join("", "<li>{}</li>", ((s,) for s in sentences)))

    # The seed and the snapshot show every hand: keep them for games that are over,
    # so an admin who also plays cannot see a running game's cards here.
    @admin.display(description=gettext_lazy("seed"))
    def seed_if_over(self, game):
        if game.status == Game.Status.PLAYING:
            return _("Hidden until the game ends.")
        return game.seed

    @admin.display(description=gettext_lazy("state"))
    def state_if_over(self, game):
        if game.status == Game.Status.PLAYING:
            return _("Hidden until the game ends.")
        return format_html("<pre>{}</pre>", json.dumps(game.state, indent=1))


class DoneFilter(admin.SimpleListFilter):
    title = pgettext_lazy("job", "done")
    parameter_name = "done"

    def lookups(self, request, model_admin):
        return (("yes", pgettext_lazy("job", "Done")), ("no", pgettext_lazy("job", "Pending")))

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(done_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(done_at__isnull=True)
        return queryset


# What a job did, as games.actions records it (clock.do_run_job, the abandoned-table check
# and the jobs a newer one replaced), said in the reader's language by job_outcome.
JOB_RESULTS = {
    "stale": pgettext_lazy("job result", "stale"),
    "dealt": pgettext_lazy("job result", "dealt"),
    "superseded": pgettext_lazy("job result", "superseded"),
    "error": pgettext_lazy("job result", "error"),
    "nothing to do": pgettext_lazy("job result", "nothing to do"),
    "people are here": pgettext_lazy("job result", "people are here"),
    "not idle long enough": pgettext_lazy("job result", "not idle long enough"),
    "closed an unstarted table": pgettext_lazy("job result", "closed an unstarted table"),
    "no game running": pgettext_lazy("job result", "no game running"),
    "bots play out the game": pgettext_lazy("job result", "bots play out the game"),
}
BOT_PLAYED = re.compile(r"bot played (?P<event>\w+)")
TIMED_OUT = re.compile(r"timed out; played (?P<count>\d+) moves?(?P<away>; seat marked away)?")
REFUSED = re.compile(r"refused: (?P<reason>.*)", re.DOTALL)


def job_outcome(result: str):
    """A job's recorded result in the reader's language (English: as recorded). Event
    codes stay codes; a text of another form is shown as it is."""
    if not result:
        return None  # not run yet: the admin's empty mark
    if result in JOB_RESULTS:
        return JOB_RESULTS[result]
    if match := BOT_PLAYED.fullmatch(result):
        return format_html(pgettext("job result", "bot played {event}"),
                           event=format_html("<code>{}</code>", match["event"]))
    if result == "bot played a move":
        return pgettext("job result", "bot played a move")
    if match := TIMED_OUT.fullmatch(result):
        count = int(match["count"])
        if match["away"]:
            return npgettext("job result", "timed out; played %(count)d move; seat marked away",
                             "timed out; played %(count)d moves; seat marked away",
                             count) % {"count": count}
        return npgettext("job result", "timed out; played %(count)d move",
                         "timed out; played %(count)d moves", count) % {"count": count}
    if match := REFUSED.fullmatch(result):
        return pgettext("job result", "refused: %(reason)s") % {"reason": match["reason"]}
    return result


@admin.register(Invitation)
class InvitationAdmin(ReadOnlyAdmin):
    """Who was invited to which table by name (``games.actions.do_invite``): to read; an
    invitation is made by a table's host and lets the player open a private table."""

    list_display = ("table", "user", "invited_by", "created_at")
    list_select_related = ("table", "user", "invited_by")
    search_fields = ("table__name", "user__username", "invited_by__username")
    date_hierarchy = "created_at"
    fields = readonly_fields = ("table", "user", "invited_by", "created_at")


@admin.register(Job)
class JobAdmin(ReadOnlyAdmin):
    list_display = ("kind", "table", "game", "version", "seat", "due_at", "claimed_by",
                    "done_at", "outcome")
    list_filter = ("kind", DoneFilter)
    list_select_related = ("table", "game", "game__table")
    search_fields = ("table__name", "claimed_by", "result")
    date_hierarchy = "due_at"
    fields = readonly_fields = ("kind", "table", "game", "version", "seat", "due_at",
                                "claimed_at", "claimed_by", "done_at", "outcome")

    @admin.display(description=Job._meta.get_field("result").verbose_name, ordering="result")
    def outcome(self, job):
        return job_outcome(job.result)
