"""Issue 4: admins shape house-rule variants; the engine says what is impossible.

Issue 14: a variant plays one game kind, and its page is that kind's (Brag variants
show Brag rules); issue 16.13: player limits; issue 15: Duplicate's copy gets its
own description and, once renamed, its own slug.
"""

import pytest
from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.contrib.auth.models import Permission
from django.core.exceptions import ValidationError
from django.forms.models import model_to_dict
from django.urls import reverse
from django.utils.html import escape

from games import actions
from games.admin import kind_fieldsets
from games.engine import PRESETS, RulesError
from games.engine.brag import BRAG_PRESETS, BragRules
from games.kinds import KINDS
from games.models import Game, Job, Table, Variant
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"admin:games_variant_{name}", args=args)


@pytest.fixture
def classic():
    return Variant.objects.get(slug="classic")


@pytest.fixture
def brag():
    return Variant.objects.get(slug="three-card-brag")


@pytest.fixture
def spare():
    """A variant no table uses."""
    return Variant.objects.create(name="Spare wheel", slug="spare-wheel", active=False)


def form_data(variant, **changes):
    """What the change form posts for ``variant``, with ``changes`` typed in."""
    values = {**model_to_dict(variant), **changes}
    data = {"_save": "Save"}
    for name, value in values.items():
        if name == "id":
            continue
        if value is True:
            data[name] = "on"
        elif value is False:
            continue  # an unticked checkbox posts nothing
        else:
            data[name] = "" if value is None else str(value)
    return data


def field_row(html: str, field: str) -> str:
    """The HTML of the admin form row that holds ``field``."""
    start = html.index(f"field-{field}")
    end = html.find('class="form-row', start)
    return html[html.rfind("<div", 0, start):end if end != -1 else None]


# -- pages -----------------------------------------------------------------------------------


def test_changelist_shows_the_key_rules_as_columns(admin_client):
    response = admin_client.get(url("changelist"))
    assert response.status_code == 200
    page = response.content.decode()
    for name in ("Stop the Bus (classic)", "Commerce", "Race to Five", "Three Card Brag",
                 "Pot-limit Brag"):
        assert escape(name) in page
    for column in ("column-game", "column-rules_at_a_glance", "column-players",
                   "column-turn_time", "column-rated", "column-active",
                   "column-display_order"):
        assert column in page
    assert 'name="form-0-display_order"' in page  # the order is edited in the list
    assert "3–10" in page and "60 s" in page and "2–8" in page
    # Each row speaks of its own game's rules.
    assert "exchange: Widow" in page and "betting: Pot limit" in page
    assert "starting chips: 100" in page and "blind play: on" in page
    # One add button per game kind.
    assert f'{url("add")}?game=brag' in page and f'{url("add")}?game=stop_the_bus' in page


def test_changelist_filters_and_search(admin_client):
    response = admin_client.get(url("changelist"), {"exchange__exact": "stock"})
    names = [v.name for v in response.context["cl"].result_list]
    assert names == ["Stop the Bus (draw & discard)", "Thirty-One Blitz"]
    response = admin_client.get(url("changelist"), {"q": "pot"})
    assert [v.slug for v in response.context["cl"].result_list] == ["commerce",
                                                                     "pot-limit-brag"]
    response = admin_client.get(url("changelist"), {"game__exact": "brag"})
    assert [v.slug for v in response.context["cl"].result_list] == list(BRAG_PRESETS)


def headings(page: str) -> list[str]:
    return [part.split("</h2>")[0] for part in page.split('class="fieldset-heading">')[1:]]


def test_change_form_groups_the_rules_and_says_them_in_plain_english(admin_client, classic):
    response = admin_client.get(url("change", classic.pk))
    assert response.status_code == 200
    page = response.content.decode()
    assert headings(page) == ["Ranking", "Exchange", "Stopping the bus", "Lives and scoring",
                              "Table"]
    assert "Rules in plain English" in page
    for sentence in classic.rules.summary():
        assert escape(sentence) in page
    assert url("simulate", classic.pk) in page
    assert 'name="betting"' not in page and 'name="ante"' not in page


def test_a_brag_variant_shows_brag_rules_only(admin_client, brag):
    response = admin_client.get(url("change", brag.pk))
    assert response.status_code == 200
    page = response.content.decode()
    assert headings(page) == ["Chips and betting", "Play", "Ranking", "Table"]
    for field in ("starting_chips", "ante", "betting", "min_bet", "max_bet", "max_raise",
                  "blind_play", "shuffle", "max_hands", "threes_high", "ace_low_run",
                  "min_players", "max_players"):
        assert f'name="{field}"' in page
    for field in ("exchange", "swap_limit", "scoring", "starting_lives", "tie_rule"):
        assert f'name="{field}"' not in page
    assert 'name="game"' not in page  # fixed once the variant exists
    assert "Three Card Brag" in page
    for sentence in BragRules().summary():
        assert escape(sentence) in page


@pytest.mark.parametrize("kind", list(KINDS.values()), ids=list(KINDS))
def test_every_field_an_admin_can_set_is_on_the_form_of_its_kind(kind):
    shown = {f for _, options in kind_fieldsets(kind) for f in options["fields"]}
    assert set(kind.rule_names) <= shown
    assert {"name", "slug", "description", "active", "min_players", "max_players",
            "turn_seconds", "rated", "display_order"} <= shown
    added = {f for _, options in kind_fieldsets(kind, adding=True) for f in options["fields"]}
    assert added == shown | {"game"}


def test_every_editable_field_belongs_to_some_kinds_form():
    shown = {f for kind in KINDS.values() for _, options in kind_fieldsets(kind, adding=True)
             for f in options["fields"]}
    editable = {f.name for f in Variant._meta.fields
                if f.editable and not f.primary_key and f.name not in ("created_at",
                                                                      "updated_at")}
    assert editable <= shown


def test_add_form_renders_with_the_default_rules_in_words(admin_client):
    response = admin_client.get(url("add"))
    assert response.status_code == 200
    assert escape("3-3-3 is the best prial") in response.content.decode()


def test_the_brag_add_page_starts_from_brags_defaults(admin_client):
    response = admin_client.get(url("add"), {"game": "brag"})
    assert response.status_code == 200
    page = response.content.decode()
    assert '<input type="hidden" name="game" value="brag"' in page
    assert headings(page) == ["Chips and betting", "Play", "Ranking", "Table"]
    form = response.context["adminform"].form
    assert form.initial["starting_chips"] == 100 and form.initial["max_players"] == 8
    for sentence in BragRules().summary():  # 100 chips each, before anything is typed
        assert escape(sentence) in page
    assert f'{url("add")}?game=stop_the_bus' in page  # the way to the other game's page


def test_an_unknown_game_on_the_add_page_means_stop_the_bus(admin_client):
    response = admin_client.get(url("add"), {"game": "snap"})
    assert response.status_code == 200
    assert '<input type="hidden" name="game" value="stop_the_bus"' in response.content.decode()


def test_adding_a_brag_variant(admin_client, brag):
    data = form_data(brag, name="High rollers", slug="high-rollers", starting_chips=500,
                     betting="pot_limit", max_hands=0)
    response = admin_client.post(url("add"), data)
    assert response.status_code == 302
    made = Variant.objects.get(slug="high-rollers")
    assert made.game == "brag"
    assert made.rules == BragRules(starting_chips=500, betting="pot_limit", max_hands=0)
    assert LogEntry.objects.filter(object_id=str(made.pk), action_flag=ADDITION).exists()


@pytest.mark.parametrize(("changes", "field"), [
    ({"max_players": 9}, "max_players"),
    ({"min_players": 1}, "min_players"),
    ({"min_players": 6, "max_players": 4}, "max_players"),
])
def test_impossible_brag_rules_are_refused_at_the_field(admin_client, brag, changes, field):
    with pytest.raises(RulesError) as engine:
        BragRules(**{**brag.rule_values(), **changes})
    [message] = engine.value.errors[field]
    before = brag.rule_values()
    response = admin_client.post(url("change", brag.pk), form_data(brag, **changes))
    assert response.status_code == 200
    assert message in response.context["adminform"].form.errors[field]
    row = field_row(response.content.decode(), field)
    assert "errors" in row and escape(message) in row
    assert "Ensure this value" not in row
    brag.refresh_from_db()
    assert brag.rule_values() == before


def test_commerce_takes_three_to_ten(admin_client):
    commerce = Variant.objects.get(slug="commerce")
    response = admin_client.post(url("change", commerce.pk),
                                 form_data(commerce, min_players=2, max_players=12))
    errors = response.context["adminform"].form.errors
    assert errors["min_players"] == ["Commerce is for 3 to 10 players: the fewest cannot be 2."]
    assert errors["max_players"] == ["Commerce is for 3 to 10 players: the most cannot be 12."]
    commerce.refresh_from_db()
    assert (commerce.min_players, commerce.max_players) == (3, 10)


def test_the_game_of_a_variant_cannot_be_changed_on_its_page(admin_client, classic):
    response = admin_client.post(url("change", classic.pk), form_data(classic, game="brag"))
    assert response.status_code == 302
    classic.refresh_from_db()
    assert classic.game == "stop_the_bus"


def test_a_used_variant_cannot_change_its_game(classic):
    Table.objects.create(name="Friday", variant=classic, host=UserFactory(), seats=4)
    classic.game = "brag"
    with pytest.raises(ValidationError) as refused:
        classic.full_clean()
    assert "cannot change" in refused.value.message_dict["game"][0]


def test_saving_valid_rules_changes_the_variant_and_lands_in_the_history(admin_client,
                                                                         classic):
    response = admin_client.post(url("change", classic.pk),
                                 form_data(classic, starting_lives=4, turn_seconds=""))
    assert response.status_code == 302
    classic.refresh_from_db()
    assert classic.starting_lives == 4
    assert classic.turn_seconds is None
    entry = LogEntry.objects.get(object_id=str(classic.pk), action_flag=CHANGE)
    assert "Starting lives" in entry.get_change_message()


def test_adding_a_variant_works_and_is_logged(admin_client, classic):
    data = form_data(classic, name="Long Bus", slug="long-bus", starting_lives=6)
    response = admin_client.post(url("add"), data)
    assert response.status_code == 302
    made = Variant.objects.get(slug="long-bus")
    assert made.rules.starting_lives == 6
    assert LogEntry.objects.filter(object_id=str(made.pk), action_flag=ADDITION).exists()


@pytest.mark.parametrize(("changes", "field", "message"), [
    ({"blitz": True}, "blitz", "Blitz needs thirty-one hands: turn on 'thirty_one' first."),
    ({"max_players": 10}, "max_players",
     "Stop the Bus is for 2 to 9 players: the most cannot be 10."),
    ({"scoring": "points", "target_points": 0}, "target_points",
     "A target of 0 points would end the game before it starts: it must be at least 1."),
    ({"exchange": "stock", "swap_limit": 3}, "swap_limit",
     "Swapping several cards needs the widow exchange."),
])
def test_impossible_rules_are_refused_with_the_engines_words_at_the_field(
        admin_client, classic, changes, field, message):
    before = classic.rule_values()
    response = admin_client.post(url("change", classic.pk), form_data(classic, **changes))

    assert response.status_code == 200
    form = response.context["adminform"].form
    assert message in form.errors[field]
    row = field_row(response.content.decode(), field)
    assert "errors" in row and escape(message) in row
    assert "Ensure this value" not in row  # the engine's words, not Django's generic ones
    classic.refresh_from_db()
    assert classic.rule_values() == before
    assert not LogEntry.objects.exists()


def test_a_value_that_is_not_a_number_keeps_djangos_message(admin_client, classic):
    response = admin_client.post(url("change", classic.pk),
                                 form_data(classic, starting_lives="lots"))
    assert response.context["adminform"].form.errors["starting_lives"] == [
        "Enter a whole number."]


def test_the_plain_english_field_copes_with_rules_that_do_not_validate(admin_client, classic):
    response = admin_client.post(url("change", classic.pk), form_data(classic, blitz=True))
    page = response.content.decode()
    assert "These rules cannot be played yet" in page


# -- duplicate -------------------------------------------------------------------------------


def test_duplicate_makes_inactive_copies_with_the_same_rules(admin_client, classic):
    commerce = Variant.objects.get(slug="commerce")
    response = admin_client.post(url("changelist"), {
        "action": "duplicate", "_selected_action": [classic.pk, commerce.pk]}, follow=True)

    assert response.status_code == 200
    copy = Variant.objects.get(name="Stop the Bus (classic) (copy)")
    assert copy.slug == "stop-the-bus-classic-copy"
    assert copy.rules == classic.rules
    assert not copy.active
    assert copy.description != classic.description
    assert copy.description.startswith("A copy of “Stop the Bus (classic)”")
    commerce_copy = Variant.objects.get(name="Commerce (copy)")
    assert commerce_copy.rules == PRESETS["commerce"].rules
    page = response.content.decode()
    assert "Made 2 copies" in page and "inactive" in page
    logged = LogEntry.objects.filter(action_flag=ADDITION).values_list("object_id", flat=True)
    assert set(logged) == {str(copy.pk), str(commerce_copy.pk)}


def test_duplicating_again_finds_a_free_name(admin_client, classic):
    for _ in range(2):
        admin_client.post(url("changelist"), {"action": "duplicate",
                                              "_selected_action": [classic.pk]})
    assert Variant.objects.filter(name="Stop the Bus (classic) (copy 2)",
                                  slug="stop-the-bus-classic-copy-2").exists()


def test_a_copy_of_a_brag_variant_is_a_brag_variant(admin_client, brag):
    admin_client.post(url("changelist"), {"action": "duplicate",
                                          "_selected_action": [brag.pk]})
    copy = Variant.objects.get(name="Three Card Brag (copy)")
    assert copy.game == "brag" and copy.rules == BRAG_PRESETS["three-card-brag"].rules


def copy_of(admin_client, variant) -> Variant:
    admin_client.post(url("changelist"), {"action": "duplicate",
                                          "_selected_action": [variant.pk]})
    return Variant.objects.get(name=f"{variant.name} (copy)")


def test_renaming_a_copy_gives_it_the_new_names_slug(admin_client, classic):
    copy = copy_of(admin_client, classic)
    response = admin_client.post(url("change", copy.pk),
                                 form_data(copy, name="Sudden death", starting_lives=1))
    assert response.status_code == 302
    copy.refresh_from_db()
    assert (copy.name, copy.slug) == ("Sudden death", "sudden-death")


def test_a_slug_the_admin_typed_or_tables_use_stays(admin_client, classic):
    copy = copy_of(admin_client, classic)
    admin_client.post(url("change", copy.pk),
                      form_data(copy, name="Sudden death", slug="my-own-slug"))
    copy.refresh_from_db()
    assert copy.slug == "my-own-slug"

    Table.objects.create(name="Friday", variant=classic, host=UserFactory(), seats=4)
    admin_client.post(url("change", classic.pk), form_data(classic, name="The classic"))
    classic.refresh_from_db()
    assert (classic.name, classic.slug) == ("The classic", "classic")


def test_a_renamed_copy_keeps_its_slug_when_the_new_one_is_taken(admin_client, classic):
    copy = copy_of(admin_client, classic)
    Variant.objects.create(name="Someone else's", slug="sudden-death")
    response = admin_client.post(url("change", copy.pk), form_data(copy, name="Sudden death"))
    assert response.status_code == 302
    copy.refresh_from_db()
    assert (copy.name, copy.slug) == ("Sudden death", "stop-the-bus-classic-copy")


# -- simulate --------------------------------------------------------------------------------


def test_simulate_page_shows_a_form_inside_the_admin(admin_client, classic):
    response = admin_client.get(url("simulate", classic.pk))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'class="breadcrumbs"' in page and url("change", classic.pk) in page
    assert 'name="bots"' in page and 'name="games"' in page and 'value="500"' in page
    assert 'value="greedy,greedy,random,random"' in page


def test_simulate_runs_the_bots_and_shows_the_figures(admin_client, classic):
    response = admin_client.post(url("simulate", classic.pk), {
        "players": 3, "bots": "greedy,random,greedy", "games": 40, "seed": "7"})
    assert response.status_code == 200
    result = response.context["result"]
    assert result.games_played == 40 and not result.stopped_early
    page = response.content.decode()
    for words in ("40 games of 3 players", "Win rate", "Average place", "Hands per game",
                  "Turns per hand", "The stopper lost", "Blitzes", "Hands at showdowns",
                  "Games per second", "greedy #1", "greedy #2"):
        assert words in page
    assert result.report.bots[1].level == "random"
    assert result.report.bots[1].games == 40


def test_simulate_stops_at_the_time_budget_and_says_so(admin_client, monkeypatch):
    monkeypatch.setattr("games.admin.DEFAULT_TIME_BUDGET", 0.01)
    commerce = Variant.objects.get(slug="commerce")
    response = admin_client.post(url("simulate", commerce.pk), {
        "players": 3, "bots": "greedy", "games": 5000, "seed": "1"})
    result = response.context["result"]
    assert result.stopped_early and 1 <= result.games_played < 5000
    assert "Stopped at the time budget" in response.content.decode()


@pytest.mark.parametrize(("data", "field", "words"), [
    ({"players": 3, "bots": "greedy,greedy", "games": 10}, "bots", "2 bot levels for 3"),
    ({"players": 3, "bots": "greedy,genius,random", "games": 10}, "bots", "genius"),
    ({"players": 12, "bots": "greedy", "games": 10}, "players", "less than or equal to 6"),
    ({"players": 2, "bots": "mc,greedy", "games": 500}, "games", "at most 50 games"),
])
def test_simulate_explains_what_it_cannot_run(admin_client, classic, data, field, words):
    response = admin_client.post(url("simulate", classic.pk), {**data, "seed": "1"})
    assert response.status_code == 200
    assert response.context["result"] is None
    assert any(words in error for error in response.context["form"].errors[field])


def test_the_brag_lab_page_offers_brags_bots_and_player_range(admin_client, brag):
    response = admin_client.get(url("simulate", brag.pk))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'value="greedy,greedy,random,random"' in page
    assert "Expert" in page and "simulated equity" not in page
    assert "for 2 to 8 players" in page
    response = admin_client.post(url("simulate", brag.pk), {
        "players": 9, "bots": "greedy", "games": 10, "seed": "1"})
    assert response.context["result"] is None
    assert any("less than or equal to 8" in e
               for e in response.context["form"].errors["players"])


def test_the_brag_lab_shows_pot_blind_see_cover_and_win_rates(admin_client, brag):
    from games.engine.brag import simulate as brag_simulate  # noqa: F401 -- needs the engine

    response = admin_client.post(url("simulate", brag.pk), {
        "players": 3, "bots": "greedy,random,mc", "games": 10, "seed": "3"})
    assert response.status_code == 200
    result = response.context["result"]
    assert result.games_played == 10 and result.kind.slug == "brag"
    page = response.content.decode()
    assert "10 games of 3 players" in page
    lowered = page.lower()
    for words in ("pot", "blind", "see", "cover", "hands", "win", "greedy", "random", "mc"):
        assert words in lowered


def test_simulate_action_leads_to_the_page_for_one_variant(admin_client, classic):
    response = admin_client.post(url("changelist"), {"action": "simulate",
                                                     "_selected_action": [classic.pk]})
    assert response.status_code == 302
    assert response.url == url("simulate", classic.pk)
    response = admin_client.post(url("changelist"), {
        "action": "simulate", "_selected_action": [classic.pk, classic.pk + 1]}, follow=True)
    assert "Choose exactly one variant" in response.content.decode()


# -- deleting --------------------------------------------------------------------------------


@pytest.fixture
def classic_in_use(classic):
    Table.objects.create(name="Friday", variant=classic, host=UserFactory(), seats=4)
    Table.objects.create(name="Sunday", variant=classic, host=UserFactory(), seats=4)
    return classic


def test_a_variant_tables_use_cannot_be_deleted_and_the_admin_says_why(admin_client,
                                                                        classic_in_use):
    for method in (admin_client.get, admin_client.post):
        response = method(url("delete", classic_in_use.pk), {"post": "yes"}, follow=True)
        assert response.status_code == 200
        assert response.redirect_chain[-1][0] == url("change", classic_in_use.pk)
        assert "is used by 2 tables; deactivate it instead" in response.content.decode()
    assert Variant.objects.filter(pk=classic_in_use.pk).exists()


def test_bulk_delete_refuses_when_any_variant_is_in_use(admin_client, classic_in_use, spare):
    response = admin_client.post(url("changelist"), {
        "action": "delete_selected", "_selected_action": [classic_in_use.pk, spare.pk],
        "post": "yes"}, follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert "is used by 2 tables; deactivate it instead" in page
    assert "Nothing was deleted" in page
    assert Variant.objects.filter(pk__in=[classic_in_use.pk, spare.pk]).count() == 2


def test_an_unused_variant_can_be_deleted(admin_client, spare):
    assert admin_client.get(url("delete", spare.pk)).status_code == 200
    response = admin_client.post(url("delete", spare.pk), {"post": "yes"})
    assert response.status_code == 302
    assert not Variant.objects.filter(pk=spare.pk).exists()


def test_unused_variants_can_be_deleted_in_bulk(admin_client, spare):
    other = Variant.objects.create(name="Spare tyre", slug="spare-tyre")
    response = admin_client.post(url("changelist"), {
        "action": "delete_selected", "_selected_action": [spare.pk, other.pk]})
    assert response.status_code == 200  # Django's confirmation page
    response = admin_client.post(url("changelist"), {
        "action": "delete_selected", "_selected_action": [spare.pk, other.pk], "post": "yes"})
    assert response.status_code == 302
    assert not Variant.objects.filter(pk__in=[spare.pk, other.pk]).exists()


# -- who may ---------------------------------------------------------------------------------


def test_people_who_are_not_staff_are_sent_to_the_admin_login(user_client, classic):
    for page in (url("changelist"), url("change", classic.pk), url("simulate", classic.pk)):
        response = user_client.get(page)
        assert response.status_code == 302
        assert response.url.startswith(reverse("admin:login"))


def test_staff_without_the_permission_get_403(client, classic):
    client.force_login(UserFactory(is_staff=True))
    assert client.get(url("change", classic.pk)).status_code == 403
    assert client.get(url("simulate", classic.pk)).status_code == 403
    before = classic.starting_lives
    response = client.post(url("change", classic.pk), form_data(classic, starting_lives=9))
    assert response.status_code == 403
    classic.refresh_from_db()
    assert classic.starting_lives == before


def test_staff_who_may_only_view_cannot_save_or_simulate(client, classic):
    viewer = UserFactory(is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_variant"))
    client.force_login(viewer)
    assert client.get(url("change", classic.pk)).status_code == 200
    assert client.post(url("change", classic.pk),
                       form_data(classic, starting_lives=9)).status_code == 403
    assert client.get(url("simulate", classic.pk)).status_code == 403


def test_staff_with_the_change_permission_can_edit(client, classic):
    editor = UserFactory(is_staff=True)
    editor.user_permissions.add(Permission.objects.get(codename="change_variant"))
    client.force_login(editor)
    assert client.get(url("simulate", classic.pk)).status_code == 200
    response = client.post(url("change", classic.pk), form_data(classic, starting_lives=5))
    assert response.status_code == 302
    classic.refresh_from_db()
    assert classic.starting_lives == 5


# -- the room, read-only ---------------------------------------------------------------------


@pytest.fixture
def game(classic):
    host = UserFactory()
    table = actions.do_create_table(host, name="Inspect me", variant=classic, seats=3)
    actions.do_add_bot(table, host, "greedy")
    return actions.do_start_game(table, host)


def test_tables_games_and_jobs_can_be_inspected(admin_client, game):
    for name, obj in (("table", game.table), ("game", game), ("job", Job.objects.first())):
        changelist = admin_client.get(reverse(f"admin:games_{name}_changelist"))
        assert changelist.status_code == 200
        change = admin_client.get(reverse(f"admin:games_{name}_change", args=[obj.pk]))
        assert change.status_code == 200
    pending = admin_client.get(reverse("admin:games_job_changelist"), {"done": "no"})
    assert list(pending.context["cl"].result_list) == list(Job.objects.filter(
        done_at__isnull=True))


def test_games_and_their_log_cannot_be_edited_or_added_in_the_admin(admin_client, game):
    change = reverse("admin:games_game_change", args=[game.pk])
    page = admin_client.get(change).content.decode()
    assert 'name="_save"' not in page
    assert 'name="state"' not in page and 'name="version"' not in page
    assert "Hidden until the game ends." in page  # a running game's cards stay secret
    before = (game.state, game.version)
    response = admin_client.post(change, {"version": 99, "state": "{}", "status": "finished"})
    assert response.status_code == 403
    game.refresh_from_db()
    assert (game.state, game.version) == before
    assert admin_client.get(reverse("admin:games_game_add")).status_code == 403
    assert admin_client.get(reverse("admin:games_table_add")).status_code == 403
    assert admin_client.get(reverse("admin:games_job_add")).status_code == 403
    assert admin_client.get(reverse("admin:games_game_delete", args=[game.pk])).status_code \
        == 403
    assert Game.objects.filter(pk=game.pk).exists()
