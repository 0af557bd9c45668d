"""Binary classification metrics (conventions: :mod:`torchmetrics_lite.functional.classification`).

``preds`` and ``target`` have any equal shapes; the state of a batch is the 2x2 confusion matrix
``[[tn, fp], [fn, tp]]`` (rows: target, columns: prediction), int64 counts or float64 sums of ``weight``.
"""
from __future__ import annotations

from typing import Dict, Optional, Tuple

from torch import Tensor

from torchmetrics_lite._checks import (
    check_beta,
    check_binary_inputs,
    check_binary_top_k,
    check_bool,
    check_choice,
    check_ignore_index,
    check_samplewise,
    check_threshold,
    check_weighted_update,
    check_zero_division,
)
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification._stat_scores import (
    NORMALIZE,
    Terms,
    _accuracy_terms,
    _average,
    _binary_confmat,
    _correct_count,
    _counts_2x2,
    _fbeta_terms,
    _fixed_counts,
    _integer_weighted,
    _normalize,
    _precision_terms,
    _recall_terms,
    _samplewise_binary,
    _stat_scores,
    _warn_empty,
)

__all__ = [
    "binary_stat_scores", "binary_accuracy", "binary_precision", "binary_recall", "binary_f1_score",
    "binary_fbeta_score", "binary_confusion_matrix",
]


# ------------------------------------------------------------------------------------------ stats, config
def _binary_config(threshold: float, from_logits: bool, ignore_index: Optional[int]) -> float:
    """Validate the options; returns the cut on ``preds``."""
    check_ignore_index(ignore_index)
    return check_threshold(threshold, from_logits)


def _binary_stat_scores_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None, *, cut: float,
                              from_logits: bool, ignore_index: Optional[int], validate_args: bool,
                              weighted: Optional[bool] = None, multidim_average: str = "global") -> Dict[str, Tensor]:
    """``{"confmat"}``: the (2, 2) confusion matrix ``[[tn, fp], [fn, tp]]`` of one batch, the state of every
    binary metric (``multidim_average="samplewise"``: one per sample, (N, 2, 2)). ``weighted``: a module's fixed
    choice (``None`` for a function, see ``_fixed_counts``)."""
    if weighted is not None:
        check_weighted_update(weighted, weight)
    if check_samplewise(multidim_average, "preds", preds, 2, weight):
        n = preds.shape[0]
        preds, target, _ = check_binary_inputs(preds, target, from_logits=from_logits, ignore_index=ignore_index,
                                               validate_args=validate_args, weight=None)
        return {"confmat": _samplewise_binary(preds, target, n, cut, ignore_index)}
    preds, target, weight = check_binary_inputs(preds, target, from_logits=from_logits, ignore_index=ignore_index,
                                                validate_args=validate_args, weight=weight)
    return _fixed_counts({"confmat": _binary_confmat(preds, target, cut, ignore_index, weight)}, weighted)


def _per_sample(confmat: Tensor) -> Tensor:
    """A samplewise (N, 2, 2) state as (N, 1, 2, 2): one "class" per sample, so micro reductions keep N."""
    return confmat if confmat.dim() == 2 else confmat.unsqueeze(-3)


def _binary_stat_scores_from_stats(state: Dict[str, Tensor]) -> Tensor:
    return _stat_scores(_counts_2x2(_per_sample(state["confmat"])), "micro")


def _binary_score_from_stats(state: Dict[str, Tensor], *, terms: Terms, zero_division: float = 0.0) -> Tensor:
    """Any binary score (accuracy, precision, recall, F-beta, specificity, Jaccard) by its ``terms`` (one per
    sample for a samplewise (N, 2, 2) state)."""
    return _average(_counts_2x2(_per_sample(state["confmat"])), terms, "micro", zero_division)


def _binary_confusion_matrix_from_stats(state: Dict[str, Tensor], *, normalize: Optional[str] = None) -> Tensor:
    return _normalize(state["confmat"], normalize)


def _binary_stats(preds: Tensor, target: Tensor, threshold: float, from_logits: bool, ignore_index: Optional[int],
                  validate_args: bool, weight: Optional[Tensor], multidim_average: str = "global") -> Dict[str, Tensor]:
    cut = _binary_config(threshold, from_logits, ignore_index)
    return _warn_empty(_binary_stat_scores_stats(preds, target, weight, cut=cut, from_logits=from_logits,
                                                 ignore_index=ignore_index, validate_args=validate_args,
                                                 multidim_average=multidim_average), target)


def _binary_score(preds: Tensor, target: Tensor, terms: Terms, threshold: float, from_logits: bool,
                  ignore_index: Optional[int], zero_division: float, validate_args: bool,
                  weight: Optional[Tensor], multidim_average: str = "global") -> Tensor:
    zd = check_zero_division(zero_division)
    stats = _binary_stats(preds, target, threshold, from_logits, ignore_index, validate_args, weight, multidim_average)
    return _binary_score_from_stats(stats, terms=terms, zero_division=zd)


def _binary_accuracy_from_stats(state: Dict[str, Tensor], *, zero_division: float = 0.0,
                                normalize: bool = True, top_k: int = 1) -> Tensor:
    """Accuracy, or with ``normalize=False`` the number (weight) of samples predicted right; ``top_k=2``: every
    counted sample is right (both classes are among the top 2)."""
    if top_k > 1:
        if not normalize:
            return state["confmat"].sum((-2, -1)).to(float_dtype(state["confmat"].device))
        return _binary_score_from_stats(state, terms=_hit_terms, zero_division=zero_division)
    if not normalize:
        return _correct_count(state["confmat"])
    return _binary_score_from_stats(state, terms=_accuracy_terms, zero_division=zero_division)


def _hit_terms(tp: Tensor, fp: Tensor, tn: Tensor, fn: Tensor) -> Tuple[Tensor, Tensor]:
    """Top-2 accuracy of a binary problem: ``n / n`` (every sample's target is among its top 2 of 2 classes)."""
    n = tp + fp + tn + fn
    return n, n


# ------------------------------------------------------------------------------------------------ binary
@fill_doc
def binary_stat_scores(preds: Tensor, target: Tensor, threshold: float = 0.5, *, from_logits: bool = False,
                       ignore_index: Optional[int] = None, multidim_average: str = "global",
                       validate_args: bool = True,
                       weight: Optional[Tensor] = None) -> Tensor:
    """``[tp, fp, tn, fn, support]`` of binary decisions, ``support = tp + fn``.

    Args:
        {multidim_average}
        {preds_binary}
        {target_binary}
        {threshold}
        {from_logits}
        {ignore_index}
        {validate_args}
        {weight}

    Returns:
        Shape (5,), int64 (float64 when weighted). Empty input gives zeros.

    Raises:
        {raises_value}
        {raises_type}

    References:
        torchmetrics' ``binary_stat_scores`` (same layout).

    Examples:
        >>> import torch
        >>> binary_stat_scores(torch.tensor([0.9, 0.2, 0.6, 0.4]), torch.tensor([1, 0, 0, 1]))
        tensor([1, 1, 1, 1, 2])
    """
    stats = _binary_stats(preds, target, threshold, from_logits, ignore_index, validate_args, weight,
                          multidim_average=multidim_average)
    return _binary_stat_scores_from_stats(stats)


@fill_doc
def binary_accuracy(preds: Tensor, target: Tensor, threshold: float = 0.5, *, from_logits: bool = False,
                    ignore_index: Optional[int] = None, zero_division: float = 0.0, multidim_average: str = "global",
                    normalize: bool = True, top_k: int = 1, validate_args: bool = True,
                    weight: Optional[Tensor] = None) -> Tensor:
    """Accuracy ``(tp + tn) / (tp + fp + tn + fn)``.

    Args:
        {multidim_average}
        {preds_binary}
        {target_binary}
        {threshold}
        {from_logits}
        {ignore_index}
        {zero_division}
        {normalize_accuracy}
        {top_k_binary}
        {validate_args}
        {weight}

    Returns:
        A float64 scalar (``(N,)`` samplewise); no sample counted gives ``zero_division`` (0.0 with
        ``normalize=False``).

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's ``accuracy_score``.

    Examples:
        An always-negative model on 1,000 examples with 10 positives is 99% accurate and finds nothing:

        >>> import torch
        >>> target = torch.zeros(1000, dtype=torch.long); target[:10] = 1
        >>> never = torch.zeros(1000)
        >>> binary_accuracy(never, target).item(), binary_recall(never, target).item()
        (0.99, 0.0)

        scikit-learn's ``top_k_accuracy_score(y, s, k=k)`` of binary targets: ``k=1`` is this accuracy (decision
        values: ``from_logits=True``, the cut at 0), ``k=2`` is 1:

        >>> s, y = torch.tensor([-1.0, 1.0, -1.0, 1.0]), torch.tensor([0, 0, 1, 1])
        >>> binary_accuracy(s, y, from_logits=True).item(), binary_accuracy(s, y, from_logits=True, top_k=2).item()
        (0.5, 1.0)
    """
    zd = check_zero_division(zero_division)
    check_bool("normalize", normalize)
    check_binary_top_k(top_k)
    stats = _binary_stats(preds, target, threshold, from_logits, ignore_index, validate_args, weight, multidim_average)
    return _binary_accuracy_from_stats(stats, zero_division=zd, normalize=normalize, top_k=top_k)


@fill_doc
def binary_precision(preds: Tensor, target: Tensor, threshold: float = 0.5, *, from_logits: bool = False,
                     ignore_index: Optional[int] = None, zero_division: float = 0.0, multidim_average: str = "global",
                     validate_args: bool = True,
                     weight: Optional[Tensor] = None) -> Tensor:
    """Precision ``tp / (tp + fp)``.

    Args:
        {multidim_average}
        {preds_binary}
        {target_binary}
        {threshold}
        {from_logits}
        {ignore_index}
        {zero_division}
        {validate_args}
        {weight}

    Returns:
        A float64 scalar; no predicted positive gives ``zero_division``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's ``precision_score``.

    Examples:
        >>> import torch
        >>> target, calls = torch.tensor([1, 1, 1, 1, 0, 0, 0, 0, 0, 0]), torch.tensor([1, 1, 1, 0, 1, 1, 0, 0, 0, 0])
        >>> binary_precision(calls, target)
        tensor(0.6000, dtype=torch.float64)
    """
    return _binary_score(preds, target, _precision_terms, threshold, from_logits, ignore_index, zero_division,
                         validate_args, weight, multidim_average=multidim_average)


@fill_doc
def binary_recall(preds: Tensor, target: Tensor, threshold: float = 0.5, *, from_logits: bool = False,
                  ignore_index: Optional[int] = None, zero_division: float = 0.0, multidim_average: str = "global",
                  validate_args: bool = True,
                  weight: Optional[Tensor] = None) -> Tensor:
    """Recall (sensitivity) ``tp / (tp + fn)``.

    Args:
        {multidim_average}
        {preds_binary}
        {target_binary}
        {threshold}
        {from_logits}
        {ignore_index}
        {zero_division}
        {validate_args}
        {weight}

    Returns:
        A float64 scalar; no positive target gives ``zero_division``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's ``recall_score``.

    Examples:
        >>> import torch
        >>> target, calls = torch.tensor([1, 1, 1, 1, 0, 0, 0, 0, 0, 0]), torch.tensor([1, 1, 1, 0, 1, 1, 0, 0, 0, 0])
        >>> binary_recall(calls, target)
        tensor(0.7500, dtype=torch.float64)
    """
    return _binary_score(preds, target, _recall_terms, threshold, from_logits, ignore_index, zero_division,
                         validate_args, weight, multidim_average=multidim_average)


@fill_doc
def binary_fbeta_score(preds: Tensor, target: Tensor, beta: float, threshold: float = 0.5, *,
                       from_logits: bool = False, ignore_index: Optional[int] = None, zero_division: float = 0.0,
                       multidim_average: str = "global",
                       validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """F-beta ``(1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp)``, the weighted harmonic mean of precision and
    recall (recall counts ``beta`` times as much).

    Args:
        {multidim_average}
        {preds_binary}
        {target_binary}
        {threshold}
        {from_logits}
        {ignore_index}
        beta: the weight of recall, a number > 0.
        {zero_division}
        {validate_args}
        {weight}

    Returns:
        A float64 scalar; ``tp = fp = fn = 0`` gives ``zero_division``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        van Rijsbergen, C. J. (1979), Information Retrieval, ch. 7; scikit-learn's ``fbeta_score``.

    Examples:
        >>> import torch
        >>> target, calls = torch.tensor([1, 1, 1, 1, 0, 0, 0, 0, 0, 0]), torch.tensor([1, 1, 1, 0, 1, 1, 0, 0, 0, 0])
        >>> round(binary_fbeta_score(calls, target, beta=2.0).item(), 4)  # 5 * 3 / (5 * 3 + 4 * 1 + 2)
        0.7143
    """
    check_beta(beta)
    return _binary_score(preds, target, _fbeta_terms(beta), threshold, from_logits, ignore_index, zero_division,
                         validate_args, weight, multidim_average=multidim_average)


@fill_doc
def binary_f1_score(preds: Tensor, target: Tensor, threshold: float = 0.5, *, from_logits: bool = False,
                    ignore_index: Optional[int] = None, zero_division: float = 0.0, multidim_average: str = "global",
                    validate_args: bool = True,
                    weight: Optional[Tensor] = None) -> Tensor:
    """F1 ``2 tp / (2 tp + fn + fp)``, the harmonic mean of precision and recall.

    Args:
        {multidim_average}
        {preds_binary}
        {target_binary}
        {threshold}
        {from_logits}
        {ignore_index}
        {zero_division}
        {validate_args}
        {weight}

    Returns:
        A float64 scalar; ``tp = fp = fn = 0`` gives ``zero_division``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's ``f1_score``.

    Examples:
        >>> import torch
        >>> target, calls = torch.tensor([1, 1, 1, 1, 0, 0, 0, 0, 0, 0]), torch.tensor([1, 1, 1, 0, 1, 1, 0, 0, 0, 0])
        >>> binary_f1_score(calls, target).item() == 2 / 3
        True
    """
    return _binary_score(preds, target, _fbeta_terms(1.0), threshold, from_logits, ignore_index, zero_division,
                         validate_args, weight, multidim_average=multidim_average)


@fill_doc
def binary_confusion_matrix(preds: Tensor, target: Tensor, threshold: float = 0.5, *, normalize: Optional[str] = None,
                            from_logits: bool = False, ignore_index: Optional[int] = None,
                            validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """The (2, 2) confusion matrix ``[[tn, fp], [fn, tp]]`` (rows: target, columns: prediction).

    Args:
        {preds_binary}
        {target_binary}
        {threshold}
        {from_logits}
        {ignore_index}
        {normalize}
        {validate_args}
        {weight}

    Returns:
        int64 counts (also with integer ``weight``, as scikit-learn), float64 when normalized or with floating
        ``weight``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's ``confusion_matrix`` (same orientation).

    Examples:
        >>> import torch
        >>> binary_confusion_matrix(torch.tensor([0.9, 0.2, 0.6, 0.4, 0.1]), torch.tensor([1, 0, 0, 1, 0]))
        tensor([[2, 1],
                [1, 1]])
    """
    check_choice("normalize", normalize, NORMALIZE)
    stats = _binary_stats(preds, target, threshold, from_logits, ignore_index, validate_args, weight)
    return _integer_weighted(_binary_confusion_matrix_from_stats(stats, normalize=normalize), weight, normalize)
