"""GPU readiness in one short run: values on the GPU equal the CPU values, ``update`` does not sync with the host,
and the heavy paths are timed against torchmetrics on the same GPU.

1. Values. Every family's functional form and its module (three batches through ``update``, then ``compute``)
   on the target device against the same calls on CPU with the default kernels: classification, AUROC/AP,
   retrieval (dense, and flat with ``indexes``), regression, calibration, multiple choice, a wrapper
   (``ClasswiseWrapper``), aggregation, and two losses (value and gradient). The target is CUDA when it is
   available; without CUDA it is the torch kernels on CPU (``torchmetrics_lite._backend.force("torch")``), so the
   numpy/torch pair is still checked.
2. Host syncs (CUDA only). Each module's ``update`` with ``validate_args=False`` runs under
   ``torch.cuda.set_sync_debug_mode("error")``, which raises on any device-to-host synchronisation.
3. Timings (CUDA only), medians with ``torch.cuda.synchronize``: exact binary AUROC on 1e7 scores against
   torchmetrics ``binary_auroc(thresholds=None)``; NDCG@10 on 10,000 queries of uneven sizes
   (``clip(lognormal(log 80, 0.9), 1, 1300)``, about 1.2M rows, flat with ``indexes``) against torchmetrics
   ``RetrievalNormalizedDCG`` (a loop over queries, timed on 1,000 queries and scaled x10); LambdaRank forward +
   backward on 256 lists x 100 items against the plain dense formulation of ``benchmarks.bench_losses``
   (torchmetrics has no LambdaRank loss).

Everything that cannot run prints a SKIPPED line saying why. The exit status is 1 when a value differs or an
``update`` syncs. Run: python -m benchmarks.gpu_check            (--cpu: the CPU mode even where CUDA exists)
"""
from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np
import torch

import losses
import torchmetrics_lite as tml
from benchmarks._runner import optional
from torchmetrics_lite import _backend
from torchmetrics_lite import functional as F

RTOL, ATOL = 1e-5, 1e-8


@dataclass
class Case:
    """One family member: its functional call and its module, fed the same CPU data."""

    family: str
    name: str
    args: Tuple[torch.Tensor, ...]
    functional: Callable[..., Any]
    module: Optional[Callable[..., tml.Metric]] = None  # called with validate_args=... for the sync check
    batches: Optional[List[Tuple[torch.Tensor, ...]]] = None  # module input (default: args split in 3)


def _split(args: Sequence[torch.Tensor], parts: int = 3) -> List[Tuple[torch.Tensor, ...]]:
    return list(zip(*(a.tensor_split(parts) for a in args)))


def cases(n: int = 3000, seed: int = 0) -> List[Case]:
    """The value cases (small inputs: the point is equality, not speed)."""
    g = torch.Generator().manual_seed(seed)
    p, t = torch.randint(0, 50, (n,), generator=g).float() / 49, torch.randint(0, 2, (n,), generator=g)
    probs, labels = torch.randn(n, 5, generator=g).softmax(-1), torch.randint(0, 5, (n,), generator=g)
    ml_p, ml_t = torch.rand(n, 4, generator=g), torch.randint(0, 2, (n, 4), generator=g)
    q, m = 120, 25
    scores, grades = torch.randint(0, 10, (q, m), generator=g).float(), torch.randint(0, 5, (q, m), generator=g)
    order = torch.randperm(q * m, generator=g)
    flat = (scores.flatten()[order], grades.flatten()[order], torch.arange(q).repeat_interleave(m)[order])
    x = torch.randn(n, generator=g, dtype=torch.float64)
    y = x + 0.3 * torch.randn(n, generator=g, dtype=torch.float64)
    w = torch.rand(n, generator=g, dtype=torch.float64)
    return [
        Case("classification", "binary_f1_score", (p, t), F.binary_f1_score, tml.BinaryF1Score),
        Case("classification", "multiclass_accuracy", (probs, labels), partial(F.multiclass_accuracy, num_classes=5),
             partial(tml.MulticlassAccuracy, num_classes=5)),
        Case("classification", "multilabel_f1_score", (ml_p, ml_t), partial(F.multilabel_f1_score, num_labels=4),
             partial(tml.MultilabelF1Score, num_labels=4)),
        Case("auroc", "binary_auroc", (p, t), F.binary_auroc, tml.BinaryAUROC),
        Case("auroc", "multiclass_auroc", (probs, labels), partial(F.multiclass_auroc, num_classes=5),
             partial(tml.MulticlassAUROC, num_classes=5)),
        Case("auroc", "binary_average_precision", (p, t), F.binary_average_precision, tml.BinaryAveragePrecision),
        Case("auroc", "multilabel_auroc", (ml_p, ml_t), partial(F.multilabel_auroc, num_labels=4),
             partial(tml.MultilabelAUROC, num_labels=4)),
        Case("retrieval", "ndcg@10 dense", (scores, grades), partial(F.retrieval_normalized_dcg, k=10)),
        Case("retrieval", "ndcg@10 flat", flat, partial(F.retrieval_normalized_dcg, k=10),
             partial(tml.RetrievalNormalizedDCG, k=10)),
        Case("retrieval", "map flat", flat, F.retrieval_average_precision, tml.RetrievalMAP),
        Case("regression", "mean_squared_error", (x, y), F.mean_squared_error, tml.MeanSquaredError),
        Case("regression", "r2_score", (x, y), F.r2_score, tml.R2Score),
        Case("calibration", "binary_calibration_error", (p, t), F.binary_calibration_error,
             tml.BinaryCalibrationError),
        Case("calibration", "multiclass_brier_score", (probs, labels),
             partial(F.multiclass_brier_score, num_classes=5), partial(tml.MulticlassBrierScore, num_classes=5)),
        Case("multiple_choice", "multiple_choice_accuracy", (probs.log(), labels), F.multiple_choice_accuracy,
             tml.MultipleChoiceAccuracy),
        Case("wrappers", "classwise f1", (probs, labels), partial(F.multiclass_f1_score, num_classes=5, average=None),
             lambda **kw: tml.ClasswiseWrapper(tml.MulticlassF1Score(5, average=None, **kw))),
        Case("aggregation", "mean (weighted)", (x, w), lambda v, wt: (v * wt).sum() / wt.sum(), tml.MeanMetric),
        Case("aggregation", "max", (x,), lambda v: v.max(), tml.MaxMetric),
        Case("loss", "lambdarank_loss (value, grad)", (scores[:32], grades[:32]), _with_grad(losses.lambdarank_loss)),
        Case("loss", "soft_auc_loss (value, grad)", (p * 4 - 2, t), _with_grad(losses.soft_auc_loss)),
    ]


def _with_grad(loss: Callable[..., torch.Tensor]) -> Callable[..., Tuple[torch.Tensor, Optional[torch.Tensor]]]:
    def run(scores: torch.Tensor, *rest: torch.Tensor) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
        leaf = scores.detach().clone().requires_grad_(True)
        value = loss(leaf, *rest)
        value.backward()
        return value.detach(), leaf.grad
    return run


# ------------------------------------------------------------------------------------------------- values
def _evaluate(case: Case, device: torch.device) -> Dict[str, Any]:
    args = tuple(a.to(device) for a in case.args)
    out = {"functional": case.functional(*args)}
    if case.module is not None:
        metric = case.module().to(device)
        for batch in case.batches or _split(case.args):
            metric.update(*(b.to(device) for b in batch))
        out["module"] = metric.compute()
    return out


def _flat(value: Any) -> List[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value.detach().cpu().to(torch.float64).reshape(-1)]
    if isinstance(value, dict):
        return [t for k in sorted(value) for t in _flat(value[k])]
    return [t for v in value for t in _flat(v)]


def _max_diff(a: Any, b: Any) -> Tuple[bool, float]:
    xs, ys = _flat(a), _flat(b)
    if [x.shape for x in xs] != [y.shape for y in ys]:
        return False, float("inf")
    ok, worst = True, 0.0
    for x, y in zip(xs, ys):
        ok &= torch.allclose(x, y, rtol=RTOL, atol=ATOL, equal_nan=True)
        finite = torch.isfinite(x) & torch.isfinite(y)
        worst = max(worst, float((x - y)[finite].abs().max()) if finite.any() else 0.0)
    return bool(ok), worst


def check_values(device: Optional[torch.device]) -> List[Tuple[str, str, str, bool, str]]:
    """Rows ``(family, name, form, ok, detail)``: each case on ``device`` (None: CPU with the torch kernels
    forced) against CPU with the default kernels."""
    rows = []
    for case in cases():
        reference = _evaluate(case, torch.device("cpu"))
        if device is None:
            with _backend.force("torch"):
                got = _evaluate(case, torch.device("cpu"))
        else:
            got = _evaluate(case, device)
        for form in reference:
            ok, diff = _max_diff(got[form], reference[form])
            rows.append((case.family, case.name, form, ok, f"max |diff| {diff:.1e}"))
    return rows


# ------------------------------------------------------------------------------------------------- syncs
def check_syncs(device: torch.device) -> List[Tuple[str, str, bool, str]]:
    """Rows ``(family, module, ok, detail)``: ``update`` with validate_args=False under sync debug mode "error"."""
    rows = []
    for case in cases():
        if case.module is None:
            continue
        metric = case.module(validate_args=False).to(device)
        batches = [tuple(b.to(device) for b in batch) for batch in (case.batches or _split(case.args))]
        metric.update(*batches[0])  # the first update may allocate and move states
        torch.cuda.synchronize()
        try:
            with _sync_debug("error"):
                for batch in batches[1:]:
                    metric.update(*batch)
            rows.append((case.family, type(metric).__name__, True, "no host sync"))
        except RuntimeError as error:
            rows.append((case.family, type(metric).__name__, False, str(error).splitlines()[0][:90]))
    return rows


@contextlib.contextmanager
def _sync_debug(mode: str) -> Iterator[None]:
    previous = torch.cuda.get_sync_debug_mode()
    torch.cuda.set_sync_debug_mode(mode)
    try:
        yield
    finally:
        torch.cuda.set_sync_debug_mode(previous)


# ------------------------------------------------------------------------------------------------- timings
def _cuda_median(fn: Callable[[], Any], repeat: int = 5) -> float:
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def uneven_queries(n_queries: int = 10_000, seed: int = 0) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Flat shuffled (scores, grades, query ids), sizes ``clip(lognormal(log 80, 0.9), 1, 1300)``, scores with
    50 tie levels, grades 0-4."""
    rng = np.random.default_rng(seed)
    sizes = np.clip(rng.lognormal(np.log(80), 0.9, n_queries), 1, 1300).astype(np.int64)
    total = int(sizes.sum())
    ids = np.repeat(np.arange(n_queries), sizes)
    order = rng.permutation(total)
    scores = rng.integers(0, 50, total).astype(np.float32)
    grades = rng.integers(0, 5, total)
    return torch.from_numpy(scores[order]), torch.from_numpy(grades[order]), torch.from_numpy(ids[order])


Timing = Tuple[str, float, Optional[float], str]  # (workload, ours s, peer s or None, note)


def _time_auroc(device: torch.device, tm: Any) -> Timing:
    g = torch.Generator(device=device).manual_seed(0)
    preds = torch.rand(10_000_000, device=device, generator=g)
    target = torch.randint(0, 2, (10_000_000,), device=device, generator=g)
    ours = _cuda_median(lambda: F.binary_auroc(preds, target))
    peer = None
    if tm is not None:
        from torchmetrics.functional.classification import binary_auroc as tm_binary_auroc

        peer = _cuda_median(lambda: tm_binary_auroc(preds, target, thresholds=None))
    return "binary AUROC, 1e7 scores", ours, peer, "torchmetrics binary_auroc(thresholds=None)"


def _time_ndcg(device: torch.device, tm: Any) -> Timing:
    scores, grades, ids = (t.to(device) for t in uneven_queries())
    ours = _cuda_median(lambda: F.retrieval_normalized_dcg(scores, grades, ids, k=10))
    peer = None
    if tm is not None:
        first = ids < 1000

        def run_tm() -> Any:
            m = tm.retrieval.RetrievalNormalizedDCG(top_k=10).to(device)
            m.update(scores[first], grades[first], indexes=ids[first])
            return m.compute()

        peer = _cuda_median(run_tm, repeat=1) * 10
    return (f"NDCG@10, 10,000 uneven queries ({scores.numel():,} rows)", ours, peer,
            "torchmetrics RetrievalNormalizedDCG, 1,000 queries x10")


def _time_lambdarank(device: torch.device) -> Timing:
    from benchmarks.bench_losses import plain_lambdarank

    g = torch.Generator(device=device).manual_seed(0)
    s = torch.randn(256, 100, device=device, generator=g)
    rel = torch.randint(0, 5, (256, 100), device=device, generator=g).float()

    def fwd_bwd(loss_fn: Callable[..., torch.Tensor]) -> Callable[[], None]:
        def run() -> None:
            leaf = s.clone().requires_grad_(True)
            loss_fn(leaf, rel).backward()
        return run

    return ("LambdaRank fwd+bwd, 256 x 100", _cuda_median(fwd_bwd(losses.lambdarank_loss)),
            _cuda_median(fwd_bwd(plain_lambdarank)), "peer: plain dense O(n^2) (no torchmetrics loss)")


def time_peers(device: torch.device) -> List[Timing]:
    """The three timed workloads on ``device`` (a CUDA device)."""
    tm: Any = optional("torchmetrics")
    return [_time_auroc(device, tm), _time_ndcg(device, tm), _time_lambdarank(device)]


# ------------------------------------------------------------------------------------------------- main
def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu", action="store_true", help="run the CPU mode even where CUDA is available")
    opts = parser.parse_args(argv)
    cuda = torch.cuda.is_available() and not opts.cpu
    device = torch.device("cuda") if cuda else None
    target = torch.cuda.get_device_name() if cuda else "CPU, torch kernels forced"
    print(f"# gpu_check: torch {torch.__version__}, target {target}, reference CPU default kernels")
    failures = 0
    print("\n## 1. values (target vs CPU)\n\n| family | case | form | result | detail |\n|---|---|---|---|---|")
    for family, name, form, ok, detail in check_values(device):
        failures += not ok
        print(f"| {family} | {name} | {form} | {'ok' if ok else 'DIFFERS'} | {detail} |")
    print("\n## 2. host syncs in update(validate_args=False)\n")
    if cuda:
        print("| family | module | result | detail |\n|---|---|---|---|")
        for family, name, ok, detail in check_syncs(torch.device("cuda")):
            failures += not ok
            print(f"| {family} | {name} | {'ok' if ok else 'SYNCS'} | {detail} |")
    else:
        print("SKIPPED: sync debug mode needs CUDA")
    print("\n## 3. timings against peers on the same GPU\n")
    if cuda:
        print("| workload | ours | peer | peer / ours | peer |\n|---|---|---|---|---|")
        for workload, ours, peer, note in time_peers(torch.device("cuda")):
            ratio = f"{peer / ours:.1f}x" if peer else "n/a"
            peer_s = f"{peer * 1e3:.1f} ms" if peer else "not installed"
            print(f"| {workload} | {ours * 1e3:.1f} ms | {peer_s} | {ratio} | {note} |")
    else:
        print("SKIPPED: AUROC 1e7, NDCG@10 uneven and LambdaRank 256x100 timings need CUDA")
    print(f"\n{'FAILED' if failures else 'PASSED'}: {failures} value or sync check(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
