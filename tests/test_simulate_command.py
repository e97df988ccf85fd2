"""Issue 3's command line and the variant lab behind it and the admin page.

Issue 14: the lab and the command play any game kind through the registry. The
tests at the end that import ``games.engine.brag.simulate`` need the Brag engine.
"""

import json
from io import StringIO

import pytest
from django.core.management import call_command, execute_from_command_line
from django.core.management.base import CommandError

from games.engine import PRESETS, HouseRules, simulate
from games.engine.brag import BRAG_PRESETS
from games.lab import LabError, bot_lineup, run_lab
from games.models import Variant

CLASSIC = PRESETS["classic"].rules


def run(*args) -> str:
    out = StringIO()
    call_command("simulate", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


# -- the lab ---------------------------------------------------------------------------------


def test_one_level_fills_every_seat_and_a_list_gives_one_per_seat():
    assert bot_lineup("greedy", 3, CLASSIC) == ["greedy"] * 3
    assert bot_lineup(" Greedy, mc ,random ", None, CLASSIC) == ["greedy", "mc", "random"]
    assert bot_lineup(["random"], None, CLASSIC) == ["random"] * 4


@pytest.mark.parametrize(("bots", "players", "words"), [
    ("greedy,clever", 2, "Unknown bot level 'clever'"),
    ("greedy,greedy", 3, "2 bot levels for 3 players"),
    ("greedy", 7, "for 2 to 6 players, not 7"),
    (",", 2, "Name at least one bot level"),
])
def test_impossible_line_ups_are_explained(bots, players, words):
    with pytest.raises(LabError, match=words):
        bot_lineup(bots, players, CLASSIC)


def test_a_lab_run_counts_every_game_for_every_bot():
    result = run_lab(CLASSIC, 3, "greedy,random,greedy", 12, seed=5, time_budget=None)
    report = result.report
    assert result.games_played == 12 and not result.stopped_early
    assert [b.label for b in report.bots] == ["greedy #1", "random", "greedy #2"]
    assert all(b.games == 12 for b in report.bots)
    assert sum(b.wins for b in report.bots) == 12  # lives: one winner a game
    assert sum(b.place_total for b in report.bots) == 12 * (1 + 2 + 3)
    assert report.hands >= 12 and report.turns >= report.hands
    # Every player still in shows a hand: three, or two once someone is out.
    assert 2 * report.hands <= sum(report.categories.values()) <= 3 * report.hands
    assert report.bots[1].win_rate < max(report.bots[0].win_rate, report.bots[2].win_rate)


def test_the_same_seed_gives_the_same_figures_and_another_seed_others():
    def figures(seed):
        data = run_lab(CLASSIC, 2, "greedy,random", 8, seed=seed, time_budget=None).as_dict()
        data.pop("games_per_second")
        data.pop("elapsed")
        return data

    assert figures(1) == figures(1)
    assert figures(1) != figures(2)


def test_the_lab_keeps_the_engines_seat_rotation():
    # Game g seats line-up entry i at seat (i + g) % n: with one game each run has the
    # same seating, so one lab game equals one engine game on the same seed.
    lab = run_lab(CLASSIC, 3, "greedy,random,greedy", 1, seed="x", time_budget=None).report
    engine = simulate(CLASSIC, ["greedy", "random", "greedy"], 1, seed="x:0")
    assert [(b.label, b.place_total) for b in lab.bots] == [
        (b.label, b.place_total) for b in engine.bots]
    assert lab.hands == engine.hands and lab.categories == engine.categories


def test_a_run_stops_at_its_time_budget_and_says_so():
    result = run_lab(PRESETS["commerce"], 3, "greedy", 5000, seed=1, time_budget=0.01)
    assert result.stopped_early
    assert 1 <= result.games_played < 5000
    assert all(b.games == result.games_played for b in result.report.bots)
    assert "Stopped at the time budget" in result.lines()[-1]
    assert result.as_dict()["stopped_early"] is True


def test_the_lab_takes_a_variant_or_a_preset():
    unsaved = Variant(name="Unsaved")  # every house rule at its default
    assert run_lab(unsaved, 2, "random", 2, time_budget=None).rules == HouseRules()
    assert run_lab(PRESETS["race-to-five"], 2, "random", 2).rules.scoring == "points"
    with pytest.raises(TypeError):
        run_lab("classic", 2, "random", 2)


# -- the command -----------------------------------------------------------------------------


def test_the_command_prints_the_engine_report():
    out = run("--preset", "classic", "--players", "3", "--bots", "greedy,greedy,random",
              "--games", "15", "--seed", "1")
    assert out.startswith("Stop the Bus (classic): greedy, greedy, random; seed 1")
    for words in ("15 games of 3 players", "games/s", "hands per game", "turns per hand",
                  "the stopper lost", "greedy #1", "greedy #2", "random", "win rate",
                  "average place", "hands at showdowns"):
        assert words in out


def test_one_level_for_everyone_and_defaults():
    out = run("--bots", "random", "--games", "3")
    assert "3 games of 4 players" in out and "Stop the Bus (classic)" in out


def test_json_output_is_machine_readable():
    data = json.loads(run("--preset", "thirty-one-blitz", "--bots", "greedy", "--players",
                          "2", "--games", "10", "--seed", "3", "--json"))
    assert data["rules_name"] == "Thirty-One Blitz"
    assert data["games"] == 10 and data["players"] == 2
    assert data["rules"]["blitz"] is True
    assert {"hands_per_game", "turns_per_hand", "stopper_loss_rate", "blitzes",
            "games_per_second", "categories"} <= set(data)
    assert [bot["label"] for bot in data["bots"]] == ["greedy #1", "greedy #2"]


@pytest.mark.django_db
def test_a_variant_from_the_database():
    Variant.objects.filter(slug="double-or-nothing").update(starting_lives=2)
    data = json.loads(run("--variant", "double-or-nothing", "--bots", "greedy,random",
                          "--games", "4", "--json"))
    assert data["rules_name"] == "Double-or-nothing stop"
    assert data["rules"]["starting_lives"] == 2 and data["rules"]["stopper_penalty"] == 2


@pytest.mark.django_db
def test_an_unknown_variant_is_refused():
    with pytest.raises(CommandError, match="No variant with the slug 'nope'"):
        run("--variant", "nope")


@pytest.mark.parametrize(("args", "words"), [
    (["--preset", "snap"], "Unknown preset 'snap': choose from classic, draw-and-discard"),
    (["--bots", "greedy,wizard"], "Unknown bot level 'wizard'"),
    (["--preset", "commerce", "--players", "2"], "Commerce: These rules are for 3 to 10 "
                                                 "players, not 2."),
    (["--players", "3", "--bots", "greedy,random"], "2 bot levels for 3 players"),
    (["--games", "0"], "Play at least one game."),
])
def test_bad_arguments_are_one_line_errors(args, words):
    with pytest.raises(CommandError, match=words):
        run(*args)


def test_from_the_shell_a_bad_argument_exits_1_with_one_line(capsys):
    with pytest.raises(SystemExit) as exited:
        execute_from_command_line(["manage.py", "simulate", "--preset", "snap"])
    assert exited.value.code == 1
    err = capsys.readouterr().err
    assert err.strip().count("\n") == 0
    assert err.startswith("CommandError: Unknown preset 'snap'")


def test_preset_and_variant_do_not_mix():
    with pytest.raises(CommandError):
        run("--preset", "classic", "--variant", "classic")


# -- every game kind (issue 14) -------------------------------------------------------------

BRAG = BRAG_PRESETS["three-card-brag"].rules


def test_brag_line_ups_use_brags_levels_and_player_range():
    assert bot_lineup("greedy,random,mc", None, BRAG) == ["greedy", "random", "mc"]
    assert bot_lineup("mc", None, BRAG) == ["mc"] * 4
    with pytest.raises(LabError, match="for 2 to 8 players, not 9"):
        bot_lineup("greedy", 9, BRAG)
    with pytest.raises(LabError, match="Unknown bot level 'shark'"):
        bot_lineup("greedy,shark", 2, BRAG)


@pytest.mark.parametrize(("args", "words"), [
    (["--preset", "brag", "--players", "9"],
     "Three Card Brag: These rules are for 2 to 8 players, not 9."),
    (["--preset", "pot-limit-brag", "--bots", "greedy,wizard"], "Unknown bot level 'wizard'"),
    (["--preset", "snap"], "three-card-brag, pot-limit-brag"),
])
def test_brag_presets_are_known_to_the_command(args, words):
    with pytest.raises(CommandError, match=words):
        run(*args)


def test_the_labs_figures_come_from_any_reports_data():
    # Brag's report is shown from its data alone; Stop the Bus's report has data too.
    result = run_lab(CLASSIC, 3, "greedy,random,greedy", 6, seed=2, time_budget=None)
    rows = {row["label"]: row["value"] for row in result.figure_rows()}
    assert rows["Hands per game"] == f"{result.report.hands_per_game:.2f}"
    assert rows["Stopper loss rate"] == f"{result.report.stopper_loss_rate:.1%}"
    assert "Games" not in rows and "Players" not in rows  # said in the heading
    bots = next(t for t in result.figure_tables() if t["caption"] == "Bots")
    assert bots["columns"][:2] == ["Label", "Level"]
    assert [row[0] for row in bots["rows"]] == ["greedy #1", "random", "greedy #2"]
    assert all(row[4].endswith("%") for row in bots["rows"])  # the win rate
    categories = next(t for t in result.figure_tables() if t["caption"] == "Categories")
    assert dict(categories["rows"]) == {k: str(v) for k, v in result.report.categories.items()}
    assert result.as_dict()["game"] == "stop_the_bus"
    assert result.as_dict()["games_played"] == 6


# These need the Brag engine's simulator (games.engine.brag.simulate, issue 14).

def test_the_command_plays_brag_and_prints_json():
    from games.engine.brag import simulate as brag_simulate  # noqa: F401 -- the engine

    data = json.loads(run("--preset", "brag", "--bots", "greedy,random,mc", "--games", "6",
                          "--seed", "4", "--json"))
    assert data["rules_name"] == "Three Card Brag"
    assert data["game"] == "brag"
    assert data["games_played"] == 6 and data["lineup"] == ["greedy", "random", "mc"]
    assert data["rules"] == BRAG.to_dict()
    text = json.dumps(data).lower()
    for words in ("pot", "blind", "see", "cover", "hands", "win"):
        assert words in text


def test_the_command_plays_pot_limit_brag_as_text_and_the_seed_decides():
    from games.engine.brag import simulate as brag_simulate  # noqa: F401 -- the engine

    args = ("--preset", "pot-limit-brag", "--bots", "greedy", "--players", "3", "--games",
            "5", "--seed", "9")
    out = run(*args)
    assert out.startswith("Pot-limit Brag: greedy, greedy, greedy; seed 9")

    def figures():
        data = json.loads(run(*args, "--json"))
        return {k: v for k, v in data.items()
                if "second" not in k and "elapsed" not in k}

    assert figures() == figures()


def test_a_brag_lab_run_stops_at_its_time_budget():
    from games.engine.brag import simulate as brag_simulate  # noqa: F401 -- the engine

    result = run_lab(BRAG, 4, "greedy", 100_000, seed=1, time_budget=0.05)
    assert result.stopped_early and 1 <= result.games_played < 100_000
    assert "Stopped at the time budget" in result.lines()[-1]
