"""Speed of the ranking losses added for issue 32, forward + backward, against allRank 1.4.3's implementation where
it has one (loaded by path, ``benchmarks/_allrank.py``), at (lists, items) = (64, 100) and (256, 1000).

Each row times ``loss(scores, rel).backward()`` on float32 CPU tensors (1 thread), ours and the anchor in
alternating rounds in one process (the median of the rounds; the machine may be shared, so read the ratios). Where
the two compute the same quantity, the row also gives the largest relative difference of the values (allRank's
LambdaLoss sums ``log2`` over pairs, ours natural log: compared after the factor ``1 / ln 2``; its NDCG-Loss1 also
counts the constant ``i = j`` terms, added back); the agreement is checked in float64 at the small size only.
At (256, 1000) allRank's LambdaLoss builds about eight (256, 1000, 1000) float32 tensors (~8 GB), so the anchors
run there in blocks of 32 lists, timed together (the same work; ours blocks its pairs internally anyway).

Run: python -m benchmarks.bench_losses --ranking [--sizes 64x100,256x1000] [--rounds 5] [--only NAMES]
"""
from __future__ import annotations

import argparse
import math
import statistics
import time
from typing import Callable, Optional

import torch

import losses
from benchmarks._allrank import load_allrank

Fn = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


def _ndcg1_constant(scores: torch.Tensor, rel: torch.Tensor) -> torch.Tensor:
    """allRank's i = j terms of NDCG-Loss1: sum_i G_i / D(r_i) / IDCG (log2(sigmoid(0)) = -1 each)."""
    g = 2.0 ** rel - 1
    order = torch.argsort(scores, dim=-1, descending=True)
    d = torch.log2(torch.arange(2, scores.shape[-1] + 2, dtype=scores.dtype))
    ideal = (torch.sort(g, dim=-1, descending=True).values / d).sum(-1).clamp_min(1e-10)
    return ((torch.gather(g, -1, order) / d).sum(-1) / ideal).sum()


def cases(ar) -> dict[str, tuple[Fn, Optional[Fn], Optional[Callable]]]:
    """name -> (ours, allRank's or None, how to map our value onto theirs for the agreement column or None)."""
    ll = ar["lambdaLoss"].lambdaLoss if ar else None
    exp = {"gain": "exponential", "reduction": "sum", "validate_args": False}
    ln2 = 1 / math.log(2)

    def lam(scheme, **kw):
        return (lambda s, r: ll(s, r, weighing_scheme=scheme, **kw)) if ll else None

    return {
        "NDCG-Loss1": (lambda s, r: losses.lambdarank_loss(s, r, weighting="ndcgloss1", **exp),
                       lam("ndcgLoss1_scheme"), lambda v, s, r: v * ln2 + _ndcg1_constant(s, r)),
        "NDCG-Loss2": (lambda s, r: losses.lambdarank_loss(s, r, weighting="ndcgloss2", **exp),
                       lam("ndcgLoss2_scheme"), lambda v, s, r: v * ln2),
        "ARP-Loss2": (lambda s, r: losses.lambdarank_loss(s, r, weighting="arp2", **exp),
                      lam("rankNetWeightedByGTDiff_scheme"), lambda v, s, r: v * ln2),
        "ARP-Loss1": (lambda s, r: losses.lambdarank_loss(s, r, weighting="arp1", **exp), None, None),
        "pairwise hinge": (lambda s, r: losses.pairwise_hinge_loss(s, r, validate_args=False), None, None),
        "soft zero-one": (lambda s, r: losses.pairwise_soft_zero_one_loss(s, r, validate_args=False), None, None),
        "unique softmax": (lambda s, r: losses.unique_softmax_loss(s, r, validate_args=False), None, None),
        "poly-1 softmax": (lambda s, r: losses.poly1_softmax_loss(s, r, validate_args=False), None, None),
        "Gumbel ApproxNDCG (8 samples)": (  # blocks of 16 lists: whole, 8 samples of (256, 1000, 1000) need ~16 GB
            lambda s, r: losses.gumbel_approx_ndcg_loss(s, r, chunk_size=16, validate_args=False), None, None),
        "NeuralSort CE": (lambda s, r: losses.neural_sort_cross_entropy_loss(s, r, validate_args=False), None, None),
        "ordinal (4 thresholds)": (
            lambda s, r: losses.ordinal_loss(s[..., None].expand(*s.shape, 4), r, validate_args=False),
            (lambda s, r: ar["ordinal"].ordinal(torch.sigmoid(s[..., None].expand(*s.shape, 4)), r, 4)) if ar else None,
            None),
        "sigmoid CE": (lambda s, r: losses.sigmoid_cross_entropy_loss(s, r / 4, validate_args=False),
                       (lambda s, r: ar["bce"].bce(torch.sigmoid(s), r / 4)) if ar else None, None),
        "MSE": (lambda s, r: losses.mean_squared_loss(s, r, validate_args=False), None, None),
    }


def _time(fn: Fn, scores: torch.Tensor, rel: torch.Tensor, block: Optional[int] = None) -> float:
    s = scores.clone().requires_grad_()
    start = time.perf_counter()
    if block is None:
        fn(s, rel).backward()
    else:
        for i in range(0, s.shape[0], block):
            fn(s[i:i + block], rel[i:i + block]).backward()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="64x100,256x1000")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", default="")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    ar = load_allrank()
    table = cases(ar)
    if args.only:
        table = {k: v for k, v in table.items() if any(s in k for s in args.only.split(","))}
    print(f"torch {torch.__version__}, 1 thread, float32; allRank {'loaded by path' if ar else 'not installed'}")
    print("| loss | lists x items | ours ms | allRank ms | allRank / ours | value rel. diff |")
    print("|---|---|---:|---:|---:|---:|")
    for size in args.sizes.split(","):
        b, n = (int(v) for v in size.split("x"))
        g = torch.Generator().manual_seed(0)
        scores, rel = torch.randn(b, n, generator=g), torch.randint(0, 5, (b, n), generator=g).float()
        rounds = args.rounds if b * n <= 10 ** 5 else max(1, args.rounds // 2)
        for name, (mine, theirs, to_theirs) in table.items():
            t_mine, t_theirs = [], []
            for _ in range(rounds):  # alternating rounds
                t_mine.append(_time(mine, scores, rel))
                if theirs is not None:
                    t_theirs.append(_time(theirs, scores, rel, None if b * n <= 10 ** 5 else 32))
            ms = statistics.median(t_mine) * 1e3
            other = f"{statistics.median(t_theirs) * 1e3:.1f}" if t_theirs else "-"
            ratio = f"{statistics.median(t_theirs) * 1e3 / ms:.2f}" if t_theirs else "-"
            diff = "-"
            if theirs is not None and to_theirs is not None and b * n <= 10 ** 5:
                with torch.no_grad():
                    a = to_theirs(mine(scores.double(), rel.double()), scores.double(), rel.double())
                    c = theirs(scores.double(), rel.double())
                diff = f"{abs(a.item() - c.item()) / max(abs(c.item()), 1e-12):.1e}"
            print(f"| {name} | {b} x {n} | {ms:.1f} | {other} | {ratio} | {diff} |", flush=True)


if __name__ == "__main__":
    main()
