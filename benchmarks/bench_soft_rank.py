"""Soft rank and the smooth metrics: speed (forward + backward) and the memory the autograd graph keeps.

1. ``losses.soft_rank`` (l2 and kl, strength 1) forward + backward at (256, 100), (64, 1000), (8, 10000) float32,
   single thread, with the number of parallel pooling rounds it took; against torchsort 0.1.10 (C++ PAV) and
   diffsort 0.2.0's bitonic network (``DiffSortNet``: a sort plus an ``(n, n)`` relaxed permutation per list,
   run at n = 100 only) where they install; otherwise the reason is printed.
2. Memory: bytes the graph of one ``soft_rank`` saves per list item at n = 100 .. 10000 (constant: O(n) per
   list), against the pairwise approximate ranks (``method="approx"``, O(n^2)).
3. Each smooth metric of ``losses.smooth`` against the hand-written loss it generalizes, (256, 100) forward +
   backward, timed in alternation.

Run: python -m benchmarks.bench_soft_rank [--quick]
"""
from __future__ import annotations

import sys
import time
from functools import partial
from typing import Callable, Dict, Optional

import torch

import losses
from benchmarks._runner import header, interleaved_medians, median_time, print_tables, table
from benchmarks.bench_losses import saved_bytes
from torchmetrics_lite import functional as F

SHAPES = [(256, 100), (64, 1000), (8, 10000)]
TORCHSORT_REASON = ("pip install torchsort==0.1.10 fails here: in pip's isolated build env the C++ extension build "
                    "stops in torch.utils.cpp_extension._get_cuda_arch_flags (IndexError: list index out of range, "
                    "no CUDA arch list); with --no-build-isolation against this CPU torch its setup raises "
                    "'OSError: CUDA_HOME environment variable is not set'")


def _rounds(x: torch.Tensor, reg: str) -> int:
    """Pooling rounds of one soft_rank call (counted by wrapping the round's block-value step)."""
    import losses.permutahedron as perm

    count = [0]
    original = perm._block_values

    def counting(*args):
        count[0] += 1
        return original(*args)

    perm._block_values = counting
    try:
        losses.soft_rank(x, regularization=reg)
    finally:
        perm._block_values = original
    return count[0] - 2  # the last round finds nothing to pool; the forward reads the blocks once more


def _fwd_bwd(fn: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor) -> Callable[[], None]:
    def run() -> None:
        t = x.detach().requires_grad_(True)
        fn(t).sum().backward()
    return run


def _diffsort(n: int) -> Optional[Callable[[torch.Tensor], torch.Tensor]]:
    try:
        from diffsort import DiffSortNet
    except Exception:
        return None
    net = DiffSortNet("bitonic", n, steepness=10.0)
    return lambda t: net(t)[0]


def soft_rank_rows(quick: bool) -> list:
    tables = []
    for lists, n in SHAPES[:2] if quick else SHAPES:
        x = torch.randn(lists, n, generator=torch.Generator().manual_seed(0))
        rows = []
        for reg in ("l2", "kl"):
            fn = partial(losses.soft_rank, regularization=reg)
            rows.append((f"losses.soft_rank {reg}", median_time(_fwd_bwd(fn, x), repeat=5, warmup=1),
                         f"{_rounds(x, reg)} pooling rounds"))
        try:
            import torchsort  # type: ignore[import-not-found]
            rows.append(("torchsort.soft_rank l2", median_time(_fwd_bwd(torchsort.soft_rank, x), repeat=5), ""))
        except Exception:
            rows.append(("torchsort.soft_rank", None, TORCHSORT_REASON))
        sorter = _diffsort(n) if n <= 100 else None
        if sorter is not None:  # one run: about 8 s here at 256 x 100
            start = time.perf_counter()
            _fwd_bwd(sorter, x)()
            rows.append(("diffsort bitonic (sort + P)", time.perf_counter() - start,
                         "one run; a different relaxation (a sorting network), O(n^2) memory"))
        else:
            why = "not installed" if _diffsort(2) is None else (
                "not run: its cost grows as n^2 log^2 n per list (one fwd+bwd takes ~8 s at 256 x 100 here, so "
                "minutes at this size), and its (n, n) matrices need lists x n^2 x 12 bytes")
            rows.append(("diffsort bitonic", None, why))
        tables.append(table(f"soft rank forward + backward, {lists} x {n} float32", rows, ours="losses.soft_rank l2"))
    return tables


def memory_rows() -> str:
    lines = ["### bytes the autograd graph saves, per list item (8 lists)", "",
             "| n | soft_rank l2 | soft_rank kl | approx ranks (pairwise) |", "|---:|---:|---:|---:|"]
    for n in (100, 1000, 10000):
        x = torch.randn(8, n)
        per = [saved_bytes(lambda reg=reg: losses.soft_rank(x.detach().requires_grad_(True), regularization=reg))
               / x.numel() for reg in ("l2", "kl")]
        if n <= 1000:
            from losses.smooth_metrics import approx_ranks
            mask = torch.ones(8, n)
            pair = saved_bytes(lambda: approx_ranks(x.detach().requires_grad_(True), mask, 1.0)) / x.numel()
            approx = f"{pair:.0f} B"
        else:
            approx = "(not run: 3 GiB)"
        lines.append(f"| {n} | {per[0]:.0f} B | {per[1]:.0f} B | {approx} |")
    return "\n".join(lines) + "\n"


def metric_rows() -> str:
    g = torch.Generator().manual_seed(0)
    s = torch.randn(256, 100, generator=g)
    rel = torch.randint(0, 5, (256, 100), generator=g)
    hits = (rel > 2).long()
    pairs: Dict[str, Callable[[torch.Tensor], torch.Tensor]] = {
        "approx_ndcg_loss": lambda t: losses.approx_ndcg_loss(t, rel, k=10),
        "1 - smooth(ndcg, approx)": lambda t: 1 - losses.smooth(F.retrieval_normalized_dcg)(t, rel, k=10),
        "neural_ndcg_loss": lambda t: losses.neural_ndcg_loss(t, rel, k=10),
        "1 - smooth(ndcg, neural_sort, 50 Sinkhorn)": lambda t: 1 - losses.smooth(
            F.retrieval_normalized_dcg, method="neural_sort", sinkhorn_iters=50)(t, rel, k=10),
        "1 - smooth(ndcg, soft_rank)": lambda t: 1 - losses.smooth(F.retrieval_normalized_dcg,
                                                                   method="soft_rank")(t, rel, k=10),
        "smooth_ap_loss": lambda t: losses.smooth_ap_loss(t, hits),
        "1 - smooth(AP, approx, T=0.01)": lambda t: 1 - losses.smooth(F.retrieval_average_precision,
                                                                       temperature=0.01)(t, hits),
        "1 - smooth(AP, soft_rank)": lambda t: 1 - losses.smooth(F.retrieval_average_precision,
                                                                 method="soft_rank")(t, hits),
        "1 - smooth(MRR, soft_rank)": lambda t: 1 - losses.smooth(F.retrieval_reciprocal_rank,
                                                                  method="soft_rank")(t, hits),
        "soft_auc_loss (one list of 25600)": lambda t: losses.soft_auc_loss(t.reshape(-1), hits.reshape(-1)),
        "1 - smooth(AUROC, soft_rank) (same list)": lambda t: 1 - losses.smooth(
            F.binary_auroc, method="soft_rank")(t.reshape(-1), hits.reshape(-1)),
    }
    times = interleaved_medians({name: _fwd_bwd(fn, s) for name, fn in pairs.items()}, rounds=5, number=3,
                                warmup=1)
    lines = ["### smooth metrics against the hand-written losses, 256 x 100 float32, forward + backward", "",
             "| function | median |", "|---|---:|"]
    lines += [f"| {name} | {times[name] * 1e3:.1f} ms |" for name in pairs]
    return "\n".join(lines) + "\n"


def main(argv: list) -> None:
    torch.set_num_threads(1)
    quick = "--quick" in argv
    print(header())
    print()
    print_tables(soft_rank_rows(quick) + [memory_rows(), metric_rows()])


if __name__ == "__main__":
    main(sys.argv[1:])
