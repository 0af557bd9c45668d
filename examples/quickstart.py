"""Quickstart: exact metrics as functions and as streaming modules, a collection, retrieval with query ids, a loss.

Run: python examples/quickstart.py   (a few seconds on a CPU; no data to download)

1. Binary classification: the exact AUROC of scores seen in batches equals the one-shot functional value.
2. A ``MetricCollection``: AUROC, average precision, F1 and accuracy fed together, with per-batch values.
3. Retrieval: flat rows with a query id each (``indexes``), one query split over two batches.
4. A loss: a linear ranker trained with LambdaRank@10, judged by the exact NDCG@10.
"""
from __future__ import annotations

from typing import Dict, List, Tuple

import torch
from torch import Tensor

import losses
import torchmetrics_lite as tml
from torchmetrics_lite.functional import binary_auroc, retrieval_normalized_dcg


def make_classifier_batches(n_batches: int = 5, batch: int = 200) -> List[Tuple[Tensor, Tensor]]:
    """Scores of a noisy binary classifier (raw logits, not probabilities) and 0/1 labels, in batches."""
    g = torch.Generator().manual_seed(0)
    out = []
    for _ in range(n_batches):
        labels = (torch.rand(batch, generator=g) < 0.3).long()
        logits = 1.5 * labels - 0.75 + torch.randn(batch, generator=g)
        out.append((logits, labels))
    return out


def make_ranking_data(queries: int = 50, items: int = 20, features: int = 8) -> Tuple[Tensor, Tensor]:
    """Item features ``(queries, items, features)`` and graded relevance 0..4 that depends on them (with noise);
    every query has at least one relevant item."""
    g = torch.Generator().manual_seed(1)
    x = torch.randn(queries, items, features, generator=g)
    w = torch.randn(features, generator=g)
    signal = x @ w + 0.5 * torch.randn(queries, items, generator=g)
    relevance = torch.bucketize(signal, torch.tensor([0.0, 1.0, 2.0, 3.0])).float()
    relevance[:, 0] = relevance[:, 0].clamp(min=1.0)
    return x, relevance


def classification(batches: List[Tuple[Tensor, Tensor]]) -> Dict[str, float]:
    # 1. A module streams batches; its compute() equals the function on everything at once.
    auroc = tml.BinaryAUROC()
    for logits, labels in batches:
        auroc.update(logits, labels)  # rank metrics use the scores' order only: logits are fine as they are
    all_logits = torch.cat([b[0] for b in batches])
    all_labels = torch.cat([b[1] for b in batches])
    one_shot = binary_auroc(all_logits, all_labels)
    print(f"AUROC streamed {auroc.compute().item():.6f} == one shot {one_shot.item():.6f}")

    # 2. A collection: one update feeds every member; thresholded members need from_logits=True for logits.
    val = tml.MetricCollection({
        "auroc": tml.BinaryAUROC(),
        "ap": tml.BinaryAveragePrecision(),
        "f1": tml.BinaryF1Score(from_logits=True),
        "acc": tml.BinaryAccuracy(from_logits=True),
    }, prefix="val/")
    for step, (logits, labels) in enumerate(batches):
        batch_values = val(logits, labels)  # forward: this batch's values, and the batch is merged
        if step == 0:
            print("first batch:", {k: round(v.item(), 4) for k, v in batch_values.items()})
    epoch = {k: v.item() for k, v in val.compute().items()}  # in a process group this syncs every rank
    print("epoch:      ", {k: round(v, 4) for k, v in epoch.items()})
    return epoch


def retrieval(scores: Tensor, relevance: Tensor) -> Dict[str, float]:
    # 3. Flat rows: (score, relevance, query id); ids are any integers in any order, a query may span batches.
    queries, items = scores.shape
    ids = torch.arange(queries).repeat_interleave(items) * 10 + 3  # arbitrary ids: 3, 13, 23, ...
    perm = torch.randperm(queries * items, generator=torch.Generator().manual_seed(2))
    flat_s, flat_r, flat_q = scores.flatten()[perm], relevance.flatten()[perm], ids[perm]
    metrics = tml.MetricCollection({"ndcg@10": tml.RetrievalNormalizedDCG(k=10), "map": tml.RetrievalMAP()})
    half = flat_s.numel() // 2
    metrics.update(flat_s[:half], flat_r[:half], indexes=flat_q[:half])
    metrics.update(flat_s[half:], flat_r[half:], indexes=flat_q[half:])
    values = {k: v.item() for k, v in metrics.compute().items()}
    dense = retrieval_normalized_dcg(scores, relevance, k=10).item()  # the same queries as a dense block
    print(f"NDCG@10 from flat rows {values['ndcg@10']:.6f} == dense {dense:.6f}; MAP {values['map']:.4f}")
    return values


def train_ranker(x: Tensor, relevance: Tensor, steps: int = 60) -> Tuple[float, float]:
    # 4. A differentiable surrogate trains what the exact metric measures.
    torch.manual_seed(0)
    model = torch.nn.Linear(x.shape[-1], 1)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)

    def ndcg() -> float:
        with torch.no_grad():
            return retrieval_normalized_dcg(model(x).squeeze(-1), relevance, k=10).item()

    before = ndcg()
    for _ in range(steps):
        opt.zero_grad()
        loss = losses.lambdarank_loss(model(x).squeeze(-1), relevance, k=10)  # lists on the last dimension
        loss.backward()
        opt.step()
    after = ndcg()
    print(f"LambdaRank@10: NDCG@10 {before:.4f} -> {after:.4f} after {steps} steps")
    return before, after


def main() -> Dict[str, float]:
    batches = make_classifier_batches()
    out = classification(batches)
    x, relevance = make_ranking_data()
    random_scores = torch.randn(relevance.shape, generator=torch.Generator().manual_seed(3))
    out.update(retrieval(random_scores, relevance))
    out["ndcg_before"], out["ndcg_after"] = train_ranker(x, relevance)
    return out


if __name__ == "__main__":
    main()
