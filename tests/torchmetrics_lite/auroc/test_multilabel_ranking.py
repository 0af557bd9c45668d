"""The multilabel ranking metrics (coverage error, label ranking average precision, ranking loss) against
scikit-learn's ``coverage_error`` / ``label_ranking_average_precision_score`` / ``label_ranking_loss``: ties,
infinite scores, rows without or with only relevant labels, empty input, every label dtype, both kernels of the
ranking counts; their modules through the harness (the distributed case is in
``tests/helpers/auroc/rank_scores.py``); and torchmetrics 1.9 on the same inputs: equal, except the ranking loss
on tied pairs, which torchmetrics counts 0 or 1 by argsort position (both values pinned)."""
import math
from functools import partial

import pytest
import torch
import torchmetrics.classification as tmc
import torchmetrics.functional.classification as tm
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import coverage_error, label_ranking_loss
from sklearn.metrics import label_ranking_average_precision_score as lrap

import torchmetrics_lite as T
import torchmetrics_lite.functional as F
from tests.helpers.auroc.rank_scores import ML, L, make
from tests.helpers.metric_tester import check_metric_against_function, check_rejects, concat
from torchmetrics_lite import _backend

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


# ------------------------------------------------------------------------------------------------------ torchmetrics
@pytest.mark.parametrize("decimals", [1, 4])
def test_ranking_metrics_against_torchmetrics(decimals):
    _, _, _, scores, labels = make(400, seed=6, decimals=decimals)
    labels[:3] = 0
    labels[3] = 1
    probs = torch.sigmoid(scores.double()).float()  # in [0, 1]: torchmetrics applies no sigmoid of its own
    for ours, theirs in ((F.multilabel_coverage_error, tm.multilabel_coverage_error),
                         (F.multilabel_ranking_average_precision, tm.multilabel_ranking_average_precision)):
        assert abs(ours(probs, labels, L).item() - theirs(probs, labels, L).item()) < 1e-5
    ours, theirs = F.multilabel_ranking_loss(probs, labels, L).item(), tm.multilabel_ranking_loss(probs, labels, L)
    assert abs(ours - label_ranking_loss(labels.numpy(), probs.numpy())) < 1e-12
    tied_pairs = sum(int(((probs[i][labels[i] == 1][:, None] == probs[i][labels[i] == 0][None, :]).sum()))
                     / max(int(labels[i].sum()) * int((1 - labels[i]).sum()), 1) for i in range(len(labels)))
    if decimals == 4 and tied_pairs == 0:
        assert abs(ours - theirs.item()) < 1e-6
    else:  # torchmetrics counts a tied (relevant, irrelevant) pair 0 or 1 by argsort position, scikit-learn 1
        assert tied_pairs > 0
        assert ours - tied_pairs / len(labels) - 1e-6 <= theirs.item() < ours - 1e-3
    module = tmc.MultilabelRankingLoss(L)
    module.update(probs, labels)
    assert module.compute().item() == pytest.approx(theirs.item(), abs=1e-7)

def test_ranking_loss_issue_example():
    preds, target = torch.tensor([[0.2, 0.4, 0.4]]), torch.tensor([[0, 1, 0]])
    assert F.multilabel_ranking_loss(preds, target, 3).item() == 0.5  # the tie (0.4, 0.4) is misordered
    assert tm.multilabel_ranking_loss(preds, target, 3).item() in (0.0, 0.5)  # by argsort position


# ----------------------------------------------------------------------------------------------------------- harness
def _f(name, **kw):
    return partial(getattr(F, name), **kw)

HARNESS = {
    "coverage": (partial(T.MultilabelCoverageError, L), _f("multilabel_coverage_error", num_labels=L), ML),
    "lrap": (partial(T.MultilabelRankingAveragePrecision, L), _f("multilabel_ranking_average_precision",
                                                                 num_labels=L), ML),
    "ranking_loss": (partial(T.MultilabelRankingLoss, L), _f("multilabel_ranking_loss", num_labels=L), ML),
}

@pytest.mark.parametrize("name", sorted(HARNESS))
def test_harness(name):
    check_metric_against_function(*HARNESS[name])

def test_ranking_modules_match_scikit_learn_over_batches():
    scores, target = concat(ML)
    for cls, (_, oracle) in zip((T.MultilabelCoverageError, T.MultilabelRankingAveragePrecision,
                                 T.MultilabelRankingLoss), RANKING.values()):
        m = cls(L)
        for batch in ML:
            m.update(*batch)
        assert abs(m.compute().item() - oracle(target.numpy(), scores.numpy())) < 1e-12


# ------------------------------------------------------------------------------------------------------------ errors
def test_option_errors():
    with pytest.raises(ValueError, match=r"Expected `num_labels` to be a positive int"):
        T.MultilabelRankingLoss(0)


def test_modules_reject_bad_batches_unchanged():
    check_rejects(partial(T.MultilabelRankingLoss, L), ML, (torch.rand(3, L + 1), torch.ones(3, L + 1).long()),
                  ValueError, r"Expected `preds` to have shape \(N, num_labels\) with num_labels = 5")
    check_rejects(partial(T.MultilabelCoverageError, L), ML, (torch.rand(3, L), torch.full((3, L), 2)),
                  ValueError, r"`target` to hold only 0 and 1")
    check_rejects(partial(T.MultilabelRankingAveragePrecision, L), ML,
                  (torch.tensor([[float("nan")] * L]), torch.ones(1, L).long()), ValueError, r"NaN")
