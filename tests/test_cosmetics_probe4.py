"""The fourth visitor probe's cosmetic defects that the HTML shows (the layout ones are in
tests/test_cosmetics_probe4_browser.py).

The time-zone select reads as places ("Buenos Aires (Argentina)", grouped by region as
before) while each option's value, and so what is checked and saved, stays the exact IANA
name; the list is made once.
"""

import re

import pytest

from accounts.timezones import available, time_zone_choices, time_zone_groups, zone_label

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("name", "label"), [
    ("America/Argentina/Buenos_Aires", "Buenos Aires (Argentina)"),
    ("America/North_Dakota/New_Salem", "New Salem (North Dakota)"),
    ("America/New_York", "New York"),
    ("Europe/London", "London"),
    ("Asia/Tokyo", "Tokyo"),
    ("UTC", "UTC"),
])
def test_a_zone_reads_as_its_place(name, label):
    assert zone_label(name) == label


def test_the_groups_read_as_places_and_keep_the_exact_names():
    single, groups = time_zone_groups()
    regions = [region for region, _zones in groups]
    assert regions == sorted(regions) and "America" in regions and "Europe" in regions
    values = [value for value, _label in single]
    values += [value for _region, zones in groups for value, _label in zones]
    # every zone once, by its exact name
    assert sorted(values) == sorted(available()) and len(values) == len(set(values))
    for region, zones in groups:
        labels = [label for _value, label in zones]
        assert len(labels) == len(set(labels)), region  # no two read alike in a group
        assert labels == sorted(labels, key=str.casefold), region
        for value, label in zones:
            assert value.startswith(region + "/") and "/" not in label and "_" not in label
    america = dict(dict(groups)["America"])
    assert america["America/Argentina/Buenos_Aires"] == "Buenos Aires (Argentina)"
    assert america["America/Los_Angeles"] == "Los Angeles"
    # made once: the same lists each time
    assert time_zone_groups() is time_zone_groups()
    assert time_zone_choices()[len(single):] == groups


def test_the_select_shows_places_and_saves_the_exact_name(user_client, user):
    html = user_client.get("/notifications/preferences/").content.decode()
    assert ('<option value="America/Argentina/Buenos_Aires">Buenos Aires (Argentina)</option>'
            in html)
    assert '<optgroup lang="en" label="America">' in html
    assert ">America/Argentina/Buenos_Aires<" not in html and ">Buenos_Aires" not in html
    response = user_client.post("/notifications/preferences/", {
        "digest": "on", "digest_hour": "8", "time_zone": "America/Argentina/Buenos_Aires"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.time_zone == "America/Argentina/Buenos_Aires"
    user.full_clean()  # the model's own choices and check take the exact name
    html = user_client.get("/notifications/preferences/").content.decode()
    assert re.search(r'<option value="America/Argentina/Buenos_Aires" selected>'
                     r'Buenos Aires \(Argentina\)</option>', html)
    # a label is not a zone
    user_client.post("/notifications/preferences/", {
        "digest_hour": "8", "time_zone": "Buenos Aires (Argentina)"})
    user.refresh_from_db()
    assert user.time_zone == "America/Argentina/Buenos_Aires"


def test_the_time_zones_offered_are_places():
    """The post-table probe: the list offered "Factory" and "localtime", which are no place
    (a zone of "-00" for unset machines, and the server's own setting)."""
    from accounts.timezones import available, time_zone_choices

    offered = {value for group in time_zone_choices()
               for value in ([group[0]] if isinstance(group[1], str) else
                             [name for name, _label in group[1]])}
    assert "Factory" not in offered and "localtime" not in offered
    assert {"UTC", "Europe/London", "Asia/Tokyo"} <= offered
    assert "Factory" not in available()
