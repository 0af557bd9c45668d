"""Exact binary AUROC, end to end: 1e6 and 1e7 scores rounded to 3 decimals (heavy ties), 10% positives,
streamed in batches of 10,000 (every ``update`` + one ``compute``).

Rows: torchmetrics_lite ``BinaryAUROC`` (exact; weighted with ``weight=``, the issue's goal being within 1.5x of
the unweighted row; and the binned mode for reference), torchmetrics
``BinaryAUROC`` (exact, ``thresholds=None``), torcheval ``BinaryAUROC``, scikit-learn ``roc_auc_score`` on the
whole arrays (no streaming), and the floor: one ``np.sort`` of the same scores. Peak memory of ours against
torchmetrics: the peak resident-set growth during the run (``/proc/self/clear_refs`` resets the high-water
mark; torch's CPU allocations are invisible to tracemalloc) and tracemalloc's peak (numpy only) beside it.

Run: python -m benchmarks.bench_auroc            (BENCH_AUROC_SIZES=1000000 to run the small size only)
"""
import os

import numpy as np
import torch

from benchmarks._runner import (
    header,
    interleaved_medians,
    median_time,
    optional,
    peak_python_memory,
    print_tables,
    table,
)
from torchmetrics_lite import BinaryAUROC

BATCH = 10_000


def data(n: int, seed: int = 0):
    g = np.random.default_rng(seed)
    scores = np.round(g.random(n), 3).astype(np.float32)
    labels = g.random(n) < 0.1
    preds, target = torch.from_numpy(scores), torch.from_numpy(labels.astype(np.int64))
    return scores, labels, list(zip(preds.split(BATCH), target.split(BATCH)))


def weights(n: int, seed: int = 1) -> torch.Tensor:
    return torch.from_numpy(np.random.default_rng(seed).random(n).astype(np.float32) * 2)


def compute_only(factory, batches):
    """The ``compute`` of a metric fed once (the cache cleared before each call by a fresh merge)."""
    fed = factory()
    for b in batches:
        fed.update(*b)

    def run():
        m = factory()
        m.merge_state(fed)
        return float(m.compute())
    return run


def streamed(factory, batches):
    def run():
        m = factory()
        for b in batches:
            m.update(*b)
        return float(m.compute())
    return run


def peak_rss_growth(fn) -> int:
    """Peak resident-set growth (bytes) while ``fn`` runs (Linux); None where the kernel refuses."""
    def rss(field):
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) * 1024 for line in f if line.startswith(field))
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        return None
    before = rss("VmRSS:")
    fn()
    return rss("VmHWM:") - before


def mib(b) -> str:
    return "n/a" if b is None else f"{b / 2**20:.0f} MiB"


def bench(n: int):
    scores, labels, batches = data(n)
    slow = n >= 10**7
    repeat = 3 if slow else 5
    exact = None
    rows, notes = [], []
    sk = optional("sklearn.metrics")
    if sk is not None:
        from sklearn.metrics import roc_auc_score

        exact = roc_auc_score(labels, scores)
    ours = streamed(BinaryAUROC, batches)
    value = ours()
    err = "n/a" if exact is None else f"|ours - sklearn| = {abs(value - exact):.1e}"
    w = weights(n)
    weighted_batches = [(p, t, wb) for (p, t), wb in zip(batches, w.split(BATCH))]
    weighted = streamed(BinaryAUROC, weighted_batches)
    wnote = "exact, weight="
    if sk is not None:
        wnote += f"; |ours - sklearn| = {abs(weighted() - roc_auc_score(labels, scores, sample_weight=w.numpy())):.1e}"
    paired = interleaved_medians({"plain": ours, "weighted": weighted}, rounds=repeat, number=1, warmup=1)
    rows.append(("torchmetrics_lite", paired["plain"], f"exact; {err}"))
    rows.append(("torchmetrics_lite weighted", paired["weighted"], wnote))
    notes.append(f"weighted / unweighted, streamed, n={n:.0e}: {paired['weighted'] / paired['plain']:.2f}x "
                 f"({paired['weighted'] * 1e3:.1f} / {paired['plain'] * 1e3:.1f} ms, timed in alternation; issue #15's "
                 f"goal: <= 1.5x)")
    alone = interleaved_medians({"plain": compute_only(BinaryAUROC, batches),
                                 "weighted": compute_only(BinaryAUROC, weighted_batches)}, rounds=repeat, number=1,
                                warmup=1)
    notes.append(f"compute() alone (merge_state into a fresh metric + compute), n={n:.0e}: unweighted "
                 f"{alone['plain'] * 1e3:.1f} ms, weighted {alone['weighted'] * 1e3:.1f} ms")
    binned = BinaryAUROC(bins=4096)
    for p, t in batches:
        binned.update(p, t)
    berr = "" if exact is None else f"|error| = {abs(float(binned.compute()) - exact):.1e}, "
    rows.append(("torchmetrics_lite bins=4096", median_time(streamed(lambda: BinaryAUROC(bins=4096), batches),
                                                            repeat=repeat),
                 f"binned; {berr}bound {float(binned.error_bound()):.1e}"))
    rows.append(("floor: np.sort", median_time(lambda: np.sort(scores), repeat=repeat), "one value sort"))
    tm = optional("torchmetrics")
    if tm is not None:
        from torchmetrics.classification import BinaryAUROC as TMAUROC

        peer = streamed(TMAUROC, batches)
        rows.append(("torchmetrics", median_time(peer, repeat=repeat, warmup=0 if slow else 1),
                     f"{tm.__version__}; |diff| = {abs(peer() - value):.1e}"))
        mem = [("torchmetrics_lite", ours), ("torchmetrics", peer)]
        notes += [f"peak memory, n={n:.0e}: " + ", ".join(
            f"{name} {mib(peak_rss_growth(fn))} RSS / {mib(peak_python_memory(fn))} tracemalloc"
            for name, fn in mem)]
    te = optional("torcheval")
    if te is not None:
        from torcheval.metrics import BinaryAUROC as TEAUROC

        peer = streamed(TEAUROC, batches)
        rows.append(("torcheval", median_time(peer, repeat=1 if slow else 3, warmup=0),
                     f"|diff| = {abs(peer() - value):.1e}"))
    if sk is not None:
        rows.append(("scikit-learn roc_auc_score", median_time(lambda: roc_auc_score(labels, scores),
                                                               repeat=1 if slow else 3, warmup=0),
                     "whole arrays, not streamed"))
    return table(f"exact binary AUROC, n={n:.0e} (3-decimal scores, 10% positives, batches of {BATCH:,})",
                 rows, ours="torchmetrics_lite"), notes


def main() -> None:
    sizes = [int(s) for s in os.environ.get("BENCH_AUROC_SIZES", "1000000,10000000").split(",")]
    print(header())
    tables, notes = [], []
    for n in sizes:
        t, nt = bench(n)
        tables.append(t)
        notes += nt
    print_tables(tables)
    print("\n".join(notes))


if __name__ == "__main__":
    main()
