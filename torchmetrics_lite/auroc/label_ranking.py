"""Multilabel ranking modules: coverage error, label ranking average precision and label ranking loss (see
:mod:`torchmetrics_lite.functional.auroc.label_ranking`).

Each value is a (weighted) mean over samples of a per-sample value, so the state is three sums (``total``, the
weighted sum of the values, float64; ``count``, the samples, int64; ``weight``, the sum of the weights, float64, an
unweighted sample counting 1), added per batch and across ranks: constant memory, exact streaming. The value is
``total / weight``."""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_positive_int
from torchmetrics_lite.functional.auroc import label_ranking as F
from torchmetrics_lite.functional.auroc._doc_args import fill_doc
from torchmetrics_lite.metric import Metric

__all__ = ["MultilabelCoverageError", "MultilabelRankingAveragePrecision", "MultilabelRankingLoss"]


class _MultilabelRanking(Metric):
    """``update(preds (N, L), target (N, L), weight=None (N,))``: adds the batch's weighted sum of per-sample
    ``values``, its size and its weight."""

    stats_fn = staticmethod(F._multilabel_ranking_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"values": self.values, "num_labels": self.num_labels, "validate_args": self.validate_args}

    value_fn = staticmethod(F._ranking_from_stats)
    values: ClassVar[Callable[..., Tensor]]

    def __init__(self, num_labels: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_positive_int("num_labels", num_labels)
        self.num_labels = num_labels
        self.add_state("total", torch.zeros((), dtype=torch.float64), reduce="sum")
        self.add_state("count", torch.zeros((), dtype=torch.int64), reduce="sum")
        self.add_state("weight", torch.zeros((), dtype=torch.float64), reduce="sum")


@fill_doc
class MultilabelCoverageError(_MultilabelRanking):
    """Coverage error over everything seen; :func:`~torchmetrics_lite.functional.multilabel_coverage_error`.

    Args:
        {num_labels_rank}
        {kwargs_module}

    ``update(preds, target, weight=None)``: ``weight`` ``(N,)`` as the function's (scikit-learn's
    ``sample_weight``); weighted and unweighted updates mix (an unweighted sample counts 1).

    Raises:
        ValueError, TypeError: bad batches or weights as the function.

    References:
        scikit-learn's ``coverage_error``; torchmetrics' ``MultilabelCoverageError``.

    Examples:
        >>> m = MultilabelCoverageError(num_labels=3)
        >>> m.update(torch.tensor([[0.9, 0.5, 0.1]]), torch.tensor([[1, 0, 1]]))
        >>> m.update(torch.tensor([[0.2, 0.4, 0.4]]), torch.tensor([[0, 1, 0]]))
        >>> m.compute()
        tensor(2.5000, dtype=torch.float64)
        >>> m.update(torch.tensor([[0.1, 0.2, 0.3]]), torch.tensor([[1, 0, 0]]), torch.tensor([2.0]))
        >>> m.compute()  # (3 + 2 + 2 * 3) / 4
        tensor(2.7500, dtype=torch.float64)
    """

    higher_is_better: ClassVar[Optional[bool]] = False
    values = staticmethod(F._coverage_values)


@fill_doc
class MultilabelRankingAveragePrecision(_MultilabelRanking):
    """Label ranking average precision over everything seen;
    :func:`~torchmetrics_lite.functional.multilabel_ranking_average_precision`.

    Args:
        {num_labels_rank}
        {kwargs_module}

    ``update(preds, target, weight=None)``: ``weight`` ``(N,)`` as the function's (scikit-learn's
    ``sample_weight``); weighted and unweighted updates mix (an unweighted sample counts 1).

    Raises:
        ValueError, TypeError: bad batches or weights as the function.

    References:
        scikit-learn's ``label_ranking_average_precision_score``.

    Examples:
        >>> m = MultilabelRankingAveragePrecision(num_labels=3)
        >>> m.update(torch.tensor([[0.9, 0.5, 0.1]]), torch.tensor([[1, 0, 1]]))
        >>> m.update(torch.tensor([[0.2, 0.4, 0.4]]), torch.tensor([[0, 1, 0]]))
        >>> round(m.compute().item(), 6)
        0.666667
    """

    higher_is_better: ClassVar[Optional[bool]] = True
    values = staticmethod(F._lrap_values)


@fill_doc
class MultilabelRankingLoss(_MultilabelRanking):
    """Label ranking loss over everything seen (tied pairs count as misordered, as scikit-learn);
    :func:`~torchmetrics_lite.functional.multilabel_ranking_loss`.

    Args:
        {num_labels_rank}
        {kwargs_module}

    ``update(preds, target, weight=None)``: ``weight`` ``(N,)`` as the function's (scikit-learn's
    ``sample_weight``); weighted and unweighted updates mix (an unweighted sample counts 1).

    Raises:
        ValueError, TypeError: bad batches or weights as the function.

    References:
        scikit-learn's ``label_ranking_loss`` (torchmetrics' ``MultilabelRankingLoss`` breaks ties by position).

    Examples:
        >>> m = MultilabelRankingLoss(num_labels=3)
        >>> m.update(torch.tensor([[0.9, 0.5, 0.1]]), torch.tensor([[1, 0, 1]]))
        >>> m.update(torch.tensor([[0.2, 0.4, 0.4]]), torch.tensor([[0, 1, 0]]))
        >>> m.compute()
        tensor(0.5000, dtype=torch.float64)
    """

    higher_is_better: ClassVar[Optional[bool]] = False
    values = staticmethod(F._ranking_loss_values)
