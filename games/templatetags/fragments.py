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

register = template.Library()

_NAME = re.compile(r"[a-z][a-z0-9-]*\Z")


def start_marker(name: str) -> str:
    return f"<!--fragment:{name}-->"


def end_marker(name: str) -> str:
    return f"<!--/fragment:{name}-->"


class FragmentNode(template.Node):
    def __init__(self, name, nodelist):
        self.name = name
        self.nodelist = nodelist

    def render(self, context):
        name = str(self.name.resolve(context))
        if not _NAME.match(name):
            raise template.TemplateSyntaxError(f"bad fragment name {name!r}")
        return mark_safe(start_marker(name) + self.nodelist.render(context).strip()  # noqa: S308
                         + end_marker(name))


@register.tag
def fragment(parser, token):
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("{% fragment NAME %} takes one name")
    nodelist = parser.parse(("endfragment",))
    parser.delete_first_token()
    return FragmentNode(parser.compile_filter(bits[1]), nodelist)
