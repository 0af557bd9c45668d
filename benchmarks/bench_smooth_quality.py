"""Learning-to-rank quality of the smooth metrics (``losses.smooth``): an MLP trained to maximise smooth MRR, MAP and
NDCG@10 directly, judged by the exact held-out NDCG@10, MAP and MRR (``torchmetrics_lite.functional``).

The same data, model and training loop as ``benchmarks.bench_ltr_quality`` (MSLR-WEB10K 5k-row samples and the
synthetic teacher set; MLP 136-64-1, Adam 2e-3, 32 queries a batch, slates of at most 120 items, 3 seeds), with
ApproxNDCG and NeuralNDCG@10 as the reference rows. MRR and MAP count grades >= 1 as relevant. The smooth rows are
one dictionary, :func:`smooth_loss_table`, which that benchmark's loss table can take in as it is.

Run: python -m benchmarks.bench_smooth_quality [--epochs-mslr 30] [--epochs-synthetic 4] [--seeds 3]
     [--datasets mslr,synthetic]
"""
from __future__ import annotations

import argparse
import statistics
import time

import torch

import losses
from benchmarks.bench_ltr_quality import Lists, LossFn, mslr, ours, synthetic
from torchmetrics_lite import functional as F


def smooth_loss(metric, *, method: str, temperature: float, **options) -> LossFn:
    """``1 - smooth(metric)`` in the benchmark's calling convention ``(scores, rel, mask)``."""
    f = losses.smooth(metric, method=method, temperature=temperature)

    def loss(scores, rel, mask):
        return 1.0 - f(scores, rel, mask=mask, validate_args=False, **options)
    return loss


def smooth_loss_table() -> dict[str, LossFn]:
    ndcg, ap, rr = F.retrieval_normalized_dcg, F.retrieval_average_precision, F.retrieval_reciprocal_rank
    return {
        "smooth NDCG@10 (soft_rank)": smooth_loss(ndcg, method="soft_rank", temperature=1.0, k=10,
                                                  gain="exponential"),
        "smooth NDCG@10 (approx)": smooth_loss(ndcg, method="approx", temperature=1.0, k=10, gain="exponential"),
        "smooth NDCG@10 (bound)": smooth_loss(ndcg, method="bound", temperature=1.0, k=10, gain="exponential"),
        "smooth MAP (approx)": smooth_loss(ap, method="approx", temperature=1.0),
        "smooth MAP (soft_rank)": smooth_loss(ap, method="soft_rank", temperature=1.0),
        "smooth MRR (approx)": smooth_loss(rr, method="approx", temperature=1.0),
        "smooth MRR (soft_rank)": smooth_loss(rr, method="soft_rank", temperature=1.0),
    }


def reference_table() -> dict[str, LossFn]:
    return {"ours ApproxNDCG": ours(losses.approx_ndcg_loss, temperature=1.0, gain="exponential"),
            "ours NeuralNDCG@10": ours(losses.neural_ndcg_loss, k=10, temperature=1.0, gain="exponential")}


def _exact(scores: torch.Tensor, rel: torch.Tensor, mask: torch.Tensor) -> tuple[float, float, float]:
    return (F.retrieval_normalized_dcg(scores, rel, mask=mask, k=10, gain="exponential", empty="skip").item(),
            F.retrieval_average_precision(scores, rel, mask=mask, empty="skip").item(),
            F.retrieval_reciprocal_rank(scores, rel, mask=mask, empty="skip").item())


def train_model(loss_fn: LossFn, train: Lists, epochs: int, seed: int, batch: int = 32,
                slate: int = 120) -> torch.nn.Module:
    """The training loop of ``bench_ltr_quality.train_mlp`` (same model, optimiser, slates, seeds), returning the
    model so that all three exact metrics can be read."""
    x, rel, mask = train
    torch.manual_seed(seed)
    model = torch.nn.Sequential(torch.nn.Linear(x.shape[-1], 64), torch.nn.ReLU(), torch.nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    g = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        for idx in torch.randperm(x.shape[0], generator=g).split(batch):
            key = torch.rand(len(idx), x.shape[1], generator=g) + (~mask[idx]).float()
            perm = torch.argsort(key, dim=-1)[:, :slate]
            xb = torch.gather(x[idx], 1, perm[..., None].expand(-1, -1, x.shape[-1]).contiguous())
            rb, mb = torch.gather(rel[idx], 1, perm), torch.gather(mask[idx], 1, perm)
            opt.zero_grad()
            loss_fn(model(xb).squeeze(-1), rb, mb).backward()
            opt.step()
    return model


def run(train: Lists, test: Lists, epochs: int, seeds: int, fns: dict[str, LossFn]) -> list[tuple]:
    rows = []
    for label, fn in fns.items():
        start = time.perf_counter()
        scores = []
        for seed in range(seeds):
            model = train_model(fn, train, epochs, seed)
            with torch.no_grad():
                scores.append(_exact(model(test[0]).squeeze(-1), test[1], test[2]))
        secs = (time.perf_counter() - start) / seeds
        rows.append((label, scores, secs))
        means = [statistics.mean(v[i] for v in scores) for i in range(3)]
        print(f"  {label:28s} NDCG@10 {means[0]:.4f}  MAP {means[1]:.4f}  MRR {means[2]:.4f}  ({secs:.1f} s/run)",
              flush=True)
    return rows


def markdown(title: str, rows: list[tuple]) -> str:
    lines = [f"**{title}**", "", "| loss | NDCG@10 | MAP | MRR | s per run |", "|---|---:|---:|---:|---:|"]
    for label, vals, secs in rows:
        cells = [f"{statistics.mean(v[i] for v in vals):.4f} +- {statistics.pstdev([v[i] for v in vals]):.4f}"
                 for i in range(3)]
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {secs:.1f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs-mslr", type=int, default=30)
    parser.add_argument("--epochs-synthetic", type=int, default=4)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--datasets", default="mslr,synthetic")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    fns = {**reference_table(), **smooth_loss_table()}
    train, test = mslr()
    tables = []
    if "mslr" in args.datasets:
        tables.append(markdown(f"MSLR-WEB10K 5k sample, {args.epochs_mslr} epochs, {args.seeds} seeds",
                               run(train, test, args.epochs_mslr, args.seeds, fns)))
    if "synthetic" in args.datasets:
        syn_train, syn_test = synthetic(train, test)
        tables.append(markdown(f"synthetic teacher set (2,000 / 500 queries x 100 items), {args.epochs_synthetic} "
                               f"epochs, {args.seeds} seeds", run(syn_train, syn_test, args.epochs_synthetic,
                                                                  args.seeds, fns)))
    print("\n" + "\n\n".join(tables))


if __name__ == "__main__":
    main()
