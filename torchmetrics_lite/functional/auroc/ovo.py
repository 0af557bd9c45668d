"""One-vs-one multiclass AUROC (Hand & Till 2001; scikit-learn's ``roc_auc_score(multi_class="ovo")``).

For classes ``a != b`` let ``A(a|b)`` be the binary AUROC of the scores ``preds[:, a]`` of the samples of class
``a`` or ``b`` only, class ``a`` positive (tied pairs count 1/2: the exact mid-rank AUROC). The pair's value is
``(A(a|b) + A(b|a)) / 2``, and the result the mean over the unordered pairs ``a < b``: plain (``"macro"``) or
weighted by the pair's prevalence ``(n_a + n_b) / N`` (``"weighted"``). A pair with a class absent from ``target``
is undefined (scikit-learn's own loop runs over the classes present only, so its value is the same): it is left
out of the mean with a ``UserWarning`` (``strict=True`` raises); no pair defined gives ``nan``.

No loop over classes or pairs: every ordered pair ``(a, b)`` is one row of the samples of classes ``a`` and ``b``
(gathered from one stable sort of ``target``, padded to the longest pair with weight-0 elements), and the rows go
through the family's per-row AUROC kernel at once with a 0/1 weight per element (exact: the counts are sums of
ones). Memory ``O(C * N)`` for balanced classes (each sample is in ``2 (C - 1)`` rows).
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_choice
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.auroc import _kernels as kernels
from torchmetrics_lite.functional.auroc._common import _undefined

__all__ = ["OVO_AVERAGES", "check_multi_class", "check_ovo_options", "ovo_auroc"]

OVO_AVERAGES = ("macro", "weighted")
MULTI_CLASS = ("ovr", "ovo")


def check_multi_class(multi_class: object, average: str) -> str:
    """``multi_class`` one of ``"ovr"`` / ``"ovo"``; with ``"ovo"``, ``average`` (already checked) must be
    ``"macro"`` or ``"weighted"`` (scikit-learn refuses ``average=None`` there too)."""
    check_choice("multi_class", multi_class, MULTI_CLASS)
    if multi_class == "ovo" and average not in OVO_AVERAGES:
        raise ValueError(f"Expected `average` to be one of {OVO_AVERAGES} with multi_class='ovo' (the mean over "
                         f"class pairs), got {average!r}")
    return str(multi_class)


def check_ovo_options(weight: Any, thresholds: Optional[Tensor]) -> None:
    """``multi_class="ovo"`` takes neither ``weight`` (scikit-learn's one-vs-one AUROC has no ``sample_weight``)
    nor ``thresholds`` (torchmetrics' binned mode is one-vs-rest only)."""
    if weight is not None:
        shown = tuple(weight.shape) if isinstance(weight, Tensor) else type(weight).__name__
        raise ValueError(f"Expected `weight=None` with multi_class='ovo' (scikit-learn's one-vs-one AUROC takes no "
                         f"sample_weight), got weights {shown}")
    if thresholds is not None:
        raise ValueError(f"Expected `thresholds=None` with multi_class='ovo' (the binned mode is one-vs-rest only), "
                         f"got {thresholds.numel()} thresholds")


def _pair_rows(scores: Tensor, target: Tensor, num_classes: int) -> Tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
    """Rows ``(R, L)`` of every ordered pair ``(a, b)``, ``R = C (C - 1)``: the scores ``scores[:, a]`` of the
    samples of class ``a`` then of class ``b`` (padded), the positives (class ``a``), the 0/1 weights (0 on the
    padding), and ``a``, ``b`` ``(R,)``."""
    device = scores.device
    off = ~torch.eye(num_classes, dtype=torch.bool, device=device)
    a, b = off.nonzero(as_tuple=True)
    counts = torch.bincount(target, minlength=num_classes)
    starts = counts.cumsum(0) - counts
    order = torch.argsort(target, stable=True)
    n_a, n_b = counts[a].unsqueeze(1), counts[b].unsqueeze(1)
    length = int((n_a + n_b).max()) if a.numel() else 0
    k = torch.arange(length, device=device)
    in_a, in_b = k < n_a, (k >= n_a) & (k < n_a + n_b)
    idx = torch.where(in_a, starts[a].unsqueeze(1) + k, starts[b].unsqueeze(1) + k - n_a)
    sample = order[torch.where(in_a | in_b, idx, 0)] if target.numel() else idx.new_zeros(idx.shape)
    rows = scores[sample, a.unsqueeze(1)] if target.numel() else scores.new_zeros(idx.shape)
    weight = (in_a | in_b).to(float_dtype(device))
    return rows, in_a, weight, a, b


def ovo_auroc(scores: Tensor, target: Tensor, num_classes: int, average: str, strict: bool) -> Tensor:
    """The one-vs-one AUROC (module docstring) of probabilities ``scores (N, C)`` and class indices ``target
    (N,)``, a float64 scalar (float32 on a device without float64)."""
    target = target.long()
    rows, positive, weight, a, b = _pair_rows(scores, target, num_classes)
    values, _ = kernels.auroc(rows, positive, weight)
    one_way = values.new_full((num_classes, num_classes), float("nan"))
    one_way[a, b] = values
    upper = torch.triu(torch.ones(num_classes, num_classes, dtype=torch.bool, device=scores.device), 1)
    pair = ((one_way + one_way.t()) / 2)[upper]
    counts = torch.bincount(target, minlength=num_classes).to(values.dtype)
    support = (counts.unsqueeze(1) + counts.unsqueeze(0))[upper]
    undefined = torch.isnan(pair)
    if bool(undefined.any()):
        pa, pb = upper.nonzero(as_tuple=True)
        where = [(int(x), int(y)) for x, y in zip(pa[undefined].tolist(), pb[undefined].tolist())]
        _undefined("AUROC", f"for class pair(s) {where} (a class absent from `target`)", strict)
    kept = ~undefined
    w = kept.to(values.dtype) if average == "macro" else torch.where(kept, support, 0.0)
    return (torch.where(kept, pair, 0.0) * w).sum() / w.sum()
