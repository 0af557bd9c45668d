"""SumMetric / MeanMetric / MaxMetric / MinMetric / CatMetric / RunningMean / RunningSum through the whole harness,
against numpy; every ``nan_strategy`` against numpy on the NaN-free data it stands for."""
from functools import partial

import numpy as np
import pytest
import torch

from tests.helpers.distributed import Case, distributed_test
from tests.helpers.metric_tester import check_metric, check_rejects, concat
from torchmetrics_lite import CatMetric, MaxMetric, MeanMetric, MinMetric, RunningMean, RunningSum, SumMetric

GEN = torch.Generator().manual_seed(0)
BATCHES = [(torch.randn(n, generator=GEN, dtype=torch.float32),) for n in (7, 0, 31, 3, 12, 1, 20)]
WEIGHTED = [(torch.randn(n, generator=GEN), torch.rand(n, generator=GEN)) for n in (5, 9, 0, 14, 2)]


def _np(batches):
    return concat(batches)[0].double().numpy()


ORACLES = {
    "sum": (SumMetric, lambda b: np.sum(_np(b))),
    "mean": (MeanMetric, lambda b: np.mean(_np(b))),
    "max": (MaxMetric, lambda b: np.max(_np(b))),
    "min": (MinMetric, lambda b: np.min(_np(b))),
}


@pytest.mark.parametrize("name", sorted(ORACLES))
def test_against_numpy(name):
    cls, oracle = ORACLES[name]
    check_metric(cls, BATCHES, torch.tensor(oracle(BATCHES), dtype=torch.float64))


def test_weighted_mean_against_numpy():
    x, w = (t.double().numpy() for t in concat(WEIGHTED))
    check_metric(MeanMetric, WEIGHTED, torch.tensor(np.average(x, weights=w), dtype=torch.float64))


def test_float32_stream_sums_in_float64():
    m = SumMetric()
    x = torch.full((1000,), 0.1, dtype=torch.float32)
    for _ in range(1000):
        m.update(x)
    assert abs(m.compute().item() - 1e6 * float(np.float32(0.1))) < 1e-6


def test_mean_with_a_scalar_weight_on_a_multi_element_batch():
    """A scalar weight applies to every element: (2 * (1 + 2 + 3) + 1 * 10) / (2 * 3 + 1)."""
    m = MeanMetric()
    m.update(torch.tensor([1.0, 2.0, 3.0]), weight=2.0)
    assert m.weight_total.item() == 6.0
    m.update(torch.tensor([10.0]), 1.0)
    assert m.compute().item() == pytest.approx(22.0 / 7.0, rel=1e-15)
    assert m(torch.tensor([4.0, 6.0]), weight=torch.tensor(0.5)).item() == 5.0  # forward: the batch value
    assert m.compute().item() == pytest.approx(27.0 / 8.0, rel=1e-15)


@pytest.mark.filterwarnings("ignore:.*before any update")
def test_empty_values():
    assert SumMetric().compute().item() == 0.0
    assert torch.isnan(MeanMetric().compute())
    assert MaxMetric().compute().item() == -float("inf")
    m = MinMetric()
    m.update(torch.empty(0))
    assert m.compute().item() == float("inf")


@pytest.mark.parametrize("cls", [SumMetric, MeanMetric, MaxMetric, MinMetric])
def test_rejects_nan_and_keeps_state(cls):
    bad = (torch.tensor([1.0, float("nan")]),)
    check_rejects(cls, BATCHES[:2], bad, ValueError, r"`value` to contain no NaN, got 1")


@pytest.mark.parametrize("cls", [SumMetric, MeanMetric, MaxMetric, MinMetric])
def test_rejects_non_tensor(cls):
    check_rejects(cls, BATCHES[:2], ("1.0",), TypeError, r"`value` to be a torch.Tensor, got str")


def test_rejects_complex():
    check_rejects(SumMetric, BATCHES[:2], (torch.ones(2, dtype=torch.complex64),), TypeError,
                  r"`value` to have a real dtype, got torch.complex64")


def test_mean_rejects_bad_weight():
    check_rejects(MeanMetric, WEIGHTED[:2], (torch.ones(3), torch.ones(2)), ValueError,
                  r"`weight` to broadcast to the shape of `value` \(3,\), got shape \(2,\)")


def test_update_runs_without_autograd_and_restores_the_grad_mode():
    x = torch.randn(4, requires_grad=True)
    m = MeanMetric()
    with torch.enable_grad():
        m.update(x * 2)
        assert m(x * 3).requires_grad is False and torch.is_grad_enabled()
    with torch.no_grad():
        m.update(x)
        assert not torch.is_grad_enabled()
    assert not m.weighted_sum.requires_grad


def test_validate_args_false_skips_value_checks():
    m = SumMetric(validate_args=False)
    m.update(torch.tensor([float("nan")]))
    assert torch.isnan(m.compute())


class SortedCat(CatMetric):
    """CatMetric's values sorted: merges and ranks concatenate in their own order, the multiset is the contract."""

    def compute_from_stats(self, state):
        return state["value"].sort().values


def test_cat_metric_against_concatenation():
    check_metric(SortedCat, BATCHES, torch.from_numpy(np.sort(_np(BATCHES))))
    streamed = CatMetric()
    for batch in BATCHES:
        streamed.update(*batch)
    assert torch.equal(streamed.compute(), torch.from_numpy(_np(BATCHES)))  # in update order
    m = CatMetric()
    m.update(2)
    m.update(torch.tensor(3.0))  # numbers and 0-d tensors are one value each
    assert m.compute().tolist() == [2.0, 3.0]
    with pytest.warns(UserWarning, match="before any update"):
        assert CatMetric().compute().shape == (0,)
    check_rejects(CatMetric, BATCHES, (torch.ones(2, 2),), ValueError,
                  r"Expected `value` of CatMetric to be a number or a 0-d or 1-D tensor, got shape \(2, 2\); "
                  r"pass value.reshape\(-1\)")


@pytest.mark.parametrize("cls, reduce", [(RunningMean, np.mean), (RunningSum, np.sum)])
@pytest.mark.parametrize("window", [1, 3])
def test_running_mean_and_sum_cover_the_last_window_updates(cls, reduce, window):
    m = cls(window=window)
    batches = [b for b in BATCHES if b[0].numel()]
    for i, (x,) in enumerate(batches):
        batch_value = m(x)
        assert batch_value.item() == pytest.approx(reduce(x.double().numpy()), rel=1e-12, abs=1e-12)
        last = np.concatenate([b[0].double().numpy() for b in batches[max(0, i + 1 - window) : i + 1]])
        assert m.compute().item() == pytest.approx(reduce(last), rel=1e-12, abs=1e-12)
    with pytest.raises(ValueError, match="window"):
        cls(window=0)


NAN_BATCHES = [(torch.tensor([1.0, float("nan"), 4.0]),), (torch.tensor([float("nan")]),), (torch.tensor([-2.0]),)]


@pytest.mark.parametrize("cls, reduce", [(SumMetric, np.sum), (MeanMetric, np.mean), (MaxMetric, np.max),
                                         (MinMetric, np.min), (CatMetric, lambda x: x)])
@pytest.mark.parametrize("strategy", ["warn", "ignore", 0.5, "disable"])
def test_nan_strategies_against_numpy(cls, reduce, strategy):
    x = _np(NAN_BATCHES)
    if strategy in ("warn", "ignore"):
        x = x[~np.isnan(x)]
    elif isinstance(strategy, float):
        x = np.where(np.isnan(x), strategy, x)
    expected = torch.as_tensor(reduce(x), dtype=torch.float64)
    m = cls(nan_strategy=strategy)
    for batch in NAN_BATCHES:
        if strategy == "warn" and torch.isnan(batch[0]).any():
            with pytest.warns(UserWarning, match=r"NaN value\(s\) in the input, left out \(nan_strategy='warn'\)"):
                m.update(*batch)
        else:
            m.update(*batch)
    torch.testing.assert_close(m.compute(), expected, equal_nan=True)
    quiet = cls(nan_strategy=strategy, validate_args=False)  # no host sync: the same value, no warning
    for batch in NAN_BATCHES:
        quiet.update(*batch)
    torch.testing.assert_close(quiet.compute(), expected, equal_nan=True)


def test_nan_strategy_weighted_mean_follows_torchmetrics_rule():
    # an element whose weight is NaN is dropped (warn/ignore) or gets the float as value and weight 1
    value, weight = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, float("nan"), 2.0])
    m = MeanMetric(nan_strategy="ignore")
    m.update(value, weight)
    assert m.compute().item() == pytest.approx((1 + 6) / 3)
    m = MeanMetric(nan_strategy=10.0)
    m.update(value, weight)
    assert m.compute().item() == pytest.approx((1 + 10 + 6) / 4)


def test_nan_strategy_error_and_bad_values():
    from torchmetrics_lite._checks import NaNInputError

    for cls in (SumMetric, MeanMetric, MaxMetric, MinMetric, CatMetric, RunningMean, RunningSum):
        with pytest.raises(ValueError, match=r"Expected `nan_strategy` to be a float or one of \('error', 'warn', "
                                             r"'ignore', 'disable'\), got 1"):
            cls(nan_strategy=1)  # an int is not a float, as in torchmetrics
        m = cls()
        with pytest.raises(NaNInputError, match=r"no NaN, got 1 NaN value\(s\) .*pass nan_strategy='warn'"):
            m.update(torch.tensor([float("nan"), 1.0]))
    assert issubclass(NaNInputError, RuntimeError)  # what torchmetrics raises


CASES = [Case(name, cls, BATCHES) for name, (cls, _) in sorted(ORACLES.items())]
CASES.append(Case("cat", SortedCat, BATCHES))
CASES.append(Case("nan_ignore_mean", partial(MeanMetric, nan_strategy="ignore"), NAN_BATCHES * 2))
CASES.append(Case("weighted_mean", MeanMetric, WEIGHTED))
CASES.append(Case("sum_no_sync", partial(SumMetric, sync_on_compute=False), []))


test_distributed_equals_single_process = distributed_test(CASES)
