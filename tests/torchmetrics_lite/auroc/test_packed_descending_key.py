"""The 62-bit descending key of non-negative float64 below 2 (``desc_key62`` of the AUROC family's
packed kernel): its order and equality against numpy's sort of the values, its decoding, and what it refuses."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from torchmetrics_lite.functional.auroc._kernels.packed import decode_desc_key62, desc_key62

TINY = 5e-324  # the smallest subnormal
EDGES = [0.0, TINY, 2 * TINY, 2.2250738585072014e-308, 0.5, 1.0, np.nextafter(1.0, 2.0), np.nextafter(2.0, 0.0)]
values = st.lists(st.one_of(st.floats(0.0, 2.0, exclude_max=True, allow_subnormal=True), st.sampled_from(EDGES)),
                  min_size=1, max_size=60)


@settings(max_examples=60, deadline=None)
@given(values, st.integers(0, 3))
def test_the_key_orders_descending_equal_where_the_values_are_and_decodes(xs, decimals):
    a = np.array(xs, dtype=np.float64)
    if decimals:  # ties
        a = np.round(a, decimals).clip(0.0, np.nextafter(2.0, 0.0)) + 0.0
    key = desc_key62(a)
    assert key is not None and key.dtype == np.int64 and key.min() >= 0 and key.max() < 2**62
    order = np.argsort(key, kind="stable")
    want = np.sort(a)[::-1]
    assert np.array_equal(a[order], want)  # descending by value
    same_key, same_value = key[:, None] == key[None, :], a[:, None] == a[None, :]
    assert np.array_equal(same_key, same_value)
    assert np.array_equal(decode_desc_key62(key).view(np.int64), a.view(np.int64))  # lossless, bit for bit
    packed = (key << 1) | (np.arange(a.size) % 2)  # room for the label bit: non-negative, order kept
    assert packed.min() >= 0 and np.array_equal(a[np.argsort(packed, kind="stable")], want)
    assert np.array_equal(np.sort(packed) >> 1, np.sort(key))


def test_the_edges_sort_as_their_values():
    a = np.array(EDGES[::-1] + EDGES, dtype=np.float64)
    key = desc_key62(a)
    assert np.array_equal(a[np.argsort(key, kind="stable")], np.sort(a)[::-1])


@pytest.mark.parametrize("bad", [-0.0, -TINY, -1.0, 2.0, 3.5, np.inf, np.nan, -np.nan, -np.inf])
def test_values_outside_zero_to_two_and_minus_zero_are_refused(bad):
    a = np.array([0.25, 1.0, bad, 0.0])
    assert desc_key62(a) is None


def test_only_float64_and_empty():
    assert desc_key62(np.array([0.5, 0.25], dtype=np.float32)) is None
    assert desc_key62(np.zeros(0)).shape == (0,)
    rows = np.array([[0.5, 0.25, 0.5], [1.0, 0.0, 0.75]])
    assert np.array_equal(desc_key62(rows), np.array([[desc_key62(r)[i] for i in range(3)] for r in rows]))
