"""Regression and calibration: per-call update cost, one-shot functional cost, and isotonic fitting.

Peers in the same run: torchmetrics (R2Score, MeanSquaredError, Binary/MulticlassCalibrationError), scikit-learn
(r2_score, IsotonicRegression). Updates are timed in alternation with their peer (see ``per_call``), on one
thread, as the CPU time of the calling thread (``time.thread_time``): on a shared, loaded machine wall time
also counts the spells the process waits for a core, which swamp a 20 us call; CPU time does not. The
weighted updates (``weight=``) are timed beside the unweighted ones.
Run: python -m benchmarks.bench_regression
"""
import statistics
import time
from functools import partial
from typing import Callable, Dict, List

import numpy as np
import torch

from benchmarks._runner import header, median_time, optional, print_tables, table
from torchmetrics_lite import (
    BinaryCalibrationError,
    IsotonicCalibrator,
    MeanSquaredError,
    MulticlassCalibrationError,
    R2Score,
)
from torchmetrics_lite.functional import r2_score

N_CALLS = 300
ROUNDS = 15


def per_call(fns: Dict[str, Callable[[], object]]) -> Dict[str, float]:
    """Median CPU time per call of each function, ``ROUNDS`` rounds of ``N_CALLS`` calls each, in alternation."""
    for fn in fns.values():
        for _ in range(50):
            fn()
    times: Dict[str, List[float]] = {name: [] for name in fns}
    for _ in range(ROUNDS):
        for name, fn in fns.items():
            start = time.thread_time()
            for _ in range(N_CALLS):
                fn()
            times[name].append((time.thread_time() - start) / N_CALLS)
    return {name: statistics.median(t) for name, t in times.items()}


def main() -> None:
    torch.set_num_threads(1)
    g = torch.Generator().manual_seed(0)
    target = 1e4 + torch.randn(1024, generator=g)
    preds = target + 0.5 * torch.randn(1024, generator=g)
    weight = torch.rand(1024, generator=g)
    probs = torch.rand(1024, generator=g)
    labels = (torch.rand(1024, generator=g) < probs).long()
    tm = optional("torchmetrics")
    sk = optional("sklearn")

    mc_probs = torch.softmax(2 * torch.randn(1024, 5, generator=g), dim=1)
    mc_labels = torch.randint(0, 5, (1024,), generator=g)
    updates = []
    for name, ours, peer, args in (
        ("R2Score", R2Score(), tm and tm.R2Score(), (preds, target)),
        ("MeanSquaredError", MeanSquaredError(), tm and tm.MeanSquaredError(), (preds, target)),
        ("BinaryCalibrationError", BinaryCalibrationError(), tm and tm.classification.BinaryCalibrationError(),
         (probs, labels)),
        ("MulticlassCalibrationError (5 classes)", MulticlassCalibrationError(5),
         tm and tm.classification.MulticlassCalibrationError(5), (mc_probs, mc_labels)),
    ):
        fns = {"torchmetrics_lite": partial(ours.update, *args),
               "torchmetrics_lite, weight=": partial(ours.clone().update, *args, weight=weight)}
        if peer is not None:
            fns["torchmetrics"] = partial(peer.update, *args)
        t = per_call(fns)
        rows = [("torchmetrics_lite", t["torchmetrics_lite"], ""),
                ("torchmetrics_lite, weight=", t["torchmetrics_lite, weight="], "sample weights")]
        if peer is not None:
            rows.append(("torchmetrics", t["torchmetrics"], tm.__version__ + ", no weights"))
        updates.append(table(f"{name}.update, 1,024 samples, per call (CPU time)", rows, ours="torchmetrics_lite"))

    big_t = 1e4 + torch.randn(1_000_000, generator=g, dtype=torch.float64)
    big_p = big_t + torch.randn(1_000_000, generator=g, dtype=torch.float64)
    rows = [("torchmetrics_lite", median_time(lambda: r2_score(big_p, big_t), repeat=5), "")]
    if sk is not None:
        from sklearn.metrics import r2_score as sk_r2

        t_np, p_np = big_t.numpy(), big_p.numpy()
        rows.append(("scikit-learn", median_time(lambda: sk_r2(t_np, p_np), repeat=5), sk.__version__))

    z = torch.randn(100_000, generator=g, dtype=torch.float64)
    scores, y = torch.sigmoid(3 * z + 1), (torch.rand(100_000, generator=g, dtype=torch.float64) < torch.sigmoid(z))
    iso_rows = [("torchmetrics_lite", median_time(lambda: IsotonicCalibrator().fit(scores, y.long()), repeat=3), "")]
    if sk is not None:
        from sklearn.isotonic import IsotonicRegression

        s_np, y_np = scores.numpy(), y.double().numpy()
        iso_rows.append(("scikit-learn", median_time(
            lambda: IsotonicRegression(out_of_bounds="clip").fit(s_np, y_np), repeat=3), sk.__version__))
    print(header())
    print_tables(updates + [
        table("r2_score, 1e6 float64 samples, one shot", rows, ours="torchmetrics_lite"),
        table("Isotonic fit, 1e5 scores", iso_rows, ours="torchmetrics_lite"),
    ])
    assert np.isfinite(r2_score(big_p, big_t).item())


if __name__ == "__main__":
    main()
