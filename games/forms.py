from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.names import has_bidi_control, unreadable

from .engine import RulesError
from .kinds import KINDS, EngineMissing
from .models import Variant
from .pace import PACE_CHOICES
from .refusals import rules_problems_text
from .rules_text import variant_name

# The fewest and most players any game kind takes; the variant's own limits are
# checked in clean(), where the error can name them.
FEWEST_SEATS = min(kind.player_range[0] for kind in KINDS.values())
MOST_SEATS = max(kind.player_range[1] for kind in KINDS.values())


class TableForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60, required=False,
                           widget=forms.TextInput(attrs={"placeholder": _("Friday night bus")}))
    variant = forms.ModelChoiceField(label=_("Variant"), queryset=Variant.objects.active(),
                                     empty_label=None,
                                     help_text=_("The house rules this table plays."))
    seats = forms.IntegerField(label=_("Seats"), min_value=FEWEST_SEATS, max_value=MOST_SEATS,
                               initial=4, help_text=_("How many people (and bots) can sit down."))
    private = forms.BooleanField(label=_("Private"), required=False,
                                 help_text=_("Hidden from the lobby; share the invite link."))
    allow_spectators = forms.BooleanField(label=_("Allow spectators"), required=False,
                                          initial=True,
                                          help_text=_("Let others watch (they see only face-up "
                                                      "cards)."))
    spectator_chat = forms.BooleanField(required=False, initial=True,
                                        label=_("Spectators may chat"))
    pace = forms.ChoiceField(
        label=_("Pace"), required=False,
        choices=[("", _("The variant's pace")), *PACE_CHOICES],
        help_text=_("Live: everyone plays now. Post: each move has hours or days; come back "
                    "when it is your turn."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # the choices read as the variants' names in the reader's language
        self.fields["variant"].label_from_instance = variant_name

    def clean_name(self):
        name = self.cleaned_data["name"]
        if has_bidi_control(name):
            # an override would show the name (and whatever follows it) reversed
            raise forms.ValidationError(_("Table names may not contain characters that change "
                                          "the direction of text."), code="bidi")
        if unreadable(name):
            # a terminal escape, a line break, a zero-width space, or a name that looks blank
            raise forms.ValidationError(_("Table names may not contain control characters or "
                                          "invisible ones, or only characters that look "
                                          "blank."), code="unreadable")
        return name

    def clean(self):
        data = super().clean()
        variant, seats = data.get("variant"), data.get("seats")
        if not variant:
            return data
        try:
            rules = variant.rules
        except RulesError as exc:  # stored before today's checks; an admin must fix it
            self.add_error("variant", _("%(variant)s cannot be played until its rules are "
                                        "fixed: %(problem)s") % {
                "variant": variant_name(variant), "problem": rules_problems_text(exc)})
            return data
        if seats is not None and not rules.min_players <= seats <= rules.max_players:
            self.add_error("seats", _("%(variant)s is for %(min)d to %(max)d players, not "
                                      "%(seats)d.") % {
                "variant": variant_name(variant), "min": rules.min_players,
                "max": rules.max_players, "seats": seats})
        try:
            variant.kind.entry("new_game")
        except EngineMissing as exc:  # a game kind whose engine is not in this install
            self.add_error("variant", _("%(variant)s cannot be played here yet: %(problem)s")
                           % {"variant": variant_name(variant), "problem": exc})
        return data


class BotForm(forms.Form):
    level = forms.ChoiceField(label=_("Level"), choices=[])

    def __init__(self, *args, **kwargs):
        from .engine import BOT_LEVELS

        super().__init__(*args, **kwargs)
        self.fields["level"].choices = [(key, _(label)) for key, label in BOT_LEVELS.items()]
