"""Per-rank scenarios of the sync handshake, run inside the gloo groups of ``tests/torchmetrics_lite/test_sync.py``.

Every function takes the rank (and the world size) and returns what that rank saw: ``("raised", message)`` or
``("returned", value)``, so the tests can check that each mismatch raises the same text on every rank and that
no values come back. In each scenario the *last* rank differs from the others in exactly one thing.
"""
from __future__ import annotations

import time
from typing import Any, Callable, Dict, Tuple

import torch

from torchmetrics_lite import (
    BinaryAUROC,
    BinaryF1Score,
    MeanMetric,
    MetricCollection,
    MulticlassAccuracy,
    MulticlassAUROC,
    SumMetric,
    sync,
)
from torchmetrics_lite.metric import Fold

Outcome = Tuple[str, Any]


def outcome(fn: Callable[[], Any]) -> Outcome:
    try:
        return "returned", fn()
    except RuntimeError as err:
        return "raised", str(err)


def _fold_sum(stack: torch.Tensor) -> torch.Tensor:
    return stack.sum(0)


def _fold_max(stack: torch.Tensor) -> torch.Tensor:
    return stack.amax(0)


def _raw(odd: bool, field: str) -> Dict[str, Any]:
    """``reduce_states`` arguments in which ``field`` alone differs on the odd rank."""
    f64 = torch.float64
    states: Dict[str, torch.Tensor] = {"n": torch.ones(3, dtype=f64)}
    reductions: Dict[str, Any] = {"n": "sum"}
    names, options = ["m"], ["k=1"]
    if field == "member name" and odd:
        names = ["other"]
    elif field == "options" and odd:
        options = ["k=2"]
    elif field == "state name" and odd:
        states, reductions = {"other": states["n"]}, {"other": "sum"}
    elif field == "reduction" and odd:
        reductions = {"n": "max"}
    elif field == "fold":
        reductions = {"n": Fold(_fold_max if odd else _fold_sum)}
    elif field == "dtype" and odd:
        states = {"n": torch.ones(3, dtype=torch.float32)}
    elif field == "shape" and odd:
        states = {"n": torch.ones(4, dtype=f64)}
    elif field == "cat row shape":
        states, reductions = {"n": torch.ones(5, 4 if odd else 3, dtype=f64)}, {"n": "cat"}
    elif field == "cat row shape, empty rank":
        states, reductions = {"n": torch.ones(0 if odd else 5, 4 if odd else 3, dtype=f64)}, {"n": "cat"}
    elif field == "one more state" and odd:
        states, reductions = {**states, "extra": torch.zeros((), dtype=f64)}, {**reductions, "extra": "sum"}
    elif field == "one more metric" and odd:
        return {"items": [(states, reductions), (states, reductions)], "names": names * 2, "options": options * 2}
    return {"items": [(states, reductions)], "names": names, "options": options}


#: Each field of the fingerprint: changing it alone on one rank must raise on every rank.
FIELDS = ("member name", "options", "state name", "reduction", "fold", "dtype", "shape", "cat row shape",
          "cat row shape, empty rank", "one more state", "one more metric")


def fields(rank: int, world: int) -> Dict[str, Outcome]:
    out = {}
    for field in FIELDS:
        kwargs = _raw(rank == world - 1, field)
        out[field] = outcome(lambda: sync.reduce_states(timeout=60, **kwargs))  # a mutant fails, never hangs
    return out


# ------------------------------------------------------------------ real metrics
def _accuracy(rank: int, world: int) -> Any:
    m = MulticlassAccuracy(num_classes=4 if rank == world - 1 else 3)
    m.update(torch.tensor([0, 1, 2]), torch.tensor([0, 1, 1]))
    return m.compute()


def _class(rank: int, world: int) -> Any:
    m = BinaryF1Score() if rank == world - 1 else BinaryAUROC()
    m.update(torch.tensor([0.2, 0.7]), torch.tensor([0, 1]))
    return m.compute()


def _member_missing(rank: int, world: int) -> Any:
    members = {"a": SumMetric()} if rank == world - 1 else {"a": SumMetric(), "b": MeanMetric()}
    mc = MetricCollection(members)
    mc.update(torch.tensor([1.0, 2.0]))
    return mc.compute()


def _max_fpr(rank: int, world: int) -> Any:
    m = BinaryAUROC(max_fpr=None if rank == world - 1 else 0.5)  # a config read per rank
    m.update(torch.tensor([0.1, 0.4, 0.35, 0.8, 0.6]), torch.tensor([0, 0, 1, 1, 0]))
    return m.compute()


def _auroc_classes(rank: int, world: int) -> Any:
    c = 4 if rank == world - 1 else 3
    m = MulticlassAUROC(num_classes=c)
    m.update(torch.rand(6, c, generator=torch.Generator().manual_seed(rank)), torch.arange(6) % c)
    return m.compute()


def _swapped_same_site(rank: int, world: int) -> Any:
    train, val = [BinaryF1Score() for _ in range(2)]  # one line: identities #1 and #2
    train.update(torch.tensor([0.9, 0.8]), torch.tensor([1, 1]))
    val.update(torch.tensor([0.9, 0.1]), torch.tensor([0, 1]))
    first, second = (val, train) if rank == world - 1 else (train, val)
    return outcome(first.compute), outcome(second.compute)


def _swapped_attributes(rank: int, world: int) -> Any:
    train = BinaryF1Score()
    val = BinaryF1Score()
    train.update(torch.tensor([0.9, 0.8]), torch.tensor([1, 1]))
    val.update(torch.tensor([0.9, 0.1]), torch.tensor([0, 1]))
    first, second = (val, train) if rank == world - 1 else (train, val)
    return outcome(first.compute), outcome(second.compute)


def _no_identity(rank: int, world: int) -> Any:
    m = SumMetric(sync_on_compute=False)
    m.update(torch.tensor([1.0]))
    m.sync_on_compute = True  # switched to syncing later: no identity was taken
    return m.compute()


def _same_everywhere(rank: int, world: int) -> Any:
    m = BinaryAUROC(max_fpr=0.5, sync_timeout=60)  # the same options on every rank: syncs
    m.update(torch.tensor([0.1, 0.4, 0.35, 0.8, 0.6])[rank % 2 :: 2], torch.tensor([0, 0, 1, 1, 0])[rank % 2 :: 2])
    return m.compute()


METRICS = {"num_classes": _accuracy, "class": _class, "member missing": _member_missing, "max_fpr": _max_fpr,
           "MulticlassAUROC rows": _auroc_classes, "no identity": _no_identity, "same": _same_everywhere}


def metrics(rank: int, world: int) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for name, make in METRICS.items():
        start = time.monotonic()
        result = outcome(lambda: make(rank, world))
        out[name] = (*result, time.monotonic() - start)
    out["swapped same site"] = _swapped_same_site(rank, world)
    out["swapped attributes"] = _swapped_attributes(rank, world)
    return out
