"""DeLong modules: the AUROC with its confidence interval, and the paired test of two classifiers' AUROCs, over
everything seen (rules in :mod:`torchmetrics_lite.functional.auroc.delong`)."""
from __future__ import annotations

from typing import Any, ClassVar, Dict, Optional

import torch

from torchmetrics_lite._checks import check_alpha
from torchmetrics_lite.auroc._base import _add_rank_states, _BinaryRank
from torchmetrics_lite.functional.auroc import delong as F
from torchmetrics_lite.functional.auroc._doc_args import fill_doc
from torchmetrics_lite.metric import Metric

__all__ = ["BinaryAUROCCI", "PairedAUROCTest"]


@fill_doc
class BinaryAUROCCI(_BinaryRank):
    """Exact AUROC and its Wald interval with DeLong's variance: ``compute()`` returns ``(auroc, low, high)``;
    :func:`~torchmetrics_lite.functional.binary_auroc_ci` over everything seen (the name mirrors the function).

    ``update(preds, target)``: scores and 0/1 labels of the same shape (no ``weight``).

    Args:
        alpha: the significance level in ``(0, 1)`` (``0.05``: a 95% interval).
        strict: raise instead of returning ``nan`` when one class is missing.
        {kwargs_module}

    Raises:
        ValueError: ``alpha`` outside ``(0, 1)`` or bad batches as the function.
        TypeError: a ``weight``.

    References:
        DeLong, DeLong & Clarke-Pearson (1988); Sun & Xu (2014).

    Examples:
        >>> m = BinaryAUROCCI(alpha=0.05)
        >>> m.update(torch.tensor([0.9, 0.8, 0.7, 0.6]), torch.tensor([1, 1, 0, 1]))
        >>> m.update(torch.tensor([0.55, 0.54, 0.4, 0.3]), torch.tensor([0, 1, 0, 0]))
        >>> [round(v.item(), 4) for v in m.compute()]
        [0.8125, 0.4808, 1.0]
    """

    higher_is_better: ClassVar[Optional[bool]] = None  # a tuple (auroc, low, high)
    weighted = False
    value_fn = staticmethod(F._binary_auroc_ci_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"alpha": self.alpha, "strict": self.strict}

    not_offered = ("thresholds", "from_logits")  # DeLong's variance needs the exact scores (and has no binned mode)

    def __init__(self, alpha: float = 0.05, *, strict: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.alpha, self.strict = check_alpha(alpha), strict


@fill_doc
class PairedAUROCTest(Metric):
    """DeLong's paired test of two classifiers scored on the same samples: ``compute()`` returns the dict of
    :func:`~torchmetrics_lite.functional.paired_auroc_test` (``auroc_a``, ``auroc_b``, ``difference``, ``z``,
    ``p_value``) over everything seen.

    ``update(preds_a, preds_b, target)``: two score tensors and the 0/1 labels, all of one shape. State: both
    scores per sample (``(N, 2)``, ``cat``) and the labels.

    Args:
        strict: raise instead of returning ``nan`` when one class is missing.
        {kwargs_module}

    Raises:
        ValueError: bad batches as the function.

    References:
        DeLong, DeLong & Clarke-Pearson (1988); Sun & Xu (2014).

    Examples:
        >>> m = PairedAUROCTest()
        >>> m.update(torch.tensor([0.9, 0.8, 0.7, 0.6]), torch.tensor([0.6, 0.9, 0.8, 0.3]),
        ...          torch.tensor([1, 1, 0, 1]))
        >>> m.update(torch.tensor([0.55, 0.54, 0.4, 0.3]), torch.tensor([0.5, 0.4, 0.7, 0.2]),
        ...          torch.tensor([0, 1, 0, 0]))
        >>> round(m.compute()["p_value"].item(), 4)
        0.1138
    """

    higher_is_better: ClassVar[Optional[bool]] = None
    weighted = False
    stats_fn = staticmethod(F._paired_rank_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"validate_args": self.validate_args}

    value_fn = staticmethod(F._paired_auroc_test_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"strict": self.strict}

    def __init__(self, *, strict: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.strict = strict
        _add_rank_states(self, type(self).weighted, (2,), (), torch.uint8, ("paired_rank",))
