"""torchmetrics' other regression names (issue 35 item 6): each against scipy / scikit-learn or the formula by hand,
streamed over any batch split and merged (the shared harness), its errors raised before any state change, and
ported: the same number as torchmetrics 1.9 on random inputs, modules and functions. The batches and the oracle
table are in ``tests/helpers/regression/measures.py`` (the float64-less and distributed tests stream them too)."""
import math
from functools import partial

import numpy as np
import pytest
import torch
from sklearn import metrics as sk

import torchmetrics_lite as tl
import torchmetrics_lite.functional as F
from tests.helpers.metric_tester import assert_close, check_metric, check_rejects, check_streaming, concat
from tests.helpers.regression.measures import CASES, ENSEMBLE, EVENTS, POS, REAL, REAL2, ROWS, settling_cosine
from torchmetrics_lite import _backend


@pytest.mark.parametrize("factory,fn,batches,expected", CASES, ids=lambda v: getattr(v, "__name__", None))
def test_each_name_is_its_oracle_one_shot_and_streamed(factory, fn, batches, expected):
    expected = torch.tensor(np.array(expected, dtype=np.float64))
    assert_close(fn(*concat(batches)), expected, rtol=1e-10, atol=1e-12)
    rows = getattr(factory, "keywords", {}).get("reduction", "sum") in ("none", None)
    if expected.dim() and rows:  # the rows in stream order: the harness merges parts out of order
        check_streaming(factory, batches, expected, rtol=1e-10, atol=1e-12)
        return
    check_metric(factory, batches, expected, max_examples=3, rtol=1e-10, atol=1e-12)


def test_csi_per_sequence_and_rse_of_a_constant_target():
    preds, target = concat(EVENTS)
    rows = F.critical_success_index(preds, target, 0.5, keep_sequence_dim=1)  # one score per column
    by_hand = [F.critical_success_index(preds[:, j], target[:, j], 0.5) for j in range(3)]
    assert_close(rows, torch.stack(by_hand))
    m = tl.CriticalSuccessIndex(0.5, keep_sequence_dim=0)
    for p, t in EVENTS:
        m.update(p, t)
    assert_close(m.compute(), F.critical_success_index(preds, target, 0.5, keep_sequence_dim=0))
    y = torch.full((4,), 2.0, dtype=torch.float64)  # scikit-learn's finite rule (R² 0 or 1)
    assert F.relative_squared_error(y + 1, y).item() == 1.0 == 1 - sk.r2_score(y.numpy(), y.numpy() + 1)
    assert F.relative_squared_error(y, y).item() == 0.0
    assert torch.isnan(F.relative_squared_error(y[:0], y[:0]))


@pytest.mark.parametrize("call,exc,match", [
    (lambda: F.mean_squared_log_error(torch.tensor([-1.0]), torch.tensor([1.0])), ValueError,
     r"Expected `preds` to be > -1.0 \(log1p is finite above -1\), got a minimum of -1.0"),
    (lambda: F.tweedie_deviance_score(torch.tensor([1.0]), torch.tensor([1.0]), power=0.5), ValueError,
     r"Expected `power` to be a number outside \(0, 1\)"),
    (lambda: tl.TweedieDevianceScore(power=0.5), ValueError, r"Expected `power` to be a number outside"),
    (lambda: F.tweedie_deviance_score(torch.tensor([0.0]), torch.tensor([1.0]), power=1), ValueError,
     r"Expected `preds` to be > 0.0 \(power=1\)"),
    (lambda: F.tweedie_deviance_score(torch.tensor([1.0]), torch.tensor([0.0]), power=2), ValueError,
     r"Expected `targets` to be > 0.0 \(power=2\)"),
    (lambda: tl.MinkowskiDistance(0.5), ValueError, r"Expected `p` to be a number >= 1"),
    (lambda: F.minkowski_distance(torch.ones(2), torch.ones(3), p=2), ValueError,
     r"Expected `preds` and `target` to have the same shape, got \(2,\) and \(3,\)"),
    (lambda: F.cosine_similarity(torch.ones(3), torch.ones(3)), ValueError, r"Expected `preds` to be 2-D"),
    (lambda: tl.CosineSimilarity(reduction="max"), ValueError, r"Expected `reduction` to be one of"),
    (lambda: F.kl_divergence(torch.tensor([[-0.1, 1.0]]), torch.ones(1, 2)), ValueError,
     r"Expected `p` to be >= 0.0 \(probabilities, or pass log_prob=True\)"),
    (lambda: tl.KLDivergence(log_prob=1), TypeError, r"Expected `log_prob` to be a bool, got int"),
    (lambda: F.continuous_ranked_probability_score(torch.ones(3, 1), torch.ones(3)), ValueError,
     r"Expected `preds` to be \(N, m\) with m >= 2 ensemble members, got shape \(3, 1\)"),
    (lambda: F.continuous_ranked_probability_score(torch.ones(3, 2), torch.ones(2)), ValueError,
     r"Expected `target` to be \(3,\) \(one observation per row of `preds`\)"),
    (lambda: F.critical_success_index(torch.ones(3), torch.ones(3), 0.5, keep_sequence_dim=1), ValueError,
     r"Expected `keep_sequence_dim` to be None or an int in \[0, 1\), got 1"),
    (lambda: tl.NormalizedRootMeanSquaredError(normalization="max"), ValueError,
     r"Expected `normalization` to be one of \('mean', 'range', 'std', 'l2'\), got 'max'"),
    (lambda: F.log_cosh_error(torch.tensor([True]), torch.tensor([True])), TypeError,
     r"Expected `preds` to have a real, non-bool dtype, got torch.bool"),
    (lambda: tl.RelativeSquaredError(squared=0), TypeError, r"Expected `squared` to be a bool"),
])
def test_bad_input_gets_a_clear_error(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize("factory,batches,bad,match", [
    (tl.MeanSquaredLogError, POS, (torch.tensor([-2.0]), torch.tensor([1.0])), r"to be > -1.0"),
    (partial(tl.TweedieDevianceScore, power=2), POS, (torch.tensor([1.0]), torch.tensor([0.0])), r"`targets`"),
    (tl.SymmetricMeanAbsolutePercentageError, REAL, (torch.tensor([float("nan")]), torch.tensor([1.0])),
     r"Expected `preds` to contain no NaN"),
    (tl.KLDivergence, ROWS, (torch.ones(2, 4), torch.ones(2, 3)), r"same shape"),
    (tl.CosineSimilarity, ROWS, (torch.ones(2, 2), torch.tensor([[1.0, 2.0], [float("nan"), 1.0]])),
     r"Expected `target` to contain no NaN, got 1"),
    (partial(settling_cosine, reduction="none"), ROWS, (torch.ones(3), torch.ones(3)), r"`preds` to be 2-D"),
    (partial(tl.LogCoshError, num_outputs=2), REAL2, (torch.ones(2), torch.ones(2)), r"2 output column"),
    (partial(tl.NormalizedRootMeanSquaredError, num_outputs=2), REAL2,
     (torch.full((2, 2), float("nan")), torch.ones(2, 2)), r"no NaN"),
])
def test_a_rejected_update_leaves_the_state(factory, batches, bad, match):
    check_rejects(factory, batches, bad, (ValueError, TypeError), match)


# --------------------------------------------------------------------------------------------- the port
tm = pytest.importorskip("torchmetrics")
import torchmetrics.functional.regression as tmf  # noqa: E402
import torchmetrics.regression as tmr  # noqa: E402

PORT = [  # (name, options, preds, target): the same call in both libraries
    ("mean_squared_log_error", {}, *concat(POS)),
    ("log_cosh_error", {}, *concat(REAL2)),
    ("minkowski_distance", {"p": 2.5}, *concat(REAL)),
    *[("tweedie_deviance_score", {"power": k}, *concat(POS)) for k in (0, 1, 1.5, 2, 3, -1)],
    ("weighted_mean_absolute_percentage_error", {}, *concat(REAL)),
    ("symmetric_mean_absolute_percentage_error", {}, *concat(REAL)),
    ("critical_success_index", {"threshold": 0.4}, *concat(EVENTS)),
    ("critical_success_index", {"threshold": 0.4, "keep_sequence_dim": 1}, *concat(EVENTS)),
    ("continuous_ranked_probability_score", {}, *concat(ENSEMBLE)),
    *[("cosine_similarity", {"reduction": k}, *concat(ROWS)) for k in ("sum", "mean", "none")],
    *[(n, {"reduction": k}, *concat(ROWS)) for n in ("kl_divergence", "jensen_shannon_divergence")
      for k in ("mean", "sum", None)],
    ("relative_squared_error", {"squared": False}, *concat(REAL2)),
    *[("normalized_root_mean_squared_error", {"normalization": k, "num_outputs": 2}, *concat(REAL2))
      for k in ("mean", "range", "std", "l2")],
]
MODULES = {"mean_squared_log_error": "MeanSquaredLogError", "log_cosh_error": "LogCoshError",
           "minkowski_distance": "MinkowskiDistance", "tweedie_deviance_score": "TweedieDevianceScore",
           "weighted_mean_absolute_percentage_error": "WeightedMeanAbsolutePercentageError",
           "symmetric_mean_absolute_percentage_error": "SymmetricMeanAbsolutePercentageError",
           "critical_success_index": "CriticalSuccessIndex",
           "continuous_ranked_probability_score": "ContinuousRankedProbabilityScore",
           "cosine_similarity": "CosineSimilarity", "kl_divergence": "KLDivergence",
           "jensen_shannon_divergence": "JensenShannonDivergence", "relative_squared_error": "RelativeSquaredError",
           "normalized_root_mean_squared_error": "NormalizedRootMeanSquaredError"}
# torchmetrics' module asks for it, its function not
MODULE_ONLY = {"relative_squared_error": {"num_outputs": 2}, "log_cosh_error": {"num_outputs": 2}}


@pytest.mark.parametrize("name,options,preds,target", PORT, ids=[f"{c[0]}-{c[1]}" for c in PORT])
def test_the_same_number_as_torchmetrics_function_and_module(name, options, preds, target):
    p32, t32 = preds.float(), target.float()  # torchmetrics computes in the input dtype: float32 here
    theirs = getattr(tmf, name)(p32, t32, **options)
    assert_close(getattr(F, name)(p32, t32, **options), theirs, rtol=2e-5, atol=1e-6)
    kwargs = {**options, **MODULE_ONLY.get(name, {})}
    ours_m, theirs_m = getattr(tl, MODULES[name])(**kwargs), getattr(tmr, MODULES[name])(**kwargs)
    halves = p32.shape[0] // 3
    for sl in (slice(0, halves), slice(halves, None)):
        ours_m.update(p32[sl], t32[sl])
        theirs_m.update(p32[sl], t32[sl])
    assert_close(ours_m.compute(), theirs_m.compute(), rtol=2e-5, atol=1e-6)


def test_the_documented_differences_from_torchmetrics():
    """The porting page's rows: RSE of a constant target, log-cosh of a large error, bad values raise."""
    y, p = torch.full((3,), 2.0), torch.full((3,), 3.0)
    assert tmf.relative_squared_error(p, y).item() > 1e6  # torchmetrics divides by finfo.eps
    assert F.relative_squared_error(p, y).item() == 1.0 == 1 - sk.r2_score(y.numpy(), p.numpy())
    e = torch.tensor([100.0])
    assert torch.isinf(tmf.log_cosh_error(e, torch.zeros(1)))
    assert F.log_cosh_error(e, torch.zeros(1)).item() == pytest.approx(100 - np.log(2), rel=1e-12)
    assert torch.isnan(tmf.mean_squared_log_error(torch.tensor([-2.0]), torch.tensor([1.0])))
    with pytest.raises(ValueError, match=r"Expected `preds` to be > -1.0"):
        F.mean_squared_log_error(torch.tensor([-2.0]), torch.tensor([1.0]))
    assert torch.isnan(tmf.kl_divergence(torch.tensor([[-0.5, 1.0]]), torch.tensor([[0.5, 0.5]])))
    with pytest.raises(ValueError, match=r"Expected `p` to be >= 0.0"):
        F.kl_divergence(torch.tensor([[-0.5, 1.0]]), torch.tensor([[0.5, 0.5]]))


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_nrmse_range_streams_each_columns_extremes_through_empty_batches_and_nan(backend):
    target = torch.tensor([[3.0, -2.0], [7.0, 5.0], [1.0, 4.0]])
    preds = target + torch.tensor([[1.0, 0.0], [0.0, 1.0], [-1.0, 2.0]])
    by_hand = torch.tensor([math.sqrt(2 / 3) / 6, math.sqrt(5 / 3) / 7], dtype=torch.float64)  # rmse / (max - min)
    with _backend.force(backend):
        m = tl.NormalizedRootMeanSquaredError(normalization="range", num_outputs=2)
        for sl in (slice(0, 0), slice(0, 1), slice(1, 1), slice(1, None)):
            m.update(preds[sl], target[sl])
        assert_close(m.compute(), by_hand, rtol=1e-15, atol=0)
        assert m.target_min.tolist() == [1.0, -2.0] and m.target_max.tolist() == [7.0, 5.0]
        empty = tl.NormalizedRootMeanSquaredError(normalization="range")
        empty.update(torch.zeros(0), torch.zeros(0))
        assert empty.target_min.tolist() == [math.inf] and empty.target_max.tolist() == [-math.inf]
        target[1, 0] = math.nan  # unchecked: the column's range, hence its value, is nan; the other column keeps its
        value = F.normalized_root_mean_squared_error(preds, target, "range", num_outputs=2, validate_args=False)
        assert math.isnan(value[0]) and value[1].item() == pytest.approx(by_hand[1].item(), rel=1e-15)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_divergences_leave_their_inputs_alone_and_keep_the_graph(dtype):
    g = torch.Generator().manual_seed(3)
    p, q = torch.rand(5, 4, generator=g, dtype=dtype), torch.rand(5, 4, generator=g, dtype=dtype)
    kept = p.clone(), q.clone()
    F.kl_divergence(p, q)
    F.jensen_shannon_divergence(p, q)
    tl.KLDivergence().update(p, q)
    assert torch.equal(p, kept[0]) and torch.equal(q, kept[1])  # the rows normalise in place only in their copy
    leaf = p.clone().requires_grad_()
    F.kl_divergence(leaf, q).backward()
    x, y = p.double().requires_grad_(), q.double()
    xn, yn = x / x.sum(-1, keepdim=True), y / y.sum(-1, keepdim=True)
    torch.xlogy(xn, xn / yn).sum(-1).mean().backward()  # the formula by hand
    assert_close(leaf.grad.double(), x.grad, rtol=1e-6 if dtype == torch.float32 else 1e-12, atol=1e-9)
