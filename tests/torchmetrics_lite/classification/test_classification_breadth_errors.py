"""Every error the classification breadth metrics (issue 24 items 1-3 and 8) raise: the message, and for modules an
unchanged state (check_rejects)."""
from functools import partial

import pytest
import torch

import torchmetrics_lite.classification as tmc
import torchmetrics_lite.functional as F
from tests.helpers.metric_tester import check_rejects

P, T, GR = torch.tensor([0.2, 0.8, 0.6]), torch.tensor([0, 1, 1]), torch.tensor([0, 1, 1])
S, Y = torch.tensor([[0.1, 0.9, 0.0], [0.5, 0.2, 0.3]]), torch.tensor([1, 0])


@pytest.mark.parametrize("call,exc,match", [
    (lambda: tmc.BinaryHingeLoss(squared=1), TypeError, r"`squared` to be a bool, got int"),
    (lambda: tmc.BinaryHingeLoss(margins="yes"), TypeError, r"`margins` to be a bool, got str"),
    (lambda: tmc.MulticlassHingeLoss(3, from_logits=True, margins=True), ValueError,
     r"at most one of `from_logits` .* and `margins` .*got both"),
    (lambda: tmc.MulticlassHingeLoss(1), ValueError, r"`num_classes` to be an int >= 2, got 1"),
    (lambda: tmc.MulticlassHingeLoss(3, multiclass_mode="ovr"), ValueError,
     r"`multiclass_mode` to be one of \('crammer-singer', 'one-vs-all'\), got 'ovr'"),
    (lambda: F.binary_hinge_loss(P, T, ignore_index=0.5), ValueError, r"`ignore_index` to be an int or None"),
    (lambda: tmc.BinaryFairness(2, task="parity"), ValueError,
     r"`task` to be one of \('demographic_parity', 'equal_opportunity', 'all'\), got 'parity'"),
    (lambda: tmc.BinaryGroupStatRates(0), ValueError, r"`num_groups` to be a positive int, got 0"),
    (lambda: F.binary_fairness(P, T, GR, num_groups=1.5), ValueError, r"`num_groups` to be a positive int or None"),
    (lambda: F.binary_fairness(P, T, GR, zero_division="x"), ValueError, r"`zero_division` to be a number"),
    (lambda: F.binary_fairness(P, T, -GR), ValueError, r"`groups` to hold group ids >= 0, got a minimum of -1"),
    (lambda: tmc.MulticlassHammingDistance(3, average="samples"), ValueError, r"`average` to be one of"),
    (lambda: F.multiclass_exact_match(S, Y, 0), ValueError, r"`num_classes` to be a positive int, got 0"),
])
def test_option_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize("factory,ok,bad,exc,match", [
    (partial(tmc.BinaryHingeLoss), [(P, T)], (P * 3, T), ValueError,
     r"`preds` to lie in \[0, 1\] \(probabilities\), got values in \[0.6, 2.4\]; pass from_logits=True .* "
     r"or margins=True"),
    (partial(tmc.BinaryHingeLoss, margins=True), [(P, T)], (torch.tensor([float("nan")]), T[:1]), ValueError,
     r"`preds` to contain no NaN, got 1 NaN value"),
    (partial(tmc.BinaryHingeLoss), [(P, T)], (T, T), TypeError, r"`preds` to have a floating dtype \(scores\)"),
    (partial(tmc.BinaryHingeLoss), [(P, T)], (P, T + 1), ValueError, r"`target` to hold only 0 and 1"),
    (partial(tmc.BinaryHingeLoss), [(P, T)], (P, T, torch.ones(2)), ValueError,
     r"`weight` to hold one value per sample, shape \(3,\), got shape \(2,\)"),
    (partial(tmc.MulticlassHingeLoss, 3), [(S, Y)], (Y, Y), ValueError,
     r"`preds` of shape \(N, 3, ...\) \(scores\) with `target` \(N, ...\), got \(2,\) and \(2,\)"),
    (partial(tmc.MulticlassHingeLoss, 3), [(S, Y)], (S, Y + 2), ValueError,
     r"`target` to hold labels in \[0, 2\], got values in \[2, 3\]"),
    (partial(tmc.MulticlassHingeLoss, 3), [(S, Y)], (S[:, :2], Y), ValueError, r"`preds` of shape \(N, 3, ...\)"),
    (partial(tmc.MulticlassExactMatch, 3), [(S, Y)], (S, Y + 2), ValueError,
     r"`target` to hold labels in \[0, 2\], got values in \[2, 3\]"),
    (partial(tmc.MulticlassExactMatch, 3), [(S, Y)], (torch.tensor([[float("nan"), 0, 0], [1, 0, 0]]), Y),
     ValueError, r"`preds` to contain no NaN"),
    (partial(tmc.MulticlassExactMatch, 3, weighted=True), [(S, Y)], (S, Y, torch.ones(3)), ValueError,
     r"`weight` to hold one value per sample, shape \(2,\)"),
    (partial(tmc.MulticlassExactMatch, 3), [(S, Y)], (S, Y, torch.ones(2)), ValueError,
     r"no `weight` on a metric built with weighted=False"),
    (partial(tmc.BinaryFairness, 2), [(P, T, GR)], (P, T, GR + 1), ValueError,
     r"`groups` to hold labels in \[0, 1\], got values in \[1, 2\]"),
    (partial(tmc.BinaryFairness, 2), [(P, T, GR)], (P, T, GR.float()), TypeError,
     r"`groups` to have an integer dtype \(group ids\), got torch.float32"),
    (partial(tmc.BinaryGroupStatRates, 2), [(P, T, GR)], (P, T, GR[:2]), ValueError,
     r"`groups` to hold one group id per element of `preds`, shape \(3,\), got shape \(2,\)"),
    (partial(tmc.BinaryGroupStatRates, 2), [(P, T, GR)], (P * 2, T, GR), ValueError, r"`preds` to lie in \[0, 1\]"),
    (partial(tmc.BinaryNegativePredictiveValue), [(P, T)], (P, T * 2), ValueError, r"`target` to hold only 0 and 1"),
    (partial(tmc.MulticlassHammingDistance, 3), [(S, Y)], (S, Y + 2), ValueError,
     r"`target` to hold labels in \[0, 2\]"),
])
def test_update_errors_leave_the_state(factory, ok, bad, exc, match):
    check_rejects(factory, ok, bad, exc, match)
