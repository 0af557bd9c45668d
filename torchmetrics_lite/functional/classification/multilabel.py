"""Multilabel classification metrics. The conventions (inputs, ``threshold``/``from_logits``, ``average``,
``zero_division``) are stated once, in :mod:`torchmetrics_lite.functional.classification`.

``preds`` and ``target`` have shape (N, L, ...), the label axis 1. Each label is its own binary problem; the
state of a batch is one 2x2 confusion matrix per label, shape (L, 2, 2). Accuracy here is per-label accuracy
(``(tp + tn) / n`` per label, torchmetrics' definition), not scikit-learn's subset accuracy (exact match).
"""
from __future__ import annotations

from typing import Dict, Optional, Sequence

from torch import Tensor

from torchmetrics_lite._checks import (
    CLASSIFICATION_AVERAGES,
    SAMPLE_AVERAGES,
    check_average,
    check_beta,
    check_choice,
    check_ignore_index,
    check_multilabel_inputs,
    check_positive_int,
    check_samples_average,
    check_samplewise,
    check_threshold,
    check_weighted_update,
    check_zero_division,
)
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification._stat_scores import (
    NORMALIZE,
    Terms,
    _accuracy_terms,
    _average,
    _counts_2x2,
    _fbeta_terms,
    _fixed_counts,
    _hamming_terms,
    _multilabel_confmat,
    _normalize,
    _precision_terms,
    _recall_terms,
    _samplewise_multilabel,
    _stat_scores,
    _warn_empty,
)
from torchmetrics_lite.functional.classification.samples_average import _samples_from_stats, _samples_stats

__all__ = ["multilabel_stat_scores", "multilabel_accuracy", "multilabel_precision", "multilabel_recall",
           "multilabel_f1_score", "multilabel_fbeta_score", "multilabel_confusion_matrix",
           "multilabel_hamming_distance"]


def _multilabel_config(num_labels: int, threshold: float, from_logits: bool, ignore_index: Optional[int]) -> float:
    check_positive_int("num_labels", num_labels)
    check_ignore_index(ignore_index)
    return check_threshold(threshold, from_logits)


def _multilabel_stat_scores_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None, *, num_labels: int,
                                  cut: float, from_logits: bool, ignore_index: Optional[int], validate_args: bool,
                                  weighted: Optional[bool] = None,
                                  multidim_average: str = "global") -> Dict[str, Tensor]:
    """One batch's state ``{"confmat"}``: (L, 2, 2) per-label confusion matrices ``[[tn, fp], [fn, tp]]``
    (``multidim_average="samplewise"``: one set per sample, (N, L, 2, 2)). ``weighted``: a module's fixed choice
    (``None`` for a function, see ``_fixed_counts``)."""
    if weighted is not None:
        check_weighted_update(weighted, weight)
    if check_samplewise(multidim_average, "preds", preds, 3, weight):
        n = preds.shape[0]
        preds, target, _ = check_multilabel_inputs(preds, target, num_labels=num_labels, from_logits=from_logits,
                                                   ignore_index=ignore_index, validate_args=validate_args, weight=None)
        return {"confmat": _samplewise_multilabel(preds, target, n, cut, ignore_index)}
    preds, target, weight = check_multilabel_inputs(preds, target, num_labels=num_labels, from_logits=from_logits,
                                                    ignore_index=ignore_index, validate_args=validate_args,
                                                    weight=weight)
    return _fixed_counts({"confmat": _multilabel_confmat(preds, target, cut, ignore_index, weight)}, weighted)


def _multilabel_score_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None, *, num_labels: int,
                            cut: float, from_logits: bool, ignore_index: Optional[int], validate_args: bool,
                            weighted: Optional[bool] = None, multidim_average: str = "global",
                            average: str = "macro", terms: Optional[Terms] = None,
                            zero_division: float = 0.0) -> Dict[str, Tensor]:
    """A multilabel score's batch statistics: the counting pass's ``{"confmat"}``, or with ``average="samples"``
    the sums ``{"score_sum", "weight_sum"}`` of the per-sample scores by ``terms`` (see ``samples_average``)."""
    if not check_samples_average(average, multidim_average) or terms is None:
        return _multilabel_stat_scores_stats(preds, target, weight, num_labels=num_labels, cut=cut,
                                             from_logits=from_logits, ignore_index=ignore_index,
                                             validate_args=validate_args, weighted=weighted,
                                             multidim_average=multidim_average)
    if weighted is not None:
        check_weighted_update(weighted, weight)
    preds, target, weight = check_multilabel_inputs(preds, target, num_labels=num_labels, from_logits=from_logits,
                                                    ignore_index=ignore_index, validate_args=validate_args,
                                                    weight=weight)
    return _samples_stats(preds, target, weight, cut, ignore_index, terms, zero_division)


def _multilabel_stat_scores_from_stats(state: Dict[str, Tensor], *, average: str) -> Tensor:
    return _stat_scores(_counts_2x2(state["confmat"]), average)


def _multilabel_score_from_stats(state: Dict[str, Tensor], *, terms: Terms, average: str,
                                 zero_division: float = 0.0) -> Tensor:
    """Any multilabel score: accuracy, precision, recall, F-beta or Hamming distance, by its ``terms``; with
    ``average="samples"`` the mean of the per-sample scores (the state of ``_multilabel_score_stats``)."""
    if average == "samples":
        return _samples_from_stats(state, zero_division)
    return _average(_counts_2x2(state["confmat"]), terms, average, zero_division)


def _multilabel_confusion_matrix_from_stats(state: Dict[str, Tensor], *, normalize: Optional[str] = None) -> Tensor:
    return _normalize(state["confmat"], normalize)


def _multilabel_stats(preds: Tensor, target: Tensor, num_labels: int, threshold: float, from_logits: bool,
                      ignore_index: Optional[int], validate_args: bool, weight: Optional[Tensor],
                      multidim_average: str = "global", average: str = "macro", terms: Optional[Terms] = None,
                      zero_division: float = 0.0) -> Dict[str, Tensor]:
    cut = _multilabel_config(num_labels, threshold, from_logits, ignore_index)
    return _warn_empty(_multilabel_score_stats(preds, target, weight, num_labels=num_labels, cut=cut,
                                               from_logits=from_logits, ignore_index=ignore_index,
                                               validate_args=validate_args, multidim_average=multidim_average,
                                               average=average, terms=terms, zero_division=zero_division),
                       target)


def _score(preds: Tensor, target: Tensor, terms: Terms, num_labels: int, threshold: float, average: Optional[str],
           from_logits: bool, ignore_index: Optional[int], zero_division: float, validate_args: bool,
           weight: Optional[Tensor], multidim_average: str = "global",
           averages: Sequence[str] = CLASSIFICATION_AVERAGES) -> Tensor:
    """A multilabel score by its ``terms``; ``averages``: the choices of ``average`` (``SAMPLE_AVERAGES`` for the
    scores scikit-learn also averages per sample)."""
    average, zd = check_average(average, averages), check_zero_division(zero_division)
    state = _multilabel_stats(preds, target, num_labels, threshold, from_logits, ignore_index, validate_args, weight,
                              multidim_average, average, terms, zd)
    return _multilabel_score_from_stats(state, terms=terms, average=average, zero_division=zd)


@fill_doc
def multilabel_stat_scores(preds: Tensor, target: Tensor, num_labels: int, threshold: float = 0.5,
                           average: Optional[str] = "macro", *, from_logits: bool = False,
                           ignore_index: Optional[int] = None, multidim_average: str = "global",
                           validate_args: bool = True,
                           weight: Optional[Tensor] = None) -> Tensor:
    """``[tp, fp, tn, fn, support]`` per label: ``average="none"`` gives (L, 5) int64, ``"micro"`` their sum,
    ``"macro"`` their mean and ``"weighted"`` their support-weighted mean (float64).

    Args:
        {multidim_average}
        {preds_multilabel}
        {target_multilabel}
        {num_labels}
        {threshold}
        {average_multilabel}
        {from_logits}
        {ignore_index}
        {validate_args}
        {weight_multilabel}

    Returns:
        int64 counts (float64 for means, normalized or weighted).

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's multilabel metrics (same definitions); torchmetrics' ``multilabel_stat_scores``.

    Examples:
        >>> import torch
        >>> preds, target = torch.tensor([[0.9, 0.2], [0.7, 0.6], [0.1, 0.8]]), torch.tensor([[1, 0], [0, 0], [0, 1]])
        >>> multilabel_stat_scores(preds, target, 2, average=None)
        tensor([[1, 1, 1, 0, 1],
                [1, 1, 1, 0, 1]])
    """
    average = check_average(average)
    state = _multilabel_stats(preds, target, num_labels, threshold, from_logits, ignore_index, validate_args, weight,
                              multidim_average=multidim_average)
    return _multilabel_stat_scores_from_stats(state, average=average)


@fill_doc
def multilabel_accuracy(preds: Tensor, target: Tensor, num_labels: int, threshold: float = 0.5,
                        average: Optional[str] = "macro", *, from_logits: bool = False,
                        ignore_index: Optional[int] = None, zero_division: float = 0.0,
                        multidim_average: str = "global",
                        validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """Per-label accuracy ``(tp + tn) / (tp + fp + tn + fn)``, averaged; ``"micro"`` is one minus scikit-learn's
    Hamming loss.

    Args:
        {multidim_average}
        {preds_multilabel}
        {target_multilabel}
        {num_labels}
        {threshold}
        {average_multilabel}
        {from_logits}
        {ignore_index}
        {zero_division}
        {validate_args}
        {weight_multilabel}

    Returns:
        float64, a scalar or (L,) for ``average="none"``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's multilabel metrics (same definitions); torchmetrics' ``multilabel_accuracy``.

    Examples:
        >>> import torch
        >>> preds, target = torch.tensor([[0.9, 0.2], [0.7, 0.6], [0.1, 0.8]]), torch.tensor([[1, 0], [0, 0], [0, 1]])
        >>> round(multilabel_accuracy(preds, target, 2).item(), 4)
        0.6667
    """
    return _score(preds, target, _accuracy_terms, num_labels, threshold, average, from_logits, ignore_index,
                  zero_division, validate_args, weight, multidim_average=multidim_average)


@fill_doc
def multilabel_precision(preds: Tensor, target: Tensor, num_labels: int, threshold: float = 0.5,
                         average: Optional[str] = "macro", *, from_logits: bool = False,
                         ignore_index: Optional[int] = None, zero_division: float = 0.0,
                         multidim_average: str = "global",
                         validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """Precision ``tp / (tp + fp)`` per label, averaged (``"macro"`` over all labels).

    Args:
        {multidim_average}
        {preds_multilabel}
        {target_multilabel}
        {num_labels}
        {threshold}
        {average_multilabel_samples}
        {from_logits}
        {ignore_index}
        {zero_division}
        {validate_args}
        {weight_multilabel}

    Returns:
        float64, a scalar or (L,) for ``average="none"``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's multilabel metrics (same definitions); torchmetrics' ``multilabel_precision``.

    Examples:
        >>> import torch
        >>> preds, target = torch.tensor([[0.9, 0.2], [0.7, 0.6], [0.1, 0.8]]), torch.tensor([[1, 0], [0, 0], [0, 1]])
        >>> multilabel_precision(preds, target, 2, average=None)
        tensor([0.5000, 0.5000], dtype=torch.float64)

        ``average="samples"`` (scikit-learn's): each sample's precision over its labels, then their mean; the second
        sample predicts two labels, neither true (0), and the others one, true (1):

        >>> round(multilabel_precision(preds, target, 2, average="samples").item(), 4)
        0.6667
    """
    return _score(preds, target, _precision_terms, num_labels, threshold, average, from_logits, ignore_index,
                  zero_division, validate_args, weight, multidim_average=multidim_average,
                  averages=SAMPLE_AVERAGES)


@fill_doc
def multilabel_recall(preds: Tensor, target: Tensor, num_labels: int, threshold: float = 0.5,
                      average: Optional[str] = "macro", *, from_logits: bool = False,
                      ignore_index: Optional[int] = None, zero_division: float = 0.0,
                      multidim_average: str = "global",
                      validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """Recall ``tp / (tp + fn)`` per label, averaged (``"macro"`` over all labels).

    Args:
        {multidim_average}
        {preds_multilabel}
        {target_multilabel}
        {num_labels}
        {threshold}
        {average_multilabel_samples}
        {from_logits}
        {ignore_index}
        {zero_division}
        {validate_args}
        {weight_multilabel}

    Returns:
        float64, a scalar or (L,) for ``average="none"``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's multilabel metrics (same definitions); torchmetrics' ``multilabel_recall``.

    Examples:
        >>> import torch
        >>> preds, target = torch.tensor([[0.9, 0.2], [0.7, 0.6], [0.1, 0.8]]), torch.tensor([[1, 0], [0, 0], [0, 1]])
        >>> multilabel_recall(preds, target, 2)
        tensor(1., dtype=torch.float64)
    """
    return _score(preds, target, _recall_terms, num_labels, threshold, average, from_logits, ignore_index,
                  zero_division, validate_args, weight, multidim_average=multidim_average,
                  averages=SAMPLE_AVERAGES)


@fill_doc
def multilabel_fbeta_score(preds: Tensor, target: Tensor, beta: float, num_labels: int, threshold: float = 0.5,
                           average: Optional[str] = "macro", *, from_logits: bool = False,
                           ignore_index: Optional[int] = None, zero_division: float = 0.0,
                           multidim_average: str = "global",
                           validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """F-beta ``(1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp)`` per label, averaged.

    Args:
        {multidim_average}
        {preds_multilabel}
        {target_multilabel}
        {num_labels}
        {threshold}
        beta: the weight of recall, a number > 0.
        {average_multilabel_samples}
        {from_logits}
        {ignore_index}
        {zero_division}
        {validate_args}
        {weight_multilabel}

    Returns:
        float64, a scalar or (L,) for ``average="none"``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's multilabel metrics (same definitions); torchmetrics' ``multilabel_fbeta_score``.

    Examples:
        >>> import torch
        >>> preds, target = torch.tensor([[0.9, 0.2], [0.7, 0.6], [0.1, 0.8]]), torch.tensor([[1, 0], [0, 0], [0, 1]])
        >>> round(multilabel_fbeta_score(preds, target, 2.0, 2).item(), 4)  # 5 / (5 + 1) per label
        0.8333
    """
    check_beta(beta)
    return _score(preds, target, _fbeta_terms(beta), num_labels, threshold, average, from_logits, ignore_index,
                  zero_division, validate_args, weight, multidim_average=multidim_average,
                  averages=SAMPLE_AVERAGES)


@fill_doc
def multilabel_f1_score(preds: Tensor, target: Tensor, num_labels: int, threshold: float = 0.5,
                        average: Optional[str] = "macro", *, from_logits: bool = False,
                        ignore_index: Optional[int] = None, zero_division: float = 0.0,
                        multidim_average: str = "global",
                        validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """F1 ``2 tp / (2 tp + fn + fp)`` per label, averaged; macro F1 is the mean of the per-label F1 scores.

    Args:
        {multidim_average}
        {preds_multilabel}
        {target_multilabel}
        {num_labels}
        {threshold}
        {average_multilabel_samples}
        {from_logits}
        {ignore_index}
        {zero_division}
        {validate_args}
        {weight_multilabel}

    Returns:
        float64, a scalar or (L,) for ``average="none"``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's multilabel metrics (same definitions); torchmetrics' ``multilabel_f1_score``.

    Examples:
        >>> import torch
        >>> preds, target = torch.tensor([[0.9, 0.2], [0.7, 0.6], [0.1, 0.8]]), torch.tensor([[1, 0], [0, 0], [0, 1]])
        >>> round(multilabel_f1_score(preds, target, 2).item(), 4)
        0.6667
    """
    return _score(preds, target, _fbeta_terms(1.0), num_labels, threshold, average, from_logits, ignore_index,
                  zero_division, validate_args, weight, multidim_average=multidim_average,
                  averages=SAMPLE_AVERAGES)


@fill_doc
def multilabel_hamming_distance(preds: Tensor, target: Tensor, num_labels: int, threshold: float = 0.5,
                                average: Optional[str] = "macro", *, from_logits: bool = False,
                                ignore_index: Optional[int] = None, zero_division: float = 1.0,
                                multidim_average: str = "global",
                                validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """Fraction of wrong label decisions ``(fp + fn) / (tp + fp + tn + fn)`` per label, averaged; ``"micro"``
    is scikit-learn's ``hamming_loss``.

    Args:
        {multidim_average}
        {preds_multilabel}
        {target_multilabel}
        {num_labels}
        {threshold}
        {average_multilabel}
        {from_logits}
        {ignore_index}
        zero_division: the distance of a label with no counted element (default 1.0, torchmetrics' value, as
            ``1 - accuracy`` with a 0/0 accuracy of 0); with ``float('nan')`` such labels are left out of means.
        {validate_args}
        {weight_multilabel}

    Returns:
        float64, a scalar or (L,) for ``average="none"``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's multilabel metrics (same definitions); torchmetrics' ``multilabel_hamming_distance``.

    Examples:
        >>> import torch
        >>> preds, target = torch.tensor([[0.9, 0.2], [0.7, 0.6], [0.1, 0.8]]), torch.tensor([[1, 0], [0, 0], [0, 1]])
        >>> round(multilabel_hamming_distance(preds, target, 2, average="micro").item(), 4)
        0.3333
    """
    return _score(preds, target, _hamming_terms, num_labels, threshold, average, from_logits, ignore_index,
                  zero_division, validate_args, weight, multidim_average=multidim_average)


@fill_doc
def multilabel_confusion_matrix(preds: Tensor, target: Tensor, num_labels: int, threshold: float = 0.5,
                                normalize: Optional[str] = None, *, from_logits: bool = False,
                                ignore_index: Optional[int] = None, validate_args: bool = True,
                                weight: Optional[Tensor] = None) -> Tensor:
    """(L, 2, 2) per-label confusion matrices ``[[tn, fp], [fn, tp]]`` (scikit-learn's
    ``multilabel_confusion_matrix``), int64; ``normalize`` works per label (float64, 0/0 = 0).

    Args:
        {preds_multilabel}
        {target_multilabel}
        {num_labels}
        {threshold}
        {normalize}
        {from_logits}
        {ignore_index}
        {validate_args}
        {weight_multilabel}

    Returns:
        int64 counts (float64 for means, normalized or weighted).

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's multilabel metrics (same definitions); torchmetrics' ``multilabel_confusion_matrix``.

    Examples:
        >>> import torch
        >>> preds, target = torch.tensor([[0.9, 0.2], [0.7, 0.6], [0.1, 0.8]]), torch.tensor([[1, 0], [0, 0], [0, 1]])
        >>> multilabel_confusion_matrix(preds, target, 2)[0]
        tensor([[1, 1],
                [0, 1]])
    """
    check_choice("normalize", normalize, NORMALIZE)
    state = _multilabel_stats(preds, target, num_labels, threshold, from_logits, ignore_index, validate_args, weight)
    return _multilabel_confusion_matrix_from_stats(state, normalize=normalize)
