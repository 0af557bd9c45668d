"""Losses: LambdaRank and squared-hinge soft-AUC, forward + backward, single thread, against plain formulations.

1. LambdaRank on 256 lists x 100 items (exponential gain, with and without k=10) against the straightforward
   O(n^2) PyTorch formulation below (sort-based |delta NDCG| weights, broadcasting, autograd for the backward).
   Time (median), the bytes the autograd graph saves (saved_tensors_hooks) and the peak CPU memory of one
   fwd+bwd (torch.profiler memory timeline).
2. Squared-hinge AUC loss over 1e4 .. 1e6 scores (5% positives) against the (positives x negatives) pair-matrix
   form, run where its fwd+bwd (about 4 float32 buffers of pairs) fits in the available memory.
3. NeuralNDCG@10 (temperature 1, 50 Sinkhorn iterations) on 64 lists x n = 100, 500, 1000 against allRank 1.4.3's
   ``neuralNDCG``: time of one fwd+bwd (median; interleaved, ours then allRank's, in each round) and the peak
   resident memory of one fwd+bwd, measured in a fresh child process each (``VmHWM`` minus the baseline after
   the inputs exist and the code paths ran once on tiny inputs). allRank's loss files are loaded by path, as
   ``bench_ltr_quality`` explains
   (``pip install --no-deps allRank==1.4.3``); its Sinkhorn stops early once rows and columns are within 1e-6 of
   1, ours always runs its 50 iterations (no host sync).

Run: python -m benchmarks.bench_losses [--only neural]
     python -m benchmarks.bench_losses --ranking [...]  (the ranking losses of issue 32: benchmarks/_ranking_losses.py)
"""
from __future__ import annotations

import statistics
import time
import warnings
from functools import partial
from typing import Callable

import torch
import torch.nn.functional as F

import losses
from benchmarks._runner import header, median_time, print_tables, table

# --------------------------------------------------------------------------------- the plain formulation


def plain_lambdarank(scores, rel, k: int | None = None, sigma: float = 1.0):
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


def lambdarank_rows(k: int | None):
    gen = torch.Generator().manual_seed(0)
    scores = torch.randn(256, 100, generator=gen)
    rel = torch.randint(0, 5, (256, 100), generator=gen).float()
    rows = []
    for name, fn in [("losses.lambdarank_loss", partial(losses.lambdarank_loss, gain="exponential")),
                     ("plain O(n^2) autograd", plain_lambdarank)]:
        run = fwd_bwd(fn, scores, rel, k=k)
        graph = saved_bytes(lambda fn=fn: fn(scores.detach().requires_grad_(True), rel, k=k))
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


def _neural_inputs(n: int):
    gen = torch.Generator().manual_seed(2)
    return torch.randn(64, n, generator=gen), torch.randint(0, 5, (64, n), generator=gen).float()


def _neural_impls():
    from benchmarks.bench_ltr_quality import load_allrank

    ar = load_allrank()
    impls = {"losses.neural_ndcg_loss": partial(losses.neural_ndcg_loss, k=10, temperature=1.0, gain="exponential",
                                                   validate_args=False)}
    if ar is not None:
        impls["allRank neuralNDCG"] = partial(ar["neuralNDCG"].neuralNDCG, k=10, temperature=1.0)
    return impls


def _high_water_mark() -> int:
    """Peak resident set of this process, bytes (``VmHWM``: reset by exec, unlike ``ru_maxrss``, which keeps the
    peak of the forking parent and so hid the child's own peak)."""
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmHWM"))


def _peak_child(name: str, n: int) -> None:
    """Child process: print the peak RSS growth (bytes) of one fwd+bwd of ``name`` at 64 x ``n``."""
    torch.set_num_threads(1)
    fn = _neural_impls()[name]
    scores, rel = _neural_inputs(n)
    # load the code paths (checkpointed blocks too) on tiny inputs, so that the baseline holds them but no large
    # buffer that the measured call could reuse without growing the resident set
    fn(torch.randn(2, 8, requires_grad=True), torch.randint(0, 5, (2, 8)).float()).sum().backward()
    tiny = torch.randn(2, 8, requires_grad=True)
    losses.neural_ndcg_loss(tiny, torch.randint(0, 5, (2, 8)).float(), chunk_size=1).backward()
    base = _high_water_mark()
    s = scores.requires_grad_(True)
    fn(s, rel).backward()
    print(_high_water_mark() - base)


def _peak_rss(name: str, n: int) -> int | None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "benchmarks.bench_losses", "--peak", name, str(n)],
                         check=False, capture_output=True, text=True)
    if out.returncode != 0:  # e.g. killed for memory: say so instead of a number
        return f"child failed (rc {out.returncode}): {(out.stderr.strip().splitlines() or [''])[-1][:80]}"
    return int(out.stdout.strip().splitlines()[-1])


def neural_rows(n: int, skip: dict | None = None):
    """Rows of the NeuralNDCG table; ``skip`` maps implementations that would not fit to the reason."""
    scores, rel = _neural_inputs(n)
    skip = skip or {}
    impls = {name: fn for name, fn in _neural_impls().items() if name not in skip}
    repeat = 3 if n <= 500 else 2
    runs = {name: fwd_bwd(fn, scores, rel) for name, fn in impls.items()}
    times = {name: [] for name in runs}
    for name, run in runs.items():  # warm-up
        run()
    for _ in range(repeat):  # interleaved: machine load hits every row alike
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    rows = []
    for name in runs:
        peak = _peak_rss(name, n)
        note = f"peak RSS growth {mib(peak)}" if isinstance(peak, int) else f"peak RSS: {peak}"
        rows.append((name, statistics.median(times[name]), note))
    return rows + [(name, None, reason) for name, reason in skip.items()]


def neural_tables():
    """One table per n. allRank's Sinkhorn keeps a (64, n, n) matrix per half-step in the graph (about 110 of them
    at 50 iterations: 7 GiB at n = 500, 28 GiB at n = 1000); it is not run where that would not fit in 60% of the
    available memory (measured peaks, when a smaller n gave one, are extrapolated instead of that estimate)."""
    tables, peaks = [], {}
    for n in (100, 500, 1000):
        need = {"allRank neuralNDCG": 110 * 64 * n * n * 4}
        for name, (n_prev, peak) in peaks.items():  # O(n^2) memory: extrapolate from the previous size
            need[name] = peak * (n / n_prev) ** 2
        skip = {name: f"not run: needs about {b / 2 ** 30:.0f} GiB, {available_bytes() / 2 ** 30:.0f} GiB available"
                for name, b in need.items() if b > 0.6 * available_bytes()}
        rows = neural_rows(n, skip)
        for name, _, note in rows:
            if note.startswith("peak RSS growth"):
                peaks[name] = (n, float(note.split()[-2]) * 2 ** 20)
        tables.append(table(f"NeuralNDCG@10 fwd+bwd, 64 lists x {n} items", rows, ours="losses.neural_ndcg_loss"))
        print(tables[-1], flush=True)
    return tables


def main() -> None:
    import sys

    if len(sys.argv) == 4 and sys.argv[1] == "--peak":
        _peak_child(sys.argv[2], int(sys.argv[3]))
        return
    if "--ranking" in sys.argv:
        from benchmarks._ranking_losses import main as ranking

        return ranking(sys.argv[sys.argv.index("--ranking") + 1:])
    torch.set_num_threads(1)
    print(header())
    if "--only" in sys.argv and "neural" in sys.argv:
        neural_tables()  # each table is printed as it completes
        return
    tables = [table(f"LambdaRank fwd+bwd, 256 lists x 100 items, k={k}", lambdarank_rows(k),
                    ours="losses.lambdarank_loss") for k in (None, 10)]
    for n in (10_000, 100_000, 400_000, 1_000_000):
        tables.append(table(f"squared-hinge soft-AUC fwd+bwd, {n:,} scores, 5% positives", auc_rows(n),
                            ours="losses.soft_auc_loss"))
    print_tables(tables)
    neural_tables()


if __name__ == "__main__":
    main()
