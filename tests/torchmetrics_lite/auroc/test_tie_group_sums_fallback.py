"""The sampled tie-group kernel of the AUROC family's ``groups`` (issue 23 item 9): a score that is absent from the
strided sample and equal to the first key of an empty bucket must fail the sampled kernel (whose table holds, in an
empty bucket, a key of the bucket below) and be counted exactly by the fallback. Deterministic: the sample positions
are every ``n // 2**16``-th value, so the values placed off those positions are never sampled."""
import numpy as np
import pytest

from torchmetrics_lite.functional.auroc._kernels import groups as _sort_keys  # the tie-group sums

N = 8 * (1 << 16)  # the smallest input the sampled kernel takes: it samples every 8th value
B = int(np.float32(0.5).view(np.int32))  # a multiple of 16: the keys below share their high bits
# sampled keys B, B + 4, B + 16: adjacent keys differ first at bit 2, so the buckets are key >> 2 and buckets
# (B + 8) >> 2 and (B + 12) >> 2 are empty; their table keys are B + 7 and B + 11 (the bucket below's)
SAMPLED = np.array([B, B + 4, B + 16], dtype=np.int32)


def _data(rogue_bits):
    rng = np.random.default_rng(9)
    bits = SAMPLED[np.arange(N) % 3]  # every position, sampled or not, holds a sampled value...
    bits[1::8] = rogue_bits  # ...but these never-sampled positions hold the rogue value
    values = bits.view(np.float32)
    labels = rng.integers(0, 2, N).astype(np.uint8)
    weights = rng.random(N).astype(np.float32)
    return values, labels, weights


def _brute_force(values, labels, weights):
    distinct, inverse = np.unique(values, return_inverse=True)
    w = weights.astype(np.float64)
    return (distinct, np.bincount(inverse, weights=w * (labels == 0), minlength=distinct.size),
            np.bincount(inverse, weights=w * (labels == 1), minlength=distinct.size))


def _check(got, expected):
    assert got is not None
    np.testing.assert_array_equal(got[0], expected[0])
    for a, b in zip(got[1:], expected[1:]):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_the_sampled_kernel_counts_when_every_value_is_in_the_sample():
    values, labels, weights = _data(SAMPLED[1])  # the "rogue" is a sampled value: the sample is complete
    got = _sort_keys._sampled_groups(values, labels, weights)
    _check(got, _brute_force(values, labels, weights))


@pytest.mark.parametrize("rogue", [B + 8, B + 12, B + 9, B + 5, B + 20],
                         ids=["first key of empty bucket", "first key of the next empty bucket",
                              "inside an empty bucket", "inside a full bucket", "above the table"])
def test_a_value_outside_the_sample_fails_the_sampled_kernel_and_is_counted_exactly(rogue):
    values, labels, weights = _data(rogue)
    assert _sort_keys._sampled_groups(values, labels, weights) is None
    _check(_sort_keys.tie_group_weights(values, labels, weights), _brute_force(values, labels, weights))
