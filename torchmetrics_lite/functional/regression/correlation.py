"""Pearson's and Lin's concordance correlation coefficients, from streamed co-moments.

The sufficient statistic of both is, per output column, the co-moment state ``(6, d)`` with rows
``[count, mean_p, mean_t, M2_p, M2_t, C]``: the sample count, the means of ``preds`` and ``target``, their
centred sums of squares ``M2 = sum (x - mean)²`` and the centred sum of cross products
``C = sum (p - mean_p)(t - mean_t)``, all float64 (float32 on a device without float64). One batch is computed
two-pass (the means, then the centred sums); batches, metrics and ranks merge with Chan, Golub & LeVeque's
parallel formula extended to the cross moment (:func:`fold_comoments`), never through raw sums of products,
which lose every digit of a unit variance at an offset of 1e8 (targets around 1e6 with unit noise lose half
of them).

References: Chan, Golub & LeVeque, "Algorithms for computing the sample variance: analysis and
recommendations", The American Statistician 37(3), 1983; Pébay, "Formulas for robust, one-pass parallel
computation of covariances and arbitrary-order statistical moments", Sandia report SAND2008-6212, 2008.
"""
from __future__ import annotations

from typing import Dict, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_regression_inputs, check_regression_values
from torchmetrics_lite._xp import namespace
from torchmetrics_lite.functional.regression import _kernels as _impl

__all__ = ["pearson_corrcoef", "concordance_corrcoef", "fold_comoments"]

State = Dict[str, Tensor]

#: co-moment state rows
COUNT, MEAN_P, MEAN_T, M2_P, M2_T, CROSS = range(6)


def _comoments(preds: Tensor, target: Tensor) -> Tensor:
    """``(6, d)`` co-moment rows of one batch (two-pass, in the statistics' dtype; numpy on CPU)."""
    xp = namespace(target)
    p, t = _impl.columns(xp.asarray(preds)), _impl.columns(xp.asarray(target))
    d, n = t.shape
    x = xp.empty((2 * d, n), t)
    x[:d] = p
    x[d:] = t
    mom = _impl.moment_rows(xp, x)  # (4, 2d) [count, W, mean, M2]; x is now centred
    out = xp.empty((6, d), t)
    out[COUNT] = mom[_impl.COUNT, :d]
    out[MEAN_P], out[MEAN_T] = mom[_impl.MEAN, :d], mom[_impl.MEAN, d:]
    out[M2_P], out[M2_T] = mom[_impl.M2, :d], mom[_impl.M2, d:]
    xp.vecdot(x[:d], x[d:], out[CROSS])
    return xp.tensor(out, target)


def _comoment_stats(preds: Tensor, target: Tensor, *, num_outputs: int | None, validate_args: bool) -> State:
    """Checked co-moments of one batch (the modules' ``batch_stats``). The NaN check reads the means."""
    p, t = check_regression_inputs(preds, target, num_outputs=num_outputs)
    stats = {"comoments": _comoments(p, t)}
    if validate_args:
        check_regression_values(p, t, stats["comoments"][MEAN_P:M2_P])
    return stats


def fold_comoments(stack: Tensor) -> Tensor:
    """Merge a stack ``(k, 6, d)`` of co-moment states into one ``(6, d)``.

    With ``n = sum n_i`` and the merged means ``mean = ref + sum n_i (mean_i - ref) / n`` (``ref`` the first
    non-empty part's mean, so that an empty part is an exact identity): ``M2 = sum M2_i + sum n_i (mean_i -
    mean)²`` and ``C = sum C_i + sum n_i (mean_p_i - mean_p)(mean_t_i - mean_t)``. For k = 2 this is Chan,
    Golub & LeVeque's pairwise update (with the cross term of Pébay, 2008); associative up to rounding. This
    is the ``reduce`` of :class:`~torchmetrics_lite.regression.PearsonCorrCoef`'s and
    :class:`~torchmetrics_lite.regression.ConcordanceCorrCoef`'s fold state.

    Args:
        stack: floating ``(k, 6, d)``, rows ``[count, mean_p, mean_t, M2_p, M2_t, C]``, ``k >= 1``.

    Returns:
        The merged ``(6, d)`` state.

    Examples:
        >>> a = torch.tensor([[2.0], [1.5], [1.5], [0.5], [0.5], [0.5]], dtype=torch.float64)  # [1, 2] twice
        >>> b = torch.tensor([[1.0], [6.0], [0.0], [0.0], [0.0], [0.0]], dtype=torch.float64)  # (6, 0)
        >>> fold_comoments(torch.stack([a, b])).flatten().tolist()  # count, means, M2s, C of [1, 2, 6], [1, 2, 0]
        [3.0, 3.0, 1.0, 14.0, 2.0, -4.0]
    """
    n_i, mp_i, mt_i, m2p_i, m2t_i, c_i = stack.unbind(1)
    n = n_i.sum(0)
    first = (n_i > 0).to(torch.uint8).argmax(0, keepdim=True)  # first non-empty part of each column
    inv = 1 / torch.where(n > 0, n, 1)
    means = []
    for m_i in (mp_i, mt_i):
        ref = m_i.gather(0, first)[0]
        means.append(ref + (n_i * (m_i - ref)).sum(0) * inv)
    dp, dt = mp_i - means[0], mt_i - means[1]
    return torch.stack([n, means[0], means[1], m2p_i.sum(0) + (n_i * dp.square()).sum(0),
                        m2t_i.sum(0) + (n_i * dt.square()).sum(0), c_i.sum(0) + (n_i * dp * dt).sum(0)])


def fold_comoments_pair(state: Tensor, stats: Tensor) -> None:
    """In place, ``state <- fold_comoments(stack([state, stats]))`` for two ``(6, d)`` co-moment states (the
    ``pair`` of the modules' :class:`~torchmetrics_lite.metric.Fold`: one merge per update, no stacking). A float64
    CPU state of up to ``_kernels.SCALAR_COLUMNS`` columns merges on Python floats: the same IEEE double
    operations in the same order as :func:`fold_comoments` (each sum of two parts from a +0 accumulator, as
    torch's), so the same bits at a tenth of the cost; any other state through :func:`fold_comoments` itself."""
    if not (state.is_cpu and state.dtype == torch.float64 and stats.dtype == torch.float64
            and state.shape[1] <= _impl.SCALAR_COLUMNS) or torch.compiler.is_compiling():
        state.copy_(fold_comoments(torch.stack([state, stats.to(state.dtype)])))
        return
    a = state.numpy()
    a.T[:] = [_pair_column(x, y) for x, y in zip(zip(*a.tolist()), zip(*stats.tolist()))]


def _pair_column(part_a: Tuple[float, ...], part_b: Tuple[float, ...]) -> Tuple[float, ...]:
    """:func:`fold_comoments` of one column of two parts, on Python floats (see :func:`fold_comoments_pair`)."""
    (n_a, mp_a, mt_a, m2p_a, m2t_a, c_a), (n_b, mp_b, mt_b, m2p_b, m2t_b, c_b) = part_a, part_b
    n = 0.0 + n_a + n_b
    second = not n_a > 0 and n_b > 0  # the first non-empty part is b
    inv = 1 / (n if n > 0 else 1.0)
    ref = mp_b if second else mp_a
    mean_p = ref + (0.0 + n_a * (mp_a - ref) + n_b * (mp_b - ref)) * inv
    ref = mt_b if second else mt_a
    mean_t = ref + (0.0 + n_a * (mt_a - ref) + n_b * (mt_b - ref)) * inv
    dp_a, dp_b, dt_a, dt_b = mp_a - mean_p, mp_b - mean_p, mt_a - mean_t, mt_b - mean_t
    return (n, mean_p, mean_t, (0.0 + m2p_a + m2p_b) + (0.0 + n_a * (dp_a * dp_a) + n_b * (dp_b * dp_b)),
            (0.0 + m2t_a + m2t_b) + (0.0 + n_a * (dt_a * dt_a) + n_b * (dt_b * dt_b)),
            (0.0 + c_a + c_b) + (0.0 + n_a * dp_a * dt_a + n_b * dp_b * dt_b))


def _squeezed(value: Tensor, scalar: bool) -> Tensor:
    return value[0] if scalar else value


def _pearson_from_stats(state: State, *, scalar: bool) -> Tensor:
    """``C / sqrt(M2_p M2_t)``, clamped to [-1, 1]; ``nan`` with fewer than two samples or a constant input."""
    s = state["comoments"]
    defined = (s[M2_P] > 0) & (s[M2_T] > 0)
    r = s[CROSS] / torch.where(defined, s[M2_P] * s[M2_T], 1).sqrt()
    return _squeezed(torch.where(defined, r.clamp(-1, 1), float("nan")), scalar)


def _concordance_from_stats(state: State, *, scalar: bool) -> Tensor:
    """``2 cov / (var_p + var_t + (mean_p - mean_t)²)`` with unbiased (``n - 1``) variances and covariance
    (torchmetrics' value); ``nan`` with fewer than two samples or a zero denominator."""
    s = state["comoments"]
    dof = s[COUNT] - 1
    safe = torch.where(dof > 0, dof, 1)
    den = (s[M2_P] + s[M2_T]) / safe + (s[MEAN_P] - s[MEAN_T]).square()
    defined = (dof > 0) & (den > 0)
    value = 2 * s[CROSS] / safe / torch.where(defined, den, 1)
    return _squeezed(torch.where(defined, value, float("nan")), scalar)


def pearson_corrcoef(preds: Tensor, target: Tensor, *, validate_args: bool = True) -> Tensor:
    """Pearson's correlation coefficient per output column, float64.

    ``r = sum (p - p̄)(t - t̄) / sqrt(sum (p - p̄)² sum (t - t̄)²)``, computed from two-pass centred co-moments
    (exact to rounding at any offset), clamped to [-1, 1].

    Args:
        preds: real tensor ``(N,)`` or ``(N, d)``, any real dtype (converted exactly to float64).
        target: real tensor of the same shape.
        validate_args: check for NaN in the inputs (a host sync).

    Returns:
        A float64 (MPS: float32) 0-d tensor for ``(N,)`` input, ``(d,)`` for ``(N, d)`` input. Fewer than two
        samples or a constant column give ``nan`` (scipy's rule; torchmetrics also gives ``nan`` there, and
        for a variance below ``sqrt(eps)`` times the squared largest value).

    Raises:
        TypeError: an input is not a tensor or has a bool or complex dtype.
        ValueError: shapes differ or are not 1-D/2-D, or (with ``validate_args``) NaN input.

    References:
        scipy ``scipy.stats.pearsonr``; torchmetrics ``pearson_corrcoef``; Chan, Golub & LeVeque (1983).

    Examples:
        >>> round(pearson_corrcoef(torch.tensor([2.5, 0.0, 2.0, 8.0]), torch.tensor([3.0, -0.5, 2.0, 7.0])).item(), 4)
        0.9849
    """
    stats = _comoment_stats(preds, target, num_outputs=None, validate_args=validate_args)
    return _pearson_from_stats(stats, scalar=preds.ndim == 1)


def concordance_corrcoef(preds: Tensor, target: Tensor, *, validate_args: bool = True) -> Tensor:
    """Lin's concordance correlation coefficient per output column, as torchmetrics computes it, float64.

    ``ccc = 2 s_pt / (s_p² + s_t² + (p̄ - t̄)²)`` with the unbiased (``n - 1``) variances ``s²`` and covariance
    ``s_pt`` (torchmetrics' value; Lin's 1989 estimator divides all three by ``n``, which changes the value by
    the weight of the mean term), from the same streamed co-moments as :func:`pearson_corrcoef`.

    Args:
        preds: real tensor ``(N,)`` or ``(N, d)``.
        target: real tensor of the same shape.
        validate_args: check for NaN in the inputs (a host sync).

    Returns:
        A float64 (MPS: float32) 0-d tensor for ``(N,)`` input, ``(d,)`` for ``(N, d)`` input. Fewer than two
        samples, or two equal constant columns (a zero denominator), give ``nan``; one constant column and one
        varying one give 0.0 (the formula's value; torchmetrics gives ``nan`` there, through its Pearson term).

    Raises:
        TypeError, ValueError: as :func:`pearson_corrcoef`.

    References:
        L. I.-K. Lin, "A concordance correlation coefficient to evaluate reproducibility", Biometrics 45(1),
        1989; torchmetrics ``concordance_corrcoef``.

    Examples:
        >>> p, t = torch.tensor([2.5, 0.0, 2.0, 8.0]), torch.tensor([3.0, -0.5, 2.0, 7.0])
        >>> round(concordance_corrcoef(p, t).item(), 4)
        0.9777
    """
    stats = _comoment_stats(preds, target, num_outputs=None, validate_args=validate_args)
    return _concordance_from_stats(stats, scalar=preds.ndim == 1)
