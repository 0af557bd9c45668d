"""The correlation modules: Pearson and concordance over streamed co-moments, Spearman and Kendall over the kept
values (documented in :mod:`torchmetrics_lite.regression`)."""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch

from torchmetrics_lite._checks import check_positive_int
from torchmetrics_lite._checks.correlation import check_kendall_options
from torchmetrics_lite.functional.regression._doc_args import fill_doc
from torchmetrics_lite.functional.regression.correlation import (
    _comoment_stats,
    _concordance_from_stats,
    _pearson_from_stats,
    fold_comoments,
    fold_comoments_pair,
)
from torchmetrics_lite.functional.regression.rank_correlation import (
    _kendall_from_stats,
    _rank_stats,
    _spearman_from_stats,
)
from torchmetrics_lite.metric import Fold, Metric

__all__ = ["PearsonCorrCoef", "ConcordanceCorrCoef", "SpearmanCorrCoef", "KendallRankCorrCoef"]


class _ComomentMetric(Metric):
    """One fold state ``comoments`` ``(6, num_outputs)`` merged with :func:`fold_comoments`; ``update(preds,
    target)``: ``(N,)`` or ``(N, num_outputs)`` (the checked co-moments of each batch)."""

    stats_fn = staticmethod(_comoment_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"num_outputs": self.num_outputs, "validate_args": self.validate_args}

    def value_options(self) -> Dict[str, Any]:
        return {"scalar": self.scalar}

    is_differentiable = False
    higher_is_better = True

    def __init__(self, num_outputs: int = 1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_positive_int("num_outputs", num_outputs)
        self.num_outputs, self.scalar = num_outputs, num_outputs == 1
        self.add_state("comoments", torch.zeros(6, num_outputs, dtype=torch.float64),
                       reduce=Fold(fold_comoments, fold_comoments_pair))
        self.stats_key = ("correlation_comoments", num_outputs)



class PearsonCorrCoef(_ComomentMetric):
    """Pearson's correlation coefficient per output, streamed; see
    :func:`~torchmetrics_lite.functional.pearson_corrcoef`.

    ``update(preds, target)``: ``(N,)`` or ``(N, num_outputs)`` real tensors. State: the co-moments ``(6, d)``
    (count, means, centred sums of squares and of cross products, float64), merged across batches, metrics
    and ranks with Chan's parallel formula (:func:`~torchmetrics_lite.functional.regression.fold_comoments`):
    memory O(d), and no raw sum of products, so a stream of targets around 1e6 keeps every digit.

    Args:
        num_outputs: number of output columns ``d``.
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s ``validate_args``, ``process_group``,
            ``sync_on_compute``.

    Returns:
        ``compute()``: a float64 0-d tensor (``num_outputs=1``) or ``(d,)``; ``nan`` with fewer than two samples
        or a constant column.

    Raises:
        TypeError, ValueError: a bad ``num_outputs``; bad batches in ``update`` as the functional form (the
            state is left unchanged).

    References:
        scipy ``pearsonr``; torchmetrics ``PearsonCorrCoef``.

    Examples:
        >>> m = PearsonCorrCoef()
        >>> m.update(torch.tensor([2.5, 0.0]), torch.tensor([3.0, -0.5]))
        >>> m.update(torch.tensor([2.0, 8.0]), torch.tensor([2.0, 7.0]))
        >>> round(m.compute().item(), 4)
        0.9849
    """

    value_fn = staticmethod(_pearson_from_stats)


@fill_doc(undefined="a zero denominator")
class ConcordanceCorrCoef(_ComomentMetric):
    """Lin's concordance correlation coefficient per output as torchmetrics computes it (unbiased variances and
    covariance), streamed over the same co-moments as :class:`PearsonCorrCoef`; see
    :func:`~torchmetrics_lite.functional.concordance_corrcoef`.

    Args:
        {num_outputs}
        {kwargs_module}

    {sections_correlation_module}

    References:
        Lin (1989); torchmetrics ``ConcordanceCorrCoef``.

    Examples:
        >>> m = ConcordanceCorrCoef()
        >>> m.update(torch.tensor([2.5, 0.0, 2.0, 8.0]), torch.tensor([3.0, -0.5, 2.0, 7.0]))
        >>> round(m.compute().item(), 4)
        0.9777
    """

    value_fn = staticmethod(_concordance_from_stats)


class _RankMetric(Metric):
    """The kept values: ``preds`` and ``target`` (``cat`` states, ``(N,)`` for one output as torchmetrics',
    ``(N, num_outputs)`` for more); ``update(preds, target)``: ``(N,)`` or ``(N, num_outputs)``."""

    stats_fn = staticmethod(_rank_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"num_outputs": self.num_outputs, "validate_args": self.validate_args}

    def value_options(self) -> Dict[str, Any]:
        return {"scalar": self.scalar}

    is_differentiable = False
    higher_is_better = True

    def __init__(self, num_outputs: int = 1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_positive_int("num_outputs", num_outputs)
        self.num_outputs, self.scalar = num_outputs, num_outputs == 1
        # int64 until a floating batch promotes it (torch's promotion): integers are kept (and ranked) exactly
        shape = (0,) if num_outputs == 1 else (0, num_outputs)  # one column: (N,), torchmetrics' state shape
        self.add_state("preds", torch.zeros(shape, dtype=torch.int64), reduce="cat")
        self.add_state("target", torch.zeros(shape, dtype=torch.int64), reduce="cat")
        self.stats_key = ("correlation_values", num_outputs, self.validate_args)



@fill_doc(undefined="a constant column")
class SpearmanCorrCoef(_RankMetric):
    """Spearman's rank correlation coefficient per output (average ranks on ties, exact), over the kept values;
    see :func:`~torchmetrics_lite.functional.spearman_corrcoef`.

    ``update(preds, target)``: ``(N,)`` or ``(N, num_outputs)`` real tensors. State: the values (``cat``
    states: floating inputs as given, integers as int64, ranked as integers; a floating batch after integer ones
    promotes the kept values as torch does), O(N) memory as torchmetrics'.

    Args:
        {num_outputs}
        {kwargs_module}

    {sections_correlation_module}

    References:
        scipy ``spearmanr``; torchmetrics ``SpearmanCorrCoef``.

    Examples:
        >>> m = SpearmanCorrCoef()
        >>> m.update(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 3.0]))
        >>> m.update(torch.tensor([2.0, 4.0]), torch.tensor([2.0, 5.0]))
        >>> round(m.compute().item(), 4)
        0.9487
    """

    value_fn = staticmethod(_spearman_from_stats)


class KendallRankCorrCoef(_RankMetric):
    """Kendall's tau (a, b or c) per output, with the optional p-value, over the kept values in ``O(n log n)``;
    see :func:`~torchmetrics_lite.functional.kendall_rank_corrcoef`.

    Args:
        variant: ``"a"``, ``"b"`` (default) or ``"c"``.
        t_test: also return the p-value of the test ``tau = 0``.
        alternative: ``"two-sided"``, ``"less"`` or ``"greater"``; required with ``t_test``.
        num_outputs: number of output columns ``d``.
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s options.

    Returns:
        ``compute()``: ``tau``, or ``(tau, p_value)`` with ``t_test``; float64 0-d tensors (``num_outputs=1``)
        or ``(d,)``.

    Raises:
        TypeError, ValueError: bad options here (as the functional form); bad batches in ``update``.

    References:
        Kendall (1938); Knight (1966); scipy ``kendalltau``; torchmetrics ``KendallRankCorrCoef``.

    Examples:
        >>> m = KendallRankCorrCoef(t_test=True)
        >>> m.update(torch.tensor([1, 2]), torch.tensor([1, 3]))
        >>> m.update(torch.tensor([2, 3]), torch.tensor([2, 3]))
        >>> tau, p_value = m.compute()
        >>> round(tau.item(), 4), round(p_value.item(), 4)
        (0.8, 0.126)
    """

    value_fn = staticmethod(_kendall_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"variant": self.variant, "t_test": self.t_test, "alternative": self.alternative,
                "scalar": self.scalar}

    def __init__(self, variant: str = "b", t_test: bool = False, alternative: Optional[str] = "two-sided",
                 num_outputs: int = 1, **kwargs: Any) -> None:
        check_kendall_options(variant, t_test, alternative)
        super().__init__(num_outputs=num_outputs, **kwargs)
        self.variant, self.t_test, self.alternative = variant, t_test, alternative
