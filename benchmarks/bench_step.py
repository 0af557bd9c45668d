"""The cost a training loop pays every step: ``update()`` and ``forward()`` of every module shared with torchmetrics.

Table 1: for every public module whose name torchmetrics 1.9 also exports (task dispatchers, wrappers and the
collection left out: they forward to these), ``update`` and ``forward`` on batches of 256 and 1,024 samples, one
thread, median CPU time per call (``time.thread_time``, so that the spells a loaded machine keeps the process
waiting do not count) over interleaved rounds that alternate ours, torchmetrics and the bare kernel: the few torch
ops the statistic needs (the bincount of a confusion matrix, the sums of a regression, the copy into a preallocated
buffer of a metric that keeps its samples, on the CPU through numpy views as ours), with no input check; and, for
the families that keep their samples, the floor: that copy plus the value checks ours keeps and torchmetrics
skips. Every metric is reset before each round, so that the rounds see the same state sizes. ``tm/ours`` > 1 means
ours is faster; ``ours/kernel`` is what the module costs over the bare kernel.

Table 2: the whole epoch of the families that keep their samples (AUROC, AP, the curves, retrieval, Spearman,
Kendall, CatMetric, cosine similarity) and of those that reduce at ``update`` what torchmetrics keeps until
``compute`` (the calibration errors): 1,000 updates of 256 samples, then ``compute()``, ours and torchmetrics
alternating.

Inputs are realistic: probabilities (or softmax/sigmoid outputs) with targets drawn from them, regression targets
near 1e4, retrieval batches of whole queries of uneven sizes (2 to 30 documents) with increasing query ids.
Run: python -m benchmarks.bench_step [--quick] [--only NAME] [--epoch-only | --step-only]
"""
from __future__ import annotations

import argparse
import math
import os
import statistics
import time
from functools import partial
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

import torch

import torchmetrics_lite as ours_pkg
from benchmarks._runner import header, optional

C, L, BINS = 5, 4, 15
SIZES = (256, 1024)
SKIP = {"MetricCollection", "Metric", "BootStrapper", "ClasswiseWrapper", "MetricTracker", "Running", "MinMaxMetric",
        "MultioutputWrapper", "MultitaskWrapper"}
#: constructor arguments without a default (given where a module takes them: every ``threshold`` default is 0.5)
REQUIRED = {"min_recall": 0.5, "min_precision": 0.5, "min_specificity": 0.5, "min_sensitivity": 0.5, "beta": 2.0,
            "p": 2, "threshold": 0.5}
MEMBERS, DIM = 10, 8  # ensemble members (CRPS), row length (cosine similarity, KL and JS divergences)
CAT = ("AUROC", "AveragePrecision", "PrecisionRecallCurve", "ROC", "AtFixed", "AtSensitivity", "AtSpecificity",
       "EER", "LogAUC", "Ranking", "CoverageError", "Retrieval", "Spearman", "Kendall", "CatMetric",
       "CosineSimilarity")

Batch = Tuple[tuple, Dict[str, Any]]


# ---------------------------------------------------------------------------------------------- inputs
def _retrieval(n: int, g: torch.Generator, start: int) -> Batch:
    sizes = torch.randint(2, 31, (n,), generator=g)
    sizes = sizes[: int((sizes.cumsum(0) < n).sum()) + 1]
    sizes[-1] -= int(sizes.sum()) - n
    ids = torch.repeat_interleave(torch.arange(start, start + sizes.numel()), sizes)
    preds = torch.rand(n, generator=g)
    target = torch.rand(n, generator=g) < 0.3 * (preds + 0.5)
    return (preds, target), {"indexes": ids}


def inputs(name: str, n: int, seed: int = 0) -> Batch:
    g = torch.Generator().manual_seed(seed)
    if name.startswith("Retrieval"):
        return _retrieval(n, g, seed * n)
    if name.startswith("Binary"):
        probs = torch.rand(n, generator=g)
        target = (torch.rand(n, generator=g) < probs).long()
        if name in ("BinaryFairness", "BinaryGroupStatRates"):
            return (probs, target, torch.randint(0, 3, (n,), generator=g)), {}
        return (probs, target), {}
    if name.startswith("Multiclass"):
        probs = torch.softmax(2 * torch.randn(n, C, generator=g), 1)
        return (probs, torch.multinomial(probs, 1, generator=g).squeeze(1)), {}
    if name.startswith("Multilabel"):
        probs = torch.rand(n, L, generator=g)
        return (probs, (torch.rand(n, L, generator=g) < probs).long()), {}
    if name in ("CatMetric", "MaxMetric", "MeanMetric", "MinMetric", "SumMetric", "RunningMean", "RunningSum"):
        return (torch.randn(n, generator=g),), {}
    if name == "ContinuousRankedProbabilityScore":
        target = 1e4 + 10 * torch.randn(n, generator=g)
        return (target[:, None] + torch.randn(n, MEMBERS, generator=g), target), {}
    if name == "CosineSimilarity":
        return (torch.randn(n, DIM, generator=g), torch.randn(n, DIM, generator=g)), {}
    if name in ("KLDivergence", "JensenShannonDivergence"):
        rows = torch.softmax(torch.randn(2, n, DIM, generator=g), -1)
        return (rows[0], rows[1]), {}
    target = 1e4 + 10 * torch.randn(n, generator=g)
    return (target + torch.randn(n, generator=g), target), {}


def kwargs_for(name: str, cls: type) -> Dict[str, Any]:
    import inspect

    params = inspect.signature(cls.__init__).parameters
    kw: Dict[str, Any] = {k: v for k, v in REQUIRED.items() if k in params}
    if "num_classes" in params:
        kw["num_classes"] = C
    if "num_labels" in params:
        kw["num_labels"] = L
    if name in ("BinaryFairness", "BinaryGroupStatRates"):
        kw["num_groups"] = 3
    if name in ("RunningMean", "RunningSum"):
        kw["window"] = 5
    if name == "RetrievalPrecisionRecallCurve":
        kw["max_k"] = 10
    return kw


# ---------------------------------------------------------------------------------------------- bare kernels
def _bincount(keys: Tensor_, length: int, acc: Tensor_) -> None:
    acc.add_(torch.bincount(keys, minlength=length))


Tensor_ = torch.Tensor


def kernel(name: str, batch: Batch, capacity: int) -> Callable[[], object]:
    """The few torch ops the statistic of one batch needs, merged into a preallocated state: no check."""
    args, kw = batch
    tensors = list(args) + list(kw.values())
    if any(key in name for key in CAT):
        bufs = [torch.empty((capacity, *t.shape[1:]), dtype=torch.float32 if t.is_floating_point() else t.dtype)
                for t in tensors]
        pos = [0]
        if all(t.is_cpu for t in tensors):  # the cheapest CPU copy, as ours: numpy views of buffer and batch
            views = [buf.numpy() for buf in bufs]

            def append_host() -> None:
                i = pos[0] % (capacity - tensors[0].shape[0] + 1)
                for view, t in zip(views, tensors):
                    view[i : i + t.shape[0]] = t.numpy()
                pos[0] = i + tensors[0].shape[0]
            return append_host

        def append() -> None:
            i = pos[0] % (capacity - tensors[0].shape[0] + 1)
            for buf, t in zip(bufs, tensors):
                buf[i : i + t.shape[0]].copy_(t)
            pos[0] = i + tensors[0].shape[0]
        return append
    if name in ("SumMetric", "MeanMetric", "RunningSum", "RunningMean"):
        acc = torch.zeros(2, dtype=torch.float64)
        x = args[0]
        return lambda: acc.add_(torch.stack([x.sum(dtype=torch.float64), x.new_tensor(x.numel(), dtype=torch.float64)]))
    if name in ("MaxMetric", "MinMetric"):
        acc = torch.zeros((), dtype=torch.float64)
        x = args[0]
        return lambda: torch.maximum(acc, x.max().double(), out=acc)
    if name.startswith("Binary") and name.endswith("CalibrationError") or name == "MulticlassCalibrationError":
        acc = torch.zeros(3, BINS, dtype=torch.float64)
        p, t = args

        def calib() -> None:
            conf = p if p.dim() == 1 else p.max(1).values
            bins = (conf * BINS).long().clamp_(max=BINS - 1)
            hit = (t.float() if p.dim() == 1 else (p.argmax(1) == t).float())
            acc[0].add_(torch.bincount(bins, minlength=BINS))
            acc[1].add_(torch.bincount(bins, conf, minlength=BINS))
            acc[2].add_(torch.bincount(bins, hit, minlength=BINS))
        return calib
    if name.endswith("HingeLoss"):
        acc = torch.zeros(2, dtype=torch.float64)
        p, t = args
        if p.dim() == 1:
            return lambda: acc[0].add_((1 - (2 * t - 1) * p).clamp_(min=0).sum())
        return lambda: acc[0].add_((1 - p.gather(1, t[:, None]).squeeze(1) + p.scatter(1, t[:, None], -1e9).max(1)
                                    .values).clamp_(min=0).sum())
    if name.startswith("BinaryFairness") or name == "BinaryGroupStatRates":
        acc = torch.zeros(12, dtype=torch.int64)
        p, t, grp = args
        return lambda: _bincount(grp * 4 + (p >= 0.5).long() * 2 + t, 12, acc)
    if name.startswith("Binary"):
        acc = torch.zeros(4, dtype=torch.int64)
        p, t = args
        return lambda: _bincount((p >= 0.5).long() * 2 + t, 4, acc)
    if name.startswith("Multiclass"):
        acc = torch.zeros(C * C, dtype=torch.int64)
        p, t = args
        return lambda: _bincount(t * C + p.argmax(1), C * C, acc)
    if name.startswith("Multilabel"):
        acc = torch.zeros(4 * L, dtype=torch.int64)
        p, t = args
        offset = torch.arange(L) * 4
        if name == "MultilabelExactMatch":
            acc2 = torch.zeros(2, dtype=torch.int64)
            return lambda: acc2[0].add_(((p >= 0.5).long() == t).all(1).sum())
        return lambda: _bincount(((p >= 0.5).long() * 2 + t + offset).reshape(-1), 4 * L, acc)
    return _regression_kernel(name, args)


def _regression_kernel(name: str, args: tuple) -> Callable[[], object]:
    """The float64 statistic ours keeps (inputs converted exactly, then one rounding per operation)."""
    p, t = args
    acc = torch.zeros(6, dtype=torch.float64)
    pooled = _pooled_kernel(name, p, t, acc)
    if pooled is not None:
        return pooled
    if name in ("MeanSquaredError", "MeanAbsoluteError", "MeanAbsolutePercentageError"):
        def errors() -> None:
            t64 = t.double()
            d = t64 - p.double()
            if name == "MeanSquaredError":
                acc[0].add_(d.dot(d))
            elif name == "MeanAbsoluteError":
                acc[0].add_(d.abs_().sum())
            else:
                acc[0].add_((d.abs_() / t64.abs().clamp_(min=1.17e-6)).sum())
        return errors
    # R2, explained variance (the target and the residual), Pearson, concordance (preds and target): the
    # two-pass means and centred sums of squares of two rows (and their centred cross product)
    def moments() -> None:
        t64 = t.double()
        x = torch.stack([t64, t64 - p.double()] if name in ("R2Score", "ExplainedVariance") else [p.double(), t64])
        centred = x - x.mean(1, keepdim=True)
        acc[:2].add_(centred.square().sum(1))
        if name in ("PearsonCorrCoef", "ConcordanceCorrCoef"):
            acc[2].add_(centred[0].dot(centred[1]))
    return moments


def _pooled_kernel(name: str, p: Tensor_, t: Tensor_, acc: Tensor_) -> Optional[Callable[[], object]]:
    """torchmetrics' other pooled measures: their float64 sums (and counts), ``None`` for the moment families."""
    def sums(*values: Tensor_) -> None:
        acc[: len(values)].add_(torch.stack(values))

    def msle() -> None:
        d = torch.log1p(p.double()) - torch.log1p(t.double())
        sums(d.dot(d))

    def log_cosh() -> None:
        e = (p.double() - t.double()).abs()
        sums((e + torch.log1p(torch.exp(-2 * e)) - math.log(2.0)).sum())

    def residual() -> Tensor_:
        return p.double() - t.double()

    def smape() -> None:
        p64, t64 = p.double(), t.double()
        sums((2 * (p64 - t64).abs() / (t64.abs() + p64.abs()).clamp(min=1.17e-6)).sum())

    def csi() -> None:
        hit, event = p >= 0.5, t >= 0.5
        acc[:3].add_(torch.stack([(hit & event).sum(), (event & ~hit).sum(), (hit & ~event).sum()]))

    def crps() -> None:
        x, y = p.double(), t.double()
        spread = (x.sort(dim=1).values * (2 * torch.arange(MEMBERS, dtype=x.dtype) - (MEMBERS - 1))).sum(1)
        sums(((x - y[:, None]).abs().mean(1) - spread / MEMBERS**2).sum())

    def kl() -> None:
        x, y = p.double(), t.double()
        x, y = x / x.sum(-1, keepdim=True), y / y.sum(-1, keepdim=True)
        if name == "KLDivergence":
            sums(torch.xlogy(x, x / y).sum(-1).sum())  # the row values, then their sum, as ours keeps them
        else:
            mid = (x + y) / 2
            sums((0.5 * torch.xlogy(x, x / mid).sum(-1) + 0.5 * torch.xlogy(y, y / mid).sum(-1)).sum())

    kernels: Dict[str, Callable[[], object]] = {
        "MeanSquaredLogError": msle, "LogCoshError": log_cosh,
        "MinkowskiDistance": lambda: sums(residual().abs().pow(2).sum()),
        "TweedieDevianceScore": lambda: sums(residual().square().sum()),
        "WeightedMeanAbsolutePercentageError": lambda: sums(residual().abs().sum(), t.double().abs().sum()),
        "SymmetricMeanAbsolutePercentageError": smape, "CriticalSuccessIndex": csi,
        "ContinuousRankedProbabilityScore": crps, "KLDivergence": kl,
        "JensenShannonDivergence": kl,
    }
    return kernels.get(name)


def floor(name: str, batch: Batch, capacity: int) -> Optional[Callable[[], object]]:
    """The kernel plus the value checks ours keeps and torchmetrics skips, each read on the host once per batch
    as ours reads it. For the families that keep their samples: the bare copy, one NaN probe (``a.dot(a)`` of the
    scores, ``a.dot(b)`` of two same-shaped floating inputs) and, for integer labels or grades, one extremum
    (their range); for the divergences, the statistic and the two minima of the probability check (the other
    sums read their NaN probe off the statistic itself: no cost to add); ``None`` elsewhere."""
    if name in ("KLDivergence", "JensenShannonDivergence"):  # the statistic and the probability probe: minima
        statistic = kernel(name, batch, capacity)
        p, q = batch[0]

        def statistic_and_probe() -> None:
            p.min().item() >= 0 and q.min().item() >= 0
            statistic()
        return statistic_and_probe
    if not any(key in name for key in CAT) or name == "CatMetric":
        return None
    copy = kernel(name, batch, capacity)
    floats = [t for t in list(batch[0]) + list(batch[1].values()) if t.is_floating_point()]
    if len(floats) == 2 and floats[0].shape == floats[1].shape:
        pairs = [(floats[0].reshape(-1), floats[1].reshape(-1))]
    else:
        pairs = [(t.reshape(-1), t.reshape(-1)) for t in floats]
    target = batch[0][1] if len(batch[0]) > 1 else None
    labels = [target] if target is not None and not target.is_floating_point() and target.dtype != torch.bool \
        else []

    def copy_and_probe() -> None:
        for a, b in pairs:
            math.isnan(a.dot(b).item())
        for t in labels:
            t.min().item()
        copy()
    return copy_and_probe


def tm_kernel(name: str, batch: Batch) -> Optional[Callable[[], object]]:
    """torchmetrics' own statistic of one batch for the families that reduce at ``update`` where ours may be
    slower: its ops in the inputs' dtype (float32 here), as its ``update`` runs them after its checks, into
    preallocated sums; ``None`` elsewhere (the families that keep their samples append references there:
    nothing to time)."""
    args = batch[0]
    if len(args) != 2 or not args[0].is_floating_point():
        return None
    p, t = args
    acc = torch.zeros(8)

    def sums(*values: Tensor_) -> None:
        acc[: len(values)].add_(torch.stack(values))

    def xlogy(a: Tensor_, b: Tensor_) -> Tensor_:  # its zero-safe x log y
        res = a * torch.log(b)
        res[a == 0] = 0.0
        return res

    def divergence() -> None:
        x, y = p / p.sum(-1, keepdim=True), t / t.sum(-1, keepdim=True)
        if name == "KLDivergence":
            sums(xlogy(x, x / y).sum(-1).sum())
        else:
            m = (x + y) / 2
            sums((0.5 * xlogy(x, x / m).sum(-1) + 0.5 * xlogy(y, y / m).sum(-1)).sum())

    def crps() -> None:  # its ensemble spread by every pair of sorted members
        s = torch.sort(p, dim=1)[0]
        diff = torch.sum(torch.abs(s - t.unsqueeze(1).expand_as(s)), dim=1) / MEMBERS
        spread = torch.sum(torch.abs(s.unsqueeze(2) - s.unsqueeze(1)), dim=(1, 2)) / (2 * MEMBERS * MEMBERS)
        sums(torch.sum(diff - spread))

    def csi() -> None:
        hit, event = p >= 0.5, t >= 0.5
        miss = hit ^ event
        sums(torch.sum(hit & event).int(), torch.sum(miss & event).int(), torch.sum(miss & hit).int())

    def nrmse() -> None:  # its squared error, the target's min, max, squares and streaming mean and variance
        mean = acc[5:6]
        sums(torch.sum((p - t) * (p - t)), t.min(dim=0).values, t.max(dim=0).values, (t**2).sum(dim=0))
        new_mean = (acc[6] * mean + t.sum(dim=0)) / (acc[6] + t.shape[0])
        acc[7].add_(((t - new_mean) * (t - mean)).sum(dim=0))

    def calibration() -> object:  # the confidences and hits it appends (binned at compute)
        if p.dim() == 1:
            return p.float(), t.float()
        conf, pred = p.max(1)
        return conf.float(), pred.eq(t).float()

    kernels: Dict[str, Callable[[], object]] = {
        "MeanSquaredError": lambda: sums(torch.sum((p - t) * (p - t))),
        "MeanAbsoluteError": lambda: sums(torch.sum(torch.abs(p - t))),
        "MeanSquaredLogError": lambda: sums(torch.sum(torch.pow(torch.log1p(p) - torch.log1p(t), 2))),
        "MeanAbsolutePercentageError": lambda: sums(torch.sum(torch.abs(p - t) / torch.clamp(torch.abs(t),
                                                                                                 min=1.17e-6))),
        "R2Score": lambda: sums(t.sum(0), (t * t).sum(0), ((t - p) * (t - p)).sum(0)),
        "RelativeSquaredError": lambda: sums(t.sum(0), (t * t).sum(0), ((t - p) * (t - p)).sum(0)),
        "ExplainedVariance": lambda: sums((t - p).sum(0), ((t - p) * (t - p)).sum(0), t.sum(0), (t * t).sum(0)),
        "WeightedMeanAbsolutePercentageError": lambda: sums((p - t).abs().sum(), t.abs().sum()),
        "SymmetricMeanAbsolutePercentageError": lambda: sums(2 * torch.sum(torch.abs(p - t) / torch.clamp(
            torch.abs(t) + torch.abs(p), min=1.17e-6))),
        "MinkowskiDistance": lambda: sums(torch.sum(torch.pow(torch.abs(p - t), 2))),
        "LogCoshError": lambda: sums(torch.log((torch.exp(p - t) + torch.exp(t - p)) / 2).sum(0).squeeze()),
        "TweedieDevianceScore": lambda: (torch.zeros(p.shape), sums(torch.sum(torch.pow(t - p, exponent=2)))),
        "ContinuousRankedProbabilityScore": crps, "CriticalSuccessIndex": csi,
        "NormalizedRootMeanSquaredError": nrmse,
        "KLDivergence": divergence, "JensenShannonDivergence": divergence,
        "MulticlassCalibrationError": calibration, "BinaryCalibrationError": calibration,
    }
    return kernels.get(name)


# ---------------------------------------------------------------------------------------------- timing
def tm_class(name: str) -> Optional[type]:
    tm = optional("torchmetrics")
    if tm is None:
        return None
    import torchmetrics.aggregation
    import torchmetrics.classification
    import torchmetrics.regression
    import torchmetrics.retrieval
    for mod in (torchmetrics.classification, torchmetrics.regression, torchmetrics.retrieval,
                torchmetrics.aggregation, tm):
        if hasattr(mod, name):
            return getattr(mod, name)
    return None


def shared_names() -> List[str]:
    names = []
    for module_names in ours_pkg._EXPORTS.values():
        for name in module_names:
            obj = getattr(ours_pkg, name)
            if isinstance(obj, type) and name not in SKIP and name not in ours_pkg.tasks.__all__ \
                    and tm_class(name) is not None:
                names.append(name)
    return names


def interleaved(fns: Dict[str, Callable[[], object]], resets: Dict[str, Callable[[], object]], *, rounds: int,
                number: int) -> Dict[str, float]:
    """Median CPU time per call of each function over ``rounds`` alternating rounds of ``number`` calls."""
    for name, fn in fns.items():
        for _ in range(5):
            fn()
        resets.get(name, lambda: None)()
    times: Dict[str, List[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            resets.get(name, lambda: None)()
            start = time.thread_time()
            for _ in range(number):
                fn()
            times[name].append((time.thread_time() - start) / number)
    return {name: statistics.median(t) for name, t in times.items()}


class StepRow(NamedTuple):
    name: str
    method: str
    n: int
    ours: float
    tm: float
    kernel: float
    floor: Optional[float]  # the families that keep their samples: ours' copy and the checks torchmetrics skips
    tm_kernel: Optional[float]  # torchmetrics' own statistic, where it reduces at update

    def need(self) -> Optional[float]:
        """What ours must do over what torchmetrics must do: the floor of a family that keeps its samples (copy
        and checks; torchmetrics appends references), else ours' floor or kernel less torchmetrics' kernel (exact
        float64 steps where it takes float32 ones, the checks it skips); ``None`` where that is not measured."""
        if self.tm_kernel is None:
            return self.floor if any(key in self.name for key in CAT) else None
        return (self.kernel if self.floor is None else self.floor) - self.tm_kernel


def step_rows(name: str, n: int, rounds: int, number: int) -> List[StepRow]:
    import warnings

    ours_cls, theirs_cls = getattr(ours_pkg, name), tm_class(name)
    assert theirs_cls is not None
    args, kw = inputs(name, n)
    rows = []
    for method in ("update", "forward"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a, b = ours_cls(**kwargs_for(name, ours_cls)), theirs_cls(**kwargs_for(name, theirs_cls))
            fa = a.update if method == "update" else a
            fb = b.update if method == "update" else b
            fns = {"ours": lambda: fa(*args, **kw), "tm": lambda: fb(*args, **kw),
                   "kernel": kernel(name, (args, kw), capacity=(number + 10) * n)}
            extra = {"floor": floor(name, (args, kw), capacity=(number + 10) * n),
                     "tm_kernel": tm_kernel(name, (args, kw))}
            if method == "update":
                fns.update({key: fn for key, fn in extra.items() if fn is not None})
            got = interleaved(fns, {"ours": a.reset, "tm": b.reset}, rounds=rounds, number=number)
        rows.append(StepRow(name, method, n, got["ours"], got["tm"], got["kernel"], got.get("floor"),
                            got.get("tm_kernel")))
    return rows


def fmt_us(seconds: Optional[float]) -> str:
    if seconds is None:
        return ""
    return f"{seconds * 1e6:.1f}" if seconds < 1e-2 else f"{seconds * 1e6:.0f}"


def step_table(rows: List[StepRow]) -> str:
    lines = ["| module | call | n | ours us | torchmetrics us | kernel us | floor us | tm kernel us | tm/ours | "
             "ours/kernel |", "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        flag = "**" if r.tm < r.ours else ""
        lines.append(f"| {r.name} | {r.method} | {r.n} | {fmt_us(r.ours)} | {fmt_us(r.tm)} | {fmt_us(r.kernel)} | "
                     f"{fmt_us(r.floor)} | {fmt_us(r.tm_kernel)} | {flag}{r.tm / r.ours:.2f}x{flag} | "
                     f"{r.ours / r.kernel:.1f}x |")
    return "\n".join(lines)


def explained(row: StepRow) -> bool:
    """A row slower than torchmetrics' by no more than what ours must do over what torchmetrics must do."""
    need = row.need()
    return need is not None and row.ours - row.tm <= need


def step_summary(rows: List[StepRow]) -> str:
    """How many rows are at ``tm/ours >= 1.0``, the lowest ratio, and which of the slower rows are slower by more
    than what ours must do over what torchmetrics must do (:func:`explained`)."""
    slower = [r for r in rows if r.tm < r.ours]
    other = [f"{r.name} {r.method} {r.n}" for r in slower if not explained(r)]
    return (f"{len(rows) - len(slower)} of {len(rows)} rows at tm/ours >= 1.0; lowest "
            f"{min(r.tm / r.ours for r in rows):.2f}x; of the {len(slower)} below, {len(slower) - len(other)} "
            f"slower by no more than their floor (ours - tm <= floor - tm kernel); "
            f"the others: {', '.join(other) or 'none'}")


# ---------------------------------------------------------------------------------------------- the epoch
EPOCH = ("BinaryAUROC", "BinaryAveragePrecision", "BinaryROC", "BinaryPrecisionRecallCurve", "MulticlassAUROC",
         "MultilabelAveragePrecision", "RetrievalNormalizedDCG", "RetrievalMAP", "RetrievalMRR", "SpearmanCorrCoef",
         "KendallRankCorrCoef", "CatMetric", "CosineSimilarity",
         # the modules that reduce at update what torchmetrics keeps and reduces at compute: the whole epoch
         "MulticlassCalibrationError", "BinaryCalibrationError")


#: torchmetrics' Kendall tau compares every pair (O(n^2) time and memory): a shorter epoch for it
EPOCH_CAP = {"KendallRankCorrCoef": 100}


class EpochRow(NamedTuple):
    name: str
    updates: int
    ours: float
    tm: float
    floor: Optional[float]  # what ours must do over the epoch that torchmetrics does not (cosine similarity)
    tm_kernel: Optional[float]  # torchmetrics' own work at compute in its place

    def explained(self) -> bool:
        return self.floor is not None and self.tm_kernel is not None and \
            self.ours - self.tm <= self.floor - self.tm_kernel


def epoch_floor(name: str, batches: List[Batch]) -> Dict[str, Callable[[], object]]:
    """For ``CosineSimilarity``, the epoch's floor and torchmetrics' kernel: ours copies every batch (torchmetrics
    keeps references), probes it for NaN (torchmetrics does not) and runs the exact float64 row kernel over the
    rows each time ``settle_numel`` row elements are held (and over the rest at compute); torchmetrics' compute
    concatenates its lists and runs its float32 row kernel once. Empty elsewhere."""
    if name != "CosineSimilarity":
        return {}
    chunk = ours_pkg.CosineSimilarity.settle_numel // DIM

    def rows64(p: Tensor_, t: Tensor_) -> Tensor_:
        x, y = p.double(), t.double()
        return ((x * y).sum(-1) / (torch.linalg.vector_norm(x, dim=-1) * torch.linalg.vector_norm(y, dim=-1))).sum()

    def floor_epoch() -> None:
        bufs = [torch.empty(chunk, DIM), torch.empty(chunk, DIM)]
        views, at = [b.numpy() for b in bufs], 0
        for (p, t), _ in batches:
            math.isnan(p.reshape(-1).dot(t.reshape(-1)).item())
            if at + p.shape[0] > chunk:  # the held rows settle
                rows64(bufs[0][:at], bufs[1][:at])
                at = 0
            for view, v in zip(views, (p, t)):
                view[at : at + v.shape[0]] = v.numpy()
            at += p.shape[0]
        rows64(bufs[0][:at], bufs[1][:at])

    def tm_epoch() -> None:
        p, t = torch.cat([b[0][0] for b in batches]), torch.cat([b[0][1] for b in batches])
        ((p * t).sum(dim=-1) / (p.norm(dim=-1) * t.norm(dim=-1))).sum()
    return {"floor": floor_epoch, "tm_kernel": tm_epoch}


def epoch_rows(names: List[str], updates: int, rounds: int) -> List[EpochRow]:
    import warnings

    rows = []
    for name in names:
        count = min(updates, EPOCH_CAP.get(name, updates))
        batches = [inputs(name, 256, seed) for seed in range(count)]
        ours_cls, theirs_cls = getattr(ours_pkg, name), tm_class(name)
        assert theirs_cls is not None

        def epoch(cls: type) -> None:
            m = cls(**kwargs_for(name, cls))
            for args, kw in batches:
                m.update(*args, **kw)
            m.compute()
        fns = {"ours": partial(epoch, ours_cls), "tm": partial(epoch, theirs_cls), **epoch_floor(name, batches)}
        times: Dict[str, List[float]] = {key: [] for key in fns}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for cls in (ours_cls, theirs_cls):  # warm-up: first-call imports and caches
                m = cls(**kwargs_for(name, cls))
                for args, kw in batches[:3]:
                    m.update(*args, **kw)
                m.compute()
            for _ in range(rounds):
                for key, fn in fns.items():
                    start = time.thread_time()
                    fn()
                    times[key].append(time.thread_time() - start)
        got = {key: statistics.median(t) for key, t in times.items()}
        rows.append(EpochRow(name, count, got["ours"], got["tm"], got.get("floor"), got.get("tm_kernel")))
    return rows


def epoch_table(rows: List[EpochRow]) -> str:
    def ms(seconds: Optional[float]) -> str:
        return "" if seconds is None else f"{seconds * 1e3:.1f}"
    lines = ["| module | updates of 256 | ours ms | torchmetrics ms | floor ms | tm kernel ms | tm/ours |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r.name} | {r.updates} | {ms(r.ours)} | {ms(r.tm)} | {ms(r.floor)} | {ms(r.tm_kernel)} | "
                     f"{r.tm / r.ours:.2f}x |")
    slower = [r for r in rows if r.tm < r.ours]
    other = [r.name for r in slower if not r.explained()]
    lines.append(f"\n{len(rows) - len(slower)} of {len(rows)} rows at tm/ours >= 1.0; of the {len(slower)} below, "
                 f"{len(slower) - len(other)} slower by no more than their floor (ours - tm <= floor - tm kernel); "
                 f"the others: {', '.join(other) or 'none'}")
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds and calls (a smoke run)")
    parser.add_argument("--only", action="append", help="only these modules (repeatable; a substring matches)")
    parser.add_argument("--step-only", action="store_true")
    parser.add_argument("--epoch-only", action="store_true")
    opts = parser.parse_args(argv)
    torch.set_num_threads(1)
    rounds, number = (3, 20) if opts.quick else (11, 40)
    names = shared_names()
    if opts.only:
        names = [n for n in names if any(o == n or o in n for o in opts.only)]
    print(f"{header()}; load average {os.getloadavg()[0]:.1f} at start")
    if not opts.epoch_only:
        rows = []
        for name in names:
            for n in SIZES:
                try:
                    rows.extend(step_rows(name, n, rounds, number))
                except Exception as e:  # noqa: BLE001 - one failing row must not hide the others
                    print(f"{name} at {n}: {type(e).__name__}: {e}")
        print(f"\n### One step: update / forward, median CPU us per call ({rounds} rounds of {number} calls)\n")
        print(step_table(rows))
        print(f"\n{step_summary(rows)}")
    if not opts.step_only:
        updates = 100 if opts.quick else 1000
        epoch_names = [n for n in EPOCH if n in names]
        print(f"\n### The epoch: {updates} updates of 256 samples + compute (median of "
              f"{1 if opts.quick else 3} rounds)\n")
        print(epoch_table(epoch_rows(epoch_names, updates, 1 if opts.quick else 3)))
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
