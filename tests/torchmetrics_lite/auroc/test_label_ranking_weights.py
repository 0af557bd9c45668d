"""``weight=`` (scikit-learn's ``sample_weight``) on the label-ranking scores and modules: a weighted mean over
samples, against ``coverage_error`` / ``label_ranking_average_precision_score`` / ``label_ranking_loss`` with
``sample_weight``, ties, zero weights and the special rows (no or only relevant labels); the modules stream the
weighted sum and the weight sum; bad weights raise through the shared sample-weight check."""
import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import coverage_error, label_ranking_loss
from sklearn.metrics import label_ranking_average_precision_score as lrap

import torchmetrics_lite as T
import torchmetrics_lite.functional as F
from torchmetrics_lite import _backend

RANKING = {"coverage": (F.multilabel_coverage_error, T.MultilabelCoverageError, coverage_error),
           "lrap": (F.multilabel_ranking_average_precision, T.MultilabelRankingAveragePrecision, lrap),
           "loss": (F.multilabel_ranking_loss, T.MultilabelRankingLoss, label_ranking_loss)}


def _batch(n, labels, levels, rate, seed, zeros):
    g = torch.Generator().manual_seed(seed)
    scores = torch.randint(0, levels, (n, labels), generator=g) / levels - 0.3  # ties
    target = (torch.rand(n, labels, generator=g) < rate).long()
    target[0] = 0  # a row without relevant labels
    if n > 1:
        target[1] = 1  # a row with only relevant labels
    weight = torch.rand(n, generator=g, dtype=torch.float64) * 3
    weight[torch.rand(n, generator=g) < zeros] = 0.0
    weight[-1] = 0.5  # some weight left
    return scores, target, weight


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 30), labels=st.integers(2, 7), levels=st.sampled_from([2, 3, 1000]),
       rate=st.floats(0.0, 1.0), seed=st.integers(0, 2**16), zeros=st.sampled_from([0.0, 0.5]))
def test_weighted_ranking_equals_scikit_learn(n, labels, levels, rate, seed, zeros, backend):
    scores, target, weight = _batch(n, labels, levels, rate, seed, zeros)
    for name, (ours, _, oracle) in RANKING.items():
        want = oracle(target.numpy(), scores.numpy(), sample_weight=weight.numpy())
        with _backend.force(backend):
            got = ours(scores, target, labels, weight=weight)
            as_int = ours(scores, target, labels, weight=(weight > 0).long() * 2)
        assert got.dtype == torch.float64
        assert got.item() == pytest.approx(want, rel=1e-12, abs=1e-12), name
        want_int = oracle(target.numpy(), scores.numpy(), sample_weight=((weight > 0).long() * 2).numpy())
        assert as_int.item() == pytest.approx(want_int, rel=1e-12, abs=1e-12), name


@pytest.mark.parametrize("name", list(RANKING))
def test_unit_weights_equal_unweighted_and_zero_weight_drops_a_sample(name):
    ours, _, _ = RANKING[name]
    scores, target, _ = _batch(12, 5, 3, 0.4, 7, 0.0)
    assert ours(scores, target, 5, weight=torch.ones(12)).item() == pytest.approx(ours(scores, target, 5).item(),
                                                                                  abs=1e-15)
    weight = torch.ones(12)
    weight[3] = 0.0
    keep = torch.arange(12) != 3
    assert ours(scores, target, 5, weight=weight).item() == pytest.approx(
        ours(scores[keep], target[keep], 5).item(), abs=1e-15)


@pytest.mark.parametrize("name", list(RANKING))
def test_all_zero_weights_give_nan(name):
    ours, module, oracle = RANKING[name]
    scores, target, _ = _batch(4, 3, 3, 0.5, 1, 0.0)
    assert math.isnan(ours(scores, target, 3, weight=torch.zeros(4)).item())
    if name != "lrap":  # scikit-learn's np.average raises; its lrap divides 0 by 0
        with pytest.raises(ZeroDivisionError):
            oracle(target.numpy(), scores.numpy(), sample_weight=np.zeros(4))


@pytest.mark.parametrize("name", list(RANKING))
def test_modules_stream_weighted_and_mixed_updates(name):
    ours, module, oracle = RANKING[name]
    scores, target, weight = _batch(20, 4, 3, 0.5, 3, 0.3)
    m = module(num_labels=4)
    for s, t, w in zip(scores.split(7), target.split(7), weight.split(7)):
        m.update(s, t, w)
    want = oracle(target.numpy(), scores.numpy(), sample_weight=weight.numpy())
    assert m.compute().item() == pytest.approx(want, rel=1e-12, abs=1e-12)
    assert int(m.count) == 20
    m.update(scores[:5], target[:5])  # unweighted: every sample counts 1
    full_w = torch.cat([weight, torch.ones(5, dtype=torch.float64)])
    want = oracle(torch.cat([target, target[:5]]).numpy(), torch.cat([scores, scores[:5]]).numpy(),
                  sample_weight=full_w.numpy())
    assert m.compute().item() == pytest.approx(want, rel=1e-12, abs=1e-12)
    merged = module(num_labels=4)
    merged.update(scores[:10], target[:10], weight[:10])
    other = module(num_labels=4)
    other.update(scores[10:], target[10:], weight[10:])
    merged.merge_state(other)
    want = oracle(target.numpy(), scores.numpy(), sample_weight=weight.numpy())
    assert merged.compute().item() == pytest.approx(want, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("name", list(RANKING))
def test_bad_weights_raise_naming_weight(name):
    ours, module, _ = RANKING[name]
    scores, target, _ = _batch(4, 3, 3, 0.5, 1, 0.0)
    with pytest.raises(ValueError, match=r"`weight` to hold one value per sample, shape \(4,\), got shape \(3,\)"):
        ours(scores, target, 3, weight=torch.ones(3))
    with pytest.raises(ValueError, match="`weight` to be non-negative and finite, got value -1.0"):
        ours(scores, target, 3, weight=torch.tensor([1.0, -1.0, 1.0, 1.0]))
    with pytest.raises(ValueError, match="`weight` to be non-negative and finite, got value nan"):
        ours(scores, target, 3, weight=torch.tensor([1.0, float("nan"), 1.0, 1.0]))
    with pytest.raises(TypeError, match="`weight` to have a real"):
        ours(scores, target, 3, weight=torch.ones(4, dtype=torch.bool))
    m = module(num_labels=3)
    with pytest.raises(ValueError, match="`weight` to hold one value per sample"):
        m.update(scores, target, torch.ones(5))
    assert int(m.count) == 0 and float(m.weight) == 0.0  # the rejected batch changed nothing
