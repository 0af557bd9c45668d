"""Binary AUROC (exact, weighted, partial or binned) and average precision modules (see
:mod:`torchmetrics_lite.auroc`)."""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Dict, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    check_binary_rank_inputs,
    check_binned_auroc,
    check_binned_weight,
    check_max_fpr,
    warn_binary_logits,
)
from torchmetrics_lite.auroc._base import _add_rank_states, _BinaryRank, _checked_mode, _mode_states, _rank_options
from torchmetrics_lite.functional.auroc import binary as F
from torchmetrics_lite.functional.auroc._common import State
from torchmetrics_lite.functional.auroc._doc_args import fill_doc
from torchmetrics_lite.metric import Metric

__all__ = ["BinaryAUROC", "BinaryAveragePrecision"]


@fill_doc
class BinaryAUROC(Metric):
    """Exact binary AUROC (Mann-Whitney, tied pairs count 1/2), optionally weighted or partial (``max_fpr``), or
    the constant-memory binned approximation (``bins``); :func:`~torchmetrics_lite.functional.binary_auroc` over
    everything seen.

    ``update(preds, target, weight=None)``: floating scores of any shape (order only: probabilities, logits, any
    real values), 0/1 labels of the same shape and optional non-negative weights of that shape (in every update
    or in none). Empty input or one class present: ``nan`` with a warning (``strict=True``: ``ValueError``).

    Args:
        max_fpr: in ``(0, 1]``, the McClish-standardised partial AUC up to that false-positive rate (exact mode).
        bins: if set, keep two ``bins``-bin histograms of the scores over ``range`` instead of the scores (state
            ``O(bins)``, ``sum`` reduction; scores outside ``range`` are clamped into the end bins). The value is
            the exact Mann-Whitney statistic of the binned scores: pairs in different bins are ordered as
            exactly, a positive/negative pair sharing a bin counts 1/2, so ``|binned - exact| <=
            shared pairs / (2 * all pairs)``, which :meth:`error_bound` returns. Not with ``weight``.
        range: ``(lo, hi)`` for ``bins`` (default ``(0, 1)``, probabilities).
        strict: raise instead of returning ``nan`` when one class is missing.
        {from_logits_bin}
        {thresholds_module}
        {ignore_index_rank_module}
        kwargs: ``validate_args``, ``process_group``, ``sync_on_compute`` (see :class:`~torchmetrics_lite.Metric`).

    Raises:
        ValueError: bad options (``max_fpr`` outside ``(0, 1]``, ``range`` without ``bins``, ``max_fpr`` with
            ``bins``), bad batches as the function, or a batch whose weighting differs from earlier ones.
        TypeError: ``weight`` in the binned mode.

    References:
        Hanley & McNeil (1982); Mann & Whitney (1947); McClish (1989).

    Examples:
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

    higher_is_better: ClassVar[Optional[bool]] = True
    #: the exact mode's pair; ``BinaryAUROC(bins=...)`` declares the binned mode's (:func:`_binned_stats`,
    #: :func:`_binned_from_stats`: a module-only mode, no function has it)
    stats_fn: Callable[..., State] = staticmethod(F._binary_rank_stats)
    value_fn: Callable[..., Tensor] = staticmethod(F._binary_auroc_from_stats)
    check_accepted = warn_binary_logits
    weighted: ClassVar[bool] = True

    def __init__(self, max_fpr: Optional[float] = None, *, bins: Optional[int] = None,
                 range: Optional[Tuple[float, float]] = None, thresholds: Any = None,
                 ignore_index: Optional[int] = None, strict: bool = False, from_logits: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_max_fpr(max_fpr)
        if bins is not None and (thresholds is not None or ignore_index is not None or from_logits):
            raise ValueError("Expected `thresholds` and `ignore_index` to be None when `bins` is set (and "
                             f"`from_logits` False: give `range` for logits), got thresholds={thresholds!r}, "
                             f"ignore_index={ignore_index!r}, from_logits={from_logits!r}")
        self.from_logits = bool(from_logits)  # the binned mode's sigmoid (the exact mode ranks scores as given)
        self.range = check_binned_auroc(bins, range, max_fpr)
        self.max_fpr, self.bins, self.strict = max_fpr, bins, strict
        if bins is None:
            self.thresholds, self.threshold_values, self.ignore_index = _checked_mode(thresholds, ignore_index)
            self.stats_key = _mode_states(
                self, self.threshold_values, ignore_index, 1, ("binary",),
                lambda: _add_rank_states(self, True, (), (), torch.uint8, ("binary_rank",)))
        else:  # two histograms instead of the scores
            self.stats_fn, self.value_fn = _binned_stats, _binned_from_stats
            self.add_state("hist", torch.zeros(2, bins, dtype=torch.int64), reduce="sum")
            self.stats_key = ("binary_auroc_binned", bins, self.range, self.validate_args)

    def stats_options(self) -> Dict[str, Any]:
        if self.bins is not None:
            return {"bins": self.bins, "range": self.range, "validate_args": self.validate_args}
        return _rank_options(self)

    def value_options(self) -> Dict[str, Any]:
        return {"strict": self.strict} if self.bins is not None else {"max_fpr": self.max_fpr, "strict": self.strict}

    def error_bound(self) -> Tensor:
        """Binned mode: the bound on ``|compute() - exact AUROC|`` (pairs sharing a bin / (2 * all pairs)),
        over the same (synced) data as :meth:`compute`."""
        if self.bins is None:
            raise ValueError("Expected `bins` to be set for error_bound(), got None (the exact mode has no error)")
        return F._binary_auroc_binned_error_bound(self.synced_state())


def _binned_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None, *, bins: int,
                  range: Tuple[float, float], validate_args: bool) -> State:
    """The statistics of ``BinaryAUROC(bins=...)``: the checked batch's two ``(2, bins)`` histograms over ``range``
    (``weight`` raises: the binned mode is unweighted)."""
    check_binned_weight(bins, weight)
    return F._binary_auroc_binned_stats(*check_binary_rank_inputs(preds, target, validate_args), bins, *range)


def _binned_from_stats(state: State, *, strict: bool) -> Tensor:
    """The value of ``BinaryAUROC(bins=...)``: the Mann-Whitney statistic of the binned scores."""
    return F._binary_auroc_binned_from_stats(state, strict)


@fill_doc
class BinaryAveragePrecision(_BinaryRank):
    """Exact average precision (scikit-learn's step-wise sum, ties entering together), optionally weighted;
    :func:`~torchmetrics_lite.functional.binary_average_precision` over everything seen.

    ``update(preds, target, weight=None)`` as :class:`BinaryAUROC`. No positives: ``nan`` and a warning.

    Args:
        strict: raise instead of returning ``nan`` without positives.
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    Raises:
        ValueError, TypeError: bad batches as the function, or a batch whose weighting differs from earlier ones.

    References:
        scikit-learn's ``average_precision_score``.

    Examples:
        >>> m = BinaryAveragePrecision()
        >>> m.update(torch.tensor([0.9, 0.8, 0.7, 0.6]), torch.tensor([1, 1, 0, 1]))
        >>> m.update(torch.tensor([0.55, 0.54, 0.4, 0.3]), torch.tensor([0, 1, 0, 0]))
        >>> round(m.compute().item(), 6)
        0.854167
    """

    value_fn = staticmethod(F._binary_average_precision_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"strict": self.strict}

    def __init__(self, *, strict: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.strict = strict
