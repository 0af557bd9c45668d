"""The float32 policy of a device without float64 (MPS), emulated on the CPU (``tests/helpers/no_float64.py``):
every public regression function and module runs there without making a float64 tensor, and its float32 value is
close to the float64 one (rtol 1e-5: the inputs are float32 or integers, so both runs see the same numbers and
only the statistics' rounding differs).

Targets far from zero are the moments' hard case. Their float32 means carry an absolute error of half an ulp of
the offset, which enters M2 through the merge's mean differences: a relative error of about
``2 kappa 2**-24 / sqrt(N)`` with ``kappa = offset / std`` (1e-4 for kappa = 1e4 and N = 100), where raw sums of
squares would lose ``kappa² 2**-24``: every digit (:func:`test_raw_float32_sums_would_fail_the_offset_cases`
shows it). Those cases take rtol 2e-4."""
from __future__ import annotations

from functools import partial
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import pytest
import torch

import torchmetrics_lite.functional.regression as functional_regression
import torchmetrics_lite.regression as module_regression
from tests.helpers.no_float64 import assert_float32_close, check_float32_policy, float64_less_cpu, weighted_functional
from torchmetrics_lite._xp import torch_namespace
from torchmetrics_lite.functional.regression import _kernels as impl
from torchmetrics_lite.functional.regression import (
    concordance_corrcoef,
    explained_variance,
    fold_comoments,
    fold_moments,
    kendall_rank_corrcoef,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    pearson_corrcoef,
    r2_score,
    root_mean_squared_error,
    spearman_corrcoef,
)
from torchmetrics_lite.regression import (
    ConcordanceCorrCoef,
    ExplainedVariance,
    KendallRankCorrCoef,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,
    MeanSquaredError,
    PearsonCorrCoef,
    R2Score,
    RootMeanSquaredError,
    SpearmanCorrCoef,
)

Batch = Tuple[torch.Tensor, ...]
OFFSET_RTOL = 2e-4  # targets at 1e4 or 1e5 with unit noise (see the module docstring)


def _batches(kind: str, seed: int) -> List[Batch]:
    """float32 (or int64) ``(preds, target[, weight])`` batches of one kind of stream."""
    g = torch.Generator().manual_seed(seed)
    sizes = {"long offset": [200] * 60}.get(kind, [40, 0, 33, 27])  # an empty batch in the middle
    out: List[Batch] = []
    for i, n in enumerate(sizes):
        shape = (n, 3) if kind.startswith("multi") else (n,)
        offset = {"offset": 1e4, "long offset": 1e5}.get(kind, 0.0)
        target = offset + torch.randn(shape, generator=g)
        preds = target + 0.5 * torch.randn(shape, generator=g) + 0.1
        if kind == "int":
            target, preds = (target * 10).round().long(), (preds * 10).round().long()
        if kind == "zero target" and n:
            target[:2] = 0.0  # MAPE's eps floor: a huge but finite term
        batch: Batch = (preds, target)
        if "weighted" in kind or (kind == "mixed" and i % 2):
            batch += (torch.rand(n, generator=g) * 3,)
        out.append(batch)
    return out


# (id, module, module options, function (None: the stream mixes weighted and unweighted batches), its options, kind)
MULTI = {"num_outputs": 3}
CASES: List[Tuple[str, type, Dict[str, Any], Optional[Callable[..., torch.Tensor]], Dict[str, Any], str]] = [
    ("mse", MeanSquaredError, {}, mean_squared_error, {}, "plain"),
    ("mse int", MeanSquaredError, {}, mean_squared_error, {}, "int"),
    ("mse weighted raw", MeanSquaredError, {**MULTI, "multioutput": "raw_values"}, mean_squared_error,
     {"multioutput": "raw_values"}, "multi weighted"),
    ("mse mixed", MeanSquaredError, {}, None, {}, "mixed"),
    ("mse squared=False", MeanSquaredError, {"squared": False}, mean_squared_error, {"squared": False}, "weighted"),
    ("rmse", RootMeanSquaredError, {}, root_mean_squared_error, {}, "offset"),
    ("rmse multi", RootMeanSquaredError, {**MULTI, "multioutput": "uniform_average"}, root_mean_squared_error, {},
     "multi weighted"),
    ("mae", MeanAbsoluteError, {}, mean_absolute_error, {}, "plain"),
    ("mae weighted raw", MeanAbsoluteError, {**MULTI, "multioutput": "raw_values"}, mean_absolute_error,
     {"multioutput": "raw_values"}, "multi weighted"),
    ("mape zero target", MeanAbsolutePercentageError, {}, mean_absolute_percentage_error, {}, "zero target"),
    ("mape weighted", MeanAbsolutePercentageError, {}, mean_absolute_percentage_error, {}, "weighted"),
    ("r2 offset", R2Score, {}, r2_score, {}, "offset"),
    ("r2 long offset", R2Score, {}, r2_score, {}, "long offset"),
    ("r2 int", R2Score, {}, r2_score, {}, "int"),
    ("r2 weighted adjusted", R2Score, {"adjusted": 2}, r2_score, {"adjusted": 2}, "weighted"),
    ("r2 variance_weighted", R2Score, {**MULTI, "multioutput": "variance_weighted"}, r2_score,
     {"multioutput": "variance_weighted"}, "multi weighted"),
    ("r2 raw", R2Score, {**MULTI, "multioutput": "raw_values"}, r2_score, {"multioutput": "raw_values"}, "multi"),
    ("r2 mixed", R2Score, {}, None, {}, "mixed"),
    ("ev offset", ExplainedVariance, {}, explained_variance, {}, "offset"),
    ("ev long offset", ExplainedVariance, {}, explained_variance, {}, "long offset"),
    ("ev weighted raw", ExplainedVariance, {**MULTI, "multioutput": "raw_values"}, explained_variance,
     {"multioutput": "raw_values"}, "multi weighted"),
    ("ev variance_weighted", ExplainedVariance, {**MULTI, "multioutput": "variance_weighted"}, explained_variance,
     {"multioutput": "variance_weighted"}, "multi"),
]


@pytest.mark.parametrize("name, module, options, function, fn_options, kind", CASES, ids=[c[0] for c in CASES])
def test_float32_policy(monkeypatch, name, module, options, function, fn_options, kind):
    functional = None if function is None else weighted_functional(function, **fn_options)
    rtol = OFFSET_RTOL if "offset" in kind else 1e-5
    check_float32_policy(monkeypatch, partial(module, **options), _batches(kind, seed=len(name)), functional,
                         rtol=rtol)


def test_raw_float32_sums_would_fail_the_offset_cases():
    """The offset cases can fail: R² from raw float32 sums of squares misses the float64 value by far more than
    their rtol, on the same batches."""
    for kind in ("offset", "long offset"):
        preds, target = (torch.cat(column) for column in zip(*_batches(kind, seed=3)))
        n = target.shape[0]
        ss_tot = (target * target).sum() - target.sum() ** 2 / n  # float32, raw
        ss_res = ((target - preds) ** 2).sum()
        raw = 1 - ss_res / ss_tot
        assert abs(raw.item() - r2_score(preds, target).item()) > 100 * OFFSET_RTOL


def test_fold_moments_stays_float32(monkeypatch):
    """The fold of the R² state (batches and ranks) on float32 states, at a large offset: float32 and close."""
    g = torch.Generator().manual_seed(5)
    parts = [1e4 + torch.randn(2, n, generator=g) for n in (30, 1, 50, 17)]
    want = fold_moments(torch.stack([impl.moment_rows(torch_namespace(torch.float64), x.double()) for x in parts]))
    with float64_less_cpu(monkeypatch):
        got = fold_moments(torch.stack([impl.moment_rows(torch_namespace(torch.float32), x.clone()) for x in parts]))
    assert_float32_close(got, want, rtol=OFFSET_RTOL)


# the correlations: (id, module, module options, function, its options, kind); no weights
CORRELATIONS = [
    ("pearson offset", PearsonCorrCoef, {}, pearson_corrcoef, {}, "offset"),
    ("concordance multi", ConcordanceCorrCoef, MULTI, concordance_corrcoef, {}, "multi"),
    ("spearman int", SpearmanCorrCoef, {}, spearman_corrcoef, {}, "int"),
    ("spearman multi", SpearmanCorrCoef, MULTI, spearman_corrcoef, {}, "multi"),
    ("kendall c test", KendallRankCorrCoef, {"variant": "c", "t_test": True}, kendall_rank_corrcoef,
     {"variant": "c", "t_test": True}, "int"),
    ("kendall multi", KendallRankCorrCoef, MULTI, kendall_rank_corrcoef, {}, "multi"),
]


@pytest.mark.parametrize("name, module, options, function, fn_options, kind", CORRELATIONS,
                         ids=[c[0] for c in CORRELATIONS])
def test_correlations_float32_policy(monkeypatch, name, module, options, function, fn_options, kind):
    rtol = OFFSET_RTOL if "offset" in kind else 1e-5
    check_float32_policy(monkeypatch, partial(module, **options), _batches(kind, seed=len(name)),
                         partial(function, **fn_options), rtol=rtol)


def test_fold_comoments_stays_float32(monkeypatch):
    from torchmetrics_lite.functional.regression.correlation import _comoments

    g = torch.Generator().manual_seed(6)
    parts = [(1e4 + torch.randn(n, generator=g), 1e4 + torch.randn(n, generator=g)) for n in (30, 1, 50)]
    want = fold_comoments(torch.stack([_comoments(p.double(), t.double()) for p, t in parts]))
    with float64_less_cpu(monkeypatch):
        got = fold_comoments(torch.stack([_comoments(p, t) for p, t in parts]))
    # the cross moment of independent columns is near 0 (-0.28 against M2 ~ 80): its error is judged on the M2
    # scale, 1e-3 ~ 1e-5 of it
    assert_float32_close(got, want, rtol=OFFSET_RTOL, atol=1e-3)


from tests.helpers.regression import measures  # noqa: E402

EXTRA = [(factory, fn, [tuple(t.float() for t in b) for b in batches]) for factory, fn, batches, _ in measures.CASES]


def _name(f: Any) -> str:
    return getattr(f, "func", f).__name__


@pytest.mark.parametrize("factory, function, batches", EXTRA, ids=[_name(c[0]) for c in EXTRA])
def test_torchmetrics_other_names_float32_policy(monkeypatch, factory, function, batches):
    """torchmetrics' other regression names (float32 inputs, so both runs see the same numbers)."""
    check_float32_policy(monkeypatch, factory, batches, function, rtol=1e-5)


def test_every_public_name_is_covered():
    covered = {c[1].__name__ for c in CASES} | {c[3].__name__ for c in CASES if c[3] is not None}
    covered |= {_name(c[0]) for c in EXTRA} | {_name(c[1]) for c in EXTRA}
    covered |= {c[1].__name__ for c in CORRELATIONS} | {c[3].__name__ for c in CORRELATIONS}
    covered.add(fold_moments.__name__)  # test_fold_moments_stays_float32
    covered.add(fold_comoments.__name__)  # test_fold_comoments_stays_float32
    public: Sequence[str] = [*functional_regression.__all__, *module_regression.__all__]
    assert set(public) - covered == set()
