"""Input validation of the correlation coefficients (Pearson, concordance, Spearman, Kendall)."""
from __future__ import annotations

from typing import Any, Optional, Tuple

from torch import Tensor

from torchmetrics_lite._checks.primitives import check_choice, check_no_nan
from torchmetrics_lite._checks.regression import check_regression_inputs

KENDALL_VARIANTS = ("a", "b", "c")
ALTERNATIVES = ("two-sided", "less", "greater")


def check_correlation_inputs(preds: Any, target: Any, *, num_outputs: Optional[int] = None,
                             validate_args: bool = True) -> Tuple[Tensor, Tensor]:
    """``preds`` and ``target``: real (non-bool) tensors of the same shape ``(N,)`` or ``(N, d)`` (``d`` equal
    to ``num_outputs`` when given), as the regression family; with ``validate_args`` no NaN (a host sync each:
    a rank or a moment of NaN has no meaning)."""
    preds, target = check_regression_inputs(preds, target, num_outputs=num_outputs)
    if validate_args and preds.numel():
        check_no_nan("preds", preds, total=preds.sum())  # one reduction each in the clean case
        check_no_nan("target", target, total=target.sum())
    return preds, target


def check_kendall_options(variant: Any, t_test: Any, alternative: Any) -> None:
    """Kendall's ``variant`` (``"a"``, ``"b"``, ``"c"``), ``t_test`` (a bool) and ``alternative`` (the test's
    alternative hypothesis, required when ``t_test``)."""
    check_choice("variant", variant, KENDALL_VARIANTS)
    if not isinstance(t_test, bool):
        raise TypeError(f"Expected `t_test` to be a bool, got {type(t_test).__name__}")
    if alternative is None and t_test:
        raise ValueError("Expected `alternative` to be one of ('two-sided', 'less', 'greater') when `t_test=True`, "
                         "got None")
    if alternative is not None:
        check_choice("alternative", alternative, ALTERNATIVES)
