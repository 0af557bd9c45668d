"""Binary rank modules: exact or binned AUROC, average precision, ROC and PR curves (see
:mod:`torchmetrics_lite.auroc`)."""
from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite import sync
from torchmetrics_lite._checks import (
    check_binary_rank_inputs,
    check_bins,
    check_max_fpr,
)
from torchmetrics_lite.functional.auroc import binary as F
from torchmetrics_lite.functional.auroc._common import State
from torchmetrics_lite.metric import Metric


class _BinaryRank(Metric):
    """Exact binary rank state: every score (float32 or wider) and label (uint8)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_state("preds", torch.zeros(0, dtype=torch.float32), reduce="cat")
        self.add_state("target", torch.zeros(0, dtype=torch.uint8), reduce="cat")
        self.stats_key = ("binary_rank", self.validate_args)

    def batch_stats(self, preds: Tensor, target: Tensor) -> State:
        return F._binary_rank_stats(*check_binary_rank_inputs(preds, target, self.validate_args))



class BinaryAUROC(Metric):
    """Exact binary AUROC (Mann-Whitney, tied pairs count 1/2), optionally partial (``max_fpr``), or the
    constant-memory binned approximation (``bins``). See :func:`~torchmetrics_lite.functional.binary_auroc`.

    ``update(preds, target)``: floating scores of any shape (order only: probabilities, logits, any real
    values) and 0/1 labels of the same shape. Empty input or one class present: ``nan`` with a warning
    (``strict=True``: ``ValueError``).

    Args:
        max_fpr: in ``(0, 1]``, the McClish-standardised partial AUC up to that false-positive rate (exact mode).
        bins: if set, keep two ``bins``-bin histograms of the scores over ``range`` instead of the scores (state
            ``O(bins)``, ``sum`` reduction; scores outside ``range`` are clamped into the end bins). The value is
            the exact Mann-Whitney statistic of the binned scores: pairs in different bins are ordered as
            exactly, a positive/negative pair sharing a bin counts 1/2, so ``|binned - exact| <=
            shared pairs / (2 * all pairs)``, which :meth:`error_bound` returns.
        range: ``(lo, hi)`` for ``bins`` (default ``(0, 1)``, probabilities).
        strict: raise instead of returning ``nan`` when one class is missing.

    >>> m = BinaryAUROC()
    >>> m.update(torch.tensor([0.9, 0.8, 0.7, 0.6]), torch.tensor([1, 1, 0, 1]))
    >>> m.update(torch.tensor([0.55, 0.54, 0.4, 0.3]), torch.tensor([0, 1, 0, 0]))
    >>> m.compute().item()
    0.8125
    >>> binned = BinaryAUROC(bins=10)
    >>> binned.update(torch.tensor([0.9, 0.8, 0.7, 0.6, 0.55, 0.54, 0.4, 0.3]),
    ...               torch.tensor([1, 1, 0, 1, 0, 1, 0, 0]))
    >>> binned.compute().item(), binned.error_bound().item()  # (0.7, 0.6), (0.55, 0.54) share bins
    (0.875, 0.0625)
    """

    def __init__(self, max_fpr: Optional[float] = None, *, bins: Optional[int] = None,
                 range: Optional[Tuple[float, float]] = None, strict: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_max_fpr(max_fpr)
        self.max_fpr, self.bins, self.strict = max_fpr, bins, strict
        if bins is None:
            if range is not None:
                raise ValueError(f"Expected `range` to be None when `bins` is None, got {range!r}")
            self.add_state("preds", torch.zeros(0, dtype=torch.float32), reduce="cat")
            self.add_state("target", torch.zeros(0, dtype=torch.uint8), reduce="cat")
            self.stats_key = ("binary_rank", self.validate_args)
            return
        if max_fpr is not None:
            raise ValueError(f"Expected `max_fpr` to be None when `bins` is set, got {max_fpr!r}")
        self.range = check_bins(bins, (0.0, 1.0) if range is None else range)
        self.add_state("hist", torch.zeros(2, bins, dtype=torch.int64), reduce="sum")
        self.stats_key = ("binary_auroc_binned", bins, self.range, self.validate_args)

    def batch_stats(self, preds: Tensor, target: Tensor) -> State:
        checked = check_binary_rank_inputs(preds, target, self.validate_args)
        if self.bins is None:
            return F._binary_rank_stats(*checked)
        return F._binary_auroc_binned_stats(*checked, self.bins, *self.range)

    def compute_from_stats(self, state: State) -> Tensor:
        if self.bins is None:
            return F._binary_auroc_from_stats(state, self.max_fpr, self.strict)
        return F._binary_auroc_binned_from_stats(state, self.strict)

    def error_bound(self) -> Tensor:
        """Binned mode: the bound on ``|compute() - exact AUROC|`` (pairs sharing a bin / (2 * all pairs)),
        over the same (synced) data as :meth:`compute`."""
        if self.bins is None:
            raise ValueError("Expected `bins` to be set for error_bound(), got None (the exact mode has no error)")
        state = self.local_state()
        if self.sync_on_compute:
            state = sync.reduce_states([(state, self._reductions)], self.process_group)[0]
        return F._binary_auroc_binned_error_bound(state)

    def _config(self) -> Dict[str, Any]:
        return {"max_fpr": self.max_fpr, "bins": self.bins}



class BinaryAveragePrecision(_BinaryRank):
    """Exact average precision (scikit-learn's step-wise sum, ties entering together); see
    :func:`~torchmetrics_lite.functional.binary_average_precision`. No positives: ``nan`` and a warning.

    >>> m = BinaryAveragePrecision()
    >>> m.update(torch.tensor([0.9, 0.8, 0.7, 0.6]), torch.tensor([1, 1, 0, 1]))
    >>> m.update(torch.tensor([0.55, 0.54, 0.4, 0.3]), torch.tensor([0, 1, 0, 0]))
    >>> round(m.compute().item(), 6)
    0.854167
    """

    def __init__(self, *, strict: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.strict = strict

    def compute_from_stats(self, state: State) -> Tensor:
        return F._binary_average_precision_from_stats(state, self.strict)



class BinaryROC(_BinaryRank):
    """The ROC curve ``(fpr, tpr, thresholds)`` over everything seen, every distinct score a threshold,
    starting at ``thresholds[0] = inf`` / ``(0, 0)``; see :func:`~torchmetrics_lite.functional.binary_roc`.

    >>> m = BinaryROC()
    >>> m.update(torch.tensor([0.1, 0.4]), torch.tensor([0, 0]))
    >>> m.update(torch.tensor([0.35, 0.8]), torch.tensor([1, 1]))
    >>> fpr, tpr, _ = m.compute()
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """

    def compute_from_stats(self, state: State) -> Tuple[Tensor, Tensor, Tensor]:
        return F._binary_roc_from_stats(state)



class BinaryPrecisionRecallCurve(_BinaryRank):
    """``(precision, recall, thresholds)`` over everything seen, as scikit-learn's ``precision_recall_curve``
    (thresholds increasing, a final point at precision 1 / recall 0); see
    :func:`~torchmetrics_lite.functional.binary_precision_recall_curve`.

    >>> m = BinaryPrecisionRecallCurve()
    >>> m.update(torch.tensor([0.1, 0.4, 0.35, 0.8]), torch.tensor([0, 0, 1, 1]))
    >>> precision, recall, thresholds = m.compute()
    >>> recall.tolist()
    [1.0, 1.0, 0.5, 0.5, 0.0]
    """

    def compute_from_stats(self, state: State) -> Tuple[Tensor, Tensor, Tensor]:
        return F._binary_precision_recall_curve_from_stats(state)

