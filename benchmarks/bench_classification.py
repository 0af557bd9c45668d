"""Streaming MulticlassF1Score: 1,000 batches x 1,024 samples x 10 classes, single thread, per update.

Floor: the bare work, ``state += bincount(target * C + argmax(scores), minlength=C * C)`` into a running
confusion matrix. Peers in the same run: torchmetrics and torcheval (``MulticlassF1Score``, macro). Each row
streams all batches and computes once; the time is divided by the number of batches. The values are checked
to agree before timing.
Run: python -m benchmarks.bench_classification
"""
import torch

from benchmarks._runner import header, median_time, optional, print_tables, table
from torchmetrics_lite import MulticlassF1Score

N_BATCHES, BATCH, C = 1000, 1024, 10


def make_batches():
    gen = torch.Generator().manual_seed(0)
    scores = torch.rand(N_BATCHES, BATCH, C, generator=gen)
    target = torch.randint(0, C, (N_BATCHES, BATCH), generator=gen)
    return list(zip(scores.unbind(0), target.unbind(0)))


def stream(metric, batches):
    def run():
        metric.reset()
        for s, t in batches:
            metric.update(s, t)
        return metric.compute()
    return run


def floor(batches):
    def run():
        cm = torch.zeros(C * C, dtype=torch.int64)
        for s, t in batches:
            cm += torch.bincount(t * C + s.argmax(dim=1), minlength=C * C)
        return cm
    return run


def per_update(fn) -> float:
    return median_time(fn, repeat=5, warmup=1) / N_BATCHES


def main() -> None:
    torch.set_num_threads(1)
    batches = make_batches()
    ours = stream(MulticlassF1Score(C), batches)
    rows = [("bare argmax + bincount (floor)", per_update(floor(batches)), "running (C, C) confusion matrix"),
            ("torchmetrics_lite", per_update(ours), "default args (validate_args=True)"),
            ("torchmetrics_lite, validate_args=False", per_update(stream(MulticlassF1Score(C, validate_args=False),
                                                                         batches)), "")]
    expected = ours().item()
    tm, te = optional("torchmetrics"), optional("torcheval")
    if tm is not None:
        peer = stream(tm.classification.MulticlassF1Score(C), batches)
        assert abs(peer().item() - expected) < 1e-6
        rows.append(("torchmetrics", per_update(peer), tm.__version__))
    if te is not None:
        import torcheval.metrics as tem

        peer = stream(tem.MulticlassF1Score(num_classes=C, average="macro"), batches)
        assert abs(peer().item() - expected) < 1e-6
        rows.append(("torcheval", per_update(peer), "0.0.7" if not hasattr(te, "__version__") else te.__version__))
    print(header())
    print_tables([table(f"MulticlassF1Score.update, {BATCH:,} x {C} scores, per update (1,000 batches)", rows,
                        ours="torchmetrics_lite")])


if __name__ == "__main__":
    main()
