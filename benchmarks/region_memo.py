"""Tried and measured, not kept: a board region rendered again only when something it
reads changed.

    .venv/bin/python -m benchmarks.profile_board --region-memo   # against the same without

``benchmarks.profile_board --region-memo`` puts :func:`render` under the pass's region
renders (``games.render.own_regions``); the product renders every region asked for.
Measured 2026-11-28 (README, Performance): of about 27 regions a move asks for, 12.5 are
rendered and the rest are memo hits, but the move's CPU does not go down: the key of a
region (its values looked up and spelled out) costs about as much as rendering a small
region, and the regions that cost most (the status, the mover's seat) change at every
move.

A region (``{% partialdef NAME inline %}`` of a board template) reads a handful of the
board context's values: ``view.widow``, ``controls.swap``, ``view.hand_no``... This
module reads the region's template once and lists every value it reads (each variable's
whole path, in every tag, filter argument, condition, loop and included template), then
keys each rendering by what those values are now, spelled out (``repr`` of plain data),
with the language and time zone. A region whose values are the same as at a rendering
before is that rendering again, whichever table, seat or spectator it was for: equal
inputs, equal output. The pass (``games.actions.publish``) would thus render, of each
audience's regions, only those whose inputs moved; the rest are memo hits.

What makes a region's output depend on more than the values it names is refused, and
that region is rendered every time (:func:`inputs_of` gives ``None``):

- a tag or filter this module does not know to be a pure function of its arguments
  (a tag that reads the context, the database or the clock);
- a node kind it does not know (``{% now %}``, ``{% ifchanged %}``, ``{% debug %}``...);
- at rendering, a value that is not plain data (a model instance, a callable, a lazy
  object): its ``repr`` would not spell out what the template reads of it. Plain data
  is None, booleans, numbers, text, dates and times, ranges, and lists, tuples, sets,
  dicts and dataclasses of plain data.
"""

from __future__ import annotations

import collections
import dataclasses
import datetime
import decimal
import hashlib
import json

from django.template import Node, NodeList, Variable, defaulttags, library, loader_tags
from django.template import base as template_base
from django.template.base import FilterExpression, TextNode, VariableNode
from django.template.loader import get_template
from django.templatetags import i18n, static
from django.utils import timezone, translation
from template_partials.templatetags import partials

from games.memo import Once

__all__ = ["inputs_of", "render", "stats"]

# the project's own tags and filters that are pure functions of their arguments (and of
# the language, which is part of every key); any other custom one makes its region
# rendered every time
PURE_TAGS = frozenset({
    "card", "card_backs", "card_choice", "seat_box", "memo_box", "seat_badges",
    "log_entries", "icon", "icon_symbols", "hand_words", "own_language_names",
    "time_left_attrs",
})
PURE_FILTER_MODULES = ("django.template.defaultfilters", "games.templatetags.cards",
                       "games.templatetags.i18n_cards", "games.templatetags.turns",
                       "stats.templatetags.stats_format")

_RENDERED = Once(8192)
_INPUTS: dict[str, tuple | None] = {}
WHY: dict[str, str] = {}  # why a region's last rendering could not be keyed
_COUNTS: collections.Counter = collections.Counter()  # (template#region, outcome)


class _Unknown(Exception):
    """The region reads something this module cannot key it by."""


def stats() -> collections.Counter:
    """How many of each region's renderings were memo hits ("hit"), rendered ("render"),
    or rendered as they could not be keyed ("unkeyed"): {(template#region, outcome): n}."""
    return collections.Counter(_COUNTS)


def clear() -> None:
    _RENDERED.clear()
    _INPUTS.clear()
    _COUNTS.clear()
    WHY.clear()


# -- what a template reads ------------------------------------------------------------------------


def inputs_of(name: str) -> tuple[tuple[str, ...], ...] | None:
    """The paths of every value template ``name`` (``"file#partial"`` too) reads, shortest
    first, each one not under another; None if its output may depend on anything else."""
    if name not in _INPUTS:
        paths: set[tuple[str, ...]] = set()
        try:
            _walk(get_template(name).template.nodelist, paths, seen={name})
            found = sorted(paths, key=lambda p: (len(p), p))
            kept: list[tuple[str, ...]] = []
            for path in found:  # a path under one kept already adds nothing
                if not any(path[:len(k)] == k for k in kept):
                    kept.append(path)
            _INPUTS[name] = tuple(kept)
        except _Unknown:
            _INPUTS[name] = None
    return _INPUTS[name]


def _walk(nodes, paths: set, seen: set) -> None:
    for node in nodes:
        _node(node, paths, seen)


def _expr(fe, paths: set) -> None:
    """A FilterExpression (or a Variable, or a literal): its variable and its filters'
    variable arguments."""
    if fe is None or isinstance(fe, str | int | float):
        return
    if isinstance(fe, Variable):
        if fe.lookups is not None:
            paths.add(tuple(fe.lookups))
        return
    if not isinstance(fe, FilterExpression):
        raise _Unknown(type(fe).__name__)
    _expr(fe.var, paths)
    for func, args in fe.filters:
        module = getattr(func, "__module__", "")
        if module not in PURE_FILTER_MODULES:
            raise _Unknown(f"filter {func.__name__} of {module}")
        for is_variable, arg in args:
            if is_variable:
                _expr(arg, paths)


def _condition(cond, paths: set, truth: bool = True) -> None:
    """An ``{% if %}`` condition. A bare variable whose truth is all that is asked of it
    (the whole condition, or an operand of ``and``, ``or``, ``not``) is read as its truth
    alone (:data:`TRUTH` before its path): ``{% if game %}`` depends on there being a
    game, not on the game's row."""
    if cond is None:
        return
    if isinstance(cond, defaulttags.TemplateLiteral):
        fe = cond.value
        if (truth and isinstance(fe, FilterExpression) and not fe.filters
                and isinstance(fe.var, Variable) and fe.var.lookups is not None):
            paths.add((TRUTH, *fe.var.lookups))
        else:
            _expr(fe, paths)
        return
    op = getattr(cond, "id", None)
    if op is None:
        raise _Unknown(type(cond).__name__)
    keeps_truth = truth and op in ("and", "or", "not")
    _condition(getattr(cond, "first", None), paths, keeps_truth)
    _condition(getattr(cond, "second", None), paths, keeps_truth)


def _node(node: Node, paths: set, seen: set) -> None:
    if isinstance(node, TextNode | defaulttags.LoadNode | defaulttags.CommentNode):
        return
    if isinstance(node, VariableNode):
        _expr(node.filter_expression, paths)
    elif isinstance(node, defaulttags.IfNode):
        for cond, nodelist in node.conditions_nodelists:
            _condition(cond, paths)
            _walk(nodelist, paths, seen)
    elif isinstance(node, defaulttags.ForNode):
        _expr(node.sequence, paths)
        _walk(node.nodelist_loop, paths, seen)
        _walk(node.nodelist_empty, paths, seen)
    elif isinstance(node, defaulttags.WithNode):
        for fe in node.extra_context.values():
            _expr(fe, paths)
        _walk(node.nodelist, paths, seen)
    elif isinstance(node, library.SimpleNode | library.InclusionNode):
        if node.takes_context or node.func.__name__ not in PURE_TAGS:
            raise _Unknown(f"tag {node.func.__name__}")
        for fe in node.args:
            _expr(fe, paths)
        for fe in node.kwargs.values():
            _expr(fe, paths)
    elif isinstance(node, i18n.TranslateNode):
        _expr(node.filter_expression, paths)
        # the message context, if a variable
        if isinstance(node.message_context, FilterExpression):
            _expr(node.message_context, paths)
    elif isinstance(node, i18n.BlockTranslateNode):
        for fe in node.extra_context.values():
            _expr(fe, paths)
        if node.counter is not None:
            _expr(node.counter, paths)
        if isinstance(node.message_context, FilterExpression):
            _expr(node.message_context, paths)
        for token in (*node.singular, *(node.plural or ())):
            if token.token_type == template_base.TokenType.VAR:
                paths.add((token.contents,))
    elif isinstance(node, defaulttags.URLNode):
        _expr(node.view_name, paths)
        for fe in (*node.args, *node.kwargs.values()):
            _expr(fe, paths)
    elif isinstance(node, defaulttags.CsrfTokenNode):
        paths.add(("csrf_token",))
    elif isinstance(node, static.StaticNode):
        _expr(node.path, paths)
    elif isinstance(node, loader_tags.IncludeNode):
        name = node.template.var if isinstance(node.template, FilterExpression) else None
        if not isinstance(name, str) or node.isolated_context:
            raise _Unknown("include of a template named by a variable")
        for fe in node.extra_context.values():
            _expr(fe, paths)
        if name not in seen:
            _walk(get_template(name).template.nodelist, paths, seen | {name})
    elif isinstance(node, partials.DefinePartialNode | defaulttags.SpacelessNode
                    | defaulttags.AutoEscapeControlNode):
        _walk(node.nodelist, paths, seen)
    elif isinstance(node, NodeList):
        _walk(node, paths, seen)
    else:
        raise _Unknown(type(node).__name__)


# -- keyed by the values read now -----------------------------------------------------------------

_MISSING = "<missing>"
TRUTH = "?"  # a path read for its truth only (``{% if game %}``)
_PLAIN_SCALARS = (type(None), bool, int, float, str, decimal.Decimal, datetime.date,
                  datetime.time, datetime.timedelta, range)


def _resolve(context: dict, path: tuple[str, ...]):
    """What ``{{ a.b.c }}`` depends on, looked up the way Django's Variable does for plain
    data (a key, an index, an attribute): the value at the path, :data:`_MISSING` where
    nothing is found, or the container itself where the template would call one of its
    methods (``controls.items``: the output is the dict's)."""
    if path[0] == TRUTH:
        value = _resolve(context, path[1:])
        return value if value is _MISSING else bool(value)
    if path[0] not in context:
        return _MISSING  # a name the template sets itself (a loop's, a with's)
    value = context[path[0]]
    for bit in path[1:]:
        if isinstance(value, dict):
            if bit in value:
                value = value[bit]
            elif hasattr(value, bit):
                return value  # a method of the dict: what it gives is the dict's
            else:
                return _MISSING
        elif isinstance(value, list | tuple | str | range):
            try:
                value = value[int(bit)]
            except ValueError:
                return value if hasattr(value, bit) else _MISSING
            except IndexError:
                return _MISSING
        elif isinstance(value, _PLAIN_SCALARS):
            return value  # an attribute of a number, a date...: theirs
        elif hasattr(value, "__getitem__") and not dataclasses.is_dataclass(value):
            raise _Unknown(f"{'.'.join(path)}: looked up in a {type(value).__name__}")
        else:
            value = getattr(value, bit, _MISSING)
            if value is _MISSING:
                return _MISSING
        if callable(value):
            raise _Unknown(f"{'.'.join(path)} is called")
    if callable(value):
        raise _Unknown(f"{path[0]} is called")
    return value


def _plain(value):
    """How :func:`_spell` writes what JSON has no word for: dates and times, decimals,
    ranges, sets, tuples of dataclasses' fields; anything else is not plain data."""
    if isinstance(value, datetime.date | datetime.time | datetime.timedelta | decimal.Decimal
                  | range):
        return [type(value).__name__, str(value)]
    if isinstance(value, set | frozenset):
        return ["set", sorted(value, key=repr)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [type(value).__name__,
                [getattr(value, f.name) for f in dataclasses.fields(value)]]
    raise _Unknown(type(value).__name__)


_ENCODE = json.JSONEncoder(default=_plain, check_circular=False, ensure_ascii=False,
                           separators=(",", ":")).encode


def _spell(values: tuple) -> str:
    """The values spelled out exactly (JSON, fast); anything not plain data raises
    :class:`_Unknown`. (A board context holds no text marked safe or lazy: a test reads
    every value its regions read.)"""
    try:
        return _ENCODE(values)
    except (TypeError, ValueError) as error:  # a key JSON cannot write
        raise _Unknown(str(error)) from None


def render(name: str, context: dict) -> str:
    """Template ``name`` rendered with ``context``: once per distinct set of the values it
    reads (in this language and time zone); every time if it cannot be keyed so."""
    template = get_template(name)
    paths = inputs_of(name)
    if paths is not None:
        try:
            spelled = _spell(tuple(_resolve(context, p) for p in paths))
        except _Unknown as why:
            WHY[name] = str(why)
            spelled = None
        if spelled is not None:
            key = (name, translation.get_language(), timezone.get_current_timezone_name(),
                   hashlib.blake2b(spelled.encode(), digest_size=16).digest())
            made = []

            def make() -> str:
                made.append(1)
                return template.render(context)

            html = _RENDERED.get(key, make)
            _COUNTS[name, "render" if made else "hit"] += 1
            return html
    _COUNTS[name, "unkeyed"] += 1
    return template.render(context)


class _Memoized:
    """A template from ``get_template`` whose ``render`` goes through :func:`render`."""

    def __init__(self, name: str):
        self.name = name
        self.real = get_template(name)

    def __getattr__(self, attr):
        return getattr(self.real, attr)

    def render(self, context=None, request=None):
        return render(self.name, context)


def install() -> None:
    """Put the memo under ``games.render``'s region renders (this process only)."""
    from games import render as board_render

    board_render.get_template = _Memoized
