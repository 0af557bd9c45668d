"""Input validation of the regression family."""
from __future__ import annotations

import math
from typing import Any, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks.primitives import check_choice, check_ndim, check_no_nan, check_same_shape, check_tensor


def check_regression_inputs(preds: Any, target: Any, *, num_outputs: Optional[int] = None) -> Tuple[Tensor, Tensor]:
    """``preds`` and ``target``: real (non-bool) tensors of the same shape ``(N,)`` or ``(N, d)``; with
    ``num_outputs`` given, ``d`` must equal it (``(N,)`` counts as one output). Returned as given (no copy): the
    statistics convert to float64 once, exactly (every float32 / float16 / bfloat16 / int32 value). Metadata
    only; the NaN check is :func:`check_regression_values`, on the batch's statistics."""
    for name, t in (("preds", preds), ("target", target)):
        if not isinstance(t, Tensor):
            check_tensor(name, t)
        if t.dtype == torch.bool or t.is_complex():
            raise TypeError(f"Expected `{name}` to have a real, non-bool dtype, got {t.dtype}")
    shape = preds.shape
    if shape != target.shape:
        check_same_shape("preds", preds, "target", target)
    if len(shape) not in (1, 2):
        check_ndim("preds", preds, (1, 2))
    d = 1 if len(shape) == 1 else shape[1]
    if num_outputs is not None and d != num_outputs:
        hint = (f"; pass num_outputs={d} with multioutput='uniform_average' (torchmetrics' number for R², explained "
                "variance, MSE and MAE of this input: its default num_outputs=1 reads the columns anyway) or "
                "'raw_values' (the per-output values); torchmetrics' RMSE of it pools the columns "
                "(preds.reshape(-1), target.reshape(-1))" if num_outputs == 1 else "")
        raise ValueError(f"Expected `preds` to have {num_outputs} output column(s) (`num_outputs`), "
                         f"got shape {tuple(shape)}{hint}")
    return preds, target


def check_regression_values(preds: Tensor, target: Tensor, probe: Tensor) -> None:
    """Value check (one host sync): no NaN in ``preds`` or ``target``. ``probe`` is a statistic of the batch
    that any NaN input turns into NaN (the error sums, the means), computed anyway: in the clean case only its
    few values are read; the inputs themselves are scanned only when it is NaN, to name the culprit."""
    total: Any = probe.tolist()  # a float for a 0-d probe (a total), else nested lists
    if probe.dim():
        total = sum(map(sum, total)) if probe.dim() > 1 else sum(total)
    if math.isnan(total):  # inf - inf gives a false alarm, settled by the scan
        check_no_nan("preds", preds)
        check_no_nan("target", target)


def check_multioutput(value: Any, *, weighted: bool) -> None:
    """scikit-learn's ``multioutput``; ``"variance_weighted"`` only where ``weighted`` (R², explained variance)."""
    choices = ("raw_values", "uniform_average") + (("variance_weighted",) if weighted else ())
    check_choice("multioutput", value, choices)


def rmse_multioutput(preds: Any, squared: Any) -> str:
    """``mean_squared_error``'s ``multioutput=None``: ``"uniform_average"``, but for the RMSE of ``(N, d > 1)``
    input, where torchmetrics (its columns pooled) and scikit-learn (the mean of per-output RMSEs) differ."""
    if squared is False and isinstance(preds, Tensor) and preds.dim() == 2 and preds.shape[1] > 1:
        raise ValueError(
            f"Expected `multioutput` to be given for mean_squared_error(squared=False) of {preds.shape[1]} outputs, "
            "got None: torchmetrics pools the columns into one RMSE and scikit-learn averages the per-output "
            "RMSEs; pass multioutput=\"uniform_average\" (scikit-learn) or \"raw_values\" (per output), or "
            "preds.reshape(-1), target.reshape(-1) for torchmetrics' pooled number")
    return "uniform_average"


def error_multioutput(metric: str, num_outputs: int, multioutput: Any) -> Any:
    """The error metrics' ``multioutput``: ``None`` (not given) is ``"uniform_average"`` for one output; with
    several, torchmetrics returns the per-output values and scikit-learn their mean, so the caller must choose."""
    if multioutput is not None:
        return multioutput
    if num_outputs > 1:
        raise ValueError(f"Expected `multioutput` to be given for {metric}(num_outputs={num_outputs}), got None: "
                         f"torchmetrics returns the {num_outputs} per-output values there and scikit-learn their "
                         "mean; pass multioutput=\"raw_values\" (torchmetrics) or \"uniform_average\" (scikit-learn)")
    return "uniform_average"


def check_adjusted(value: Any) -> None:
    """``adjusted``: the number of regressors of the adjusted R², a non-negative int (0: plain R²)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"Expected `adjusted` to be a non-negative int (number of regressors), got {value!r}")




# ------------------------------------------------------------ the pooled measures (torchmetrics' other names)
_NOT_REAL = frozenset({torch.bool, torch.complex32, torch.complex64, torch.complex128})


def check_real_pair(preds: Any, target: Any, names: Tuple[str, str] = ("preds", "target"),
                    ndim: Optional[int] = None) -> Tuple[Tensor, Tensor]:
    """Two real (non-bool, non-complex) tensors of the same shape, any shape (``ndim`` given: that many dims)."""
    if (isinstance(preds, Tensor) and isinstance(target, Tensor) and preds.dtype not in _NOT_REAL
            and target.dtype not in _NOT_REAL and preds.shape == target.shape
            and (ndim is None or preds.dim() == ndim)):
        return preds, target  # the common case in one frame; the checks below name what is wrong
    for name, t in zip(names, (preds, target)):
        check_tensor(name, t)
        if t.dtype == torch.bool or t.is_complex():
            raise TypeError(f"Expected `{name}` to have a real, non-bool dtype, got {t.dtype}")
    check_same_shape(names[0], preds, names[1], target)
    if ndim is not None:
        check_ndim(names[0], preds, (ndim,))
    return preds, target


def check_reduction(value: Any) -> None:
    """torchmetrics' ``reduction`` of the row-wise measures (cosine similarity, KL and JS divergence)."""
    check_choice("reduction", value, ("mean", "sum", "none", None))


def check_minkowski_p(p: Any) -> None:
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not p >= 1:
        raise ValueError(f"Expected `p` to be a number >= 1 (the Minkowski order), got {p!r}")


def check_tweedie_power(power: Any) -> None:
    if isinstance(power, bool) or not isinstance(power, (int, float)) or math.isnan(power) or 0 < power < 1:
        raise ValueError(f"Expected `power` to be a number outside (0, 1) (the Tweedie deviance is undefined "
                         f"there), got {power!r}")


def check_lower_bound(name: str, t: Tensor, bound: float, *, strict: bool, why: str) -> None:
    """Value check (host sync): every value of ``t`` is ``> bound`` (``strict``) or ``>= bound``."""
    if t.numel() == 0:
        return
    low = t.min().item()
    if not (low > bound if strict else low >= bound):  # NaN fails too
        raise ValueError(f"Expected `{name}` to be {'>' if strict else '>='} {bound} ({why}), got a minimum of {low}")


def check_tweedie_domain(preds: Tensor, target: Tensor, power: float, target_name: str = "targets") -> None:
    """scikit-learn's domains of ``mean_tweedie_deviance``: ``preds > 0`` unless ``power == 0``; ``target >= 0``
    for ``1 <= power < 2``, ``target > 0`` for ``power >= 2``."""
    why = f"power={power}"
    if power != 0:
        check_lower_bound("preds", preds, 0.0, strict=True, why=why)
    if 1 <= power < 2:
        check_lower_bound(target_name, target, 0.0, strict=False, why=why)
    elif power >= 2:
        check_lower_bound(target_name, target, 0.0, strict=True, why=why)


def check_ensemble(preds: Any, target: Any) -> Tuple[Tensor, Tensor]:
    """CRPS: ``preds`` ``(N, m)`` ensemble members (``m >= 2``) and ``target`` ``(N,)``, real."""
    for name, t in (("preds", preds), ("target", target)):
        check_tensor(name, t)
        if t.dtype == torch.bool or t.is_complex():
            raise TypeError(f"Expected `{name}` to have a real, non-bool dtype, got {t.dtype}")
    if preds.dim() != 2 or preds.shape[1] < 2:
        raise ValueError(f"Expected `preds` to be (N, m) with m >= 2 ensemble members, got shape {tuple(preds.shape)}")
    if target.shape != preds.shape[:1]:
        raise ValueError(f"Expected `target` to be ({preds.shape[0]},) (one observation per row of `preds`), "
                         f"got shape {tuple(target.shape)}")
    return preds, target


def check_keep_sequence_dim(value: Any, ndim: int) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < ndim):
        raise ValueError(f"Expected `keep_sequence_dim` to be None or an int in [0, {ndim}), got {value!r}")
