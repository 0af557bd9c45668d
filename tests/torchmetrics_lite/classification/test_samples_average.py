"""scikit-learn's ``average="samples"`` on the multilabel precision, recall, F-beta, F1 and Jaccard index (issue 35
item 8): the score of each sample (row) over its labels, then their mean over samples (weighted by ``weight``).
Oracles: scikit-learn itself on random indicator matrices (every ``zero_division``, with and without weights), a
by-hand per-row loop for ``ignore_index``; the harness for the modules (streaming over any split, forward, merge,
persistence); distributed cases in ``tests/helpers/classification/samples_average.py``, spawned by
``test_classification.py``."""
import math
import warnings
from functools import partial

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

import torchmetrics_lite as tl
import torchmetrics_lite.functional as F
from tests.helpers.classification.samples_average import batches as make_batches
from tests.helpers.metric_tester import check_metric

#: name -> (our function, our module, scikit-learn's function, its extra arguments)
SCORES = {
    "precision": (F.multilabel_precision, tl.MultilabelPrecision, skm.precision_score, {}),
    "recall": (F.multilabel_recall, tl.MultilabelRecall, skm.recall_score, {}),
    "f1": (F.multilabel_f1_score, tl.MultilabelF1Score, skm.f1_score, {}),
    "fbeta": (partial(F.multilabel_fbeta_score, beta=0.5), partial(tl.MultilabelFBetaScore, 0.5), skm.fbeta_score,
              {"beta": 0.5}),
    "jaccard": (F.multilabel_jaccard_index, tl.MultilabelJaccardIndex, skm.jaccard_score, {}),
}


def _sk(name, y, p, zero_division, weight=None):
    _, _, fn, extra = SCORES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(y, p, average="samples", zero_division=zero_division, sample_weight=weight, **extra)


def _ours(name, preds, target, **kw):
    fn = SCORES[name][0]
    return fn(preds, target, num_labels=target.shape[1], average="samples", **kw)


@st.composite
def _case(draw):
    rows, labels = draw(st.integers(1, 12)), draw(st.integers(2, 5))
    flat = st.lists(st.integers(0, 1), min_size=rows * labels, max_size=rows * labels)
    y = np.array(draw(flat)).reshape(rows, labels)
    p = np.array(draw(flat)).reshape(rows, labels)
    name = draw(st.sampled_from(sorted(SCORES)))
    zds = [0.0, 1.0] if name == "jaccard" else [0.0, 1.0, math.nan]  # scikit-learn's Jaccard takes no nan
    zd = draw(st.sampled_from(zds))
    kind = draw(st.sampled_from(["none", "int", "float"]))
    if kind == "int":
        w = np.array(draw(st.lists(st.integers(0, 3), min_size=rows, max_size=rows)))
    elif kind == "float":
        w = np.array(draw(st.lists(st.floats(0.0, 4.0), min_size=rows, max_size=rows)))
    else:
        w = None
    return name, y, p, zd, w


@settings(max_examples=120, deadline=None, derandomize=True)
@given(_case())
def test_the_functions_equal_scikit_learn(case):
    name, y, p, zd, w = case
    weight = None if w is None else torch.as_tensor(w)
    got = _ours(name, torch.as_tensor(p), torch.as_tensor(y), zero_division=zd, weight=weight).item()
    if w is not None and not w.sum() > 0:  # scikit-learn raises on weights that are all 0; ours: zero_division
        assert got == zd or (math.isnan(got) and math.isnan(zd))
        return
    expected = _sk(name, y, p, zd, w)
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-12, nan_ok=True), (name, zd)


def test_a_row_with_no_true_and_no_predicted_label_scores_zero_division_as_scikit_learn():
    y = np.array([[1, 0, 1], [0, 0, 0], [0, 1, 0], [0, 0, 0]])
    p = np.array([[1, 1, 0], [0, 0, 0], [0, 0, 0], [1, 0, 0]])
    for name in SCORES:
        for zd in (0.0, 1.0):
            got = _ours(name, torch.as_tensor(p), torch.as_tensor(y), zero_division=zd).item()
            assert got == pytest.approx(_sk(name, y, p, zd), rel=1e-15), (name, zd)
    # by hand: precision per row 1/2, 0/0, 0/0, 0/1 -> with zero_division=1: (0.5 + 1 + 1 + 0) / 4
    assert F.multilabel_precision(torch.as_tensor(p), torch.as_tensor(y), 3, average="samples",
                                  zero_division=1.0).item() == 0.625
    # zero_division=nan: the 0/0 rows leave the mean, (0.5 + 0) / 2
    assert F.multilabel_precision(torch.as_tensor(p), torch.as_tensor(y), 3, average="samples",
                                  zero_division=math.nan).item() == 0.25


def test_probabilities_are_thresholded_first_and_extra_dimensions_are_samples():
    g = torch.Generator().manual_seed(3)
    preds, target = torch.rand(6, 4, 3, generator=g), torch.randint(0, 2, (6, 4, 3), generator=g)
    rows_p = (preds.movedim(1, -1).reshape(-1, 4) > 0.3).long().numpy()
    rows_y = target.movedim(1, -1).reshape(-1, 4).numpy()
    for name in SCORES:
        got = _ours(name, preds, target, threshold=0.3).item()
        assert got == pytest.approx(_sk(name, rows_y, rows_p, 0.0), rel=1e-12), name
    logits = torch.logit(preds.double())
    assert (_ours("f1", logits, target, threshold=0.3, from_logits=True)
            == _ours("f1", preds, target, threshold=0.3))


def test_ignore_index_leaves_entries_out_of_their_row_and_an_emptied_row_out_of_the_mean():
    y = torch.tensor([[1, -1, 0], [-1, -1, -1], [0, 1, -1], [1, 1, 0]])
    p = torch.tensor([[1, 1, 0], [1, 0, 1], [1, 1, 1], [0, 1, 0]])
    w = torch.tensor([1.0, 5.0, 2.0, 0.5])
    for name in SCORES:
        for zd in (0.0, 1.0):
            got = _ours(name, p, y, ignore_index=-1, zero_division=zd, weight=w).item()
            scores, weights = [], []
            for r in range(4):
                keep = (y[r] != -1).numpy()
                if not keep.any():
                    continue  # row 1: every label ignored, not a sample
                yr, pr = y[r].numpy()[keep], p[r].numpy()[keep]
                tp, fp, fn = int((yr & pr).sum()), int(((1 - yr) & pr).sum()), int((yr & (1 - pr)).sum())
                num, den = {"precision": (tp, tp + fp), "recall": (tp, tp + fn), "f1": (2 * tp, 2 * tp + fp + fn),
                            "fbeta": (1.25 * tp, 1.25 * tp + 0.25 * fn + fp), "jaccard": (tp, tp + fp + fn)}[name]
                scores.append(num / den if den else zd)
                weights.append(float(w[r]))
            assert got == pytest.approx(np.average(scores, weights=weights), rel=1e-12), (name, zd)


def test_empty_input_and_all_zero_weights_give_zero_division():
    empty = torch.zeros(0, 3)
    with pytest.warns(UserWarning, match="empty input"):
        assert F.multilabel_recall(empty, empty.long(), 3, average="samples", zero_division=1.0).item() == 1.0
    y, p = torch.tensor([[1, 0], [0, 1]]), torch.tensor([[1, 1], [0, 1]])
    assert F.multilabel_f1_score(p, y, 2, average="samples", weight=torch.zeros(2)).item() == 0.0
    assert math.isnan(F.multilabel_f1_score(p, y, 2, average="samples", zero_division=math.nan,
                                            weight=torch.zeros(2)).item())
    m = tl.MultilabelPrecision(2, average="samples", zero_division=1.0)
    with pytest.warns(UserWarning):
        assert m.compute().item() == 1.0  # before any update: the value of an empty state, as the function


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("name", sorted(SCORES))
def test_modules_stream_merge_and_persist_to_the_one_shot_value(name, weighted):
    fn, cls = SCORES[name][0], SCORES[name][1]
    batches = make_batches(11, weighted)
    preds, target = torch.cat([b[0] for b in batches]), torch.cat([b[1] for b in batches])
    weight = torch.cat([b[2] for b in batches]) if weighted else None
    expected = fn(preds, target, num_labels=4, average="samples", zero_division=1.0, weight=weight)
    w = None if weight is None else weight.numpy()
    assert expected.item() == pytest.approx(_sk(name, target.numpy(), (preds > 0.5).long().numpy(), 1.0, w),
                                            rel=1e-12)
    factory = partial(cls, 4, average="samples", zero_division=1.0, weighted=weighted)

    def batch_value(preds, target, weight=None):
        return fn(preds, target, num_labels=4, average="samples", zero_division=1.0, weight=weight)

    check_metric(factory, batches, expected, batch_value=batch_value, max_examples=10, rtol=1e-12, atol=1e-12)


def test_the_module_state_is_two_sums_and_does_not_share_statistics_in_a_collection():
    m = tl.MultilabelRecall(4, average="samples")
    assert set(m.local_state()) == {"score_sum", "weight_sum"} and m.stats_key is None
    coll = tl.MetricCollection({"samples": tl.MultilabelRecall(4, average="samples"),
                                "macro": tl.MultilabelRecall(4), "prec": tl.MultilabelPrecision(4, average="samples")})
    batches = make_batches(5, False)
    for b in batches:
        coll.update(*b)
    preds, target = torch.cat([b[0] for b in batches]), torch.cat([b[1] for b in batches])
    got = coll.compute()
    torch.testing.assert_close(got["samples"], F.multilabel_recall(preds, target, 4, average="samples"))
    torch.testing.assert_close(got["macro"], F.multilabel_recall(preds, target, 4))
    torch.testing.assert_close(got["prec"], F.multilabel_precision(preds, target, 4, average="samples"))


def test_bad_averages_name_the_argument_the_choices_and_the_value():
    y = torch.tensor([[1, 0], [0, 1]])
    for fn in (F.multilabel_accuracy, F.multilabel_hamming_distance, F.multilabel_specificity,
               F.multilabel_negative_predictive_value, F.multilabel_stat_scores):
        with pytest.raises(ValueError, match=r"Expected `average` to be one of \('micro', 'macro', 'weighted', "
                                             r"'none'\), got 'samples'"):
            fn(y, y, 2, average="samples")
    for cls in (tl.MultilabelAccuracy, tl.MultilabelHammingDistance, tl.MultilabelSpecificity):
        with pytest.raises(ValueError, match=r"Expected `average` to be one of .*'none'\), got 'samples'"):
            cls(2, average="samples")
    with pytest.raises(ValueError, match=r"Expected `average` to be one of \('micro', 'macro', 'weighted', "
                                         r"'none', 'samples'\), got 'sample'"):
        F.multilabel_precision(y, y, 2, average="sample")
    with pytest.raises(ValueError, match=r"Expected `average` to be one of .*'samples'\), got 'sample'"):
        tl.MultilabelF1Score(2, average="sample")
    with pytest.raises(ValueError, match=r"Expected `multidim_average='global'` with average='samples'.*got "
                                         r"'samplewise'"):
        F.multilabel_recall(y[..., None], y[..., None], 2, average="samples", multidim_average="samplewise")
    with pytest.raises(ValueError, match=r"Expected `multidim_average='global'` with average='samples'"):
        tl.MultilabelRecall(2, average="samples", multidim_average="samplewise")
    with pytest.raises(ValueError, match=r"Expected no `weight` on a metric built with weighted=False.*weighted=True"):
        tl.MultilabelRecall(2, average="samples").update(y, y, weight=torch.ones(2))


def test_torchmetrics_refuses_average_samples_where_we_give_scikit_learn_s_number():
    tmf = pytest.importorskip("torchmetrics.functional.classification")
    y = torch.tensor([[1, 0], [0, 1]])
    with pytest.raises(ValueError, match="average"):
        tmf.multilabel_precision(y, y, 2, average="samples")
    assert F.multilabel_precision(y, y, 2, average="samples").item() == 1.0
