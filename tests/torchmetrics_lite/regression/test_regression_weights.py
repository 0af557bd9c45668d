"""Sample weights (``weight=``, scikit-learn's ``sample_weight``): against scikit-learn, through the harness,
mixed with unweighted batches, equal to repeated rows for integer weights, exact on a float32 large-offset
stream (weighted Chan merge), and rejected clearly when bad; all-zero weights (issue 23 item 7): nan, as every other
weighted metric (scikit-learn raises), and a stream in which only some batches have all-zero weights equals
scikit-learn on the whole stream."""
from functools import partial

import numpy as np
import pytest
import sklearn.metrics as skm
import torch

from tests.helpers.metric_tester import assert_close, check_metric, check_rejects, concat
from tests.helpers.regression.core import FUNCTIONS, multioutputs
from torchmetrics_lite import (
    ExplainedVariance,
    MeanSquaredError,
    R2Score,
)
from torchmetrics_lite.functional import (
    explained_variance,
    mean_absolute_error,
    mean_squared_error,
    r2_score,
)

GEN = torch.Generator().manual_seed(80)
SIZES = (9, 0, 23, 4, 1, 17)

def _batches(d=None, dtype=torch.float32):
    out = []
    for n in SIZES:
        shape = (n,) if d is None else (n, d)
        target = torch.randn(shape, generator=GEN, dtype=torch.float64) * 3 + 1
        preds = 0.7 * target + torch.randn(shape, generator=GEN, dtype=torch.float64)
        weight = torch.rand(n, generator=GEN, dtype=torch.float64) * 3
        weight[:2] = 0.0  # zero weights count as absent samples
        out.append((preds.to(dtype), target.to(dtype), weight.to(dtype)))
    return out


W1, W3 = _batches(), _batches(3, torch.float64)


def _sk(name, batches, multioutput="uniform_average"):
    preds, target, weight = (t.double().numpy() for t in concat(batches))
    value = FUNCTIONS[name][1](target, preds, sample_weight=weight, multioutput=multioutput)
    return torch.as_tensor(value, dtype=torch.float64)


def _weighted(fn, **options):
    return lambda preds, target, weight: fn(preds, target, weight=weight, **options)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_weighted_functional_against_sklearn(name):
    ours = FUNCTIONS[name][0]
    for batches in (W1, W3):
        preds, target, weight = concat(batches)
        for mo in multioutputs(name):
            assert_close(ours(preds, target, weight=weight, multioutput=mo), _sk(name, batches, mo), path=mo)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_weighted_module_harness_against_sklearn(name):
    ours, _, cls, _ = FUNCTIONS[name]
    check_metric(cls, W1, _sk(name, W1), batch_value=_weighted(ours), max_examples=6)
    mo = multioutputs(name)[-1]
    check_metric(partial(cls, num_outputs=3, multioutput=mo), W3, _sk(name, W3, mo),
                 batch_value=_weighted(ours, multioutput=mo), max_examples=4)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_unweighted_batches_weigh_one_in_a_mixed_stream(name):
    ours, _, cls, _ = FUNCTIONS[name]
    m = cls()
    ones = []
    for i, (p, t, w) in enumerate(W1):
        if i % 2:
            m.update(p, t)
            w = torch.ones_like(w)
        else:
            m.update(p, t, w)
        ones.append((p, t, w))
    assert_close(m.compute(), _sk(name, ones))


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_integer_weights_equal_repeated_rows(name):
    ours = FUNCTIONS[name][0]
    preds, target, _ = concat(W3)
    counts = torch.randint(0, 4, (preds.shape[0],), generator=GEN)
    repeated = ours(preds.repeat_interleave(counts, 0), target.repeat_interleave(counts, 0), multioutput="raw_values")
    assert_close(ours(preds, target, weight=counts, multioutput="raw_values"), repeated, rtol=1e-12)


def test_weighted_float32_large_offset_stream_is_exact():
    """The weighted Chan/West merge keeps every digit where raw weighted sums of squares lose them."""
    g = torch.Generator().manual_seed(81)
    n = 100_000
    target = (1e4 + torch.randn(n, generator=g, dtype=torch.float64)).float()
    preds = (1e4 + 0.8 * (target.double() - 1e4) + 0.5 * torch.randn(n, generator=g, dtype=torch.float64)).float()
    weight = torch.rand(n, generator=g).float()
    t64, p64, w64 = target.double().numpy(), preds.double().numpy(), weight.double().numpy()
    r2, ev = R2Score(), ExplainedVariance()
    for lo in range(0, n, 4096):
        for m in (r2, ev):
            m.update(preds[lo:lo + 4096], target[lo:lo + 4096], weight[lo:lo + 4096])
    assert abs(r2.compute().item() - skm.r2_score(t64, p64, sample_weight=w64)) < 1e-10
    assert abs(ev.compute().item() - skm.explained_variance_score(t64, p64, sample_weight=w64)) < 1e-10
    # the test has teeth: naive float32 weighted sums lose the total sum of squares entirely
    sw = (weight * target).sum(dtype=torch.float32)
    sw2 = (weight * target * target).sum(dtype=torch.float32)
    naive_ss_tot = (sw2 - sw * sw / weight.sum()).item()
    true_ss_tot = (w64 * (t64 - np.average(t64, weights=w64)) ** 2).sum()
    assert abs(naive_ss_tot - true_ss_tot) > 0.1 * true_ss_tot


def test_weighted_r2_sample_rules_use_the_count_not_the_weight_sum():
    """Fewer than two *samples* give nan (scikit-learn's rule), whatever the weights; the adjusted score's n
    is the sample count."""
    preds, target = torch.tensor([1.0, 2.5, 2.0]), torch.tensor([1.0, 2.0, 3.0])
    small = torch.full((3,), 0.1)
    assert_close(r2_score(preds, target, weight=small),
                 torch.tensor(skm.r2_score(target.numpy(), preds.numpy(), sample_weight=small.numpy())))
    assert torch.isnan(r2_score(preds[:1], target[:1], weight=torch.tensor([5.0])))
    unweighted = r2_score(preds, target)
    assert_close(r2_score(preds, target, weight=torch.full((3,), 7.0), adjusted=1), 1 - (1 - unweighted) * 2 / 1)


def test_zero_weight_sum_gives_nan():
    p, t = torch.tensor([1.0, 2.0]), torch.tensor([2.0, 2.0])
    for fn in (mean_squared_error, mean_absolute_error, explained_variance):
        assert torch.isnan(fn(p, t, weight=torch.zeros(2)))


@pytest.mark.parametrize("cls", [MeanSquaredError, R2Score])
@pytest.mark.parametrize("weight, exc, match", [
    (torch.tensor([1.0, -0.5]), ValueError, r"`weight` to be non-negative and finite, got value -0.5"),
    (torch.tensor([1.0, float("nan")]), ValueError, r"`weight` to be non-negative and finite, got value nan"),
    (torch.ones(3), ValueError, r"`weight` to hold one value per sample, shape \(2,\), got shape \(3,\)"),
    (torch.ones(2, 1), ValueError, r"`weight` to hold one value per sample, shape \(2,\), got shape \(2, 1\)"),
    (torch.ones(2, dtype=torch.bool), TypeError, r"`weight` to have a real \(integer.*non-bool dtype, got torch.bool"),
    ([1.0, 1.0], TypeError, r"`weight` to be a torch.Tensor, got list"),
    (torch.ones(2, device="meta"), ValueError, r"`weight` on the inputs' device cpu, got meta"),
])
def test_rejects_bad_weights(cls, weight, exc, match):
    check_rejects(cls, W1[:2], (torch.ones(2), torch.ones(2), weight), exc, match)


def test_validate_args_false_skips_the_weight_value_check():
    m = MeanSquaredError(validate_args=False)
    m.update(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 3.0]), torch.tensor([-1.0, 2.0]))
    assert np.isfinite(m.compute().item())


# ------------------------------------------------------------------------------------------------ zero weights
ZW_GEN = torch.Generator().manual_seed(23)
ZW_PREDS = torch.randn(15, 2, generator=ZW_GEN, dtype=torch.float64)
ZW_TARGET = ZW_PREDS + 0.7 * torch.randn(15, 2, generator=ZW_GEN, dtype=torch.float64)
ZW_WEIGHT = torch.rand(15, generator=ZW_GEN, dtype=torch.float64)
ZW_WEIGHT[5:10] = 0  # the middle batch weighs nothing
ZW_BATCHES = [slice(0, 5), slice(5, 10), slice(10, 15)]


@pytest.mark.parametrize("multioutput", ["uniform_average", "raw_values", "variance_weighted"])
def test_all_zero_weights_give_nan_where_scikit_learn_raises(multioutput):
    zeros = torch.zeros(15, dtype=torch.float64)
    with pytest.raises(ValueError, match="Sample weights must contain at least one non-zero number"):
        skm.r2_score(ZW_TARGET.numpy(), ZW_PREDS.numpy(), sample_weight=zeros.numpy(), multioutput=multioutput)
    got = r2_score(ZW_PREDS, ZW_TARGET, weight=zeros, multioutput=multioutput)
    assert torch.isnan(got).all()
    # the same rule
    assert torch.isnan(explained_variance(ZW_PREDS, ZW_TARGET, weight=zeros, multioutput=multioutput)).all()
    m = R2Score(num_outputs=2, multioutput=multioutput)
    m.update(ZW_PREDS, ZW_TARGET, weight=zeros)
    assert torch.isnan(m.compute()).all()
    assert torch.isnan(r2_score(ZW_PREDS, ZW_TARGET, weight=zeros, multioutput=multioutput, adjusted=1)).all()


@pytest.mark.parametrize("multioutput", ["uniform_average", "raw_values", "variance_weighted"])
def test_a_stream_with_some_all_zero_weight_batches_equals_scikit_learn(multioutput):
    expected = skm.r2_score(ZW_TARGET.numpy(), ZW_PREDS.numpy(), sample_weight=ZW_WEIGHT.numpy(),
                            multioutput=multioutput)
    m = R2Score(num_outputs=2, multioutput=multioutput)
    for s in ZW_BATCHES:
        m.update(ZW_PREDS[s], ZW_TARGET[s], weight=ZW_WEIGHT[s])
    np.testing.assert_allclose(m.compute().numpy(), expected, rtol=1e-12, atol=1e-12)
    alone = R2Score(num_outputs=2, multioutput=multioutput)  # the zero-weight batch alone: nan, not 1.0
    alone.update(ZW_PREDS[ZW_BATCHES[1]], ZW_TARGET[ZW_BATCHES[1]], weight=ZW_WEIGHT[ZW_BATCHES[1]])
    assert torch.isnan(alone.compute()).all()
    ev = ExplainedVariance(num_outputs=2, multioutput=multioutput)
    for s in ZW_BATCHES:
        ev.update(ZW_PREDS[s], ZW_TARGET[s], weight=ZW_WEIGHT[s])
    ev_expected = skm.explained_variance_score(ZW_TARGET.numpy(), ZW_PREDS.numpy(), sample_weight=ZW_WEIGHT.numpy(),
                                           multioutput=multioutput)
    np.testing.assert_allclose(ev.compute().numpy(), ev_expected, rtol=1e-12, atol=1e-12)
