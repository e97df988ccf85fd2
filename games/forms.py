from django import forms

from accounts.names import has_bidi_control

from .engine import RulesError
from .kinds import KINDS, EngineMissing
from .models import Variant

# The fewest and most players any game kind takes; the variant's own limits are
# checked in clean(), where the error can name them.
FEWEST_SEATS = min(kind.player_range[0] for kind in KINDS.values())
MOST_SEATS = max(kind.player_range[1] for kind in KINDS.values())


class TableForm(forms.Form):
    name = forms.CharField(max_length=60, required=False,
                           widget=forms.TextInput(attrs={"placeholder": "Friday night bus"}))
    variant = forms.ModelChoiceField(queryset=Variant.objects.active(), empty_label=None,
                                     help_text="The house rules this table plays.")
    seats = forms.IntegerField(min_value=FEWEST_SEATS, max_value=MOST_SEATS, initial=4,
                               help_text="How many people (and bots) can sit down.")
    private = forms.BooleanField(required=False,
                                 help_text="Hidden from the lobby; share the invite link.")
    allow_spectators = forms.BooleanField(required=False, initial=True,
                                          help_text="Let others watch (they see only face-up "
                                                    "cards).")
    spectator_chat = forms.BooleanField(required=False, initial=True,
                                        label="Spectators may chat")

    def clean_name(self):
        name = self.cleaned_data["name"]
        if has_bidi_control(name):
            # an override would show the name (and whatever follows it) reversed
            raise forms.ValidationError("Table names may not contain characters that change "
                                        "the direction of text.", code="bidi")
        return name

    def clean(self):
        data = super().clean()
        variant, seats = data.get("variant"), data.get("seats")
        if not variant:
            return data
        try:
            rules = variant.rules
        except RulesError as exc:  # stored before today's checks; an admin must fix it
            self.add_error("variant", f"{variant.name} cannot be played until its rules are "
                                      f"fixed: {exc}")
            return data
        if seats is not None and not rules.min_players <= seats <= rules.max_players:
            self.add_error("seats", f"{variant.name} is for {rules.min_players} to "
                                    f"{rules.max_players} players, not {seats}.")
        try:
            variant.kind.entry("new_game")
        except EngineMissing as exc:  # a game kind whose engine is not in this install
            self.add_error("variant", f"{variant.name} cannot be played here yet: {exc}")
        return data


class BotForm(forms.Form):
    level = forms.ChoiceField(choices=[])

    def __init__(self, *args, **kwargs):
        from .engine import BOT_LEVELS

        super().__init__(*args, **kwargs)
        self.fields["level"].choices = list(BOT_LEVELS.items())


