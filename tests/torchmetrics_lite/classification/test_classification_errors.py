"""Every error the classification metrics raise: message, and for modules an unchanged state (check_rejects); the
negative predictive value, Hamming distance, exact match, hinge loss and group fairness (issue 24 items 1-3 and 8) in
their own section."""
from functools import partial

import pytest
import torch

import torchmetrics_lite.classification as tmc
import torchmetrics_lite.functional as F
from tests.helpers.metric_tester import check_rejects

P, T = torch.tensor([0.2, 0.8, 0.6]), torch.tensor([0, 1, 1])
S, Y = torch.tensor([[0.1, 0.9, 0.0], [0.5, 0.2, 0.3]]), torch.tensor([1, 0])
GR = torch.tensor([0, 1, 1])  # group ids
MP, MT = torch.tensor([[0.9, 0.1], [0.3, 0.8]]), torch.tensor([[1, 0], [0, 1]])
BIN_OK = [(P, T)]
MC_OK = [(S, Y)]
ML_OK = [(MP, MT)]


# ------------------------------------------------------------------------------------------ options
@pytest.mark.parametrize("make,exc,match", [
    (lambda: tmc.MulticlassPrecision(3, average="samples"), ValueError,
     r"`average` to be one of \('micro', 'macro', 'weighted', 'none'\), got 'samples'"),
    (lambda: tmc.MultilabelRecall(2, average="binary"), ValueError, r"`average` to be one of .*got 'binary'"),
    (lambda: tmc.MulticlassF1Score(0), ValueError, r"`num_classes` to be a positive int, got 0"),
    (lambda: tmc.MultilabelF1Score(2.0), ValueError, r"`num_labels` to be a positive int, got 2.0"),
    (lambda: tmc.MulticlassAccuracy(3, top_k=4), ValueError,
     r"`top_k` to be an int in \[1, 3\] \(num_classes\), got 4"),
    (lambda: tmc.MulticlassAccuracy(3, top_k=0), ValueError, r"`top_k` to be an int in \[1, 3\].*got 0"),
    (lambda: tmc.MulticlassConfusionMatrix(3, top_k=2), TypeError,
         r"MulticlassConfusionMatrix\(\) got an unexpected keyword argument 'top_k': this metric has no top-k option"),
    (lambda: tmc.BinaryAccuracy(1.5), ValueError, r"`threshold` to be a number in \[0.0, 1.0\], got 1.5"),
    (lambda: tmc.BinaryAccuracy(1.0, from_logits=True), ValueError,
     r"`threshold` to be a number in \(0.0, 1.0\), got 1.0"),
    (lambda: tmc.BinaryAccuracy(from_logits="yes"), TypeError, r"`from_logits` to be a bool, got str"),
    (lambda: tmc.BinaryRecall(ignore_index=0.5), ValueError, r"`ignore_index` to be an int or None, got 0.5"),
    (lambda: tmc.MulticlassRecall(3, ignore_index=True), ValueError, r"`ignore_index` to be an int or None, got True"),
    (lambda: tmc.BinaryPrecision(zero_division="warn"), ValueError,
     r"`zero_division` to be a number or float\('nan'\), got 'warn'"),
    (lambda: tmc.BinaryFBetaScore(0.0), ValueError, r"`beta` to be a number in \(0.0, inf\), got 0.0"),
    (lambda: tmc.MulticlassFBetaScore(-1, 3), ValueError, r"`beta` to be a number in \(0.0, inf\), got -1"),
    (lambda: tmc.MultilabelFBetaScore(float("nan"), 2), ValueError, r"`beta` to be a number in .*got nan"),
    (lambda: tmc.BinaryConfusionMatrix(normalize="rows"), ValueError,
     r"`normalize` to be one of \(None, 'true', 'pred', 'all'\), got 'rows'"),
    (lambda: tmc.MulticlassConfusionMatrix(3, "col"), ValueError, r"`normalize` to be one of .*got 'col'"),
    (lambda: tmc.MultilabelConfusionMatrix(2, normalize="x"), ValueError, r"`normalize` to be one of .*got 'x'"),
])
def test_bad_options(make, exc, match):
    with pytest.raises(exc, match=match):
        make()


@pytest.mark.parametrize("call,exc,match", [
    (lambda: F.multiclass_precision(S, Y, 3, average="samples"), ValueError, r"`average` to be one of"),
    (lambda: F.multiclass_recall(S, Y, 3, top_k=5), ValueError, r"`top_k` to be an int in \[1, 3\]"),
    (lambda: F.binary_f1_score(P, T, 2.0), ValueError, r"`threshold` to be a number in \[0.0, 1.0\], got 2.0"),
    (lambda: F.multilabel_accuracy(MP, MT, 2, zero_division=None), ValueError, r"`zero_division` to be a number"),
    (lambda: F.binary_fbeta_score(P, T, beta=0), ValueError, r"`beta` to be a number in \(0.0, inf\), got 0"),
    (lambda: F.multilabel_fbeta_score(MP, MT, -2.0, 2), ValueError, r"`beta` to be a number in \(0.0, inf\)"),
    (lambda: F.multiclass_fbeta_score(S, Y, 0.0, 3), ValueError, r"`beta` to be a number in \(0.0, inf\)"),
    (lambda: F.binary_confusion_matrix(P, T, normalize="rows"), ValueError, r"`normalize` to be one of"),
    (lambda: F.multiclass_confusion_matrix(S, Y, 3, normalize="rows"), ValueError, r"`normalize` to be one of"),
    (lambda: F.multilabel_confusion_matrix(MP, MT, 2, normalize="rows"), ValueError, r"`normalize` to be one of"),
    (lambda: F.multilabel_hamming_distance(MP, MT, 0), ValueError, r"`num_labels` to be a positive int, got 0"),
])
def test_bad_options_functional(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# ------------------------------------------------------------------------------------------- inputs
BINARY_BAD = [
    ((torch.tensor([0.2, 1.3, 0.5]), T), ValueError,
     r"`preds` to lie in \[0, 1\] \(probabilities\), got values in \[0.2, 1.3\].*from_logits=True"),
    ((torch.tensor([0.2, float("nan"), 0.5]), T), ValueError, r"`preds` to contain no NaN, got 1 NaN value"),
    ((P, torch.tensor([0, 2, 1])), ValueError, r"`target` to hold only 0 and 1 .*, got value 2"),
    ((P, torch.tensor([0, -1, 1])), ValueError, r"`target` to hold only 0 and 1 .*, got value -1"),
    ((P, torch.tensor([0.0, 0.5, 1.0])), ValueError,
     r"`target` to hold only 0 and 1 \(bool, integer or floating\), got value 0.5"),
    ((P, torch.tensor([0.0, float("nan"), 1.0])), ValueError, r"`target` to hold only 0 and 1 .*, got value nan"),
    ((torch.tensor([0, 3, 1]), T), ValueError, r"`preds` to hold labels in \[0, 1\], got values in \[0, 3\]"),
    ((P, T[:2]), ValueError, r"`preds` and `target` to have the same shape, got \(3,\) and \(2,\)"),
    ((P, T.to(torch.complex64)), TypeError, r"`target` to have a real dtype, got torch.complex64"),
    ((P.tolist(), T), TypeError, r"`preds` to be a torch.Tensor, got list"),
    ((P, None), TypeError, r"`target` to be a torch.Tensor, got NoneType"),
    ((P.to(torch.complex64), T), TypeError, r"`preds` to have a real dtype, got torch.complex64"),
]


@pytest.mark.parametrize("bad,exc,match", BINARY_BAD)
def test_binary_bad_inputs(bad, exc, match):
    with pytest.raises(exc, match=match):
        F.binary_accuracy(*bad)
    check_rejects(tmc.BinaryF1Score, BIN_OK, bad, exc, match)


def test_binary_logits_allowed_but_not_nan():
    assert F.binary_recall(torch.tensor([3.0, -2.0, 0.1]), torch.tensor([1, 0, 1]), from_logits=True).item() == 1.0
    with pytest.raises(ValueError, match=r"`preds` to contain no NaN, got 1 NaN value"):
        F.binary_recall(torch.tensor([3.0, float("nan"), 0.1]), T, from_logits=True)
    check_rejects(partial(tmc.BinaryRecall, ignore_index=-1), BIN_OK, (P, torch.tensor([0, -2, 1])), ValueError,
                  r"`target` to hold only 0 and 1 or ignore_index=-1 .*, got value -2")


MULTICLASS_BAD = [
    ((S, torch.tensor([1, 3])), ValueError, r"`target` to hold labels in \[0, 2\], got values in \[1, 3\]"),
    ((S, torch.tensor([-1, 0])), ValueError, r"`target` to hold labels in \[0, 2\], got values in \[-1, 0\]"),
    ((torch.tensor([0, 5]), Y), ValueError, r"`preds` to hold labels in \[0, 2\], got values in \[0, 5\]"),
    ((torch.tensor([[0.1, float("nan"), 0.2], [0.1, 0.2, 0.3]]), Y), ValueError,
     r"`preds` to contain no NaN, got 1 NaN value"),
    ((S[:, :2], Y), ValueError, r"`preds` of shape \(N, 3, ...\) with `target` \(N, ...\), got \(2, 2\) and \(2,\)"),
    ((S, torch.tensor([1, 0, 2])), ValueError, r"`preds` of shape \(N, 3, ...\) with `target` \(N, ...\)"),
    ((torch.ones(2, 3, dtype=torch.long), Y), TypeError, r"`preds` with a class axis to have a floating dtype"),
    ((torch.tensor([0.5, 1.0]), Y), ValueError,  # float labels are fine when integral (as torchmetrics)
     r"`preds` to hold class labels \(integers, or floats with integral values\), got 0.5"),
    ((torch.tensor([0, 1, 2]), Y), ValueError, r"`preds` and `target` to have the same shape, got \(3,\) and \(2,\)"),
    ((torch.zeros(2, 3, 1, 1), Y), ValueError, r"`preds` to have shape \(N, ...\) like `target` or \(N, 3, ...\)"),
    ((S, torch.tensor([0.0, 1.5])), ValueError, r"`target` to hold class labels .*, got 1.5"),
    ((S, Y.to(torch.complex64)), TypeError, r"`target` to have an integer or bool dtype, got torch.complex64"),
]


@pytest.mark.parametrize("bad,exc,match", MULTICLASS_BAD)
def test_multiclass_bad_inputs(bad, exc, match):
    with pytest.raises(exc, match=match):
        F.multiclass_f1_score(*bad, num_classes=3)
    check_rejects(partial(tmc.MulticlassF1Score, 3), MC_OK, bad, exc, match)


def test_multiclass_top_k_needs_scores_and_ignore_index_range():
    match = r"`preds` to hold scores \(N, C, ...\) when `top_k` > 1, got labels of shape \(2,\)"
    with pytest.raises(ValueError, match=match):
        F.multiclass_accuracy(torch.tensor([0, 1]), Y, 3, top_k=2)
    check_rejects(partial(tmc.MulticlassAccuracy, 3, top_k=2), MC_OK, (torch.tensor([0, 1]), Y), ValueError, match)
    check_rejects(partial(tmc.MulticlassRecall, 3, top_k=2), MC_OK, (S, torch.tensor([-1, 0])), ValueError,
                  r"`target` to hold labels in \[0, 2\], got values in \[-1, 0\]")
    check_rejects(partial(tmc.MulticlassPrecision, 3, ignore_index=-100), MC_OK, (S, torch.tensor([-100, 4])),
                  ValueError, r"`target` to hold labels in \[0, 2\] or ignore_index=-100, got values in \[0, 4\]")


MULTILABEL_BAD = [
    ((MP, torch.tensor([[1, 0], [0, 2]])), ValueError, r"`target` to hold only 0 and 1 .*, got value 2"),
    ((MP, torch.tensor([[1.0, 0.0], [0.0, 0.3]])), ValueError, r"`target` to hold only 0 and 1 .*, got value 0.3"),
    ((MP * 2, MT), ValueError, r"`preds` to lie in \[0, 1\] \(probabilities\), got values in \[0.2, 1.8\]"),
    ((torch.tensor([[1, 0], [0, -1]]), MT), ValueError, r"`preds` to hold labels in \[0, 1\], got values in \[-1, 1\]"),
    ((MP[:, :1], MT[:, :1]), ValueError, r"`preds` and `target` of shape \(N, 2, ...\), got \(2, 1\)"),
    ((MP[0], MT[0]), ValueError, r"`preds` and `target` of shape \(N, 2, ...\), got \(2,\)"),
    ((MP, MT[:1]), ValueError, r"`preds` and `target` to have the same shape, got \(2, 2\) and \(1, 2\)"),
]


@pytest.mark.parametrize("bad,exc,match", MULTILABEL_BAD)
def test_multilabel_bad_inputs(bad, exc, match):
    with pytest.raises(exc, match=match):
        F.multilabel_hamming_distance(*bad, num_labels=2)
    check_rejects(partial(tmc.MultilabelHammingDistance, 2), ML_OK, bad, exc, match)


def test_validate_args_false_skips_only_value_checks():
    m = tmc.BinaryAccuracy(validate_args=False)
    m.update(torch.tensor([0.2, 1.3]), torch.tensor([0, 1]))  # out of range: not checked, thresholded as given
    assert m.compute().item() == 1.0
    with pytest.raises(ValueError, match=r"`preds` and `target` to have the same shape"):
        m.update(P, T[:2])
    with pytest.raises(TypeError, match=r"`target` to have an integer or bool dtype"):
        tmc.MulticlassRecall(3, validate_args=False).update(S, Y.to(torch.complex64))


def test_huge_out_of_range_target_is_a_clear_error_without_a_huge_allocation():
    import tracemalloc

    from torchmetrics_lite import MulticlassAccuracy

    m = MulticlassAccuracy(num_classes=3)
    m.update(torch.tensor([0, 1]), torch.tensor([0, 1]))
    before = {k: v.clone() for k, v in m.local_state().items()}
    tracemalloc.start()
    with pytest.raises(ValueError, match=r"`target`"):
        m.update(torch.tensor([0, 1]), torch.tensor([0, 10**12]))  # a bincount sized by it would need 24 TB
    tracemalloc.stop()
    assert all(torch.equal(before[k], v) for k, v in m.local_state().items())


# ------------------------------------------- negative predictive value, Hamming, exact match, hinge, fairness
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
