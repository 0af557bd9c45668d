"""benchmarks/bench_auc_quality.py stays runnable: ``--quick`` trains every method on both tasks and fills every
metric cell of every row; the data generator gives the asked share of positives and is fixed by its seed."""
import re

import torch

from benchmarks import bench_auc_quality as B


def test_quick_run_fills_every_row(capsys):
    B.main(["--quick"])
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ") and "+-" in line]
    names = ["BCE", "BCE, oversampled"] + B.OURS
    if B.load_libauc() is not None:
        names += [f"LibAUC {n}" for n in B.WITH_LIBAUC]
    assert sorted(row.split(" | ")[0][2:] for row in rows) == sorted(names * 2)  # two tasks
    for row in rows:
        cells = row.split(" | ")[1:1 + len(B.METRICS)]
        values = [float(m.group(1)) for m in (re.fullmatch(r"(\d\.\d{4}) \+- \d\.\d{4}", c) for c in cells) if m]
        assert len(values) == len(B.METRICS) and all(0.0 <= v <= 1.0 for v in values)


def test_task_has_the_asked_positive_share_and_is_seeded():
    (x, y), (xt, yt) = B.make_task(0.05, 3, 20_000, 100)
    assert x.shape == (20_000, B.DIM) and xt.shape == (100, B.DIM)
    assert abs(float(y.mean()) - 0.05) < 0.006
    (x2, y2), _ = B.make_task(0.05, 3, 20_000, 100)
    assert torch.equal(x, x2) and torch.equal(y, y2)
    (x3, _), _ = B.make_task(0.05, 4, 20_000, 100)
    assert not torch.equal(x, x3)
    batch = next(B.dual_batches(y, 1, torch.Generator().manual_seed(0)))
    assert batch.numel() == B.BATCH and int(y[batch].sum()) == B.BATCH // 2
