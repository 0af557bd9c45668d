"""``BootStrapper``: a metric's bootstrap mean, standard deviation and quantiles, streamed and synced."""
from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional

import torch
from torch import Tensor

from torchmetrics_lite import sync
from torchmetrics_lite._checks.wrappers import (
    check_bootstrap_options,
    check_bootstrap_values,
    check_wrapped_metric,
    resample_size,
)
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.metric import Metric
from torchmetrics_lite.wrappers._stacked import declare_stacked, split_copies, stack_copies, state_spec

__all__ = ["BootStrapper"]


class BootStrapper(Metric):
    r"""Bootstrap estimates of a metric: ``num_bootstraps`` resampled copies, streamed batch by batch.

    Every ``update`` resamples the batch (every tensor argument whose first dimension is the batch's, along that
    dimension) once per copy and feeds copy ``b`` its resample; ``compute`` returns statistics of the ``B``
    copies' values :math:`v_1..v_B`: ``mean`` :math:`\bar v`, ``std``
    :math:`\sqrt{\sum_b (v_b - \bar v)^2 / (B - 1)}` (unbiased, as ``torch.std``), ``quantile`` (``torch.quantile``
    of the values along the copies, linear interpolation) and ``raw`` (the ``(B, ...)`` values).

    Sampling. ``"poisson"`` (default): each sample appears :math:`k \sim \text{Poisson}(1)` times in each copy,
    independently across samples and copies, which makes the bootstrap streamable and mergeable (the usual
    online bootstrap; it approximates the multinomial bootstrap of the whole data set as it grows).
    ``"multinomial"``: each copy draws ``n`` samples with replacement from the batch of ``n`` (the exact
    bootstrap of each batch). The resampling is generic: the batch is indexed per copy and the wrapped metric's
    ``batch_stats`` runs once per copy (a loop over the ``B`` copies, each one vectorised call; no loop over
    samples), so every metric works; the weighted statistics (``weight=``) are not used. Poisson draws cost one
    host sync per update (the resample sizes). The batch as given is validated once by the wrapped metric
    (with its ``validate_args``); the copies then skip the value checks.

    Randomness. ``seed=None`` draws from torch's global generator (as torchmetrics). With ``seed``, the metric
    owns a generator per device, seeded with ``seed + rank`` (the rank in ``process_group``, 0 without one), and
    each update draws one ``(B, n)`` tensor from it: ``torch.poisson(torch.ones(B, n))`` or
    ``torch.randint(0, n, (B, n))`` (an empty batch draws nothing). ``reset()`` clears the copies, not the
    generator. ``state_dict`` saves the copies' statistics, not the generator, so a run resumed from it draws
    differently from an uninterrupted one (the same distribution); pickling and ``deepcopy`` keep the generator.

    States (ordinary metric states, so ``merge_state`` and the distributed sync combine copy ``b`` with copy
    ``b``): every state of the wrapped metric stacked ``B`` times (``(B, *S)``, same reduction), a ``cat``
    state's rows with an int64 copy tag each. ``forward`` returns the bootstrap dict of the batch alone.

    Args:
        metric: the metric to bootstrap (copied and reset; the instance passed is left unchanged). Its
            ``compute`` must return a tensor.
        num_bootstraps: number of copies ``B`` (at least 2; default 10, as torchmetrics).
        mean, std: include ``"mean"`` / ``"std"`` in the result (default True).
        quantile: a float or 1-D tensor of levels in [0, 1]; adds ``"quantile"``.
        raw: add ``"raw"``, the ``(B, ...)`` values of the copies.
        sampling_strategy: ``"poisson"`` or ``"multinomial"``.
        seed: an int for reproducible draws, or None.
        kwargs: ``process_group`` and ``sync_on_compute`` of :class:`~torchmetrics_lite.Metric`.

    Returns:
        ``compute()`` gives a dict of tensors with the keys asked for (``mean``, ``std``, ``quantile``, ``raw``).

    Raises:
        TypeError: ``metric`` is not a Metric, ``seed`` is not an int, or the metric's value is not a tensor.
        ValueError: ``num_bootstraps`` < 2, an unknown ``sampling_strategy``, a ``quantile`` outside [0, 1], or
            an update with no tensor argument to resample.

    References:
        Efron and Tibshirani, "An Introduction to the Bootstrap", 1993; Oza and Russell, "Online Bagging and
        Boosting", 2001 (Poisson(1) resampling); ``torchmetrics.wrappers.BootStrapper`` (same names and keys).

    Examples:
        >>> from torchmetrics_lite import MeanMetric
        >>> boot = BootStrapper(MeanMetric(), num_bootstraps=200, quantile=torch.tensor([0.05, 0.95]), seed=0)
        >>> boot.update(torch.arange(100.0))
        >>> out = boot.compute()
        >>> sorted(out)
        ['mean', 'quantile', 'std']
        >>> 45 < out["mean"].item() < 54 and 2 < out["std"].item() < 4  # std of a mean of 100: 28.9 / 10
        True
    """

    def __init__(self, metric: Metric, num_bootstraps: int = 10, *, mean: bool = True, std: bool = True,
                 quantile: Optional[Any] = None, raw: bool = False, sampling_strategy: str = "poisson",
                 seed: Optional[int] = None, **kwargs: Any) -> None:
        check_wrapped_metric("metric", metric, Metric)
        self._quantile = check_bootstrap_options(num_bootstraps, sampling_strategy, seed, quantile)
        kwargs.setdefault("validate_args", metric.validate_args)
        super().__init__(**kwargs)
        base = copy.deepcopy(metric)
        base.reset()
        self.metric = base
        unchecked = copy.deepcopy(base)
        unchecked.validate_args = False
        object.__setattr__(self, "_unchecked", unchecked)  # not a submodule: it holds no state of ours
        self.num_bootstraps = num_bootstraps
        self.mean, self.std, self.quantile, self.raw = mean, std, quantile, raw
        self.sampling_strategy = sampling_strategy
        self.seed = seed
        self._generators: Dict[torch.device, torch.Generator] = {}
        self._spec = state_spec(base)
        declare_stacked(self, self._spec, num_bootstraps)

    # ------------------------------------------------------------------ sampling
    def _generator(self, device: torch.device) -> Optional[torch.Generator]:
        if self.seed is None:
            return None
        if device not in self._generators:
            rank = sync.rank(self.process_group)
            self._generators[device] = torch.Generator(device=device).manual_seed(self.seed + rank)
        return self._generators[device]

    def _draw(self, n: int, device: torch.device) -> List[Tensor]:
        """One index tensor per copy into the batch's ``n`` rows."""
        b = self.num_bootstraps
        if n == 0:
            return [torch.zeros(0, dtype=torch.int64, device=device)] * b
        g = self._generator(device)
        if self.sampling_strategy == "multinomial":
            return list(torch.randint(0, n, (b, n), generator=g, device=device).unbind(0))
        counts = torch.poisson(torch.ones(b, n, device=device), generator=g).to(torch.int64)
        sizes = counts.sum(dim=1).tolist()  # the one host sync: the resamples' sizes
        rows = torch.arange(n, device=device).repeat(b)
        flat = torch.repeat_interleave(rows, counts.reshape(-1), output_size=sum(sizes))
        return list(flat.split(sizes))

    # ------------------------------------------------------------------ hooks
    def batch_stats(self, *args: Any, **kwargs: Any) -> Dict[str, Tensor]:
        """Validate the batch, resample it once per copy and stack the copies' statistics."""
        self.metric.batch_stats(*args, **kwargs)  # the wrapped metric's checks, on the batch as given
        n, device = resample_size(args, kwargs)
        per_copy = []
        for index in self._draw(n, device):
            take = _Resample(n, index)
            stats = self._unchecked.batch_stats(*map(take, args), **{k: take(v) for k, v in kwargs.items()})
            per_copy.append(self._unchecked.settled_stats(stats))
        return self._stack(per_copy)

    def _stack(self, per_copy: List[Dict[str, Tensor]]) -> Dict[str, Tensor]:
        return stack_copies(self._spec, per_copy)

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Dict[str, Tensor]:
        """The statistics of the copies' values (see the class docstring)."""
        values = [self.metric.compute_from_stats(s) for s in split_copies(self._spec, state, self.num_bootstraps)]
        check_bootstrap_values(values, type(self.metric).__name__)
        stacked = torch.stack(values)
        if not stacked.is_floating_point():
            stacked = stacked.to(float_dtype(stacked.device))
        out: Dict[str, Tensor] = {}
        if self.mean:
            out["mean"] = stacked.mean(dim=0)
        if self.std:
            out["std"] = stacked.std(dim=0)
        if self._quantile is not None:
            out["quantile"] = torch.quantile(stacked, self._quantile.to(stacked), dim=0)
        if self.raw:
            out["raw"] = stacked
        return out


class _Resample:
    """Indexes a tensor argument with the batch's rows along dim 0; other arguments pass unchanged."""

    def __init__(self, n: int, index: Tensor) -> None:
        self.n, self.index = n, index

    def __call__(self, value: Any) -> Any:
        if isinstance(value, Tensor) and value.dim() >= 1 and value.shape[0] == self.n:
            return value.index_select(0, self.index.to(value.device))
        return value


