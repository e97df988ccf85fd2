"""The engine is a library: it imports nothing from Django."""

import ast
import pathlib
import subprocess
import sys

ENGINE = pathlib.Path(__file__).resolve().parent.parent / "games" / "engine"


def test_no_module_of_the_engine_imports_django():
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert not name.startswith("django"), f"{path.name} imports {name}"
                assert not name.startswith(("accounts", "stats", "stopbus_site")), name


def test_importing_the_engine_loads_no_django_module():
    code = (
        "import sys, games.engine, games.engine.simulate, games.engine.montecarlo;"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'));"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ENGINE.parent.parent,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
