"""Binned curves of logits (``from_logits=True`` with ``thresholds=``), against torchmetrics 1.9 on the threshold
kinds its tests use (a Python list of floats, ``torch.linspace(0, 1, T)``, an int), scores that equal a threshold
after the softmax (10 equal logits: 1/10 against float32 0.1), and float16 / bfloat16 / float32 / float64 inputs.
The softmax is taken in the scores' own dtype, as torchmetrics: a float64 softmax put 1/10 below the float32
threshold 0.1 and gave another precision/recall there (issue 35)."""
import warnings

import pytest
import torch

import torchmetrics_lite as ours
import torchmetrics_lite.functional as ours_f

tm_c = pytest.importorskip("torchmetrics.classification")
tm_f = pytest.importorskip("torchmetrics.functional.classification")

THRESHOLDS = [[0.1, 0.5, 0.9], [0.0, 0.1, 0.25, 0.5, 1.0], torch.linspace(0, 1, 11), torch.linspace(0, 1, 7), 11]


def _logits(dtype):
    gen = torch.Generator().manual_seed(3)
    logits = torch.zeros(12, 10)  # rows of equal logits: softmax 1/10 exactly at the threshold 0.1
    logits[4:] = (torch.randn(8, 10, generator=gen) * 2).round()  # small integers: ties, exact quarters...
    logits[2, :2] = 5.0  # two classes at (nearly) 1/2
    target = torch.arange(12) % 10
    return logits.to(dtype), target


def _close(theirs, mine):
    for t, m in zip(theirs if isinstance(theirs, tuple) else (theirs,), mine if isinstance(mine, tuple) else (mine,)):
        assert m.shape == t.shape
        torch.testing.assert_close(m.double(), t.double(), rtol=0, atol=1e-6, equal_nan=True)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.float64])
def test_binned_curves_of_logits_are_torchmetrics(dtype):
    logits, target = _logits(dtype)
    for thresholds in THRESHOLDS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = tm_f.multiclass_precision_recall_curve(logits, target, 10, thresholds=thresholds)
            mine = ours_f.multiclass_precision_recall_curve(logits, target, 10, thresholds=thresholds,
                                                           from_logits=True)
            _close(theirs[:2], mine[:2])
            fpr, tpr, _ = tm_f.multiclass_roc(logits, target, 10, thresholds=thresholds)
            m_fpr, m_tpr, _ = ours_f.multiclass_roc(logits, target, 10, thresholds=thresholds, from_logits=True)
            _close(fpr[:, 1:], m_fpr[:, 1:])  # a class without negatives: 0 there (documented nan here) - none here
            _close(tpr, torch.nan_to_num(m_tpr, nan=0.0))  # a class without positives: documented nan (rate 0/0)
            _close(tm_f.multiclass_recall_at_fixed_precision(logits, target, 10, 0.3, thresholds=thresholds),
                   ours_f.multiclass_recall_at_fixed_precision(logits, target, 10, 0.3, thresholds=thresholds,
                                                               from_logits=True))
            _close(tm_f.multiclass_eer(logits, target, 10, thresholds=thresholds, average="micro"),
                   ours_f.multiclass_eer(logits, target, 10, thresholds=thresholds, average="micro",
                                         from_logits=True))
            t_m, o_m = tm_c.MulticlassPrecisionRecallCurve(10, thresholds=thresholds), \
                ours.MulticlassPrecisionRecallCurve(10, thresholds=thresholds, from_logits=True)
            for part in (slice(0, 5), slice(5, None)):
                t_m.update(logits[part], target[part])
                o_m.update(logits[part], target[part])
            _close(t_m.compute()[:2], o_m.compute()[:2])


def test_the_equal_logits_row_is_at_the_threshold():
    """The case the float64 softmax got wrong: 1/10 (float64) is below float32 0.1, torchmetrics' float32 1/10 is
    not; precision at 0.1 of class 0 is 1/4 (the four rows at or above 0.1), not 0/0."""
    logits, target = torch.zeros(4, 10), torch.tensor([0, 3, 5, 9])
    precision, recall, _ = ours_f.multiclass_precision_recall_curve(logits, target, 10, thresholds=[0.1, 0.5],
                                                                    from_logits=True)
    assert precision[0, 0].item() == 0.25 and recall[0, 0].item() == 1.0
    assert torch.isnan(precision[0, 1])  # nothing at or above 0.5: 0/0, as torchmetrics
