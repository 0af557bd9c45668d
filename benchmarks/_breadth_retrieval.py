"""RetrievalPrecisionRecallCurve and RetrievalRecallAtFixedPrecision at 1e6 items against torchmetrics.

1e6 flat items in 10,000 queries of 100 (random scores, 30 % relevant), one ``update`` then ``compute``; the
function on the same flat input. scikit-learn and scipy have no retrieval curve. Times are medians of the CPU
time of the whole process (``time.process_time``), two torch threads.
Run: python -m benchmarks._breadth_retrieval (or all groups: python -m benchmarks.bench_breadth)
"""
from __future__ import annotations

import statistics
import time
from typing import Callable

import torch

from benchmarks._runner import header, optional, print_tables, table
from torchmetrics_lite import RetrievalPrecisionRecallCurve, RetrievalRecallAtFixedPrecision
from torchmetrics_lite.functional import retrieval_precision_recall_curve

N, QUERIES = 1_000_000, 10_000


def cpu_median(fn: Callable[[], object], repeat: int = 3) -> float:
    fn()
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def _module(cls: Callable[[], object], preds: torch.Tensor, target: torch.Tensor,
            indexes: torch.Tensor) -> Callable[[], object]:
    def run() -> object:
        metric = cls()
        metric.update(preds, target, indexes=indexes)  # type: ignore[attr-defined]
        return metric.compute()  # type: ignore[attr-defined]

    return run


def main() -> None:
    torch.set_num_threads(2)
    g = torch.Generator().manual_seed(0)
    preds = torch.rand(N, generator=g)
    target = (torch.rand(N, generator=g) < 0.3).long()
    indexes = torch.arange(QUERIES).repeat_interleave(N // QUERIES)[torch.randperm(N, generator=g)]
    tm = optional("torchmetrics") and __import__("torchmetrics.retrieval", fromlist=["retrieval"])
    tables = [f"{header()}; CPU time of the process, median of 3\n"]
    for title, ours, theirs in (
        ("RetrievalPrecisionRecallCurve (max_k=None: 100)", RetrievalPrecisionRecallCurve,
         tm and tm.RetrievalPrecisionRecallCurve),
        ("RetrievalPrecisionRecallCurve(max_k=10, adaptive_k=True)",
         lambda: RetrievalPrecisionRecallCurve(max_k=10, adaptive_k=True),
         tm and (lambda: tm.RetrievalPrecisionRecallCurve(max_k=10, adaptive_k=True))),
        ("RetrievalRecallAtFixedPrecision(min_precision=0.3)", lambda: RetrievalRecallAtFixedPrecision(0.3),
         tm and (lambda: tm.RetrievalRecallAtFixedPrecision(min_precision=0.3))),
    ):
        rows = [("torchmetrics_lite", cpu_median(_module(ours, preds, target, indexes)), "update + compute")]
        rows.append(("torchmetrics", None if not theirs else cpu_median(_module(theirs, preds, target, indexes)),
                     "update + compute" if theirs else "not installed"))
        tables.append(table(f"{title}, {N:.0e} items, {QUERIES} queries", rows, ours="torchmetrics_lite"))
    rows = [("torchmetrics_lite", cpu_median(lambda: retrieval_precision_recall_curve(preds, target,
                                                                                     indexes=indexes)),
             "one call over every query (torchmetrics' function takes one query)")]
    tables.append(table(f"retrieval_precision_recall_curve, {N:.0e} items, {QUERIES} queries", rows,
                        ours="torchmetrics_lite"))
    print_tables(tables)


if __name__ == "__main__":
    main()
