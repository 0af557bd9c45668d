"""Pearson, concordance, Spearman and Kendall at 1e6 samples against scipy.stats and torchmetrics.

Times are medians of the CPU time of the whole process (``time.process_time``: every thread, not the spells a
loaded machine makes the process wait), two torch threads. Inputs: float32 ``preds``/``target`` with unit noise
(torchmetrics' default dtype; scipy gets the same values as float64 arrays). torchmetrics' Kendall is
``O(n²)`` in time (a Python loop over the samples, each comparing with every later one), so it runs at
``TM_KENDALL_N`` and the table gives our time at that size beside it; its time and resident memory at 2e3..6.4e4
samples are printed below the table (``python -m benchmarks._breadth_correlation --kendall-growth``), from which
the 1e6 figure is extrapolated rather than run.
Run: python -m benchmarks._breadth_correlation (or all groups: python -m benchmarks.bench_breadth)
"""
from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import time
from typing import Callable, Dict, List, Optional, Tuple

import torch

from benchmarks._runner import header, optional, print_tables, table
from torchmetrics_lite.functional import (
    concordance_corrcoef,
    kendall_rank_corrcoef,
    pearson_corrcoef,
    spearman_corrcoef,
)

N = 1_000_000
TIES_N = 200_000  # Kendall with many ties: 100 x 50 distinct values
TM_KENDALL_N = 8_000


def cpu_median(fn: Callable[[], object], repeat: int = 3) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def _data(n: int, seed: int = 0, ties: bool = False) -> Tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    preds = torch.randn(n, generator=g)
    target = preds + torch.randn(n, generator=g)
    if ties:
        preds, target = (preds * 20).round().clamp(-50, 49), (target * 10).round().clamp(-25, 24)
    return preds, target


def _rows(ours: Callable[[], object], peers: Dict[str, Optional[Callable[[], object]]],
          notes: Dict[str, str]) -> List[Tuple[str, Optional[float], str]]:
    rows = [("torchmetrics_lite", cpu_median(ours), notes.get("ours", ""))]
    for name, fn in peers.items():
        rows.append((name, None if fn is None else cpu_median(fn), notes.get(name, "not installed" if fn is None
                                                                               else "")))
    return rows


def main() -> None:
    torch.set_num_threads(2)
    st = optional("scipy.stats") and __import__("scipy.stats", fromlist=["stats"])
    tm = optional("torchmetrics") and __import__("torchmetrics.functional", fromlist=["functional"])
    p, t = _data(N)
    pn, tn = p.double().numpy(), t.double().numpy()
    tables = [f"{header()}; CPU time of the process, median of 3\n"]
    cases = {
        "pearson_corrcoef": (pearson_corrcoef, "pearsonr", "pearson_corrcoef"),
        "concordance_corrcoef": (concordance_corrcoef, None, "concordance_corrcoef"),
        "spearman_corrcoef": (spearman_corrcoef, "spearmanr", "spearman_corrcoef"),
        "kendall_rank_corrcoef (tau-b)": (kendall_rank_corrcoef, "kendalltau", None),
    }
    for title, (ours, sp_name, tm_name) in cases.items():
        peers: Dict[str, Optional[Callable[[], object]]] = {}
        if sp_name is not None:
            sp_fn = getattr(st, sp_name) if st else None
            peers[f"scipy.stats.{sp_name}"] = None if sp_fn is None else (lambda f=sp_fn: f(pn, tn))
        if tm_name is not None:
            tm_fn = getattr(tm, tm_name) if tm else None
            peers[f"torchmetrics {tm_name}"] = None if tm_fn is None else (lambda f=tm_fn: f(p, t))
        tables.append(table(f"{title}, {N:.0e} samples", _rows(lambda f=ours: f(p, t), peers, {}),
                            ours="torchmetrics_lite"))
    pt, tt = _data(TIES_N, ties=True)
    ptn, ttn = pt.double().numpy(), tt.double().numpy()
    rows = _rows(lambda: kendall_rank_corrcoef(pt, tt, "b", True),
                 {"scipy.stats.kendalltau": None if not st else (lambda: st.kendalltau(ptn, ttn))}, {})
    tables.append(table(f"kendall_rank_corrcoef with the p-value, {TIES_N:.0e} samples, 100 x 50 distinct values",
                        rows, ours="torchmetrics_lite"))
    ps, ts = _data(TM_KENDALL_N, seed=1)
    rows = _rows(lambda: kendall_rank_corrcoef(ps, ts),
                 {"torchmetrics kendall_rank_corrcoef": None if not tm else
                  (lambda: tm.kendall_rank_corrcoef(ps, ts))}, {})
    tables.append(table(f"kendall_rank_corrcoef, {TM_KENDALL_N} samples (torchmetrics is O(n²))", rows,
                        ours="torchmetrics_lite"))
    print_tables(tables)
    if "--kendall-growth" in sys.argv:
        kendall_growth()


def _tm_kendall_once(n: int) -> None:
    import torchmetrics.functional as tmf

    torch.set_num_threads(2)
    p, t = _data(n, seed=2)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    tmf.kendall_rank_corrcoef(p, t)
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    print(f"| {n} | {time.perf_counter() - start:.2f} s | {grown:.1f} MiB |")


def kendall_growth(sizes: Tuple[int, ...] = (2000, 4000, 8000, 16000, 32000, 64000)) -> None:
    """torchmetrics' Kendall at growing sizes, each in a fresh process: wall time and peak resident growth."""
    print("torchmetrics kendall_rank_corrcoef growth (fresh process per size)\n\n| n | wall | peak RSS growth |\n"
          "|---:|---:|---:|")
    for n in sizes:
        code = f"from benchmarks._breadth_correlation import _tm_kendall_once; _tm_kendall_once({n})"
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=1200)
        print(out.stdout.strip() or out.stderr.strip().splitlines()[-1])



if __name__ == "__main__":
    main()
