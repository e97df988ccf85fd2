"""The games' admin read by an admin whose language is Japanese.

Django's own admin texts come translated by Django. Ours must be Japanese too: the
models' names and their fields' (titles, breadcrumbs, columns, filters, labels), the
rows as the admin names them, a variant's groups of house rules and its rules in
words, the actions and their messages, and the variant lab (its form, its errors and
its figures, down to the report as text). Every registered model's list and change
page is read whole. What stays as it is in every language is taken out before
looking for English: names (variants, tables, players, bots, the admin user), the
bots' level codes an admin types in a line-up ("greedy,random"), the command's name,
other projects' apps' names, and data shown as it is stored (codes in JSON, hashes).
"""

import re

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.hashers import identify_hasher
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.text import capfirst

from accounts.models import User
from games.actions import do_create_table, do_invite
from games.admin import FIELD_LABELS, SECTION_TITLES, job_outcome, kind_fieldsets
from games.engine import PRESETS
from games.engine.brag import BRAG_PRESETS
from games.kinds import KINDS
from games.lab import run_lab
from games.models import Variant
from games.rules_text import RULE_LABELS
from stats.models import PlayerGame, PlayerStats
from tests.factories import UserFactory, finished_game, preset_variant, start_table_game
from tests.test_i18n_events import english_left
from tests.test_i18n_site_pages import english_on_page
from tests.test_variants_admin import form_data

pytestmark = pytest.mark.django_db

OUR_APPS = {"games", "stats", "accounts"}
LEVEL_CODES = {"random", "greedy", "mc"}


def url(name, *args):
    return reverse(f"admin:games_variant_{name}", args=args)


def ja(client, method, path, data=None, **extra):
    response = getattr(client, method)(path, data or {}, HTTP_ACCEPT_LANGUAGE="ja", **extra)
    assert response.status_code == 200, path
    assert response["Content-Language"] == "ja", path
    return response


def kept_as_they_are(*extra) -> set[str]:
    """Words no page translates: names, level codes, the command, and other apps' own
    names."""
    words = {*LEVEL_CODES, "manage.py simulate", "Django", "admin", *extra}
    for variant in Variant.objects.all():
        words |= {variant.name, variant.description}
    for config in apps.get_app_configs():
        if config.label not in OUR_APPS:
            words.add(str(config.verbose_name))
    for model in admin.site._registry:  # other projects' models, in the index and the menu
        if model._meta.app_label not in OUR_APPS:
            for name in (model._meta.verbose_name, model._meta.verbose_name_plural):
                words |= {str(name), capfirst(str(name))}
    return words


@pytest.fixture
def classic():
    return Variant.objects.get(slug="classic")


@pytest.fixture
def brag():
    return Variant.objects.get(slug="three-card-brag")


def test_the_variant_page_in_japanese(admin_client, classic):
    html = ja(admin_client, "get", url("change", classic.pk)).content.decode()
    assert english_on_page(html, kept_as_they_are()) == []
    for words in ("手役の順位", "交換", "バスを止める", "ライフと得点", "テーブル",  # the groups
                  "ルールの説明", "3が最強", "最初のライフ", "表示順", "スラッグ",  # labels
                  "ゲーム:</label>", "ストップ・ザ・バス", "シミュレーション"):
        assert words in html, words
    with translation.override("ja"):
        from games.rules_text import describe
        for sentence in describe(classic.rules):
            assert escape(sentence) in html, sentence


@pytest.mark.parametrize("page", ["brag", "add", "add brag"])
def test_the_brag_variant_page_and_the_add_pages_in_japanese(admin_client, brag, page):
    path = {"brag": url("change", brag.pk), "add": url("add"),
            "add brag": url("add") + "?game=brag"}[page]
    html = ja(admin_client, "get", path).content.decode()
    assert english_on_page(html, kept_as_they_are()) == []
    if page != "add":
        for words in ("チップとベット", "アンティ", "ベットの方式", "最小の賭け額",
                      "ブラインドでのプレイ", "最大ハンド数", "スリーカード・ブラッグ"):
            assert words in html, words
    if page.startswith("add"):  # the other kind's add page is one link away
        other = "ストップ・ザ・バス" if page == "add brag" else "スリーカード・ブラッグ"
        assert f"{other}のバリエーション</a>を追加" in html


def test_the_variant_lab_in_japanese(admin_client, classic):
    html = ja(admin_client, "get", url("simulate", classic.pk)).content.decode()
    assert english_on_page(html, kept_as_they_are()) == []
    for words in ("ストップ・ザ・バス（クラシック）のシミュレーション", "ボットの顔ぶれ",
                  "プレイヤー数", "ゲーム数", "シード", "このルールは2〜6人用です。",
                  "カジュアル", "ボットで実行"):
        assert words in html, words


@pytest.mark.parametrize("slug", ["classic", "three-card-brag"])
def test_the_labs_figures_in_japanese(admin_client, slug):
    variant = Variant.objects.get(slug=slug)
    response = ja(admin_client, "post", url("simulate", variant.pk), {
        "players": 3, "bots": "greedy,random,mc", "games": 2, "seed": "7"})
    result = response.context["result"]
    assert result is not None and result.games_played == 2
    html = response.content.decode()
    assert english_on_page(html, kept_as_they_are()) == []
    assert "3人で" in html and "勝率" in html and "平均順位" in html
    assert "<code>greedy</code>" in html  # the level codes as typed, marked as code


def test_a_stopped_lab_run_says_so_in_japanese(admin_client, monkeypatch):
    monkeypatch.setattr("games.admin.DEFAULT_TIME_BUDGET", 0.01)
    commerce = Variant.objects.get(slug="commerce")
    response = ja(admin_client, "post", url("simulate", commerce.pk), {
        "players": 3, "bots": "greedy", "games": 5000, "seed": "1"})
    result = response.context["result"]
    assert result.stopped_early
    html = response.content.decode()
    assert (f"制限時間の0.01秒で止めました：指定された5000ゲームのうち"
            f"{result.games_played}ゲームをプレイしました。") in html
    assert english_on_page(html, kept_as_they_are()) == []


@pytest.mark.parametrize(("data", "field", "words"), [
    ({"players": 3, "bots": "greedy,wizard", "games": 5}, "bots",
     "'wizard'というボットのレベルはありません。次から選んでください：random, greedy, mc。"),
    ({"players": 3, "bots": "greedy,random", "games": 5}, "bots",
     "3人に対してボットのレベルが2個あります。全員に1つか、席ごとに1つずつ指定してください。"),
    ({"players": 3, "bots": "mc", "games": 500}, "games",
     "このボットを入れるときは、ここでは50ゲームまでにしてください。"),
])
def test_a_lab_form_refused_in_japanese(admin_client, classic, data, field, words):
    response = ja(admin_client, "post", url("simulate", classic.pk), {**data, "seed": "1"})
    assert response.context["result"] is None
    assert any(words in error for error in response.context["form"].errors[field])
    html = response.content.decode()
    assert escape(words) in html
    assert english_on_page(html, kept_as_they_are("wizard")) == []


def test_the_lab_form_and_errors_in_english_still(admin_client, classic):
    response = admin_client.post(url("simulate", classic.pk), {
        "players": 3, "bots": "greedy,wizard", "games": 5, "seed": "1"},
        HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert "Unknown bot level &#x27;wizard&#x27;: choose from random, greedy, mc." in html
    assert "Bot line-up" in html and "These rules are for 2 to 6 players." in html


def test_the_variant_list_speaks_japanese_for_our_own_words(admin_client):
    html = ja(admin_client, "get", url("changelist")).content.decode()
    for words in ("ルールの概要", "人数", "1手番の時間", "交換方法: 場札",
                  "選択したバリエーションを複製", "選択したバリエーションをシミュレーション",
                  "ストップ・ザ・バスのバリエーションを追加",
                  "スリーカード・ブラッグのバリエーションを追加", "ゲーム"):
        assert words in html, words
    for english in ("rules at a glance", "turn time", "Duplicate the selected",
                    "Simulate the selected", "Add Stop the Bus", "exchange:", "no clock"):
        assert english not in html, english


def test_the_actions_answer_in_japanese(admin_client, classic):
    response = ja(admin_client, "post", url("changelist"), {
        "action": "duplicate", "_selected_action": [classic.pk]}, follow=True)
    html = response.content.decode()
    assert "1件のコピーを作りました：Stop the Bus (classic) (copy)。" in html
    copy = Variant.objects.get(name="Stop the Bus (classic) (copy)")
    assert copy.description == (
        "「Stop the Bus (classic)」と同じルールのコピーです。プレイヤーに公開する前に、"
        "どこが違うのかを書いてください。")
    response = ja(admin_client, "post", url("changelist"), {
        "action": "simulate", "_selected_action": [classic.pk, copy.pk]}, follow=True)
    assert "シミュレーションするバリエーションを1つだけ選んでください。" in (
        response.content.decode())


def test_every_group_and_field_of_every_kind_has_japanese_words():
    with translation.override("ja"):
        for kind in KINDS.values():
            for title, options in kind_fieldsets(kind, adding=True):
                if title is not None:
                    assert english_left(str(title)) == [], (kind.slug, title)
                for name in options["fields"]:
                    if name in ("rules_in_plain_english", "game_played"):
                        continue  # shown, not typed: the admin's display methods
                    assert name in FIELD_LABELS, name
                    assert english_left(str(FIELD_LABELS[name])) == [], name
            assert {title for title, _ in kind.rule_sections} <= SECTION_TITLES


@pytest.mark.parametrize(("rules", "bots"), [
    (PRESETS["classic"].rules, "greedy,random,greedy"),
    (PRESETS["thirty-one-blitz"].rules, "greedy,mc,random"),
    (BRAG_PRESETS["three-card-brag"].rules, "greedy,random,mc"),
])
def test_the_report_as_text_is_the_engines_in_english_and_japanese_in_japanese(rules, bots):
    result = run_lab(rules, 3, bots, 3, seed=3, time_budget=None)
    with translation.override("en-gb"):
        engine = result.report.lines()
        assert result.lines()[:len(engine)] == engine
    with translation.override("ja"):
        lines = result.lines()
    assert len(lines) == len(result.lines())
    for line in lines:
        for code in LEVEL_CODES:
            line = line.replace(code, " ")
        assert english_left(line) == [], line


# -- impossible rules, in the admin's language (the engines' sentences: games/refusals.py) -----

def test_impossible_rules_are_refused_in_japanese_at_the_field(admin_client, classic):
    data = {**form_data(classic), "blitz": "on", "stop_after_swap": "on", "exchange": "stock"}
    response = ja(admin_client, "post", url("change", classic.pk), data)
    errors = response.context["adminform"].form.errors
    assert errors["blitz"] == ["ブリッツには31の手役が必要です。先に「31」をオンにしてください。"]
    assert errors["stop_after_swap"] == [
        "交換してからバスを止めるのは場札のルールです。山札のルールでは、バスを止める人はカードを"
        "引きません。"]
    html = response.content.decode()
    assert english_on_page(html, kept_as_they_are()) == []
    assert "このルールではまだプレイできません：" in html


# -- every registered model's list and change page ----------------------------------------------

@pytest.fixture
def room(db):
    """A finished game (stats rows, an action log) and a running one (jobs pending)."""
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    finished = finished_game([alice, bob], bots=["greedy"])
    playing = start_table_game([alice], bots=["random"], name="Friday")
    waiting = do_create_table(alice, name="Oak", variant=preset_variant(), seats=3)
    do_invite(waiting, alice, "bob")  # an invitation to read
    names = {"alice", "bob", "alice@example.com", "bob@example.com", waiting.name,
             waiting.invite_code}
    for game in (finished, playing):
        names |= {game.table.name, game.table.invite_code, *(p.name for p in game.players.all())}
        names |= {seat.display_name for seat in game.table.seat_set.all()}
    return {"finished": finished, "playing": playing, "names": names}


# Data shown as it is stored (an action's payload, a finished game's state, counts by
# category), and the examples of that form in help texts: JSON objects, codes inside.
JSON_OBJECT = re.compile(r"\{[^{}]*\}")


def without_json(html: str) -> str:
    while (stripped := JSON_OBJECT.sub(" ", html)) != html:
        html = stripped
    return html


# Django's own admin writes these untranslated: the search icon's and the boolean icons'
# alternative texts (admin/search_form.html, admin_list's _boolean_icon).
DJANGOS_UNTRANSLATED = {"Search", "True", "False", "None"}
# ... and on a user's page: the permissions' names (stored in English by Django), the key
# names in its Japanese help for multiple choice, and the password hash's summary.
MASKED = re.compile(r"[A-Za-z0-9+/=]{1,6}\*{4,}")


def djangos_own_on_user_pages() -> set[str]:
    hashers = {identify_hasher(user.password).algorithm
               for user in User.objects.all() if user.has_usable_password()}
    permissions = Permission.objects.select_related("content_type")
    return {*(p.name for p in permissions), "Control", "Mac", "Command", *hashers,
            *(str(p) for p in permissions if p.content_type.app_label not in OUR_APPS)}


def registered_pages():
    return [pytest.param(model, id=model._meta.label_lower) for model in admin.site._registry
            if model._meta.app_label in OUR_APPS]


@pytest.mark.parametrize("model", registered_pages())
def test_every_model_reads_in_japanese_in_its_list_and_on_its_page(admin_client, room, model):
    opts = model._meta
    rows = model._default_manager.order_by("pk")
    assert rows.exists(), opts.label
    names = {*room["names"], *(user.email for user in User.objects.all())}
    if model is User:
        names |= djangos_own_on_user_pages()
    for page, args in (("changelist", []), ("change", [rows.first().pk]),
                       ("change", [rows.last().pk])):
        path = reverse(f"admin:{opts.app_label}_{opts.model_name}_{page}", args=args)
        html = ja(admin_client, "get", path).content.decode()
        english = english_on_page(MASKED.sub(" ", without_json(html)), kept_as_they_are(*names))
        left = [piece for piece in english if piece not in DJANGOS_UNTRANSLATED]
        assert left == [], (path, left)


def column_headers(html: str) -> list[str]:
    start = html.index('id="result_list"')
    cells = re.findall(r'<div class="text">(.*?)</div>', html[start:html.index("</thead>", start)])
    return [" ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in cells]


def test_the_variant_list_names_its_model_columns_and_filters_in_japanese(admin_client):
    html = ja(admin_client, "get", url("changelist")).content.decode()
    assert "<title>変更する バリエーション を選択" in html
    headers = column_headers(html)
    for header in ("名前", "ゲーム", "レート対象", "有効", "表示順"):
        assert header in headers, (header, headers)
    for title in ("ゲーム", "有効", "レート対象", "交換方法", "得点方式", "手役の順位"):
        assert f"{title} で絞り込む" in html, title


def test_the_variant_list_in_english_reads_as_before(admin_client):
    html = admin_client.get(url("changelist"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    headers = column_headers(html)
    for header in ("Name", "Game", "Rules at a glance", "Players", "Turn time", "Rated",
                   "Active", "Display order"):
        assert header in headers, (header, headers)
    assert "Select variant to change" in html


def test_a_variants_house_rules_have_the_forms_words():
    for name, label in RULE_LABELS.items():
        assert Variant._meta.get_field(name).verbose_name == label, name
        assert FIELD_LABELS[name] == label, name


def test_the_rows_are_named_in_japanese(room):
    finished = room["finished"]
    player = finished.players.get(user__username="alice")
    result = PlayerGame.objects.get(game=finished, user__username="alice")
    with translation.override("ja"):
        assert str(finished) == "Test tableの第1ゲーム"
        assert str(player) == "Test tableの第1ゲームのalice"
        assert str(finished.table.seat_set.get(position=0)) == "Test tableの1番席：alice"
        assert str(finished.actions.get(seq=1)) == "Test tableの第1ゲームの操作1"
        assert str(result) == (f"ゲーム{finished.pk}のalice：3人中{result.place}位")
        assert str(PlayerStats.objects.get(user__username="alice", variant=None)) == (
            "alice（全バリエーション）")
    with translation.override("en"):  # as they always were
        assert str(finished) == "Test table game 1"
        assert str(player) == "alice in Test table game 1"
        assert str(result) == f"alice {result.place} of 3 in game {finished.pk}"


@pytest.mark.parametrize(("result", "words"), [
    ("superseded", "新しいジョブに置き換えられました"),
    ("stale", "不要（ゲームが先に進んでいた）"),
    ("bot played swap", "ボットがプレイしました：<code>swap</code>"),
    ("timed out; played 2 moves; seat marked away",
     "時間切れ：2手をプレイし、席を離席中にしました"),
    ("refused: The game is over.", "拒否されました：ゲームは終わりました。"),
    ("something new", "something new"),
])
def test_a_jobs_result_in_japanese(result, words):
    with translation.override("ja"):
        said = job_outcome(result if not result.startswith("refused") else
                           f"refused: {translation.gettext('The game is over.')}")
        assert str(said) == words
    with translation.override("en"):
        assert str(job_outcome(result)).replace("<code>", "").replace("</code>", "") == result
