"""A real Lightning Trainer on CPU, 1 process and 2 DDP processes (gloo), logs the same epoch values."""
import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("pytorch_lightning")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _run(devices, out_dir):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""), OMP_NUM_THREADS="1")
    subprocess.run([sys.executable, "-m", "tests.helpers.lightning_case", str(devices), str(out_dir)],
                   cwd=ROOT, env=env, check=True, timeout=300, capture_output=True)
    return {name: json.load(open(os.path.join(out_dir, name))) for name in os.listdir(out_dir)}


def test_ddp_logged_values_equal_single_process(tmp_path):
    single_dir, ddp_dir = tmp_path / "single", tmp_path / "ddp"
    single_dir.mkdir(), ddp_dir.mkdir()
    single = _run(1, single_dir)["rank0_of_1.json"]
    ddp = _run(2, ddp_dir)
    assert set(ddp) == {"rank0_of_2.json", "rank1_of_2.json"}
    assert {"train/mean_score", "val/mean_score", "val/max_score"} <= set(single)
    for name, values in ddp.items():
        assert set(values) == set(single), name
        for key, value in single.items():
            assert values[key] == pytest.approx(value, rel=1e-6, abs=1e-6), (name, key)


def test_stage_names_are_checked():
    from torchmetrics_lite import MeanMetric, MetricCollection
    from torchmetrics_lite.integrations.lightning import StageMetrics

    with pytest.raises(ValueError, match=r"Expected every stage to be one of \('train', 'val', 'test'\), got 'valid'"):
        StageMetrics(MetricCollection({"m": MeanMetric()}), stages=("valid",))
