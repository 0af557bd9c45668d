"""Sync cost as ranks grow: ``compute()`` of a collection of 10 metrics plus exact AUROC on every rank of a gloo
group (2, 4 and 8 ranks on this machine), against torchmetrics' sync of the same metrics in the same run, and the
number of collectives each library issues per ``compute()``.

Each rank holds ``--samples`` samples (default 1e6, as in the issue); the timed call is ``compute()`` of the
whole collection with its cache cleared (the sync plus the values: AUROC sorts every rank's scores), the slowest
rank's time, median over ``--repeats``. Collectives are counted by wrapping ``torch.distributed``'s functions
during one ``compute()``. Both libraries' values are checked to agree. On a machine with fewer cores than ranks
the ranks share the cores, so times grow with the ranks for both libraries alike.

Run: python -m benchmarks.bench_sync [--ranks 2 4 8] [--samples 1000000] [--repeats 3]
"""
from __future__ import annotations

import argparse
import datetime
import os
import statistics
import tempfile
import time
from typing import Any, Dict, List

import torch

from benchmarks._runner import header, optional

COLLECTIVES = ("all_reduce", "all_gather", "all_gather_object", "all_gather_into_tensor", "broadcast", "barrier",
               "reduce_scatter", "gather")
NAMES = ("acc", "precision", "recall", "f1", "f2", "specificity", "mcc", "jaccard", "mse", "mae")


def _ours() -> Any:
    import torchmetrics_lite as tml

    return tml.MetricCollection({
        "acc": tml.BinaryAccuracy(), "precision": tml.BinaryPrecision(), "recall": tml.BinaryRecall(),
        "f1": tml.BinaryF1Score(), "f2": tml.BinaryFBetaScore(beta=2.0), "specificity": tml.BinarySpecificity(),
        "mcc": tml.BinaryMatthewsCorrCoef(), "jaccard": tml.BinaryJaccardIndex(), "mse": tml.MeanSquaredError(),
        "mae": tml.MeanAbsoluteError(), "auroc": tml.BinaryAUROC(),
    })


def _theirs(tm: Any) -> Any:
    c = tm.classification
    return tm.MetricCollection({
        "acc": c.BinaryAccuracy(), "precision": c.BinaryPrecision(), "recall": c.BinaryRecall(),
        "f1": c.BinaryF1Score(), "f2": c.BinaryFBetaScore(beta=2.0), "specificity": c.BinarySpecificity(),
        "mcc": c.BinaryMatthewsCorrCoef(), "jaccard": c.BinaryJaccardIndex(), "mse": tm.MeanSquaredError(),
        "mae": tm.MeanAbsoluteError(), "auroc": c.BinaryAUROC(thresholds=None),
    })


def _update(collection: Any, preds: torch.Tensor, target: torch.Tensor) -> None:
    for name, m in collection.items(keep_base=True):
        if name in ("mse", "mae"):
            m.update(preds, target.float())
        else:
            m.update(preds, target)


def _clear(collection: Any) -> None:
    for m in collection.values():
        m._computed = None  # the timed call recomputes (and resyncs) every time


class _Count:
    def __init__(self) -> None:
        import torch.distributed as dist

        self.dist, self.n = dist, 0
        self.real = {name: getattr(dist, name) for name in COLLECTIVES if hasattr(dist, name)}

    def __enter__(self) -> "_Count":
        def counted(fn: Any) -> Any:
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                self.n += 1
                return fn(*args, **kwargs)
            return wrapper

        for name, fn in self.real.items():
            setattr(self.dist, name, counted(fn))
        return self

    def __exit__(self, *exc: Any) -> None:
        for name, fn in self.real.items():
            setattr(self.dist, name, fn)


def _rank(rank: int, world: int, store: str, samples: int, repeats: int, out: str) -> None:
    import torch.distributed as dist

    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"file://{store}", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=600))
    g = torch.Generator().manual_seed(rank)
    target = torch.randint(0, 2, (samples,), generator=g)
    preds = torch.sigmoid(target * 1.2 + torch.randn(samples, generator=g))
    tm = optional("torchmetrics")
    libs = {"ours": _ours()}
    if tm is not None:
        libs["torchmetrics"] = _theirs(tm)
    result: Dict[str, Any] = {}
    for lib, collection in libs.items():
        _update(collection, preds, target)
        times: List[float] = []
        with _Count() as counter:
            values = collection.compute()
        calls = counter.n
        for _ in range(repeats):
            _clear(collection)
            dist.barrier()
            start = time.perf_counter()
            collection.compute()
            elapsed = torch.tensor([time.perf_counter() - start], dtype=torch.float64)
            dist.all_reduce(elapsed, op=dist.ReduceOp.MAX)  # the slowest rank
            times.append(elapsed.item())
        result[lib] = {"seconds": statistics.median(times), "collectives": calls,
                       "values": {k: float(v) for k, v in values.items()}}
    if rank == 0:
        torch.save(result, out)
    dist.destroy_process_group()


def run(world: int, samples: int, repeats: int) -> Dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "result.pt")
        torch.multiprocessing.spawn(_rank, args=(world, os.path.join(tmp, "store"), samples, repeats, out),
                                    nprocs=world)
        return torch.load(out, weights_only=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", type=int, nargs="+", default=[2, 4, 8])
    parser.add_argument("--samples", type=int, default=1_000_000, help="samples per rank")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(header())
    print(f"compute() of 10 metrics + exact BinaryAUROC, {args.samples:,} samples per rank, gloo on "
          f"{os.cpu_count()} CPU cores; slowest rank, median of {args.repeats}\n")
    print("| ranks | torchmetrics_lite | torchmetrics | ratio | collectives (ours) | collectives (torchmetrics) |")
    print("|---:|---:|---:|---:|---:|---:|")
    for world in args.ranks:
        res = run(world, args.samples, args.repeats)
        ours, theirs = res["ours"], res.get("torchmetrics")
        if theirs is None:
            print(f"| {world} | {ours['seconds'] * 1e3:.1f} ms | not installed | | {ours['collectives']} | |")
            continue
        for key, value in theirs["values"].items():
            mine = ours["values"][key]
            assert abs(mine - value) <= 1e-5 * max(1.0, abs(value)), (key, mine, value)  # float32 there
        print(f"| {world} | {ours['seconds'] * 1e3:.1f} ms | {theirs['seconds'] * 1e3:.1f} ms | "
              f"{theirs['seconds'] / ours['seconds']:.2f}x | {ours['collectives']} | {theirs['collectives']} |",
              flush=True)


if __name__ == "__main__":
    main()
