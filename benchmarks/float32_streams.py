"""What a device without float64 (Apple MPS) loses on long float32 streams of regression and calibration metrics.

The float32 policy (``torchmetrics_lite.metric.float_dtype``) is emulated on the CPU as the tests do: the CPU joins
``NO_FLOAT64_DEVICES`` (float32 statistics and states) and every kernel takes the torch path, as on MPS. Each
metric streams the same float32 batches twice, with float64 states (the CPU default) and with the float32 policy,
and the table gives the relative error of the float32 value. The summation order of a real MPS device differs
from the CPU's, so its error differs in detail, not in size. Regression targets sit at 1e4 with unit noise
(``preds = target + 0.5 noise``), the hard case for moments. On a Mac, ``--device mps`` streams the float32 run
on the real device (the float64 reference stays on the CPU).
Run: python -m benchmarks.float32_streams [--samples 10000000] [--device cpu]
"""
from __future__ import annotations

import argparse
import contextlib
import time
import warnings
from functools import partial
from typing import Callable, Iterator, List, Sequence, Tuple

import torch

import torchmetrics_lite._dtype as dtype_module
from torchmetrics_lite import (
    BinaryBrierScore,
    BinaryCalibrationError,
    ExplainedVariance,
    MeanAbsoluteError,
    MeanSquaredError,
    Metric,
    MulticlassCalibrationError,
    R2Score,
    _backend,
)


@contextlib.contextmanager
def float32_policy() -> Iterator[None]:
    """The CPU as a device without float64 (float32 statistics, torch kernels), as on MPS."""
    saved = dtype_module.NO_FLOAT64_DEVICES
    dtype_module.NO_FLOAT64_DEVICES = frozenset({"cpu", "mps"})
    try:
        with _backend.force("torch"), warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # the policy's one warning per metric
            yield
    finally:
        dtype_module.NO_FLOAT64_DEVICES = saved


def stream(make: Callable[[], Metric], batches: Sequence[Tuple[torch.Tensor, ...]]) -> torch.Tensor:
    metric = make()
    for batch in batches:
        metric.update(*batch)
    return metric.compute()


def relative_error(make: Callable[[], Metric], batches: Sequence[Tuple[torch.Tensor, ...]],
                   device: torch.device) -> Tuple[float, float]:
    want = stream(make, batches)
    with float32_policy():
        got = stream(make, [tuple(t.to(device) for t in batch) for batch in batches]).cpu()
    assert got.dtype == torch.float32
    return abs(got.double().item() - want.item()) / abs(want.item()), want.item()


def split(tensors: Sequence[torch.Tensor], batch: int) -> List[Tuple[torch.Tensor, ...]]:
    return list(zip(*(t.split(batch) for t in tensors)))


def main(argv: Sequence[str] = ()) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=10_000_000)
    parser.add_argument("--batches", type=int, nargs="+", default=[10_000, 1_000], help="batch sizes")
    parser.add_argument("--device", default="cpu", help="where the float32 run streams (cpu: emulated)")
    args = parser.parse_args(list(argv) or None)
    torch.set_num_threads(1)
    g = torch.Generator().manual_seed(0)
    n = args.samples
    target = 1e4 + torch.randn(n, generator=g)
    preds = target + 0.5 * torch.randn(n, generator=g)
    probs = torch.rand(n, generator=g)
    labels = (torch.rand(n, generator=g) < probs ** 1.3).long()  # slightly miscalibrated
    mc_probs = torch.softmax(2 * torch.randn(n // 10, 10, generator=g), dim=1)
    mc_labels = torch.randint(0, 10, (n // 10,), generator=g)
    cases = [
        ("MeanSquaredError", MeanSquaredError, (preds, target)),
        ("MeanAbsoluteError", MeanAbsoluteError, (preds, target)),
        ("R2Score (targets 1e4 + N(0, 1))", R2Score, (preds, target)),
        ("ExplainedVariance (same)", ExplainedVariance, (preds, target)),
        ("BinaryBrierScore", BinaryBrierScore, (probs, labels)),
        ("BinaryCalibrationError (15 bins, l1)", BinaryCalibrationError, (probs, labels)),
        ("MulticlassCalibrationError (10 classes, n / 10 samples)",
         partial(MulticlassCalibrationError, num_classes=10), (mc_probs, mc_labels)),
    ]
    print(f"{n:.0e} float32 samples on {args.device}; relative error of the float32 policy's value against "
          "float64 states\n")
    print("| metric | value (float64) | " + " | ".join(f"batches of {b:.0e}" for b in args.batches) + " |")
    print("|---|---:|" + "---:|" * len(args.batches))
    start = time.perf_counter()
    for name, make, data in cases:
        errors, value = [], 0.0
        for b in args.batches:
            error, value = relative_error(make, split(data, b * len(data[0]) // n or 1), torch.device(args.device))
            errors.append(f"{error:.1e}")
        print(f"| {name} | {value:.6g} | " + " | ".join(errors) + " |")
    print(f"\n({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
