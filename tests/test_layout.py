"""Tests never import ``benchmarks/``.

Benchmarks are scripts that measure and print figures; the test run must not depend
on them. Code that both use (the server stack, websocket players, the audit, the
fuzzer's frames and judge) lives in ``tests/support/``, which benchmarks may import.
"""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
FORBIDDEN = "benchmarks"


def _package_of(path: pathlib.Path) -> list[str]:
    """The dotted package a file under the project root belongs to, as parts."""
    return list(path.relative_to(ROOT).parent.parts)


def _imported_modules(tree: ast.AST, package: list[str]):
    """(line, module) for every module an import statement names, anywhere in the tree
    (inside functions and classes too); relative imports are made absolute."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                up = node.level - 1
                base = package[: len(package) - up] if up <= len(package) else []
                stem = ".".join([*base, node.module] if node.module else base)
            else:
                stem = node.module or ""
            yield node.lineno, stem
            # ``from . import x`` / ``from .. import benchmarks`` names modules too.
            for alias in node.names:
                yield node.lineno, f"{stem}.{alias.name}" if stem else alias.name


def benchmark_imports(source: str, package: list[str]) -> list[tuple[int, str]]:
    """(line, module) for each import statement in ``source`` that reaches benchmarks/."""
    found = {}
    for line, module in _imported_modules(ast.parse(source), package):
        if module == FORBIDDEN or module.startswith(FORBIDDEN + "."):
            found.setdefault(line, module)  # one report per statement is enough
    return sorted(found.items())


def test_no_test_module_imports_benchmarks():
    found = []
    paths = sorted(TESTS.rglob("*.py"))
    assert len(paths) > 10, "the tests were not found"
    for path in paths:
        for line, module in benchmark_imports(path.read_text(encoding="utf-8"), _package_of(path)):
            found.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not found, "tests must not import benchmarks/ (use tests/support/):\n" + "\n".join(
        found)


@pytest.mark.parametrize("source", [
    "import benchmarks",
    "import benchmarks.audit",
    "import benchmarks.audit as audit",
    "import os, benchmarks.fuzz",
    "from benchmarks import brag_conservation",
    "from benchmarks.fault import FaultPlayer",
    "def test_x():\n    from benchmarks import brag_conservation\n",
    "class T:\n    def test_x(self):\n        import benchmarks.stack\n",
    "from .. import benchmarks",
    "from ..benchmarks.stack import Stack",
])
def test_the_check_sees_every_way_of_importing_benchmarks(source):
    assert benchmark_imports(source, ["tests"]), source


@pytest.mark.parametrize("source", [
    "import tests.support.audit",
    "from tests.support import brag_conservation",
    "from tests.support.stack import Stack",
    "from . import factories",
    "from .support.fuzz import judge",
    "import benchmarks_old",
    "from games import benchmarks_page",
    "x = 'benchmarks.load'",
])
def test_the_check_leaves_other_imports_alone(source):
    assert not benchmark_imports(source, ["tests"]), source
