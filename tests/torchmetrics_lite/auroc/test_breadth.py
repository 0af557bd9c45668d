"""The equal error rate, LogAUC, the multilabel ranking metrics and the multilabel operating points against
independent oracles: the EER interpolated by hand on scikit-learn's ``roc_curve``, LogAUC by numerical quadrature
of ``np.interp`` on that curve, scikit-learn's ``coverage_error`` / ``label_ranking_average_precision_score`` /
``label_ranking_loss``, and each label's binary operating point; with ties, empty input, a class or label without
positives, both kernels of the ranking counts; their modules through the harness, and an error test per message.
Their distributed cases (BREADTH_CASES) run in ``test_auroc.py``'s one spawned group; torchmetrics' values are
compared in ``test_port_breadth.py``."""
import math
import warnings
from functools import partial

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.integrate import quad
from sklearn.metrics import coverage_error, label_ranking_loss, roc_curve
from sklearn.metrics import label_ranking_average_precision_score as lrap

import torchmetrics_lite as T
import torchmetrics_lite.functional as F
from tests.helpers.distributed import Case
from tests.helpers.metric_tester import check_metric, check_rejects, concat
from torchmetrics_lite import _backend

C, L = 4, 5


def make(n, seed=0, decimals=1):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, C, (n,), generator=g)
    logits = (torch.randn(n, C, generator=g) * 2 + torch.nn.functional.one_hot(y, C)).round(decimals=decimals)
    labels = (torch.rand(n, L, generator=g) < torch.linspace(0.1, 0.7, L)).long()
    scores = (torch.randn(n, L, generator=g) + labels).round(decimals=decimals)
    return logits, torch.softmax(logits.double(), 1), y, scores, labels


# ----------------------------------------------------------------------------------------------- oracles
def eer_oracle(y, s):
    """The EER by hand on scikit-learn's curve: the first point with fpr >= fnr (compared in exact integer
    counts, so an exact crossing at a point is seen as one), interpolated from the one before (a plain loop)."""
    fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
    n_pos, n_neg = int(np.sum(y)), int(len(y) - np.sum(y))
    fp, fn = np.rint(fpr * n_neg).astype(int), n_pos - np.rint(tpr * n_pos).astype(int)
    fnr = fn / n_pos
    for i in range(1, len(fpr)):
        if fp[i] * n_pos >= fn[i] * n_neg:
            d0, d1 = fpr[i - 1] - fnr[i - 1], fpr[i] - fnr[i]
            return fpr[i - 1] + (fpr[i] - fpr[i - 1]) * d0 / (d0 - d1), thr[i]
    raise AssertionError("no crossing")


def logauc_oracle(y, s, lo, hi):
    """``integral tpr d(ln f) / ln(hi / lo)`` by adaptive quadrature over ``x = ln f``, the curve's points as
    break points (``np.interp`` of the curve, whose vertical steps have no width)."""
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    inside = [math.log(f) for f in fpr if lo < f < hi]
    value, _ = quad(lambda x: np.interp(math.exp(x), fpr, tpr), math.log(lo), math.log(hi), points=inside or None,
                    limit=500, epsabs=1e-14, epsrel=1e-13)
    return value / math.log(hi / lo)


def per_column(fn, scores, positive):
    return [fn(positive[:, j].numpy(), scores[:, j].numpy()) for j in range(scores.shape[1])]


# ------------------------------------------------------------------------------------------------- EER
@pytest.fixture(params=["numpy", "torch"])
def backend(request):
    """The packed numpy sort of the curve reads (CPU) and the sweep (other devices, compile, float64)."""
    with _backend.force(request.param):
        yield request.param


@pytest.mark.parametrize("decimals", [1, 3])
def test_eer_is_the_interpolated_crossing_of_the_exact_curve(decimals, backend):
    logits, probs, y, scores, labels = make(400, decimals=decimals)
    s, t = scores[:, 2].double(), labels[:, 2]
    eer, threshold = F.binary_eer_threshold(s, t)
    want, want_threshold = eer_oracle(t.numpy(), s.numpy())
    assert abs(eer.item() - want) < 1e-12 and threshold.item() == want_threshold
    assert F.binary_eer(s, t).item() == eer.item()
    per_class = F.multiclass_eer_threshold(logits, y, C, from_logits=True)
    for c, (e, th) in enumerate(per_column(eer_oracle, probs, torch.nn.functional.one_hot(y, C))):
        assert abs(per_class[0][c].item() - e) < 1e-12 and abs(per_class[1][c].item() - th) < 1e-12
    micro = F.multiclass_eer(probs, y, C, average="micro")
    assert abs(micro.item() - eer_oracle(torch.nn.functional.one_hot(y, C).reshape(-1).numpy(),
                                         probs.reshape(-1).numpy())[0]) < 1e-12
    per_label = F.multilabel_eer_threshold(scores, labels, L)
    for j, (e, th) in enumerate(per_column(eer_oracle, scores.double(), labels)):
        assert abs(per_label[0][j].item() - e) < 1e-12 and abs(per_label[1][j].item() - th) < 1e-6


def test_eer_by_hand(backend):
    # curve (fpr, fnr): (0, 1) -> (0, 2/3) -> (1/2, 0) [the tie 0.3: one negative, two positives] -> (1, 0);
    # fpr = fnr on the diagonal segment at 2/7, the segment's end is threshold 0.3
    eer, threshold = F.binary_eer_threshold(torch.tensor([0.1, 0.3, 0.3, 0.3, 0.9]), torch.tensor([0, 0, 1, 1, 1]))
    assert eer.item() == pytest.approx(2 / 7, abs=1e-15) and threshold.item() == pytest.approx(0.3)
    eer, threshold = F.binary_eer_threshold(torch.tensor([0.2, 0.8]), torch.tensor([0, 1]))  # perfect: crosses at
    assert (eer.item(), threshold.item()) == (0.0, pytest.approx(0.8))  # the point (0, 0) of threshold 0.8
    eer = F.binary_eer(torch.tensor([0.8, 0.2]), torch.tensor([0, 1]))  # reversed: crosses at (1, 1)
    assert eer.item() == 1.0


def test_eer_undefined_and_empty(backend):
    with pytest.warns(UserWarning, match="EER is undefined with one class present"):
        eer, threshold = F.binary_eer_threshold(torch.rand(5), torch.ones(5, dtype=torch.long))
    assert math.isnan(eer.item()) and math.isnan(threshold.item())
    with pytest.warns(UserWarning, match="EER is undefined"):
        assert math.isnan(F.binary_eer(torch.zeros(0), torch.zeros(0, dtype=torch.long)).item())
    _, probs, y, scores, labels = make(60)
    y[y == 3] = 0
    labels[:, 1] = 0
    with pytest.warns(UserWarning, match=r"EER is undefined for class\(es\) \[3\]"):
        per_class = F.multiclass_eer(probs, y, C)
    assert torch.isnan(per_class[3]) and not torch.isnan(per_class[:3]).any()
    with pytest.warns(UserWarning, match=r"EER is undefined for class\(es\) \[1\]"):
        per_label = F.multilabel_eer(scores, labels, L)
    assert torch.isnan(per_label[1]) and not torch.isnan(per_label[[0, 2, 3, 4]]).any()


# ---------------------------------------------------------------------------------------------- LogAUC
@pytest.mark.parametrize("fpr_range", [(0.001, 0.1), (0.05, 1.0), (0.2, 0.3)])
@pytest.mark.parametrize("decimals", [1, 3])
def test_logauc_equals_the_integral_of_the_exact_curve(decimals, fpr_range, backend):
    logits, probs, y, scores, labels = make(300, seed=1, decimals=decimals)
    lo, hi = fpr_range
    s, t = scores[:, 3].double(), labels[:, 3]
    assert abs(F.binary_logauc(s, t, fpr_range).item() - logauc_oracle(t.numpy(), s.numpy(), lo, hi)) < 1e-10
    want = per_column(lambda a, b: logauc_oracle(a, b, lo, hi), probs, torch.nn.functional.one_hot(y, C))
    got = F.multiclass_logauc(logits, y, C, fpr_range, average=None, from_logits=True)
    np.testing.assert_allclose(got.numpy(), want, atol=1e-10, rtol=0)
    assert abs(F.multiclass_logauc(logits, y, C, fpr_range, from_logits=True).item() - np.mean(want)) < 1e-10
    want = per_column(lambda a, b: logauc_oracle(a, b, lo, hi), scores.double(), labels)
    np.testing.assert_allclose(F.multilabel_logauc(scores, labels, L, fpr_range, average="none").numpy(), want,
                               atol=1e-10, rtol=0)


def test_logauc_by_hand_and_undefined(backend):
    preds, target = torch.tensor([0.9, 0.8, 0.7, 0.6]), torch.tensor([1, 0, 1, 0])
    want = (0.5 * math.log(5) + math.log(2)) / math.log(10)  # tpr 1/2 on [0.1, 0.5), 1 on [0.5, 1]
    assert F.binary_logauc(preds, target, (0.1, 1.0)).item() == pytest.approx(want, abs=1e-15)
    # one tie group of a positive and a negative: the diagonal (0, 0) -> (1, 1); integral of f d(ln f) = hi - lo
    value = F.binary_logauc(torch.tensor([0.5, 0.5]), torch.tensor([0, 1]), (0.01, 0.1))
    assert value.item() == pytest.approx((0.1 - 0.01) / math.log(10), abs=1e-15)
    with pytest.warns(UserWarning, match="LogAUC is undefined with one class present"):
        assert math.isnan(F.binary_logauc(torch.rand(4), torch.zeros(4, dtype=torch.long)).item())
    with pytest.raises(ValueError, match="Expected both classes in `target` for LogAUC"):
        F.binary_logauc(torch.zeros(0), torch.zeros(0, dtype=torch.long), strict=True)
    _, _, _, scores, labels = make(50)
    labels[:, 0] = 1
    with pytest.warns(UserWarning, match=r"LogAUC is undefined for class\(es\) \[0\]"):
        macro = F.multilabel_logauc(scores, labels, L)
    with pytest.warns(UserWarning):
        per_label = F.multilabel_logauc(scores, labels, L, average=None)
    assert macro.item() == pytest.approx(per_label[1:].mean().item(), abs=1e-15)


# ------------------------------------------------------------------------------------ multilabel ranking
RANKING = {"coverage": (F.multilabel_coverage_error, coverage_error),
           "lrap": (F.multilabel_ranking_average_precision, lrap),
           "loss": (F.multilabel_ranking_loss, label_ranking_loss)}


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 30), labels=st.integers(2, 7), levels=st.sampled_from([2, 3, 10, 1000]),
       rate=st.floats(0.0, 1.0), seed=st.integers(0, 2**16), wide=st.booleans())
def test_ranking_metrics_equal_scikit_learn(n, labels, levels, rate, seed, wide):
    g = torch.Generator().manual_seed(seed)
    scores = torch.randint(0, levels, (n, labels), generator=g) / levels - 0.3  # ties; negative values
    if wide:  # float64 that are not float32: the sweep instead of the packed numpy sort
        scores = scores.double() + torch.rand(n, labels, generator=g, dtype=torch.float64) * 1e-12
    target = (torch.rand(n, labels, generator=g) < rate).long()
    for name, (ours, oracle) in RANKING.items():
        want = oracle(target.numpy(), scores.numpy())
        for backend in ("numpy", "torch"):
            with _backend.force(backend):
                got = ours(scores, target, labels).item()
            assert abs(got - want) < 1e-12, (name, backend, got, want)


def test_ranking_rows_without_or_with_only_relevant_labels_and_empty_input():
    scores = torch.tensor([[0.3, 0.3, 0.1], [0.5, 0.2, 0.2], [0.1, 0.9, 0.4]])
    target = torch.tensor([[0, 0, 0], [1, 1, 1], [0, 1, 1]])
    for name, (ours, oracle) in RANKING.items():
        assert ours(scores, target, 3).item() == pytest.approx(oracle(target.numpy(), scores.numpy()), abs=1e-15)
        assert math.isnan(ours(torch.zeros(0, 3), torch.zeros(0, 3, dtype=torch.long), 3).item())
    # by hand: coverage (0 + 3 + 2) / 3; LRAP (1 + 1 + (1 + 1) / 2) / 3; loss (0 + 0 + 0) / 3
    assert F.multilabel_coverage_error(scores, target, 3).item() == pytest.approx(5 / 3)
    assert F.multilabel_ranking_average_precision(scores, target, 3).item() == 1.0
    assert F.multilabel_ranking_loss(scores, target, 3).item() == 0.0


def test_infinite_scores_rank_as_values():
    scores = torch.tensor([[math.inf, 0.0, -math.inf], [math.inf, math.inf, 1.0], [-math.inf, 2.0, 2.0]])
    target = torch.tensor([[0, 0, 1], [0, 1, 0], [0, 0, 1]])
    finite = scores.double().clamp(-1e300, 1e300).numpy()  # scikit-learn rejects inf; the same order
    for name, (ours, oracle) in RANKING.items():
        assert ours(scores, target, 3).item() == pytest.approx(oracle(target.numpy(), finite), abs=1e-15), name


@pytest.mark.parametrize("dtype", [torch.bool, torch.uint8, torch.int8, torch.int32, torch.float32])
def test_ranking_label_dtypes_wide_rows_and_the_host_checks(dtype):
    g = torch.Generator().manual_seed(11)
    scores = (torch.randint(0, 40, (30, 300), generator=g) / 40).float()  # ties; > 255 labels: int64 counts
    target = torch.rand(30, 300, generator=g) < 0.3
    for name, (ours, oracle) in RANKING.items():
        want = oracle(target.long().numpy(), scores.numpy())
        assert abs(ours(scores, target.to(dtype), 300).item() - want) < 1e-12, name
        assert abs(ours(scores, target.to(dtype), 300, validate_args=False).item() - want) < 1e-12, name
    if dtype != torch.bool:
        bad = target.to(dtype)
        bad[3, 7] = -1 if dtype not in (torch.uint8,) else 2
        with pytest.raises(ValueError, match=rf"Expected `target` to hold only 0 and 1 .* got value {bad[3, 7].item()}"
                           ):
            F.multilabel_coverage_error(scores, bad, 300)
    with pytest.raises(ValueError, match=r"Expected `preds` to contain no NaN, got 1 NaN"):
        F.multilabel_ranking_loss(scores.index_put((torch.tensor(0), torch.tensor(0)), torch.tensor(math.nan)),
                                  target.to(dtype), 300)


# ------------------------------------------------------------------------------ multilabel operating points
POINTS = {"recall_at_fixed_precision": "RecallAtFixedPrecision", "precision_at_fixed_recall": "PrecisionAtFixedRecall",
          "sensitivity_at_specificity": "SensitivityAtSpecificity",
          "specificity_at_sensitivity": "SpecificityAtSensitivity"}


@pytest.mark.parametrize("minimum", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("name", sorted(POINTS))
def test_multilabel_points_are_the_binary_point_of_each_label(name, minimum, backend):
    _, _, _, scores, labels = make(150, seed=2)
    labels[:, 4] = 0  # a label without positives
    values, thresholds = getattr(F, f"multilabel_{name}")(scores, labels, L, minimum)
    for j in range(L):
        value, threshold = getattr(F, f"binary_{name}")(scores[:, j], labels[:, j], minimum)
        torch.testing.assert_close(values[j], value, rtol=0, atol=0, equal_nan=True)  # nan: a rate of 0/0
        torch.testing.assert_close(thresholds[j], threshold, rtol=0, atol=0, equal_nan=True)


def test_points_of_empty_input_are_the_no_candidate_value():
    empty = (torch.zeros(0, L), torch.zeros(0, L, dtype=torch.long))
    for name, none in (("recall_at_fixed_precision", math.nan), ("precision_at_fixed_recall", math.nan),
                       ("sensitivity_at_specificity", 1e6), ("specificity_at_sensitivity", 1e6)):
        values, thresholds = getattr(F, f"multilabel_{name}")(*empty, L, 0.5)
        assert values.tolist() == [0.0] * L
        torch.testing.assert_close(thresholds, torch.full((L,), none), rtol=0, atol=0, equal_nan=True)
        value, threshold = getattr(F, f"binary_{name}")(empty[0][:, 0], empty[1][:, 0], 0.5)
        assert value.item() == 0.0
        torch.testing.assert_close(threshold, torch.tensor(none), rtol=0, atol=0, equal_nan=True)


# ------------------------------------------------------------------------------------------------ harness
_LG, _PR, _Y, _S, _LB = make(160, seed=5)
MC = [(_LG[a:b], _Y[a:b]) for a, b in ((0, 50), (50, 51), (51, 160))]
ML = [(_S[a:b], _LB[a:b]) for a, b in ((0, 70), (70, 71), (71, 160))]
BIN = [(_S[a:b, 3], _LB[a:b, 3]) for a, b in ((0, 90), (90, 160))]


def _f(name, **kw):
    return partial(getattr(F, name), **kw)


HARNESS = {
    "bin_eer": (T.BinaryEER, F.binary_eer, BIN),
    "mc_eer": (partial(T.MulticlassEER, C, from_logits=True), _f("multiclass_eer", num_classes=C, from_logits=True),
               MC),
    "mc_eer_micro": (partial(T.MulticlassEER, C, average="micro", from_logits=True),
                     _f("multiclass_eer", num_classes=C, average="micro", from_logits=True), MC),
    "mc_eer_macro": (partial(T.MulticlassEER, C, average="macro", from_logits=True),
                     _f("multiclass_eer", num_classes=C, average="macro", from_logits=True), MC),
    "ml_eer": (partial(T.MultilabelEER, L), _f("multilabel_eer", num_labels=L), ML),
    "bin_logauc": (partial(T.BinaryLogAUC, (0.01, 0.5)), _f("binary_logauc", fpr_range=(0.01, 0.5)), BIN),
    "mc_logauc": (partial(T.MulticlassLogAUC, C, average=None, from_logits=True),
                  _f("multiclass_logauc", num_classes=C, average=None, from_logits=True), MC),
    "ml_logauc": (partial(T.MultilabelLogAUC, L, (0.05, 1.0), average="macro"), _f("multilabel_logauc", num_labels=L,
                                                                  fpr_range=(0.05, 1.0)), ML),
    "coverage": (partial(T.MultilabelCoverageError, L), _f("multilabel_coverage_error", num_labels=L), ML),
    "lrap": (partial(T.MultilabelRankingAveragePrecision, L), _f("multilabel_ranking_average_precision",
                                                                 num_labels=L), ML),
    "ranking_loss": (partial(T.MultilabelRankingLoss, L), _f("multilabel_ranking_loss", num_labels=L), ML),
    **{f"ml_{n}": (partial(getattr(T, f"Multilabel{cls}"), L, 0.6), _f(f"multilabel_{n}", num_labels=L,
                                                                        **{arg: 0.6}), ML)
       for n, cls, arg in (("recall_at_fixed_precision", "RecallAtFixedPrecision", "min_precision"),
                           ("precision_at_fixed_recall", "PrecisionAtFixedRecall", "min_recall"),
                           ("sensitivity_at_specificity", "SensitivityAtSpecificity", "min_specificity"),
                           ("specificity_at_sensitivity", "SpecificityAtSensitivity", "min_sensitivity"))},
}


@pytest.mark.parametrize("name", sorted(HARNESS))
def test_harness(name):
    factory, functional, batches = HARNESS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        expected = functional(*concat(batches))
        check_metric(factory, batches, expected, batch_value=functional, max_examples=3, atol=1e-12, rtol=0)


def test_ranking_modules_match_scikit_learn_over_batches():
    scores, target = concat(ML)
    for cls, (_, oracle) in zip((T.MultilabelCoverageError, T.MultilabelRankingAveragePrecision,
                                 T.MultilabelRankingLoss), RANKING.values()):
        m = cls(L)
        for batch in ML:
            m.update(*batch)
        assert abs(m.compute().item() - oracle(target.numpy(), scores.numpy())) < 1e-12


BREADTH_CASES = [Case("eer_mc", HARNESS["mc_eer"][0], MC), Case("logauc_ml", HARNESS["ml_logauc"][0], ML),
                 Case("ranking_loss", HARNESS["ranking_loss"][0], ML),
                 Case("ml_point", HARNESS["ml_recall_at_fixed_precision"][0], ML)]


# ------------------------------------------------------------------------------------------------- errors
def test_option_errors():
    preds, target = torch.rand(4), torch.tensor([0, 1, 0, 1])
    for bad in ((0.0, 0.1), (0.2, 0.1), (0.1, 1.5), 0.1, (0.1, float("nan"))):
        with pytest.raises(ValueError, match=r"Expected `fpr_range` to be a pair \(lo, hi\) with 0 < lo < hi <= 1"):
            F.binary_logauc(preds, target, bad)
    with pytest.raises(ValueError, match=r"Expected `fpr_range` to be a pair"):
        T.MultilabelLogAUC(3, (0.5, 0.5))
    with pytest.raises(ValueError, match=r"Expected `average` to be one of \('none', 'micro', 'macro'\), got 'w"):
        T.MulticlassEER(3, average="weighted")
    with pytest.raises(ValueError, match=r"Expected `average` to be one of \('macro', 'none'\), got 'weighted'"):
        F.multilabel_logauc(torch.rand(4, 3), torch.ones(4, 3, dtype=torch.long), 3, average="weighted")
    with pytest.raises(ValueError, match=r"Expected `min_recall` to be a number in \[0.0, 1.0\], got 2"):
        T.MultilabelPrecisionAtFixedRecall(3, 2)
    with pytest.raises(ValueError, match=r"Expected `num_labels` to be a positive int"):
        T.MultilabelRankingLoss(0)


def test_modules_reject_bad_batches_unchanged():
    check_rejects(partial(T.MultilabelRankingLoss, L), ML, (torch.rand(3, L + 1), torch.ones(3, L + 1).long()),
                  ValueError, r"Expected `preds` to have shape \(N, num_labels\) with num_labels = 5")
    check_rejects(partial(T.MultilabelCoverageError, L), ML, (torch.rand(3, L), torch.full((3, L), 2)),
                  ValueError, r"`target` to hold only 0 and 1")
    check_rejects(partial(T.MultilabelRankingAveragePrecision, L), ML,
                  (torch.tensor([[float("nan")] * L]), torch.ones(1, L).long()), ValueError, r"NaN")
    check_rejects(T.BinaryEER, BIN, (torch.rand(3), torch.tensor([0, 1, 1]), torch.rand(3)), TypeError,
                  r"Expected no `weight` for BinaryEER")
    check_rejects(partial(T.MultilabelSpecificityAtSensitivity, L, 0.5), ML, (torch.rand(3, 2), torch.ones(3, 2)),
                  ValueError, r"num_labels = 5")
