"""Learning-to-rank quality: an MLP trained in mini-batches with each ranking loss, ours beside allRank 1.4.3's, each
surrogate judged on the metric it targets (held-out exact NDCG@10, MAP, MRR from ``torchmetrics_lite.functional``)
against the pointwise / softmax baselines.

Data:
1. the MSLR-WEB10K fold-1 5k-row samples the demo uses (43 train / 43 test queries, up to 308 items; fetched once
   from PyPI's rankeval sdist, see ``examples/train_ranker.py``), features squashed and standardised as the demo;
2. a synthetic set from a fixed nonlinear teacher: 5,000 training and 1,000 test queries of 30 items, 24 features
   drawn i.i.d. N(0, 1) per item, a teacher MLP 24-32-32-1 (tanh; weights N(0, 4/fan_in), all drawn from
   ``torch.Generator().manual_seed(1234)``) whose standardised output, plus item noise N(0, 0.3^2) and a per-query
   offset N(0, 1) that no feature reveals (graded relevance is judged per query: the offset moves every grade of
   a list, not its order), is cut at the 60/80/92/98% quantiles of the training values into grades 0..4. The row
   "teacher (ceiling)" ranks the test items by the teacher's noise-free output.

Model: MLP d-64-32-1 (ReLU), Adam (lr 3e-3), 64 queries per batch, the same epochs and seeds for every loss (the
seed fixes the initialisation and the batch order). MSLR batches take a random slate of at most 120 real items per
query (allRank's ``slate_length``). NDCG@10 uses the exponential gain (the NDCG losses train with it, as allRank);
MAP and MRR count grades >= 2 as relevant (lists without one are skipped). The table gives mean +- population sd
over the seeds of the last epoch's held-out metrics.

Judging: each surrogate is compared on the metric it targets (NDCG@10 for the NDCG surrogates and the listwise
losses, MRR for the softmax family, MAP for the pairwise losses) with the best of the three baselines on that
metric (MSE on the grades, sigmoid CE on grade / 4, softmax CE). "wins" means mean - baseline mean > the larger of
the two sds; otherwise the table says "no clear win" with the measured gap.

allRank is loaded by path (``benchmarks/_allrank.py``); it pads with relevance -1, which is what it gets here.
Its ``bce`` is left out: it applies ``BCELoss`` before masking, so the -1 of padded items raises ("all elements
of target should be between 0 and 1") on MSLR's padded lists.

Install: pip install --no-deps allRank==1.4.3
Run: python -m benchmarks.bench_ltr_quality [--seeds 5] [--datasets synthetic,mslr] [--only NAMES] [--slow]
     [--ablations] [--quick]
(--quick: a smoke test, a few hundred queries, 1 seed, a handful of losses; < 10 s)
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Callable

import torch

import losses
from benchmarks._allrank import load_allrank
from torchmetrics_lite.functional import (
    retrieval_average_precision,
    retrieval_normalized_dcg,
    retrieval_reciprocal_rank,
)

Lists = tuple[torch.Tensor, torch.Tensor, torch.Tensor]  # features (q, n, d), grades (q, n), mask (q, n)
LossFn = Callable[[torch.Tensor, torch.Tensor, torch.Tensor], torch.Tensor]
BASELINES = ("MSE", "sigmoid CE", "softmax CE")
METRICS = ("NDCG@10", "MAP", "MRR")


# ------------------------------------------------------------------------------------------------------ losses
def ours(fn: Callable, **kwargs) -> LossFn:
    def loss(scores, rel, mask):
        return fn(scores, rel, mask=mask, validate_args=False, **kwargs)
    return loss


def allrank_fn(fn: Callable, **kwargs) -> LossFn:
    """allRank's calling convention: padded relevance is -1, no mask."""
    def loss(scores, rel, mask):
        return fn(scores, torch.where(mask, rel, torch.full_like(rel, -1.0)), **kwargs)
    return loss


def _ordinal_ours(scores, rel, mask):
    return losses.ordinal_loss(scores[..., None] - torch.arange(4, dtype=scores.dtype), rel, mask=mask,
                               validate_args=False)


# name -> (loss, targeted metric or None for a baseline)
def ablations() -> dict[str, tuple[LossFn, str | None]]:
    """Variants that test why a surrogate did not win (``--ablations``): no cut-off, a sharper approximation."""
    exp = {"gain": "exponential"}
    return {
        "LambdaRank (no cut-off)": (ours(losses.lambdarank_loss, **exp), "NDCG@10"),
        "NeuralNDCG (no cut-off)": (ours(losses.neural_ndcg_loss, sinkhorn_iters=20, **exp), "NDCG@10"),
        "ApproxNDCG T=0.1": (ours(losses.approx_ndcg_loss, temperature=0.1, **exp), "NDCG@10"),
        "soft zero-one sigma=0.25": (ours(losses.pairwise_soft_zero_one_loss, sigma=0.25), "MAP"),
    }


def loss_table(ar, slow: bool = False) -> dict[str, tuple[LossFn, str | None]]:
    exp = {"gain": "exponential"}
    table: dict[str, tuple[LossFn, str | None]] = {
        "MSE": (ours(losses.mean_squared_loss), None),
        "sigmoid CE": (lambda s, r, m: losses.sigmoid_cross_entropy_loss(s, r / 4, mask=m, validate_args=False), None),
        "softmax CE": (ours(losses.softmax_loss), None),
        "LambdaRank@10": (ours(losses.lambdarank_loss, k=10, **exp), "NDCG@10"),
        "NDCG-Loss2++@10": (ours(losses.lambdarank_loss, k=10, weighting="ndcgloss2pp", **exp), "NDCG@10"),
        "NDCG-Loss1": (ours(losses.lambdarank_loss, weighting="ndcgloss1", **exp), "NDCG@10"),
        "NDCG-Loss2": (ours(losses.lambdarank_loss, weighting="ndcgloss2", **exp), "NDCG@10"),
        "ApproxNDCG": (ours(losses.approx_ndcg_loss, temperature=1.0, **exp), "NDCG@10"),
        "Gumbel ApproxNDCG": (ours(losses.gumbel_approx_ndcg_loss, temperature=1.0, sample_size=4, **exp),
                              "NDCG@10"),
        "NeuralNDCG@10": (ours(losses.neural_ndcg_loss, k=10, sinkhorn_iters=20, **exp), "NDCG@10"),
        "NeuralSort CE": (ours(losses.neural_sort_cross_entropy_loss), "NDCG@10"),
        "ListMLE": (ours(losses.listmle_loss), "NDCG@10"),
        "unique softmax": (ours(losses.unique_softmax_loss), "NDCG@10"),
        "poly-1 softmax": (ours(losses.poly1_softmax_loss), "MRR"),
        "RankNet": (ours(losses.ranknet_loss), "MAP"),
        "pairwise hinge": (ours(losses.pairwise_hinge_loss), "MAP"),
        "soft zero-one": (ours(losses.pairwise_soft_zero_one_loss), "MAP"),
        "ARP-Loss2": (ours(losses.lambdarank_loss, weighting="arp2"), "MAP"),
        "ordinal": (_ordinal_ours, None),
    }
    if ar is not None:
        ll = ar["lambdaLoss"].lambdaLoss
        table.update({
            "allRank LambdaRank@10": (allrank_fn(ll, weighing_scheme="lambdaRank_scheme", k=10), "NDCG@10"),
            "allRank NDCG-Loss2++@10": (allrank_fn(ll, weighing_scheme="ndcgLoss2PP_scheme", k=10), "NDCG@10"),
            "allRank NDCG-Loss1": (allrank_fn(ll, weighing_scheme="ndcgLoss1_scheme"), "NDCG@10"),
            "allRank NDCG-Loss2": (allrank_fn(ll, weighing_scheme="ndcgLoss2_scheme"), "NDCG@10"),
            "allRank ApproxNDCG": (allrank_fn(ar["approxNDCG"].approxNDCGLoss, alpha=1.0), "NDCG@10"),
            "allRank ListMLE": (allrank_fn(ar["listMLE"].listMLE), "NDCG@10"),
            "allRank RankNet": (allrank_fn(ll, weighing_scheme=None), "MAP"),
            "allRank ARP-Loss2": (allrank_fn(ll, weighing_scheme="rankNetWeightedByGTDiff_scheme"), "MAP"),
        })
        if slow:  # 20-40x the time of ours on these lists (its Sinkhorn runs to a tolerance with a host sync a step)
            table["allRank NeuralNDCG@10"] = (allrank_fn(ar["neuralNDCG"].neuralNDCG, k=10), "NDCG@10")
    return table


# -------------------------------------------------------------------------------------------------------- data
def synthetic(n_train: int = 5000, n_test: int = 1000, n_items: int = 30, features: int = 24,
              seed: int = 1234) -> tuple[Lists, Lists, torch.Tensor]:
    """``(train, test, teacher scores of the test items)``; see the module docstring."""
    g = torch.Generator().manual_seed(seed)
    teacher = torch.nn.Sequential(torch.nn.Linear(features, 32), torch.nn.Tanh(), torch.nn.Linear(32, 32),
                                  torch.nn.Tanh(), torch.nn.Linear(32, 1))
    with torch.no_grad():
        for p in teacher.parameters():
            p.copy_(torch.randn(p.shape, generator=g) * 2.0 / max(1, p.shape[-1]) ** 0.5)
    out = []
    for q in (n_train, n_test):
        x = torch.randn(q, n_items, features, generator=g)
        with torch.no_grad():
            clean = teacher(x).squeeze(-1)
            clean = (clean - clean.mean()) / clean.std()
        z = clean + 0.3 * torch.randn(q, n_items, generator=g) + torch.randn(q, 1, generator=g)  # + query offset
        out.append((x, z, clean))
    cuts = torch.quantile(out[0][1].flatten(), torch.tensor([0.6, 0.8, 0.92, 0.98]))
    train, test = ((x, torch.bucketize(z, cuts).float(), torch.ones(z.shape, dtype=torch.bool)) for x, z, _ in out)
    return train, test, out[1][2]


def mslr() -> tuple[Lists, Lists] | None:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples"))
    import train_ranker

    train, test, name = train_ranker.load_data(synthetic=False)
    return (train, test) if "MSLR" in name else None


# ------------------------------------------------------------------------------------------------ train / eval
def evaluate(scores: torch.Tensor, rel: torch.Tensor, mask: torch.Tensor) -> dict[str, float]:
    hit = rel >= 2
    keep = (hit & mask).any(-1)
    return {
        "NDCG@10": retrieval_normalized_dcg(scores, rel, mask=mask, k=10, gain="exponential", empty="skip").item(),
        "MAP": retrieval_average_precision(scores[keep], hit[keep], mask=mask[keep]).item(),
        "MRR": retrieval_reciprocal_rank(scores[keep], hit[keep], mask=mask[keep]).item(),
    }


def train_mlp(loss_fn: LossFn, train: Lists, test: Lists, epochs: int, seed: int, batch: int = 64,
              slate: int = 120) -> dict[str, float]:
    x, rel, mask = train
    torch.manual_seed(seed)
    model = torch.nn.Sequential(torch.nn.Linear(x.shape[-1], 64), torch.nn.ReLU(), torch.nn.Linear(64, 32),
                                torch.nn.ReLU(), torch.nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        for idx in torch.randperm(x.shape[0], generator=g).split(batch):
            xb, rb, mb = x[idx], rel[idx], mask[idx]
            if x.shape[1] > slate:  # real items first in random order, at most `slate` per list
                key = torch.rand(len(idx), x.shape[1], generator=g) + (~mb).float()
                perm = torch.argsort(key, dim=-1)[:, :slate]
                xb = torch.gather(xb, 1, perm[..., None].expand(-1, -1, x.shape[-1]).contiguous())
                rb, mb = torch.gather(rb, 1, perm), torch.gather(mb, 1, perm)
            opt.zero_grad()
            loss_fn(model(xb).squeeze(-1), rb, mb).backward()
            opt.step()
    with torch.no_grad():
        return evaluate(model(test[0]).squeeze(-1), test[1], test[2])


def run(name: str, train: Lists, test: Lists, epochs: int, seeds: int, table) -> dict[str, dict[str, list[float]]]:
    results: dict[str, dict[str, list[float]]] = {}
    for label, (fn, _) in table.items():
        start = time.perf_counter()
        runs = [train_mlp(fn, train, test, epochs, seed) for seed in range(seeds)]
        results[label] = {m: [r[m] for r in runs] for m in METRICS}
        secs = (time.perf_counter() - start) / seeds
        print(f"  [{name}] {label:24s} " + "  ".join(f"{m} {statistics.mean(v):.4f}"
                                                    for m, v in results[label].items()) + f"  ({secs:.1f} s/run)",
              flush=True)
    return results


def _ms(v: list[float]) -> str:
    return f"{statistics.mean(v):.4f} +- {statistics.pstdev(v):.4f}"


def verdict(results, label: str, target: str) -> str:
    base = max((b for b in BASELINES if b in results), key=lambda b: statistics.mean(results[b][target]))
    mine, theirs = results[label][target], results[base][target]
    gap = statistics.mean(mine) - statistics.mean(theirs)
    bar = max(statistics.pstdev(mine), statistics.pstdev(theirs))
    word = "wins" if gap > bar else "no clear win"
    return f"{word} ({gap:+.4f} vs {base}, 1 sd = {bar:.4f})"


def markdown(title: str, results, table) -> str:
    lines = [f"**{title}**", "", "| loss | targets | NDCG@10 | MAP | MRR | vs best baseline on its target |",
             "|---|---|---:|---:|---:|---|"]
    for label, (_, target) in table.items():
        if label not in results:
            continue
        r = results[label]
        judged = verdict(results, label, target) if target else ("baseline" if label in BASELINES else "-")
        lines.append(f"| {label} | {target or '-'} | {_ms(r['NDCG@10'])} | {_ms(r['MAP'])} | {_ms(r['MRR'])} | "
                     f"{judged} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--epochs-synthetic", type=int, default=3)
    parser.add_argument("--epochs-mslr", type=int, default=30)
    parser.add_argument("--datasets", default="synthetic,mslr")
    parser.add_argument("--only", default="", help="comma-separated substrings of the loss names to run")
    parser.add_argument("--ablations", action="store_true", help="the baselines and the variants of ablations()")
    parser.add_argument("--slow", action="store_true", help="also allRank's NeuralNDCG (about 45 s a run)")
    parser.add_argument("--quick", action="store_true", help="smoke test: tiny data, 1 seed, 4 losses")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    ar = load_allrank()
    table = loss_table(ar, slow=args.slow)
    if args.ablations:
        table = {**{k: v for k, v in table.items() if k in BASELINES}, **ablations()}
    if args.quick:
        table = {k: v for k, v in table.items() if k in ("MSE", "softmax CE", "LambdaRank@10", "allRank LambdaRank@10")}
    elif args.only:
        table = {k: v for k, v in table.items()
                 if k in BASELINES or any(s in k for s in args.only.split(","))}
    print(f"torch {torch.__version__}, 1 thread; allRank {'loaded by path' if ar else 'not installed'}", flush=True)
    tables = []
    if "synthetic" in args.datasets:
        n_train, n_test = (300, 100) if args.quick else (5000, 1000)
        train, test, clean = synthetic(n_train, n_test)
        seeds, epochs = (1, 1) if args.quick else (args.seeds, args.epochs_synthetic)
        res = run("synthetic", train, test, epochs, seeds, table)
        ceiling = evaluate(clean, test[1], test[2])
        print("  [synthetic] teacher (ceiling)        " + "  ".join(f"{m} {v:.4f}" for m, v in ceiling.items()))
        res["teacher (ceiling)"] = {m: [v] for m, v in ceiling.items()}
        tables.append(markdown(f"synthetic teacher set ({n_train:,} / {n_test:,} queries x 30 items), {epochs} epochs, "
                               f"{seeds} seeds", res, {**table, "teacher (ceiling)": (None, None)}))
        print("\n" + tables[-1] + "\n", flush=True)  # each data set's table as soon as it is done
    if "mslr" in args.datasets and not args.quick:
        data = mslr()
        if data is None:
            print("the MSLR sample could not be fetched: skipped")
        else:
            res = run("mslr", *data, args.epochs_mslr, args.seeds, table)
            tables.append(markdown(f"MSLR-WEB10K 5k sample ({data[0][0].shape[0]} train / {data[1][0].shape[0]} "
                                   f"test queries), {args.epochs_mslr} epochs, {args.seeds} seeds", res, table))
    print("\n" + "\n\n".join(tables))


if __name__ == "__main__":
    main()
