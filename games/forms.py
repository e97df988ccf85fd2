from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Variant
from .rules_text import variant_name


class TableForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60, required=False,
                           widget=forms.TextInput(attrs={"placeholder": _("Friday night bus")}))
    variant = forms.ModelChoiceField(label=_("Variant"), queryset=Variant.objects.active(),
                                     empty_label=None,
                                     help_text=_("The house rules this table plays."))
    seats = forms.IntegerField(label=_("Seats"), min_value=2, max_value=16, initial=4,
                               help_text=_("How many people (and bots) can sit down."))
    private = forms.BooleanField(label=_("Private"), required=False,
                                 help_text=_("Hidden from the lobby; share the invite link."))
    allow_spectators = forms.BooleanField(label=_("Allow spectators"), required=False,
                                          initial=True,
                                          help_text=_("Let others watch (they see only face-up "
                                                      "cards)."))
    spectator_chat = forms.BooleanField(required=False, initial=True,
                                        label=_("Spectators may chat"))

    def clean(self):
        data = super().clean()
        variant, seats = data.get("variant"), data.get("seats")
        if variant and seats:
            rules = variant.rules
            if not rules.min_players <= seats <= rules.max_players:
                self.add_error("seats", _("%(variant)s is for %(min)d to %(max)d players.") % {
                    "variant": variant_name(variant), "min": rules.min_players,
                    "max": rules.max_players})
        return data


class BotForm(forms.Form):
    level = forms.ChoiceField(label=_("Level"), choices=[])

    def __init__(self, *args, **kwargs):
        from .engine import BOT_LEVELS

        super().__init__(*args, **kwargs)
        self.fields["level"].choices = [(key, _(label)) for key, label in BOT_LEVELS.items()]
