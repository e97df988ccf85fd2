"""The servers' collector setting (stopbus_site/memory.py): once per process, and off
when STOPBUS_GC_TUNING is off."""

import gc

import pytest

from stopbus_site import memory


@pytest.fixture
def fresh_collector(monkeypatch):
    thresholds = gc.get_threshold()
    monkeypatch.setattr(memory, "_settled", False)
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_settle_freezes_what_is_loaded_and_raises_the_thresholds_once(fresh_collector, settings):
    settings.STOPBUS_GC_THRESHOLDS = (12_345, 20, 20)
    gc.unfreeze()
    assert memory.settle() is True
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (12_345, 20, 20)
    gc.set_threshold(700, 10, 10)
    assert memory.settle() is False  # once per process
    assert gc.get_threshold() == (700, 10, 10)


def test_settle_leaves_pythons_defaults_when_turned_off(fresh_collector, settings):
    settings.STOPBUS_GC_TUNING = False
    before = gc.get_threshold()
    assert memory.settle() is False
    assert gc.get_threshold() == before
