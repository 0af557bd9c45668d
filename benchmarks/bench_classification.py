"""Streaming MulticlassF1Score: per-update time, 1,024 samples x 10 classes, single thread.

Floor: the bare work, ``state += bincount(target * C + argmax(scores), minlength=C * C)`` into a running
confusion matrix. Peers in the same run: torchmetrics and torcheval (``MulticlassF1Score``, macro). Every row's
``update`` is timed in alternation with the others (``interleaved_medians``: rounds of calls of each, over a
cycle of 200 distinct batches), so the load of a shared machine hits every row alike. The streamed values are
checked to agree before timing. A weighted row (``weighted=True``, ``weight=``) shows the cost of float64
weighted counts.
Run: python -m benchmarks.bench_classification
"""
import itertools

import torch

from benchmarks._runner import header, interleaved_medians, optional, print_tables, table
from torchmetrics_lite import MulticlassF1Score

N_BATCHES, BATCH, C = 200, 1024, 10


def make_batches():
    gen = torch.Generator().manual_seed(0)
    scores = torch.rand(N_BATCHES, BATCH, C, generator=gen)
    target = torch.randint(0, C, (N_BATCHES, BATCH), generator=gen)
    return list(zip(scores.unbind(0), target.unbind(0)))


def updater(update, batches):
    cycle = itertools.cycle(batches)

    def step():
        update(*next(cycle))
    return step


def main() -> None:
    torch.set_num_threads(1)
    batches = make_batches()
    cm = torch.zeros(C * C, dtype=torch.int64)

    def floor(s, t):
        cm.add_(torch.bincount(t * C + s.argmax(dim=1), minlength=C * C))

    ours, fast = MulticlassF1Score(C), MulticlassF1Score(C, validate_args=False)
    weighted, ones = MulticlassF1Score(C, weighted=True), torch.ones(BATCH)
    fns = {"floor": updater(floor, batches), "ours": updater(ours.update, batches),
           "fast": updater(fast.update, batches),
           "weighted": updater(lambda s, t: weighted.update(s, t, weight=ones), batches)}
    notes = {"floor": ("bare argmax + bincount (floor)", "running (C, C) confusion matrix"),
             "ours": ("torchmetrics_lite", "default args (validate_args=True)"),
             "fast": ("torchmetrics_lite, validate_args=False", ""),
             "weighted": ("torchmetrics_lite, weighted=True", "float64 counts, weight= given")}
    tm, te = optional("torchmetrics"), optional("torcheval")
    reference = MulticlassF1Score(C)
    for s, t in batches:
        reference.update(s, t)
    expected = reference.compute().item()
    if tm is not None:
        peer = tm.classification.MulticlassF1Score(C)
        for s, t in batches:
            peer.update(s, t)
        assert abs(peer.compute().item() - expected) < 1e-6
        fns["torchmetrics"] = updater(peer.update, batches)
        notes["torchmetrics"] = ("torchmetrics", tm.__version__)
    if te is not None:
        import torcheval.metrics as tem

        peer_te = tem.MulticlassF1Score(num_classes=C, average="macro")
        for s, t in batches:
            peer_te.update(s, t)
        assert abs(peer_te.compute().item() - expected) < 1e-6
        fns["torcheval"] = updater(peer_te.update, batches)
        notes["torcheval"] = ("torcheval", getattr(te, "__version__", ""))
    times = interleaved_medians(fns, rounds=15, number=200, warmup=50)
    rows = [(notes[k][0], times[k], notes[k][1]) for k in fns]
    print(header())
    print_tables([table(f"MulticlassF1Score.update, {BATCH:,} x {C} scores, per update (interleaved)", rows,
                        ours="torchmetrics_lite")])
    print(f"ours / floor = {times['ours'] / times['floor']:.2f}x (default args), "
          f"{times['fast'] / times['floor']:.2f}x (validate_args=False)")


if __name__ == "__main__":
    main()
