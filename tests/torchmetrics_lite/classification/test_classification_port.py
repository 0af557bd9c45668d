"""Ported torchmetrics code for negative predictive value, Hamming distance, exact match, hinge loss and group
fairness (issue 24 items 1-3 and 8): the same call run through torchmetrics 1.9 and through us on the same input
gives the same value (torchmetrics' float32 against our float64: 1e-6), or we raise the documented clear error, or
(listed in the README) we differ on purpose and the test pins both numbers."""
import warnings

import pytest
import torch

import torchmetrics_lite as ours
import torchmetrics_lite.functional as OF

tm = pytest.importorskip("torchmetrics")
from torchmetrics import classification as TC  # noqa: E402  (after the importorskip)
from torchmetrics.functional import classification as TF  # noqa: E402

GEN = torch.Generator().manual_seed(2024)
C, L, G = 4, 3, 3
BIN_P = torch.rand(200, generator=GEN, dtype=torch.float64)
BIN_P[:15] = 0.5  # ties at the threshold
BIN_T = (torch.rand(200, generator=GEN) < BIN_P).long()
BIN_T_IGN = BIN_T.clone()
BIN_T_IGN[::7] = -1
MC_S = torch.rand(200, C, generator=GEN, dtype=torch.float64).softmax(1)
MC_T = torch.randint(0, C - 1, (200,), generator=GEN)  # class 3 is never a target
MC_T_IGN = MC_T.clone()
MC_T_IGN[::9] = -1
ML_P = torch.rand(120, L, generator=GEN, dtype=torch.float64)
ML_T = (torch.rand(120, L, generator=GEN) < ML_P).long()
GROUPS = torch.randint(0, G, (200,), generator=GEN)
GROUPS[:G] = torch.arange(G)  # every group in the first batch too


def _close(theirs, mine):
    if isinstance(theirs, dict):
        assert list(theirs) == list(mine), (list(theirs), list(mine))
        for k in theirs:
            _close(theirs[k], mine[k])
        return
    torch.testing.assert_close(torch.as_tensor(mine, dtype=torch.float64),
                               torch.as_tensor(theirs, dtype=torch.float64), atol=1e-6, rtol=1e-6, equal_nan=True)


def _stream(metric, batches):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for b in batches:
            metric.update(*b)
        return metric.compute()


def _halves(*tensors):
    return [tuple(t[:90] for t in tensors), tuple(t[90:] for t in tensors)]


# ----------------------------------------------------------------------- negative predictive value, Hamming
@pytest.mark.parametrize("stem", ["negative_predictive_value", "hamming_distance"])
@pytest.mark.parametrize("ignore_index", [None, -1])
def test_binary_scores(stem, ignore_index):
    target = BIN_T if ignore_index is None else BIN_T_IGN
    fn = f"binary_{stem}"
    _close(getattr(TF, fn)(BIN_P, target, ignore_index=ignore_index),
           getattr(OF, fn)(BIN_P, target, ignore_index=ignore_index))
    cls = "Binary" + "".join(w.capitalize() for w in stem.split("_"))
    _close(_stream(getattr(TC, cls)(ignore_index=ignore_index), _halves(BIN_P, target)),
           _stream(getattr(ours, cls)(ignore_index=ignore_index), _halves(BIN_P, target)))


@pytest.mark.parametrize("stem", ["negative_predictive_value", "hamming_distance"])
@pytest.mark.parametrize("average", ["micro", "macro", "weighted", "none"])
@pytest.mark.parametrize("top_k", [1, 2])
def test_multiclass_scores(stem, average, top_k):
    fn, cls = f"multiclass_{stem}", "Multiclass" + "".join(w.capitalize() for w in stem.split("_"))
    for target, ignore_index in ((MC_T, None), (MC_T_IGN, -1)):
        _close(getattr(TF, fn)(MC_S, target, C, average=average, top_k=top_k, ignore_index=ignore_index),
               getattr(OF, fn)(MC_S, target, C, average=average, top_k=top_k, ignore_index=ignore_index))
        theirs = getattr(TC, cls)(C, top_k=top_k, average=average, ignore_index=ignore_index)
        mine = getattr(ours, cls)(C, top_k=top_k, average=average, ignore_index=ignore_index)
        _close(_stream(theirs, _halves(MC_S, target)), _stream(mine, _halves(MC_S, target)))


@pytest.mark.parametrize("stem", ["negative_predictive_value", "hamming_distance"])
@pytest.mark.parametrize("average", ["micro", "macro", "weighted", "none"])
def test_multilabel_scores(stem, average):
    fn, cls = f"multilabel_{stem}", "Multilabel" + "".join(w.capitalize() for w in stem.split("_"))
    _close(getattr(TF, fn)(ML_P, ML_T, L, average=average), getattr(OF, fn)(ML_P, ML_T, L, average=average))
    _close(_stream(getattr(TC, cls)(L, average=average), _halves(ML_P, ML_T)),
           _stream(getattr(ours, cls)(L, average=average), _halves(ML_P, ML_T)))


def test_hamming_of_a_class_without_support():
    # torchmetrics' 1 - 0/0 = 1 (its safe division gives 0), our zero_division default 1.0; torchmetrics fails on
    # an empty input, where ours is zero_division (1.0) too
    _close(TF.multiclass_hamming_distance(MC_S, MC_T, C, average="none"),
           OF.multiclass_hamming_distance(MC_S, MC_T, C, average="none"))
    assert OF.multiclass_hamming_distance(MC_S, MC_T, C, average="none")[C - 1].item() == 1.0


# ------------------------------------------------------------------------------------------- exact match
def test_multiclass_exact_match():
    target = torch.randint(0, 3, (50, 4), generator=GEN)
    preds = torch.where(torch.rand(50, 4, generator=GEN) < 0.1, 0, target)
    scores = torch.nn.functional.one_hot(preds, 3).movedim(-1, 1).double() + 0.01 * torch.rand(50, 3, 4,
                                                                                               generator=GEN)
    ign = torch.where(torch.rand(50, 4, generator=GEN) < 0.1, -1, target)
    for p, t, ii in ((preds, target, None), (scores, target, None), (preds, ign, -1)):
        _close(TF.multiclass_exact_match(p, t, 3, ignore_index=ii), OF.multiclass_exact_match(p, t, 3, ignore_index=ii))
        _close(_stream(TC.MulticlassExactMatch(3, ignore_index=ii), [(p[:20], t[:20]), (p[20:], t[20:])]),
               _stream(ours.MulticlassExactMatch(3, ignore_index=ii), [(p[:20], t[:20]), (p[20:], t[20:])]))


# -------------------------------------------------------------------------------------------- hinge loss
@pytest.mark.parametrize("squared", [False, True])
def test_binary_hinge(squared):
    logits = BIN_P * 8 - 4
    for preds, opts in ((BIN_P, {}), (logits, {"from_logits": True})):  # torchmetrics sigmoids a logit batch
        for target, ii in ((BIN_T, None), (BIN_T_IGN, -1)):
            _close(TF.binary_hinge_loss(preds, target, squared, ii),
                   OF.binary_hinge_loss(preds, target, squared, ii, **opts))
            _close(_stream(TC.BinaryHingeLoss(squared, ii), _halves(preds, target)),
                   _stream(ours.BinaryHingeLoss(squared, ii, **opts), _halves(preds, target)))


@pytest.mark.parametrize("mode", ["crammer-singer", "one-vs-all"])
@pytest.mark.parametrize("squared", [False, True])
def test_multiclass_hinge(mode, squared):
    logits = torch.log(MC_S) * 2
    for preds, opts in ((MC_S, {}), (logits, {"from_logits": True})):  # torchmetrics softmaxes a logit batch
        for target, ii in ((MC_T, None), (MC_T_IGN, -1)):
            _close(TF.multiclass_hinge_loss(preds, target, C, squared, mode, ii),
                   OF.multiclass_hinge_loss(preds, target, C, squared, mode, ii, **opts))
            _close(_stream(TC.MulticlassHingeLoss(C, squared, mode, ii), _halves(preds, target)),
                   _stream(ours.MulticlassHingeLoss(C, squared, mode, ii, **opts), _halves(preds, target)))


def test_hinge_logits_without_from_logits_raise_the_documented_error():
    with pytest.raises(ValueError, match=r"pass from_logits=True .* or margins=True"):
        OF.binary_hinge_loss(BIN_P * 8 - 4, BIN_T)
    with pytest.raises(TypeError, match=r"multidim_average"):  # "global", torchmetrics' default, is a no-op
        ours.BinaryHingeLoss(multidim_average="samplewise")


# ---------------------------------------------------------------------------------------- group fairness
@pytest.mark.parametrize("task", ["demographic_parity", "equal_opportunity", "all"])
def test_fairness(task):
    target = None if task == "demographic_parity" else BIN_T
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = TF.binary_fairness(BIN_P, target, GROUPS, task)
    _close(theirs, OF.binary_fairness(BIN_P, target, GROUPS, task))
    batches = [(BIN_P[:100], BIN_T[:100], GROUPS[:100]), (BIN_P[100:], BIN_T[100:], GROUPS[100:])]
    _close(_stream(TC.BinaryFairness(G, task), batches), _stream(ours.BinaryFairness(G, task), batches))


def test_group_stat_rates():
    _close(TF.binary_groups_stat_rates(BIN_P, BIN_T, GROUPS, G), OF.binary_groups_stat_rates(BIN_P, BIN_T, GROUPS, G))
    batches = [(BIN_P[:100], BIN_T[:100], GROUPS[:100]), (BIN_P[100:], BIN_T[100:], GROUPS[100:])]
    _close(_stream(TC.BinaryGroupStatRates(G), batches), _stream(ours.BinaryGroupStatRates(G), batches))


def test_a_batch_without_a_group_differs_on_purpose():
    """README: torchmetrics files a batch's counts under the k-th group *present in the batch*; a batch without
    group 1 puts group 2's counts under group 1. Ours keys them by group id (equal to the counts by hand)."""
    keep = GROUPS != 1
    batch = (BIN_P[keep], BIN_T[keep], GROUPS[keep])
    theirs, mine = _stream(TC.BinaryGroupStatRates(G), [batch]), _stream(ours.BinaryGroupStatRates(G), [batch])
    pred = (BIN_P[keep] > 0.5).long()
    in2 = GROUPS[keep] == 2
    tp2 = ((pred == 1) & (BIN_T[keep] == 1) & in2).sum() / in2.sum()
    _close(mine["group_2"][0], tp2)
    _close(theirs["group_1"][0], tp2)  # group 2's rates under group 1's key
    assert torch.isnan(mine["group_1"]).all() and torch.isnan(theirs["group_2"]).all()
    # the function: groups {0, 2} are renumbered 0, 1 by torchmetrics; ours keeps the ids
    assert set(TF.binary_groups_stat_rates(*batch, G)) == {"group_0", "group_1"}
    assert set(OF.binary_groups_stat_rates(*batch, G)) == {"group_0", "group_1", "group_2"}
