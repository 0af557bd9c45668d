"""Losses: LambdaRank and squared-hinge soft-AUC, forward + backward, single thread, against plain formulations.

1. LambdaRank on 256 lists x 100 items (exponential gain, with and without k=10) against the straightforward
   O(n^2) PyTorch formulation below (sort-based |delta NDCG| weights, broadcasting, autograd for the backward).
   Time (median), the bytes the autograd graph saves (saved_tensors_hooks) and the peak CPU memory of one
   fwd+bwd (torch.profiler memory timeline).
2. Squared-hinge AUC loss over 1e4 .. 1e6 scores (5% positives) against the (positives x negatives) pair-matrix
   form, run where its fwd+bwd (about 4 float32 buffers of pairs) fits in the available memory.

Run: python -m benchmarks.bench_losses
"""
from __future__ import annotations

import warnings
from typing import Callable, Optional

import torch
import torch.nn.functional as F

import losses
from benchmarks._runner import header, median_time, print_tables, table

# --------------------------------------------------------------------------------- the plain formulation


def plain_lambdarank(scores, rel, k: Optional[int] = None, sigma: float = 1.0):
    """LambdaRank as usually written: dense (B, n, n) pair tensors and autograd."""
    n = scores.shape[-1]
    g = torch.pow(2.0, rel) - 1.0
    ranks = torch.argsort(torch.argsort(scores.detach(), dim=-1, descending=True), dim=-1)
    disc_at = 1.0 / torch.log2(torch.arange(n, dtype=scores.dtype) + 2.0)
    if k is not None:
        disc_at[k:] = 0.0
    disc = disc_at[ranks]
    idcg = (torch.sort(g, dim=-1, descending=True).values * disc_at).sum(-1, keepdim=True)
    delta = (g[:, :, None] - g[:, None, :]).abs() * (disc[:, :, None] - disc[:, None, :]).abs() / idcg[:, :, None]
    pairs = (rel[:, :, None] > rel[:, None, :]).to(scores.dtype)
    diff = scores[:, :, None] - scores[:, None, :]
    return (delta * pairs * F.softplus(-sigma * diff)).sum((-1, -2)).mean()


def pair_matrix_squared_hinge(scores, target, margin: float = 1.0):
    d = scores[target][:, None] - scores[~target][None, :]
    return (margin - d).clamp_min(0).pow(2).mean()


# ----------------------------------------------------------------------------------------- measurement


def saved_bytes(fn: Callable[[], torch.Tensor]) -> int:
    """Bytes of the distinct storages the autograd graph of ``fn()`` keeps for backward."""
    seen = {}

    def pack(t):
        seen[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = fn()
    del out
    return sum(seen.values())


def peak_bytes(fn: Callable[[], None]) -> int:
    """Peak CPU memory of the tensors allocated while ``fn()`` runs (torch.profiler memory timeline)."""
    from torch.profiler import ProfilerActivity, profile
    from torch.profiler._memory_profiler import MemoryProfileTimeline

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with profile(activities=[ProfilerActivity.CPU], profile_memory=True, record_shapes=True,
                     with_stack=True) as prof:
            fn()
        _, sizes = MemoryProfileTimeline(prof._memory_profile())._coalesce_timeline(torch.device("cpu"))
    return int(max(sum(s) for s in sizes)) if sizes else 0


def mib(x: int) -> str:
    return f"{x / 2 ** 20:.1f} MiB"


def fwd_bwd(loss_fn, scores, *args, **kwargs):
    def run():
        s = scores.detach().requires_grad_(True)
        loss_fn(s, *args, **kwargs).backward()
    return run


def lambdarank_rows(k: Optional[int]):
    gen = torch.Generator().manual_seed(0)
    scores = torch.randn(256, 100, generator=gen)
    rel = torch.randint(0, 5, (256, 100), generator=gen).float()
    rows = []
    for name, fn in [("losses.lambdarank_loss", losses.lambdarank_loss), ("plain O(n^2) autograd", plain_lambdarank)]:
        run = fwd_bwd(fn, scores, rel, k=k)
        graph = saved_bytes(lambda: fn(scores.detach().requires_grad_(True), rel, k=k))
        rows.append((name, median_time(run, repeat=11, warmup=2),
                     f"graph saves {mib(graph)}, peak {mib(peak_bytes(run))}"))
    return rows


def auc_rows(n: int):
    gen = torch.Generator().manual_seed(1)
    scores = torch.randn(n, generator=gen)
    target = torch.rand(n, generator=gen) < 0.05
    rows = [("losses.soft_auc_loss", median_time(fwd_bwd(losses.soft_auc_loss, scores, target,
                                                         surrogate="squared_hinge"), repeat=5), "O(n log n)")]
    pairs = int(target.sum()) * int((~target).sum())
    if 16 * pairs < 0.7 * available_bytes():
        repeat = 5 if pairs < 1e8 else 1
        rows.append(("pair matrix", median_time(fwd_bwd(pair_matrix_squared_hinge, scores, target), repeat=repeat,
                                                warmup=int(repeat > 1)), f"{pairs:.2e} pairs"))
    else:
        rows.append(("pair matrix", None, f"{pairs:.2e} pairs: does not fit"))
    return rows


def available_bytes() -> int:
    try:
        with open("/proc/meminfo") as f:
            return next(int(line.split()[1]) * 1024 for line in f if line.startswith("MemAvailable"))
    except (OSError, StopIteration):  # pragma: no cover - not Linux
        return 0


def main() -> None:
    torch.set_num_threads(1)
    print(header())
    tables = [table(f"LambdaRank fwd+bwd, 256 lists x 100 items, k={k}", lambdarank_rows(k),
                    ours="losses.lambdarank_loss") for k in (None, 10)]
    for n in (10_000, 100_000, 400_000, 1_000_000):
        tables.append(table(f"squared-hinge soft-AUC fwd+bwd, {n:,} scores, 5% positives", auc_rows(n),
                            ours="losses.soft_auc_loss"))
    print_tables(tables)


if __name__ == "__main__":
    main()
