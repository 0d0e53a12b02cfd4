"""The debouncer: a change counts only after `agreeing_scans` consecutive scans."""

from __future__ import annotations

import pytest

from hardware.debounce import Debouncer


def test_a_change_counts_on_the_second_agreeing_scan_by_default():
    d = Debouncer()
    assert d.update(frozenset({5})) == frozenset()
    assert d.update(frozenset({5})) == frozenset({5})
    assert d.scan_period == 0.010 and d.settle_time == pytest.approx(0.010)


def test_a_one_scan_blip_is_rejected_and_counted():
    d = Debouncer(agreeing_scans=3)
    d.update(frozenset({7}))
    d.update(frozenset({7}))
    d.update(frozenset())
    assert d.stable == frozenset()
    assert d.rejected[7] == 1
    for _ in range(3):
        d.update(frozenset({7}))
    assert d.stable == frozenset({7})


def test_squares_are_debounced_independently():
    d = Debouncer(agreeing_scans=2)
    d.update(frozenset({1}))
    assert d.update(frozenset({1, 2})) == frozenset({1})  # 2 seen once, 1 seen twice
    assert d.update(frozenset({1, 2})) == frozenset({1, 2})
    d.update(frozenset({2}))
    assert d.update(frozenset({2})) == frozenset({2})


def test_one_agreeing_scan_means_no_filtering_and_bad_settings_are_refused():
    assert Debouncer(agreeing_scans=1).update(frozenset({3})) == frozenset({3})
    with pytest.raises(ValueError, match="agreeing_scans"):
        Debouncer(agreeing_scans=0)
    with pytest.raises(ValueError, match="scan_period"):
        Debouncer(scan_period=0)


def test_reset_forgets_state():
    d = Debouncer(agreeing_scans=1)
    d.update(frozenset({4}))
    d.reset()
    assert d.stable == frozenset() and not d.rejected
