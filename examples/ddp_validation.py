"""Multi-process validation with synced metrics on uneven shards.

Run: torchrun --nproc_per_node=2 examples/ddp_validation.py
(also runs as a single process: python examples/ddp_validation.py)

On two "nodes" of two ranks each (on one machine over loopback; on a cluster, run it once per node with the
first node's address as the endpoint)::

    torchrun --nnodes=2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:29511 \
        --rdzv-id=val examples/ddp_validation.py    # started twice

Each rank evaluates a different, unevenly sized shard of one validation set (the last rank of three or more
gets nothing at all) in a different number of batches, with every family: a classification collection, exact
AUROC and average precision, regression, retrieval with queries split across ranks, and a wrapper
(``ClasswiseWrapper``). ``compute()`` syncs inside, so every rank prints the same, exact global values; rank 0
then recomputes them in one process from the whole set and checks that they agree. Exits non-zero if they do
not. ``SYNC_TIMEOUT`` (seconds, default 600) bounds how long ``compute()`` waits for a rank that never comes.
"""
from __future__ import annotations

import os
import sys
from typing import Dict, Tuple

import torch
import torch.distributed as dist

from torchmetrics_lite import (
    BinaryAUROC,
    BinaryAveragePrecision,
    BinaryF1Score,
    ClasswiseWrapper,
    MeanSquaredError,
    MetricCollection,
    MulticlassAccuracy,
    MulticlassF1Score,
    RetrievalNormalizedDCG,
)

N = 10_000


def validation_set() -> Tuple[torch.Tensor, ...]:
    g = torch.Generator().manual_seed(0)
    labels = torch.randint(0, 2, (N,), generator=g)
    scores = labels * 1.5 + torch.randn(N, generator=g)  # raw scores: no sigmoid needed for rank metrics
    classes = torch.randint(0, 5, (N,), generator=g)
    logits = torch.randn(N, 5, generator=g) + 2 * torch.nn.functional.one_hot(classes, 5)
    query = torch.arange(N) // 50  # 200 queries of 50 items, split across ranks mid-query
    relevance = torch.randint(0, 4, (N,), generator=g)
    ranking = relevance + torch.randn(N, generator=g)
    return scores, labels, logits, classes, query, relevance, ranking


def metrics(sync: bool = True) -> Dict[str, MetricCollection]:
    """The metrics of one evaluation. ``sync=False`` (the single-process reference) is given to the constructors,
    so those metrics never join the other ranks' collectives. ``sync_timeout``: a rank that never reaches
    ``compute()`` makes the others raise after that many seconds instead of waiting for the process group's
    timeout (30 minutes); keep it above the slowest rank's lag (uneven shards finish minutes apart)."""
    kw = {"sync_on_compute": sync, "sync_timeout": float(os.environ.get("SYNC_TIMEOUT", "600"))}
    return {
        "binary": MetricCollection({"auroc": BinaryAUROC(**kw), "ap": BinaryAveragePrecision(**kw),
                                    "f1": BinaryF1Score(from_logits=True, **kw), "mse": MeanSquaredError(**kw)}),
        "multiclass": MetricCollection({"acc": MulticlassAccuracy(num_classes=5, **kw),
                                        "macro_f1": MulticlassF1Score(num_classes=5, average="macro", **kw),
                                        "per_class": ClasswiseWrapper(  # takes its sync settings from the metric
                                            MulticlassAccuracy(num_classes=5, average=None, **kw))}),
        "retrieval": MetricCollection({"ndcg@10": RetrievalNormalizedDCG(k=10, **kw)}),
    }


def shard_bounds(rank: int, world: int) -> Tuple[int, int]:
    """Uneven contiguous shards: rank r gets a share proportional to r + 1; with 3+ ranks the last gets none."""
    data_ranks = world if world < 3 else world - 1
    if rank >= data_ranks:
        return N, N
    weights = [r + 1 for r in range(data_ranks)]
    edges = [0]
    for w in weights:
        edges.append(edges[-1] + N * w // sum(weights))
    edges[-1] = N
    return edges[rank], edges[rank + 1]


def evaluate(lo: int, hi: int, batch_size: int, sync: bool = True) -> Dict[str, float]:
    scores, labels, logits, classes, query, relevance, ranking = validation_set()
    groups = metrics(sync)
    for start in range(lo, hi, batch_size):
        s = slice(start, min(start + batch_size, hi))
        groups["binary"]["auroc"].update(scores[s], labels[s])
        groups["binary"]["ap"].update(scores[s], labels[s])
        groups["binary"]["f1"].update(scores[s], labels[s])
        groups["binary"]["mse"].update(torch.sigmoid(scores[s]), labels[s].float())
        groups["multiclass"].update(logits[s], classes[s])
        groups["retrieval"].update(ranking[s], relevance[s], indexes=query[s])
    out = {}
    for collection in groups.values():
        # every rank must call compute(); the wrapper's per-class values come flattened (multiclassaccuracy_0...)
        out.update({key: float(value) for key, value in collection.compute().items()})
    return out


def say(line: str) -> None:
    """One line in one write: ranks share the output pipe, and print() may write the text and its newline apart
    (unbuffered output), so another rank's line could land in between."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> int:
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if world > 1:
        dist.init_process_group("gloo")
    rank = dist.get_rank() if world > 1 else 0
    lo, hi = shard_bounds(rank, world)
    synced = evaluate(lo, hi, batch_size=700 + 300 * rank)  # different batch counts per rank
    say(f"[rank {rank}/{world}] rows {lo}:{hi} -> " + ", ".join(f"{k} {v:.6f}" for k, v in synced.items()))
    ok = True
    if rank == 0:
        single = evaluate(0, N, batch_size=N, sync=False)
        ok = all(abs(synced[k] - single[k]) <= 1e-9 + 1e-7 * abs(single[k]) for k in single)
        say(f"[rank 0] synced values {'match' if ok else 'DO NOT match'} the single-process values on all "
            f"{N} rows: " + ", ".join(f"{k} {v:.6f}" for k, v in single.items()))
    if world > 1:
        flag = torch.tensor([int(ok)])
        dist.broadcast(flag, src=0)
        ok = bool(flag.item())
        dist.destroy_process_group()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
