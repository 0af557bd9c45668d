"""Regression metrics against scikit-learn, through the harness; moments merged with Chan's formula."""
from functools import partial

import numpy as np
import pytest
import sklearn.metrics as skm
import torch
from sklearn.exceptions import UndefinedMetricWarning

from tests.helpers.metric_tester import assert_close, check_metric, check_rejects, concat
from tests.helpers.regression.core import FUNCTIONS, multioutputs
from torchmetrics_lite import (
    ExplainedVariance,
    MeanAbsolutePercentageError,
    MeanSquaredError,
    MetricCollection,
    R2Score,
    RootMeanSquaredError,
    _backend,
)
from torchmetrics_lite._xp import torch_namespace
from torchmetrics_lite.functional import (
    explained_variance,
    mean_absolute_percentage_error,
    mean_squared_error,
    r2_score,
)
from torchmetrics_lite.functional.regression import _kernels as impl
from torchmetrics_lite.functional.regression.measures import fold_moments
from torchmetrics_lite.metric import Fold


def _moment_rows(x, w=None):
    return impl.moment_rows(torch_namespace(torch.float64), x, w)

GEN = torch.Generator().manual_seed(6)
SIZES = (9, 0, 23, 4, 1, 17)


def _batches(d=None, dtype=torch.float32):
    out = []
    for n in SIZES:
        shape = (n,) if d is None else (n, d)
        target = torch.randn(shape, generator=GEN, dtype=torch.float64) * 3 + 1
        preds = 0.7 * target + torch.randn(shape, generator=GEN, dtype=torch.float64)
        out.append((preds.to(dtype), target.to(dtype)))
    return out


B1 = _batches()
B3 = _batches(3)
B3_64 = _batches(3, torch.float64)

def _sk(name, batches, multioutput="uniform_average"):
    preds, target = (t.double().numpy() for t in concat(batches))
    return torch.as_tensor(FUNCTIONS[name][1](target, preds, multioutput=multioutput), dtype=torch.float64)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_functional_against_sklearn(name):
    ours = FUNCTIONS[name][0]
    for batches in (B1, B3, B3_64):
        preds, target = concat(batches)
        for mo in multioutputs(name):
            assert_close(ours(preds, target, multioutput=mo), _sk(name, batches, mo), path=f"{name} {mo}")


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_module_harness_against_sklearn(name):
    cls = FUNCTIONS[name][2]
    check_metric(cls, B1, _sk(name, B1), batch_value=FUNCTIONS[name][0], max_examples=8)
    mo = multioutputs(name)[-1]
    ours = partial(FUNCTIONS[name][0], multioutput=mo)
    check_metric(partial(cls, num_outputs=3, multioutput=mo), B3, _sk(name, B3, mo), batch_value=ours, max_examples=8)


def test_mse_squared_false_is_rmse():
    preds, target = concat(B3)
    assert_close(mean_squared_error(preds, target, squared=False, multioutput="uniform_average"), _sk("rmse", B3))
    check_metric(partial(MeanSquaredError, squared=False), B1, _sk("rmse", B1), max_examples=3)


def test_mape_zero_targets_follow_sklearn_epsilon():
    target = torch.tensor([0.0, 0.0, 1.0, -2.0, 0.0], dtype=torch.float64)
    preds = torch.tensor([0.0, 1e-3, 1.5, -2.0, -4.0], dtype=torch.float64)
    expected = skm.mean_absolute_percentage_error(target.numpy(), preds.numpy())
    assert expected > 1e12  # the eps floor really is hit
    assert_close(mean_absolute_percentage_error(preds, target), torch.tensor(expected, dtype=torch.float64))


@pytest.mark.parametrize("name", ["r2", "ev"])
def test_constant_targets_follow_sklearn(name):
    # column 0 constant and perfectly predicted, column 1 constant and missed, column 2 ordinary
    target = torch.tensor([[-2.0, 5.0, 1.0], [-2.0, 5.0, 2.0], [-2.0, 5.0, 4.0], [-2.0, 5.0, 3.0]], dtype=torch.float64)
    preds = torch.tensor([[-2.0, 5.0, 1.5], [-2.0, 4.0, 2.0], [-2.0, 6.0, 3.0], [-2.0, 5.0, 3.5]], dtype=torch.float64)
    ours = FUNCTIONS[name][0]
    for cols in ([0, 1, 2], [0, 1], [1]):
        batches = [(preds[:, cols], target[:, cols])]
        for mo in multioutputs(name):
            assert_close(ours(preds[:, cols], target[:, cols], multioutput=mo), _sk(name, batches, mo),
                         path=f"columns {cols} {mo}")


def test_r2_fewer_than_two_samples_is_nan_and_ev_empty_is_nan():
    one = torch.tensor([1.0])
    assert torch.isnan(r2_score(one, one + 1))
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(skm.r2_score([2.0], [1.0]))
    assert torch.isnan(R2Score().compute())
    assert torch.isnan(ExplainedVariance().compute())
    assert explained_variance(one, one + 1).item() == skm.explained_variance_score([2.0], [1.0]) == 1.0
    assert torch.isnan(MeanSquaredError().compute())


def test_adjusted_r2_formula_and_streaming():
    preds, target = concat(B1)
    n, p = preds.shape[0], 5
    r2 = skm.r2_score(target.double().numpy(), preds.double().numpy())
    expected = torch.tensor(1 - (1 - r2) * (n - 1) / (n - p - 1), dtype=torch.float64)
    assert_close(r2_score(preds, target, adjusted=p), expected)
    # p = 2 keeps every batch of B1 valid for forward() (a 1-sample or empty batch gives nan, not an error)
    expected2 = torch.tensor(1 - (1 - r2) * (n - 1) / (n - 3), dtype=torch.float64)
    check_metric(partial(R2Score, adjusted=2), B1, expected2, batch_value=partial(r2_score, adjusted=2),
                 max_examples=3)
    raw = r2_score(preds.view(-1, 1).repeat(1, 2), target.view(-1, 1).repeat(1, 2), adjusted=p,
                   multioutput="raw_values")
    assert_close(raw, expected.repeat(2))


def test_adjusted_r2_rejects_too_many_regressors():
    preds, target = torch.arange(5.0), torch.arange(5.0).flip(0)
    with pytest.raises(ValueError, match=r"Expected `adjusted` to be less than n - 1 = 4 \(n - adjusted - 1 > 0\), "
                                         r"got adjusted=4 with n=5"):
        r2_score(preds, target, adjusted=4)
    m = R2Score(adjusted=4)
    m.update(preds, target)
    with pytest.raises(ValueError, match=r"got adjusted=4 with n=5"):
        m.compute()
    assert r2_score(preds, target, adjusted=3).isfinite()


def test_float32_large_offset_stream_is_exact():
    g = torch.Generator().manual_seed(60)
    n = 200_000
    target = (1e4 + torch.randn(n, generator=g, dtype=torch.float64)).float()
    preds = (1e4 + 0.8 * (target.double() - 1e4) + 0.5 * torch.randn(n, generator=g, dtype=torch.float64)).float()
    t64, p64 = target.double().numpy(), preds.double().numpy()
    want_r2, want_mse = skm.r2_score(t64, p64), skm.mean_squared_error(t64, p64)
    r2, mse = R2Score(), MeanSquaredError()
    for lo in range(0, n, 4096):
        r2.update(preds[lo:lo + 4096], target[lo:lo + 4096])
        mse.update(preds[lo:lo + 4096], target[lo:lo + 4096])
    assert abs(r2.compute().item() - want_r2) < 1e-4 and abs(mse.compute().item() - want_mse) < 1e-4
    assert abs(r2.compute().item() - want_r2) < 1e-10  # in fact exact to rounding
    # the test has teeth: a naive float32 sum-of-squares state is far off on the same stream
    s, s2 = torch.zeros((), dtype=torch.float32), torch.zeros((), dtype=torch.float32)
    for lo in range(0, n, 4096):
        s += target[lo:lo + 4096].sum()
        s2 += target[lo:lo + 4096].square().sum()
    naive_ss_tot = (s2 - s * s / n).item()
    naive_r2 = 1 - ((preds.double() - target.double()) ** 2).sum().item() / naive_ss_tot
    assert abs(naive_r2 - want_r2) > 1e-4


def test_fold_moments_is_chan_associative_with_identity():
    g = torch.Generator().manual_seed(61)
    parts = [torch.randn(n, 2, generator=g, dtype=torch.float64) + 1e6 for n in (5, 0, 13, 1)]
    rows = [_moment_rows(x.T.clone(memory_format=torch.contiguous_format)) for x in parts]  # centres in place
    whole = _moment_rows(torch.cat(parts).T.clone(memory_format=torch.contiguous_format))
    left = fold_moments(torch.stack([fold_moments(torch.stack(rows[:2])), fold_moments(torch.stack(rows[2:]))]))
    assert_close(fold_moments(torch.stack(rows)), whole, rtol=1e-12)
    assert_close(left, whole, rtol=1e-12)
    empty = torch.zeros(4, 2, dtype=torch.float64)
    assert torch.equal(fold_moments(torch.stack([rows[2], empty])), rows[2])
    assert torch.equal(fold_moments(torch.stack([empty, rows[2]])), rows[2])
    assert torch.equal(fold_moments(torch.stack([empty, empty])), empty)


def _backend_cases():
    g = torch.Generator().manual_seed(62)
    t = 1e4 + torch.randn(50, 3, generator=g, dtype=torch.float64)
    p = t + torch.randn(50, 3, generator=g, dtype=torch.float64)
    yield "float32 (N,)", p[:, 0].float(), t[:, 0].float()
    yield "float64 (N, 3)", p, t
    yield "int64 and float32", torch.arange(50), t[:, 1].float()
    yield "bfloat16", p[:, 2].bfloat16(), t[:, 2].bfloat16()
    yield "empty (0, 2)", torch.empty(0, 2), torch.empty(0, 2)
    yield "requires grad", p[:, 0].float().requires_grad_(), t[:, 0].float()
    big = 1e4 + torch.randn(2, 10_000, generator=g, dtype=torch.float64)  # torch takes this size by default
    yield "10,000 float32", big[0].float(), big[1].float()


@pytest.mark.parametrize("case", list(_backend_cases()), ids=lambda c: c[0])
def test_numpy_and_torch_statistics_agree(case):
    """The CPU path (numpy on zero-copy views) and the path of other devices (torch) compute the same
    float64 statistics; the oracle tests above exercise the numpy path, this pins the torch one to it."""
    _, preds, target = case
    weights = (None, torch.rand(preds.shape[0], generator=torch.Generator().manual_seed(5), dtype=torch.float64))
    for weight in weights:
        for kind in ("squared", "absolute", "percentage"):
            with _backend.force("torch"):
                want = impl.error_sums(preds, target, kind, weight)
            with _backend.force("numpy"):
                got = impl.error_sums(preds, target, kind, weight)
            assert [g.dtype for g in got] == [w.dtype for w in want]
            assert_close(got, want, rtol=1e-13, path=kind)
        with _backend.force("torch"):
            want = impl.moments(preds, target, weight)
        with _backend.force("numpy"):
            got = impl.moments(preds, target, weight)
        assert_close(got, want, rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("width", [2, 2 * impl.SCALAR_COLUMNS + 2], ids=["scalar columns", "numpy rows"])
def test_fold_pair_in_place_equals_the_stack_fold(backend, width):
    g = torch.Generator().manual_seed(63)
    a, b = (_moment_rows(torch.randn(width, n, generator=g, dtype=torch.float64) + 1e6,
                         torch.rand(n, generator=g, dtype=torch.float64)) for n in (7, 12))
    state = a.clone()
    with _backend.force(backend):
        impl.fold_pair(state, b)
    assert_close(state, fold_moments(torch.stack([a, b])), rtol=1e-12)
    empty = torch.zeros(4, width, dtype=torch.float64)
    state = empty.clone()
    with _backend.force(backend):
        impl.fold_pair(state, b)  # the default state is an exact identity on the left
        assert torch.equal(state, b)
        impl.fold_pair(state, empty)  # and an empty batch on the right
    assert torch.equal(state, b)


def test_metric_fold_without_pair_path_gives_the_same_state():
    """Metric merges a fold state through ``Fold.pair`` when it exists, else through ``Fold.stack``."""
    with_pair = R2Score(num_outputs=3)
    for b in B3:
        with_pair.update(*b)
    without = R2Score(num_outputs=3)
    assert with_pair.state_reductions["moments"].pair is not None
    without.state_reductions["moments"] = Fold(fold_moments)  # the stack path only
    for b in B3:
        without.update(*b)
    assert_close(without.moments, with_pair.moments, rtol=1e-12)
    assert_close(without.compute(), _sk("r2", B3))


def test_inputs_that_require_grad_are_accepted():
    preds, target = concat(B1)
    preds = preds.clone().requires_grad_()
    for cls, name in ((R2Score, "r2"), (MeanSquaredError, "mse")):
        m = cls()
        m.update(preds, target)
        assert_close(m.compute(), _sk(name, B1), path=name)
    assert_close(r2_score(preds, target), _sk("r2", B1))


def test_collection_shares_statistics_and_values():
    mc = MetricCollection({"mse": MeanSquaredError(), "rmse": RootMeanSquaredError(), "r2": R2Score(),
                           "ev": ExplainedVariance(), "adj": R2Score(adjusted=2)})
    assert mc["mse"].stats_key == mc["rmse"].stats_key and mc["r2"].stats_key == mc["ev"].stats_key
    for b in B1:
        mc.update(*b)
    got = mc.compute()
    for key, name in (("mse", "mse"), ("rmse", "rmse"), ("r2", "r2"), ("ev", "ev")):
        assert_close(got[key], _sk(name, B1), path=key)


def test_integer_inputs_and_validate_args_false():
    preds, target = torch.tensor([1, 2, 4]), torch.tensor([1, 3, 3])
    assert mean_squared_error(preds, target).item() == pytest.approx(2 / 3)
    m = MeanSquaredError(validate_args=False)
    m.update(torch.tensor([float("nan")]), torch.tensor([1.0]))
    assert torch.isnan(m.compute())


# ------------------------------------------------------------------------------------------------ errors
@pytest.mark.parametrize("cls", [MeanSquaredError, MeanAbsolutePercentageError, R2Score])
@pytest.mark.parametrize("bad, exc, match", [
    ((torch.ones(3), torch.ones(4)), ValueError, r"`preds` and `target` to have the same shape, got \(3,\) and \(4,\)"),
    ((torch.ones(2, 2), torch.ones(2, 2)), ValueError,
     r"`preds` to have 1 output column\(s\) \(`num_outputs`\), got shape \(2, 2\)"),
    ((torch.ones(1, 1, 1), torch.ones(1, 1, 1)), ValueError, r"`preds` to be 1-D or 2-D, got shape \(1, 1, 1\)"),
    ((torch.tensor([1.0, float("nan")]), torch.ones(2)), ValueError, r"`preds` to contain no NaN, got 1 NaN"),
    ((torch.ones(2), torch.tensor([float("nan"), 1.0])), ValueError, r"`target` to contain no NaN, got 1 NaN"),
    ((torch.ones(2, dtype=torch.bool), torch.ones(2)), TypeError,
     r"`preds` to have a real, non-bool dtype, got torch.bool"),
    (([1.0], torch.ones(1)), TypeError, r"`preds` to be a torch.Tensor, got list"),
])
def test_rejects_bad_batches(cls, bad, exc, match):
    check_rejects(cls, B1[:2], bad, exc, match)


def test_rejects_bad_options():
    with pytest.raises(ValueError, match=r"`multioutput` to be one of \('raw_values', 'uniform_average'\), "
                                         r"got 'variance_weighted'"):
        MeanSquaredError(multioutput="variance_weighted")
    with pytest.raises(ValueError, match=r"`multioutput` to be one of \('raw_values', 'uniform_average', "
                                         r"'variance_weighted'\), got 'mean'"):
        r2_score(torch.ones(3), torch.ones(3), multioutput="mean")
    with pytest.raises(ValueError, match=r"`num_outputs` to be a positive int, got 0"):
        R2Score(num_outputs=0)
    with pytest.raises(ValueError, match=r"`adjusted` to be a non-negative int \(number of regressors\), got -1"):
        R2Score(adjusted=-1)
    with pytest.raises(TypeError, match=r"`squared` to be a bool, got str"):
        MeanSquaredError(squared="no")
    with pytest.raises(ValueError, match=r"`preds` to have 3 output column\(s\) \(`num_outputs`\), got shape \(4,\)"):
        R2Score(num_outputs=3).update(torch.ones(4), torch.ones(4))
