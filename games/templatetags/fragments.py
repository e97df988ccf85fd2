"""Named regions of a board: the parts a viewer is sent again when they change.

``{% fragment "middle" %}<section id="middle">…</section>{% endfragment %}`` renders
its content between two HTML comments naming the region. The renderer splits a
board at the markers and sends a viewer only the regions whose HTML differs from
what that viewer was last sent (``games.render``), without the markers. Each
region's content is one element whose id is the region's name, so htmx swaps it in
place. A region may hold regions (a seat holds its badges): when nothing else in it
changed, only those of them that did are sent.
"""

import re

from django import template
from django.utils.safestring import mark_safe

from games.memo import Once
from games.regions import NAME

register = template.Library()

# ``{% fragment "tools" kept %}``: a region that shows only the table's row, its seats,
# the game's players, who watches, which game it is and whether it runs -- never the
# cards, the turn or the clock. ``games.render`` puts under KEEP what such a region's
# HTML then depends on (the board's template, ``TableData.kept_key``, the view's key:
# seat, language, host); it is rendered once for each, not after every move. Without
# KEEP in the context (the table page's first render, with its request) it is rendered.
KEEP = "kept_regions"
KEPT = Once(4096)

_NAME = re.compile(rf"{NAME}\Z")


def start_marker(name: str) -> str:
    return f"<!--fragment:{name}-->"


def end_marker(name: str) -> str:
    return f"<!--/fragment:{name}-->"


class FragmentNode(template.Node):
    def __init__(self, name, nodelist, kept=False):
        self.name = name
        self.nodelist = nodelist
        self.kept = kept

    def render(self, context):
        name = str(self.name.resolve(context))
        if not _NAME.match(name):
            raise template.TemplateSyntaxError(f"bad fragment name {name!r}")
        keep = context.get(KEEP) if self.kept else None
        if keep is None:
            return self._render(name, context)
        return KEPT.get((name, keep), lambda: self._render(name, context))

    def _render(self, name, context):
        return mark_safe(start_marker(name) + self.nodelist.render(context).strip()  # noqa: S308
                         + end_marker(name))


@register.tag
def fragment(parser, token):
    bits = token.split_contents()
    if len(bits) not in (2, 3) or (len(bits) == 3 and bits[2] != "kept"):
        raise template.TemplateSyntaxError("{% fragment NAME %} takes one name, and may be "
                                           "kept: {% fragment NAME kept %}")
    nodelist = parser.parse(("endfragment",))
    parser.delete_first_token()
    return FragmentNode(parser.compile_filter(bits[1]), nodelist, kept=len(bits) == 3)
