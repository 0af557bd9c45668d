"""benchmarks/gpu_check.py stays runnable: its CPU mode passes and reports what it skipped, a differing value
fails it, and on a CUDA machine its value and sync checks pass."""
import pytest
import torch

from benchmarks import gpu_check
from torchmetrics_lite import MeanMetric, _backend

CUDA = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")


def test_cpu_mode_checks_every_family_and_says_what_it_skipped(capsys):
    assert gpu_check.main(["--cpu"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ") and "| family |" not in line]
    families = {row.split(" | ")[0].strip("| ") for row in rows}
    assert families == {"classification", "auroc", "retrieval", "regression", "calibration", "multiple_choice",
                        "wrappers", "aggregation", "loss"}
    assert all(" | ok | " in row for row in rows)
    assert "SKIPPED: sync debug mode needs CUDA" in out
    assert "SKIPPED: AUROC 1e7, NDCG@10 uneven and LambdaRank 256x100 timings need CUDA" in out
    assert out.rstrip().endswith("PASSED: 0 value or sync check(s) failed")


def test_a_differing_value_fails_the_run(monkeypatch, capsys):
    def skewed(v):  # a "kernel" whose torch path is off by 1e-3
        return v.mean() + (1e-3 if _backend.forced() == "torch" else 0.0)

    bad = gpu_check.Case("aggregation", "skewed", (torch.rand(10, dtype=torch.float64),), skewed, MeanMetric)
    monkeypatch.setattr(gpu_check, "cases", lambda: [bad])
    assert gpu_check.main(["--cpu"]) == 1
    out = capsys.readouterr().out
    assert "| aggregation | skewed | functional | DIFFERS | max |diff| 1.0e-03 |" in out
    assert "| aggregation | skewed | module | ok |" in out and "FAILED: 1 value or sync check(s) failed" in out


def test_uneven_query_sizes():
    scores, grades, ids = gpu_check.uneven_queries(2000, seed=1)
    sizes = torch.bincount(ids)
    assert sizes.numel() == 2000 and int(sizes.min()) >= 1 and int(sizes.max()) <= 1300
    assert 90 < float(sizes.double().mean()) < 150  # lognormal(log 80, 0.9): mean 80 * e^(0.405) ~ 120
    assert scores.unique().numel() <= 50 and int(grades.max()) <= 4


@CUDA
def test_cuda_values_equal_cpu_values():
    rows = gpu_check.check_values(torch.device("cuda"))
    assert [r for r in rows if not r[3]] == []


@CUDA
def test_cuda_updates_do_not_sync():
    rows = gpu_check.check_syncs(torch.device("cuda"))
    assert [r for r in rows if not r[2]] == []
