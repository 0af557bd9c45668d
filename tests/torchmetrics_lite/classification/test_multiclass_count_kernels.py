"""The multiclass counting kernels give the same counts and errors: the row argmax through the scores' integer bits
(``_stat_scores._bits_argmax``, taken on CPU from ``BITS_ARGMAX_MIN`` elements) is torch's float argmax (and
numpy's) on every input it accepts (ties, zeros, +inf, subnormals, each float dtype) and declines negative values,
-0.0, NaN and integer dtypes; every path that reads it (confusion matrix, scores, exact match, NaN errors) counts as
the float argmax; and the numpy count of small CPU batches (``_numpy_confmat``) equals the torch count
(``_backend.force``), errors included."""
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import torchmetrics_lite.functional as F
from torchmetrics_lite import _backend
from torchmetrics_lite.functional.classification import _stat_scores
from torchmetrics_lite.functional.classification._stat_scores import _bits_argmax

DTYPES = [torch.float16, torch.bfloat16, torch.float32, torch.float64]
# few distinct values, so that rows tie; the smallest subnormal of each dtype is added per test
POOL = [0.0, 0.25, 0.5, 0.5, 1.0, 3.0, 1e30, float("inf")]


@pytest.fixture
def always(monkeypatch):
    """The bits path at every size."""
    monkeypatch.setattr(_stat_scores, "BITS_ARGMAX_MIN", 0)


@pytest.fixture
def never(monkeypatch):
    monkeypatch.setattr(_stat_scores, "BITS_ARGMAX_MIN", 1 << 62)


def _tiny(dtype):
    return float(torch.finfo(dtype).smallest_normal) / 4 if dtype != torch.float64 else 5e-324


@settings(max_examples=30, deadline=None)
@given(rows=st.lists(st.lists(st.sampled_from(range(len(POOL) + 1)), min_size=5, max_size=5), min_size=1,
                     max_size=40),
       dtype=st.sampled_from(DTYPES))
def test_bits_argmax_is_the_float_argmax_and_numpys(rows, dtype):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_stat_scores, "BITS_ARGMAX_MIN", 0)
        values = POOL + [_tiny(dtype)]
        preds = torch.tensor([[values[i] for i in row] for row in rows], dtype=torch.float64).to(dtype)
        labels = _bits_argmax(preds)
        assert labels is not None and labels.dtype == torch.int64
        assert torch.equal(labels, preds.argmax(dim=1))
        assert np.array_equal(labels.numpy(), preds.double().numpy().argmax(axis=1))  # exact: every dtype fits


@pytest.mark.parametrize("dtype", DTYPES)
def test_bits_argmax_on_strided_and_large_inputs(dtype):
    g = torch.Generator().manual_seed(0)
    wide = (torch.rand(7000, 40, generator=g) * 8).round().to(dtype)  # ties in most rows
    view = wide[:, ::4]  # not contiguous: the bits are read through the same strides
    assert view.numel() >= _stat_scores.BITS_ARGMAX_MIN
    labels = _bits_argmax(view)
    assert labels is not None and torch.equal(labels, view.argmax(dim=1))


@pytest.mark.parametrize("bad, why", [
    ([[0.2, -0.1], [0.3, 0.1]], "a negative value in the first row"),
    ([[0.2, 0.1], [0.3, -0.1]], "a negative value later"),
    ([[0.2, 0.1], [-0.0, 0.0]], "-0.0 (a sign bit; it ties +0.0 as a float)"),
    ([[0.2, 0.1], [float("nan"), 0.0]], "NaN"),
    ([[0.2, 0.1], [0.0, -float("nan")]], "a NaN with its sign bit set"),
])
def test_bits_argmax_declines_what_its_bits_do_not_order(always, bad, why):
    preds = torch.tensor(bad)
    assert _bits_argmax(preds) is None, why
    assert _bits_argmax(torch.tensor([[1, 2], [3, 4]])) is None  # integer scores are not floats


def test_bits_argmax_waits_for_size():
    small = torch.rand(8, 3)
    assert _bits_argmax(small) is None
    large = torch.rand(_stat_scores.BITS_ARGMAX_MIN // 4 + 1, 4)
    labels = _bits_argmax(large)
    assert labels is not None and torch.equal(labels, large.argmax(dim=1))


def test_flush_denormal_mode_counts_as_the_float_argmax(always):
    """Under torch.set_flush_denormal(True) the float argmax (and numpy's) reads a subnormal as 0, a tie with an
    earlier 0; the bits would order it above, so the bits path stands aside."""
    preds = torch.tensor([[0.0, 1e-45, 0.5e-45], [1e-45, 0.0, 0.0], [0.2, 0.1, 0.3]])
    target = torch.tensor([1, 0, 2])
    try:
        flushing = torch.set_flush_denormal(True)
        expected = torch.bincount(target * 3 + preds.argmax(dim=1), minlength=9).view(3, 3)
        assert _bits_argmax(preds) is None or not flushing
        for backend in ("numpy", "torch"):
            with _backend.force(backend):
                assert torch.equal(F.multiclass_confusion_matrix(preds, target, 3), expected)
        assert torch.equal(F.multiclass_exact_match(preds, target, 3), expected.trace().double() / 3)
    finally:
        torch.set_flush_denormal(False)
    assert torch.equal(_bits_argmax(preds), torch.tensor([1, 0, 2]))  # the mode off: subnormals order again


def _scores(n=400, c=6, negative=False, seed=0):
    g = torch.Generator().manual_seed(seed)
    scores = (torch.rand(n, c, generator=g) * 4).round() / 4  # ties
    return (scores - 0.5 if negative else scores), torch.randint(0, c, (n,), generator=g)


COUNTS = [
    lambda s, t, c, v: F.multiclass_confusion_matrix(s, t, c, validate_args=v),
    lambda s, t, c, v: F.multiclass_stat_scores(s, t, c, average=None, validate_args=v),
    lambda s, t, c, v: F.multiclass_negative_predictive_value(s, t, c, validate_args=v),
    lambda s, t, c, v: F.multiclass_hamming_distance(s, t, c, "micro", validate_args=v),
    lambda s, t, c, v: F.multiclass_f1_score(s, t, c, ignore_index=1, validate_args=v),
    lambda s, t, c, v: F.multiclass_accuracy(s, t, c, weight=torch.rand(t.shape[0]), validate_args=v),
    lambda s, t, c, v: F.multiclass_exact_match(s.reshape(40, 10, c).transpose(1, 2), t.reshape(40, 10), c,
                                                validate_args=v),
]


@pytest.mark.parametrize("metric", range(len(COUNTS)))
@pytest.mark.parametrize("negative", [False, True])
def test_counts_through_the_bits_are_those_of_the_float_argmax(monkeypatch, metric, negative):
    scores, target = _scores(negative=negative)
    values = {}
    for floor in (0, 1 << 62):
        monkeypatch.setattr(_stat_scores, "BITS_ARGMAX_MIN", floor)
        torch.manual_seed(0)  # the weight of the weighted row
        values[floor] = [COUNTS[metric](scores, target, 6, v) for v in (True, False)]
    for fast, slow in zip(values[0], values[1 << 62]):
        torch.testing.assert_close(fast, slow, rtol=0, atol=0, equal_nan=True)


@pytest.mark.parametrize("floor", ["always", "never"])
def test_nan_scores_raise_with_checks_and_count_as_torch_argmax_without(request, floor):
    request.getfixturevalue(floor)
    scores, target = _scores()
    with pytest.raises(ValueError, match=r"Expected `target` to hold labels in \[0, 5\], got values in \[0, 6\]"):
        F.multiclass_confusion_matrix(scores, torch.where(target == 3, 6, target), 6)
    scores[7, 2] = float("nan")
    with pytest.raises(ValueError, match=r"Expected `preds` to contain no NaN, got 1 NaN value\(s\)"):
        F.multiclass_confusion_matrix(scores, target, 6)
    with pytest.raises(ValueError, match=r"Expected `preds` to contain no NaN, got 1 NaN value\(s\)"):
        F.multiclass_exact_match(scores.reshape(40, 10, 6).transpose(1, 2), target.reshape(40, 10), 6)
    expected = torch.bincount(target * 6 + scores.argmax(dim=1), minlength=36).view(6, 6)  # NaN is a maximum
    assert torch.equal(F.multiclass_confusion_matrix(scores, target, 6, validate_args=False), expected)


def _count_inputs():
    g = torch.Generator().manual_seed(3)
    ties = (torch.rand(300, 7, generator=g) * 3).round()
    target = torch.randint(0, 7, (300,), generator=g)
    nan = ties.clone()
    nan[[4, 9], [1, 6]] = float("nan")
    infs = ties.clone()
    infs[5] = torch.tensor([float("inf"), -float("inf"), 0, 0, 0, 0, 0])
    infs[6] = -float("inf")
    return [
        ("tied scores", ties, target), ("logits", torch.randn(300, 7, generator=g), target),
        ("uint8 target", ties, target.to(torch.uint8)), ("float16", ties.half(), target),
        ("bfloat16", ties.bfloat16(), target), ("float64", ties.double(), target), ("infinities", infs, target),
        ("labels", target.roll(1), target), ("int32 labels", target.roll(1).int(), target),
        ("bool labels", target.roll(1) > 3, (target > 3).long()), ("empty", ties[:0], target[:0]),
        ("extra dims", ties.reshape(30, 10, 7).transpose(1, 2), target.reshape(30, 10)),
        ("NaN scores (no checks: the first NaN is the maximum)", nan, target),
    ]


@pytest.mark.parametrize("case", _count_inputs(), ids=lambda case: case[0])
def test_numpy_and_torch_counts_are_equal(case):
    _, preds, target = case
    checks = [False] if "NaN" in case[0] else [True, False]
    for validate_args in checks:
        counts = {}
        for backend in ("numpy", "torch"):
            with _backend.force(backend):
                counts[backend] = F.multiclass_confusion_matrix(preds, target, 7, validate_args=validate_args)
        assert counts["numpy"].dtype == counts["torch"].dtype == torch.int64
        assert torch.equal(counts["numpy"], counts["torch"])
    is_labels = preds.dim() == target.dim()
    labels = preds.reshape(-1).long() if is_labels else preds.movedim(1, -1).reshape(-1, 7).float().argmax(dim=1)
    expected = torch.bincount(target.reshape(-1).long() * 7 + labels, minlength=49).view(7, 7)  # by hand
    assert torch.equal(counts["numpy"], expected)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_both_counts_report_bad_values_alike(backend):
    scores, labels = torch.rand(3, 7), r"Expected `target` to hold labels in \[0, 6\], got values in "
    with _backend.force(backend):
        with pytest.raises(ValueError, match=labels + r"\[0, 7\]"):
            F.multiclass_confusion_matrix(scores, torch.tensor([0, 7, 1]), 7)
        for validate_args in (True, False):  # a negative bin makes either bincount raise, then the check
            with pytest.raises(ValueError, match=labels + r"\[-1, 1\]"):
                F.multiclass_confusion_matrix(scores, torch.tensor([0, -1, 1]), 7, validate_args=validate_args)
        unchecked = F.multiclass_confusion_matrix(scores, torch.tensor([0, 7, 1]), 7, validate_args=False)
        assert int(unchecked.sum()) == 2  # without checks a target >= C is dropped, by both
        scores[1, 3] = float("nan")
        with pytest.raises(ValueError, match=r"Expected `preds` to contain no NaN, got 1 NaN value\(s\)"):
            F.multiclass_confusion_matrix(scores, torch.tensor([0, 6, 1]), 7)
