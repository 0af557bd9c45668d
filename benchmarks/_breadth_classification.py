"""The classification metrics added for torchmetrics' breadth (issue 24 items 1-3 and 8), each against torchmetrics
and scikit-learn where it has the metric, in one run: 1e6 samples (multiclass: 1e6 x 10 scores; multilabel:
1e5 x 50; exact match: 1e5 sequences of 10 labels), one thread, medians of one-shot function calls with each
library's default checks on, the libraries of a row timed in alternation.
Run: python -m benchmarks.bench_breadth (every group; this module is its classification group).
"""
from __future__ import annotations

import warnings
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np
import torch

from benchmarks._runner import fmt_time, header, interleaved_medians, optional

N, C, ML_N, ML_L, SEQ = 1_000_000, 10, 100_000, 50, 10
Peers = Dict[str, Optional[Callable[[], object]]]


def _data() -> Dict[str, torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    probs = torch.rand(N, generator=g)
    scores = torch.rand(N, C, generator=g)
    seq_t = torch.randint(0, C, (N // SEQ, SEQ), generator=g)
    return {
        "probs": probs, "labels": (torch.rand(N, generator=g) < probs).long(),
        "scores": scores / scores.sum(1, keepdim=True), "mc_target": torch.randint(0, C, (N,), generator=g),
        "ml_probs": torch.rand(ML_N, ML_L, generator=g), "ml_target": torch.randint(0, 2, (ML_N, ML_L), generator=g),
        "seq_t": seq_t, "seq_p": torch.where(torch.rand(N // SEQ, SEQ, generator=g) < 0.02, 0, seq_t),
        "groups": torch.randint(0, 5, (N,), generator=g),
    }


def _cases(d: Dict[str, torch.Tensor]) -> List[Tuple[str, Peers]]:
    from torchmetrics_lite import functional as ours

    tm, skl = optional("torchmetrics"), optional("sklearn")
    if tm is not None:
        import torchmetrics.functional.classification  # noqa: F401  (binds the submodule)
    if skl is not None:
        import sklearn.metrics  # noqa: F401
    sk = skl.metrics if skl is not None else None
    p, y, s, t = d["probs"], d["labels"], d["scores"], d["mc_target"]
    mp, mt, sp, st, grp = d["ml_probs"], d["ml_target"], d["seq_p"], d["seq_t"], d["groups"]
    yn, pn, sn, tn = y.numpy(), p.numpy(), s.numpy(), t.numpy()
    tf = tm.functional.classification if tm is not None else None
    labels = list(range(C))

    def peer(fn: Callable[[], object], lib: object) -> Optional[Callable[[], object]]:
        return fn if lib is not None else None

    return [
        ("binary_negative_predictive_value", {
            "ours": lambda: ours.binary_negative_predictive_value(p, y),
            "torchmetrics": peer(lambda: tf.binary_negative_predictive_value(p, y), tf),
            "scikit-learn": peer(lambda: sk.precision_score(yn, pn > 0.5, pos_label=0), sk)}),
        ("multiclass_negative_predictive_value (macro)", {
            "ours": lambda: ours.multiclass_negative_predictive_value(s, t, C),
            "torchmetrics": peer(lambda: tf.multiclass_negative_predictive_value(s, t, C), tf)}),
        ("multilabel_negative_predictive_value (1e5 x 50)", {
            "ours": lambda: ours.multilabel_negative_predictive_value(mp, mt, ML_L),
            "torchmetrics": peer(lambda: tf.multilabel_negative_predictive_value(mp, mt, ML_L), tf)}),
        ("binary_hamming_distance", {
            "ours": lambda: ours.binary_hamming_distance(p, y),
            "torchmetrics": peer(lambda: tf.binary_hamming_distance(p, y), tf),
            "scikit-learn": peer(lambda: sk.hamming_loss(yn, pn > 0.5), sk)}),
        ("multiclass_hamming_distance (micro)", {
            "ours": lambda: ours.multiclass_hamming_distance(s, t, C, "micro"),
            "torchmetrics": peer(lambda: tf.multiclass_hamming_distance(s, t, C, "micro"), tf),
            "scikit-learn": peer(lambda: sk.hamming_loss(tn, sn.argmax(1)), sk)}),
        ("multiclass_exact_match (1e5 x 10 positions)", {
            "ours": lambda: ours.multiclass_exact_match(sp, st, C),
            "torchmetrics": peer(lambda: tf.multiclass_exact_match(sp, st, C), tf)}),
        ("binary_hinge_loss", {
            "ours": lambda: ours.binary_hinge_loss(p, y),
            "torchmetrics": peer(lambda: tf.binary_hinge_loss(p, y), tf),
            "scikit-learn": peer(lambda: sk.hinge_loss(2 * yn - 1, pn), sk)}),
        ("multiclass_hinge_loss (crammer-singer)", {
            "ours": lambda: ours.multiclass_hinge_loss(s, t, C),
            "torchmetrics": peer(lambda: tf.multiclass_hinge_loss(s, t, C), tf),
            "scikit-learn": peer(lambda: sk.hinge_loss(tn, sn, labels=labels), sk)}),
        ("multiclass_hinge_loss (one-vs-all)", {
            "ours": lambda: ours.multiclass_hinge_loss(s, t, C, multiclass_mode="one-vs-all"),
            "torchmetrics": peer(lambda: tf.multiclass_hinge_loss(s, t, C, multiclass_mode="one-vs-all"), tf)}),
        ("binary_fairness (5 groups)", {
            "ours": lambda: ours.binary_fairness(p, y, grp),
            "torchmetrics": peer(lambda: tf.binary_fairness(p, y, grp), tf)}),
        ("binary_groups_stat_rates (5 groups)", {
            "ours": lambda: ours.binary_groups_stat_rates(p, y, grp, 5),
            "torchmetrics": peer(lambda: tf.binary_groups_stat_rates(p, y, grp, 5), tf)}),
    ]


def _row(name: str, fns: Peers, repeat: int) -> str:
    """One metric: every library timed in alternation (``repeat`` rounds of one call each), so that the load of a
    shared machine hits every column alike."""
    present = {lib: fn for lib, fn in fns.items() if fn is not None}
    times: Dict[str, Optional[float]] = dict(interleaved_medians(present, rounds=repeat, number=1, warmup=1))
    peers = [t for lib, t in times.items() if lib != "ours" and t is not None]
    ratio = f"{min(peers) / times['ours']:.1f}x" if peers and times["ours"] else "n/a"
    cells = [fmt_time(times.get(lib)) if lib in fns else "-" for lib in ("ours", "torchmetrics", "scikit-learn")]
    return f"| `{name}` | " + " | ".join(cells) + f" | {ratio} |"


def main(repeat: int = 5) -> None:
    torch.set_num_threads(1)
    warnings.simplefilter("ignore")
    np.random.seed(0)
    d = _data()
    lines = ["### Classification breadth (issue 24): 1e6 samples, one thread, one-shot function calls", "",
             header(), "", "| metric | torchmetrics_lite | torchmetrics | scikit-learn | speed-up vs the faster peer |",
             "|---|---:|---:|---:|---:|"]
    for name, fns in _cases(d):
        lines.append(_row(name, fns, repeat))
    print("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
