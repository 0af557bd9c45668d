"""Post-hoc calibrators: map held-out scores to calibrated probabilities (scores on any device).

Fit on a held-out split (``fit(scores, target)``), then apply to new scores (``predict_proba(scores)``).
Both take 1-D real scores and return 1-D probabilities of the positive class (not scikit-learn's two-column
``predict_proba``), in the scores' floating dtype (float16/bfloat16 give float32, integers float64). Fitting
runs in float64 (Platt in torch on the scores' device; isotonic on the CPU, in numpy).

**Devices without float64** (Apple MPS, :data:`~torchmetrics_lite.metric.NO_FLOAT64_DEVICES`): no float64
tensor is made on such a device. Platt fits where the scores are, so there in float32 (a Newton solve on a
float32 likelihood: ``coef_`` and ``intercept_`` agree with the float64 fit to about 2e-7 relative, see
``tests/torchmetrics_lite/calibration/test_calibration_float64_less_device.py``). Isotonic fits on the host in
float64 by design, so its fitted points are the float64 fit's, handed back to the device rounded to float32.
Fitted tensors live on the scores' device in its :func:`~torchmetrics_lite.metric.float_dtype` (float32 there),
``predict_proba`` computes in that dtype and returns float32 for integer scores, and a calibrator fitted on one
device predicts on any other.

* :class:`PlattScaler`: ``p = sigmoid(a * s + b)`` fitted by Newton's method on the logistic likelihood
  (Platt, 1999; with the safeguards of Lin, Lin & Weng, 2007), with Platt's target smoothing by default.
* :class:`IsotonicCalibrator`: the non-decreasing step function closest in squared error
  (pool-adjacent-violators), interpolated linearly between fitted points and clipped outside the fitted
  range: scikit-learn's ``IsotonicRegression(out_of_bounds="clip")``.

References: Platt, "Probabilistic outputs for support vector machines and comparisons to regularized
likelihood methods", 1999; Lin, Lin & Weng, "A note on Platt's probabilistic outputs for support vector
machines", Machine Learning 68, 2007; Zadrozny & Elkan, "Transforming classifier scores into accurate
multiclass probability estimates", KDD 2002; Barlow et al., "Statistical inference under order
restrictions", 1972 (PAV).
"""
from __future__ import annotations

from typing import List, Optional, Tuple

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite import _sort
from torchmetrics_lite._checks import check_bool, check_calibrator_inputs, check_calibrator_weight, check_tensor
from torchmetrics_lite._dtype import float_dtype

__all__ = ["PlattScaler", "IsotonicCalibrator"]


def _out_dtype(scores: Tensor) -> torch.dtype:
    if scores.dtype in (torch.float16, torch.bfloat16):
        return torch.float32
    return scores.dtype if scores.is_floating_point() else float_dtype(scores.device)


def _on(fitted: Tensor, device: torch.device) -> Tensor:
    """A fitted tensor on ``device`` in its ``float_dtype``: cast before a move to a device without float64
    (which cannot hold the float64 original), after a move to one with it (where a float32 fit is upcast)."""
    dtype = float_dtype(device)
    return fitted.to(dtype).to(device) if dtype != torch.float64 else fitted.to(device).to(dtype)


def _check_scores(scores: Tensor) -> Tensor:
    check_tensor("scores", scores)
    if scores.is_complex() or scores.dim() != 1:
        raise ValueError(f"Expected `scores` to be a real 1-D tensor, got shape {tuple(scores.shape)} "
                         f"and dtype {scores.dtype}")
    return scores


def _not_fitted(name: str) -> RuntimeError:
    return RuntimeError(f"Expected `fit` to be called before `predict_proba` on this {name}, got an unfitted one")


class PlattScaler:
    """Platt scaling: ``p(s) = sigmoid(a * s + b)`` maximising the likelihood of held-out targets.

    Args:
        target_smoothing: Platt's regularisation (default ``True``): fit to ``(N+ + 1)/(N+ + 2)`` for positives
            and ``1/(N- + 2)`` for negatives instead of 1 and 0, which keeps ``a`` finite on separable data
            (scikit-learn's sigmoid calibration does the same). ``False`` fits the plain logistic regression
            of the targets on the scores (finite only when the classes overlap).
        max_iter: Newton iterations (each one a backtracking line search on the negative log-likelihood).
        tol: stop when the gradient's largest entry is below ``tol`` times the number of samples.

    ``fit(scores (N,), target (N,))`` takes targets in [0, 1] (labels or frequencies); the fitted ``a`` and
    ``b`` are ``coef_`` and ``intercept_`` (float64 0-d tensors on the scores' device; float32 where it has no
    float64). The loop is over Newton iterations, never over samples.

    Raises:
        RuntimeError: ``predict_proba`` before ``fit``.

    References:
        Platt (1999); Lin, Lin & Weng (2007); scikit-learn ``CalibratedClassifierCV(method="sigmoid")``.

    Examples:
        >>> scores = torch.tensor([-2.0, -1.0, -0.5, 0.5, 1.0, 2.0])
        >>> target = torch.tensor([0, 0, 1, 0, 1, 1])
        >>> platt = PlattScaler(target_smoothing=False).fit(scores, target)
        >>> [round(v, 4) for v in platt.predict_proba(torch.tensor([-1.0, 0.0, 1.0])).tolist()]
        [0.2057, 0.5, 0.7943]

        Integer weights are copies (here the last sample counted twice):

        >>> w = torch.tensor([1.0, 1.0, 1.0, 1.0, 1.0, 2.0])
        >>> twice = torch.tensor([0, 1, 2, 3, 4, 5, 5])
        >>> copies = PlattScaler(target_smoothing=False).fit(scores[twice], target[twice])
        >>> bool(torch.isclose(PlattScaler(target_smoothing=False).fit(scores, target, w).coef_, copies.coef_))
        True
    """

    def __init__(self, *, target_smoothing: bool = True, max_iter: int = 100, tol: float = 1e-10) -> None:
        self.target_smoothing = target_smoothing
        self.max_iter = max_iter
        self.tol = tol
        self.coef_: Optional[Tensor] = None
        self.intercept_: Optional[Tensor] = None

    def fit(self, scores: Tensor, target: Tensor, weight: Optional[Tensor] = None, *,
            validate_args: bool = True) -> "PlattScaler":
        """Fit ``a`` and ``b`` on held-out ``scores`` and ``target``.

        Args:
            scores: real ``(N,)``, ``N >= 1``.
            target: ``(N,)`` labels or frequencies in [0, 1].
            weight: optional sample weights ``(N,)``, non-negative and finite, of a positive sum (scikit-learn's
                ``sample_weight``): the likelihood is the weighted sum, and Platt's smoothed targets count the
                weights (``N+`` is the weight of the positives, ``sum(weight * target)``), as scikit-learn's
                sigmoid calibration; weight k is k copies of a sample, weight 0 its absence.
            validate_args: reject NaN and targets outside [0, 1] (host syncs).

        Returns:
            ``self``, with ``coef_`` and ``intercept_``.

        Raises:
            TypeError, ValueError: non-tensor, non-real, non-1-D, empty, mismatched, NaN or out-of-range input,
            or a bad ``weight`` (another shape, a negative or non-finite value, a zero sum).
        """
        dtype = float_dtype(scores.device)
        s, t = check_calibrator_inputs(scores, target, unit_target=True, validate_args=validate_args, dtype=dtype)
        w = check_calibrator_weight(weight, s.shape[0], validate_args=validate_args, dtype=dtype)
        n_pos = t.sum() if w is None else (w * t).sum()
        n_neg = t.shape[0] - n_pos if w is None else w.sum() - n_pos
        self._fit(s, t, w, n_pos, n_neg)
        return self

    def _fit(self, s: Tensor, t: Tensor, w: Optional[Tensor], n_pos: Tensor, n_neg: Tensor) -> None:
        """Newton's method on the (weighted) negative log-likelihood; sets ``coef_`` and ``intercept_``."""
        if self.target_smoothing:
            t = torch.where(t > 0.5, (n_pos + 1) / (n_pos + 2), 1 / (n_neg + 2))
        theta = torch.stack([torch.zeros_like(n_pos), torch.log((n_pos + 1) / (n_neg + 1))])
        design = torch.stack([s, torch.ones_like(s)], dim=1)  # (N, 2)

        def loss(th: Tensor) -> Tensor:
            z = design @ th
            per = torch.nn.functional.softplus(z) - t * z  # -log-likelihood, stable
            return per.sum() if w is None else (w * per).sum()

        def gradient(th: Tensor) -> Tuple[Tensor, Tensor]:
            p = torch.sigmoid(design @ th)
            return design.T @ (p - t if w is None else w * (p - t)), p

        size = s.shape[0] if w is None else float(w.sum())  # the gradient's scale, for ``tol``
        value = loss(theta)
        grad, p = gradient(theta)
        for _ in range(self.max_iter):
            if grad.abs().max() <= self.tol * size:
                break
            curvature = p * (1 - p) if w is None else w * p * (1 - p)
            hess = (design * curvature[:, None]).T @ design + 1e-12 * torch.eye(2, dtype=s.dtype, device=s.device)
            step = torch.linalg.solve(hess, grad)
            if s.dtype != torch.float64:
                # float32 (a device without float64): near the optimum a Newton step changes the summed loss by
                # less than its rounding, so the line search cannot judge it; a full step that shrinks the
                # gradient is taken first (Newton on the gradient equations), the line search is the fallback
                new_grad, new_p = gradient(theta - step)
                if new_grad.abs().max() < grad.abs().max():
                    theta, grad, p = theta - step, new_grad, new_p
                    value = loss(theta)
                    continue
            value, theta, moved = _backtrack(loss, value, theta, step, grad)
            if not moved:
                break
            grad, p = gradient(theta)
        self.coef_, self.intercept_ = theta[0].clone(), theta[1].clone()

    def predict_proba(self, scores: Tensor) -> Tensor:
        """Calibrated probabilities ``sigmoid(a * scores + b)``.

        Args:
            scores: real ``(N,)`` scores.

        Returns:
            ``(N,)`` probabilities in the scores' floating dtype (float32 for half types, float64 for integers:
            float32 on a device without float64).

        Raises:
            RuntimeError: before ``fit``. TypeError, ValueError: non-tensor or non-1-D scores.
        """
        if self.coef_ is None or self.intercept_ is None:
            raise _not_fitted("PlattScaler")
        scores = _check_scores(scores)
        a, b = _on(self.coef_, scores.device), _on(self.intercept_, scores.device)
        return torch.sigmoid(a * scores.to(a.dtype) + b).to(_out_dtype(scores))


def _backtrack(loss, value: Tensor, theta: Tensor, step: Tensor, grad: Tensor) -> Tuple[Tensor, Tensor, bool]:
    """Armijo backtracking along ``-step`` (a descent direction): halve until the loss decreases enough."""
    slope = float(grad @ step)
    size = 1.0
    while size >= 1e-10:
        candidate = theta - size * step
        new_value = loss(candidate)
        if float(new_value) <= float(value) - 1e-4 * size * slope:
            return new_value, candidate, True
        size /= 2
    return value, theta, False


class IsotonicCalibrator:
    """Isotonic calibration: scikit-learn's ``IsotonicRegression(out_of_bounds="clip")`` in torch.

    Args:
        increasing: ``True`` (default) fits a non-decreasing map, ``False`` a non-increasing one.

    **Fit** (on the CPU, in numpy; the fitted points go back to the scores' device). Scores are sorted; tied
    scores are pooled first into one point whose target is their mean and whose weight is their count
    (scikit-learn's rule: a score less than 1e-15, float64's resolution, above a pool's first score joins that
    pool, at the first score; so no slope between fitted points overflows; scikit-learn uses float32's 1e-6 for
    float32 input, we float64's always). The weighted pool-adjacent-violators
    algorithm then makes the targets monotone: vectorised rounds that pool every maximal run of adjacent
    violators at once (valid, since violating neighbours always share a level of the solution), and, if
    violators remain after :attr:`max_rounds` rounds, a sequential stack pass over the remaining blocks (PAV is
    inherently sequential; that loop is over blocks, in fit only). Points whose fitted value equals both
    neighbours' are dropped (they do not change the interpolant). The fitted points are ``X_thresholds_`` and
    ``y_thresholds_``. Fitting 1e5 scores takes about 6 ms on one CPU core, under half of scikit-learn's time
    (``python -m benchmarks.bench_regression``).

    **Predict** (vectorised): scores are clipped to ``[X_min_, X_max_]`` and interpolated linearly between the
    fitted points (a single fitted point gives a constant): ``out_of_bounds="clip"``, the setting of
    scikit-learn's ``CalibratedClassifierCV``; a bare ``IsotonicRegression()`` defaults to ``"nan"`` outside.

    Raises:
        TypeError: a non-bool ``increasing``. RuntimeError: ``predict_proba`` before ``fit``.

    References:
        Barlow et al. (1972), PAV; Zadrozny & Elkan (KDD 2002); scikit-learn
        ``IsotonicRegression(out_of_bounds="clip")``.

    Examples:
        >>> scores = torch.tensor([0.1, 0.2, 0.3, 0.4], dtype=torch.float64)
        >>> iso = IsotonicCalibrator().fit(scores, torch.tensor([0, 1, 0, 1]))
        >>> iso.y_thresholds_.tolist()  # the violating pair (1, 0) is pooled to 0.5
        [0.0, 0.5, 0.5, 1.0]
        >>> [round(v, 6) for v in iso.predict_proba(torch.tensor([0.0, 0.25, 0.35, 0.9], dtype=torch.float64)).tolist()]
        [0.0, 0.5, 0.75, 1.0]

        With ``weight`` (scikit-learn's ``sample_weight``), the pooled pair's level is its weighted mean, and a sample
        of weight 0 is no sample:

        >>> iso = IsotonicCalibrator().fit(scores, torch.tensor([0, 1, 0, 1]), torch.tensor([1.0, 1.0, 3.0, 0.0]))
        >>> iso.X_thresholds_.tolist(), iso.y_thresholds_.tolist()
        ([0.1, 0.2, 0.3], [0.0, 0.25, 0.25])
    """

    #: vectorised pooling rounds before the sequential pass takes over the remaining blocks
    max_rounds = 16

    def __init__(self, *, increasing: bool = True) -> None:
        check_bool("increasing", increasing, show_value=False)
        self.increasing = increasing
        self.X_thresholds_: Optional[Tensor] = None
        self.y_thresholds_: Optional[Tensor] = None
        self.X_min_: Optional[Tensor] = None
        self.X_max_: Optional[Tensor] = None

    def fit(self, scores: Tensor, target: Tensor, weight: Optional[Tensor] = None, *,
            validate_args: bool = True) -> "IsotonicCalibrator":
        """Fit the monotone map on held-out ``scores`` and real ``target`` (labels, frequencies or any real
        values: it is a regression); returns ``self``.

        Args:
            scores: real ``(N,)``, ``N >= 1``.
            target: real ``(N,)``.
            weight: optional sample weights ``(N,)``, non-negative and finite, of a positive sum (scikit-learn's
                ``sample_weight``): samples of weight 0 are dropped first (so they set neither the fitted range
                nor a fitted point, as scikit-learn), tied scores pool into their weighted mean target with their
                summed weight, and the pool-adjacent-violators fit is weighted by those sums.
            validate_args: reject NaN (a host sync).

        Returns:
            ``self``, with ``X_thresholds_``, ``y_thresholds_``, ``X_min_`` and ``X_max_`` (float64, on the
            scores' device; float32 where it has no float64).

        Raises:
            TypeError, ValueError: non-tensor, non-real, non-1-D, empty, mismatched or NaN input, or a bad
            ``weight`` (another shape, a negative or non-finite value, a zero sum).
        """
        dtype = float_dtype(scores.device)
        s, t = check_calibrator_inputs(scores, target, unit_target=False, validate_args=validate_args, dtype=dtype)
        w = check_calibrator_weight(weight, s.shape[0], validate_args=validate_args, dtype=dtype)
        if w is not None:
            kept = w > 0  # scikit-learn drops them before anything else
            s, t, w = s[kept], t[kept], w[kept]
        order = _sort.argsort(s.cpu()).numpy()  # ties are pooled below: their order does not matter
        # the host arithmetic is float64 on every device (exact copies of float32 scores and targets)
        xs = s.cpu().numpy()[order].astype(np.float64, copy=False)
        ys = t.cpu().numpy()[order].astype(np.float64, copy=False)
        starts = _pool_starts(xs)
        x = xs[starts]
        if w is None:
            weight_sums = np.diff(starts, append=xs.shape[0]).astype(np.float64)
            wy = np.add.reduceat(ys, starts)
        else:
            ws = w.cpu().numpy()[order].astype(np.float64, copy=False)
            weight_sums, wy = np.add.reduceat(ws, starts), np.add.reduceat(ws * ys, starts)
        if not self.increasing:
            wy = -wy
        fitted = _pav(wy, weight_sums)
        if not self.increasing:
            fitted = -fitted
        keep = np.ones(fitted.shape[0], dtype=bool)
        keep[1:-1] = (fitted[1:-1] != fitted[:-2]) | (fitted[1:-1] != fitted[2:])
        as_dtype = np.float64 if dtype == torch.float64 else np.float32  # rounded on the host: no float64 there
        self.X_thresholds_ = torch.from_numpy(x[keep].astype(as_dtype)).to(scores.device)
        self.y_thresholds_ = torch.from_numpy(fitted[keep].astype(as_dtype)).to(scores.device)
        self.X_min_, self.X_max_ = self.X_thresholds_[0], self.X_thresholds_[-1]
        return self

    def predict_proba(self, scores: Tensor) -> Tensor:
        """The fitted map at ``scores`` ``(N,)``: clipped to the fitted range, linear between fitted points.
        Dtypes and errors as :meth:`PlattScaler.predict_proba`."""
        if self.X_thresholds_ is None or self.y_thresholds_ is None:
            raise _not_fitted("IsotonicCalibrator")
        scores = _check_scores(scores)
        xs, ys = _on(self.X_thresholds_, scores.device), _on(self.y_thresholds_, scores.device)
        v = scores.to(xs.dtype).clamp(xs[0], xs[-1])
        if xs.shape[0] == 1:
            return ys.expand(v.shape).to(_out_dtype(scores))
        hi = _sort.searchsorted(xs, v).to(v.device).clamp(1, xs.shape[0] - 1)
        lo = hi - 1
        slope = (ys[hi] - ys[lo]) / (xs[hi] - xs[lo])
        return (slope * (v - xs[lo]) + ys[lo]).to(_out_dtype(scores))


#: scores closer than this (float64's resolution, scikit-learn's tolerance) are pooled into one fitted point
POOL_TOLERANCE = float(np.finfo(np.float64).resolution)


def _pool_starts(xs: np.ndarray) -> np.ndarray:
    """The first index of every pool of the sorted float64 ``xs``: scikit-learn's rule, a score starts a new pool
    when it is at least :data:`POOL_TOLERANCE` above the pool's first score. A gap of 0 never starts one and a gap
    of at least the tolerance always does; only the points after a gap in between (rare: scores within 1e-15 of
    each other) are decided one by one, in order."""
    gap = np.diff(xs)
    new = np.empty(xs.shape[0], dtype=bool)
    new[0] = True
    np.greater_equal(gap, POOL_TOLERANCE, out=new[1:])
    undecided = np.flatnonzero((gap > 0) & (gap < POOL_TOLERANCE)) + 1
    if undecided.size:
        last_fixed = np.maximum.accumulate(np.where(new, np.arange(xs.shape[0]), 0))
        current = 0
        for i in undecided.tolist():
            current = max(current, int(last_fixed[i - 1]))
            if xs[i] - xs[current] >= POOL_TOLERANCE:
                new[i], current = True, i
    return np.flatnonzero(new)


def _pav(wy: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted isotonic (non-decreasing) regression of ``wy / w`` (float64 arrays, ``w > 0``): the fitted value
    of every point. Vectorised rounds pool every maximal run of adjacent violators at once; after
    :attr:`IsotonicCalibrator.max_rounds` rounds the sequential stack pass takes the remaining blocks."""
    n = w.shape[0]
    start = np.arange(n)  # first point of every block
    for _ in range(IsotonicCalibrator.max_rounds):
        mean = wy / w
        violates = mean[:-1] >= mean[1:]  # pool ties too, as scikit-learn does
        if not violates.any():
            return np.repeat(mean, np.diff(start, append=n))
        first = np.empty(mean.shape[0], dtype=bool)
        first[0] = True
        np.logical_not(violates, out=first[1:])
        keep = np.flatnonzero(first)
        wy, w, start = np.add.reduceat(wy, keep), np.add.reduceat(w, keep), start[keep]
    blocks, sums, weights = _pav_sequential(wy.tolist(), w.tolist())
    start = start[blocks]
    return np.repeat(np.divide(sums, weights), np.diff(start, append=n))


def _pav_sequential(wy: List[float], w: List[float]) -> Tuple[List[int], List[float], List[float]]:
    """Stack-based PAV over blocks: returns the first input block, the sum and the weight of each final block."""
    starts: List[int] = []
    sums: List[float] = []
    weights: List[float] = []
    for i, (s, v) in enumerate(zip(wy, w)):
        starts.append(i)
        sums.append(s)
        weights.append(v)
        while len(sums) > 1 and sums[-2] / weights[-2] >= sums[-1] / weights[-1]:
            s_last, w_last = sums.pop(), weights.pop()
            starts.pop()
            sums[-1] += s_last
            weights[-1] += w_last
    return starts, sums, weights
