from django import template

from notify.models import TableMute

register = template.Library()


@register.simple_tag(takes_context=True)
def table_muted(context, table) -> bool:
    """Has the viewer muted notifications from ``table``?"""
    user = context.get("user")
    if user is None or not user.is_authenticated or table is None:
        return False
    return TableMute.objects.filter(user_id=user.pk, table_id=table.pk).exists()
