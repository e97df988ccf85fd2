"""Only ``games/actions`` writes game models or announces changes; no raw SQL in games/.

The scan walks the syntax tree of every module of the project (migrations, tests,
factories and benchmarks aside): a call of a writing method (``save``, ``create``,
``update``, ``delete``, ``bulk_*`` ...) on anything naming a model of ``games`` -- a
model class, its manager, or a name bound to one of its instances in the module --
outside ``games/actions`` fails, as does a channel-layer send.
"""

from __future__ import annotations

import ast
from pathlib import Path

from django.apps import apps

ROOT = Path(__file__).resolve().parent.parent
WRITES = {"save", "create", "update", "delete", "bulk_create", "bulk_update",
          "get_or_create", "update_or_create", "save_base", "refresh_from_db_and_save"}
GAME_MODELS = {m.__name__ for m in apps.get_app_config("games").get_models()}


def modules():
    for folder in ("games", "stats", "accounts", "stopbus_site"):
        for path in (ROOT / folder).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            if "/migrations/" in rel or rel.startswith(("games/actions/", "games/engine/")):
                continue
            yield rel, ast.parse(path.read_text(), rel)


def names_in(node) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}


def model_instances(tree) -> set[str]:
    """Names bound in the module to game model rows (``seat = Seat.objects.get(...)``,
    ``game = Game(...)``): writes through them count too."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and names_in(node.value) & GAME_MODELS:
            for target in node.targets:
                bound |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        if isinstance(node, ast.arg) and node.annotation is not None and (
                names_in(node.annotation) & GAME_MODELS):
            bound.add(node.arg)
    return bound


def offences(rel: str, tree) -> list[str]:
    found = []
    instances = model_instances(tree)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        method, target = node.func.attr, node.func.value
        named = names_in(target)
        if method in WRITES and named & (GAME_MODELS | instances):
            found.append(f"{rel}:{node.lineno} {ast.unparse(node.func)}")
        if method == "group_send":
            found.append(f"{rel}:{node.lineno} announces: {ast.unparse(node.func)}")
    return found


def test_only_games_actions_writes_game_models():
    problems = [problem for rel, tree in modules() for problem in offences(rel, tree)
                # the admin's "copy this variant" saves a new Variant row: the catalogue of
                # variants is edited by staff in the admin, not played
                if not problem.startswith("games/admin.py")]
    assert problems == []


def test_the_scan_catches_a_write():
    tree = ast.parse("from games.models import Seat\n"
                     "def f(pk):\n    seat = Seat.objects.get(pk=pk)\n    seat.save()\n"
                     "    Seat.objects.filter(pk=pk).update(away=True)\n")
    assert len(offences("games/x.py", tree)) == 2
    tree = ast.parse("async def f(self):\n    await self.channel_layer.group_send('t', {})\n")
    assert len(offences("games/x.py", tree)) == 1


def test_no_raw_sql_or_vendor_branches_in_games():
    hits = []
    for path in (ROOT / "games").rglob("*.py"):
        if "/migrations/" in path.as_posix():
            continue
        text = path.read_text()
        hits += [f"{path.name}: {needle}" for needle in
                 ("connection.cursor", ".execute(", ".raw(", ".vendor") if needle in text]
    assert hits == []
