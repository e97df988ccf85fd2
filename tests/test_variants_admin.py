"""Issue 4: admins shape house-rule variants; the engine says what is impossible."""

import pytest
from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.contrib.auth.models import Permission
from django.forms.models import model_to_dict
from django.urls import reverse
from django.utils.html import escape

from games import actions
from games.admin import VariantAdmin
from games.engine import PRESETS
from games.models import Game, Job, Table, Variant
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"admin:games_variant_{name}", args=args)


@pytest.fixture
def classic():
    return Variant.objects.get(slug="classic")


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
    for name in ("Stop the Bus (classic)", "Commerce", "Race to Five"):
        assert escape(name) in page
    for column in ("column-exchange", "column-ranking", "column-scoring",
                   "column-starting_lives", "column-threes_high", "column-ace_low_run",
                   "column-tie_rule", "column-players", "column-turn_time", "column-rated",
                   "column-active", "column-display_order"):
        assert column in page
    assert 'name="form-0-display_order"' in page  # the order is edited in the list
    assert "3–10" in page and "60 s" in page


def test_changelist_filters_and_search(admin_client):
    response = admin_client.get(url("changelist"), {"exchange__exact": "stock"})
    names = [v.name for v in response.context["cl"].result_list]
    assert names == ["Stop the Bus (draw & discard)", "Thirty-One Blitz"]
    response = admin_client.get(url("changelist"), {"q": "pot"})
    assert [v.slug for v in response.context["cl"].result_list] == ["commerce"]


def test_change_form_groups_the_rules_and_says_them_in_plain_english(admin_client, classic):
    response = admin_client.get(url("change", classic.pk))
    assert response.status_code == 200
    page = response.content.decode()
    for title in ("Ranking", "Exchange", "Stopping the bus", "Lives and scoring", "Table"):
        assert f'class="fieldset-heading">{title}</h2>' in page
    assert "Rules in plain English" in page
    for sentence in classic.rules.summary():
        assert escape(sentence) in page
    assert url("simulate", classic.pk) in page


def test_every_field_an_admin_can_set_is_on_the_form():
    shown = {f for _, options in VariantAdmin.fieldsets for f in options["fields"]}
    editable = {f.name for f in Variant._meta.fields
                if f.editable and not f.primary_key and f.name not in ("created_at",
                                                                      "updated_at")}
    assert editable <= shown


def test_add_form_renders_with_the_default_rules_in_words(admin_client):
    response = admin_client.get(url("add"))
    assert response.status_code == 200
    assert escape("3-3-3 is the best prial") in response.content.decode()


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
    ({"max_players": 17}, "max_players",
     "One 52-card pack deals to at most 16 players with the widow exchange (17 asked)."),
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
    assert copy.description == classic.description
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
