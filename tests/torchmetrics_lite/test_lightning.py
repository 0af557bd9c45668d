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


def test_logged_values_are_the_computed_ones_exactly():
    """LogMetrics cast every value to float32 (0.1 logged and kept in `history` as 0.10000000149011612, an int64
    count above 2**24 rounded); Lightning takes float64, so the exact value goes through."""
    import torch

    from torchmetrics_lite import MeanMetric, MetricCollection, SumMetric
    from torchmetrics_lite.integrations.lightning import LogMetrics, StageMetrics

    class Module(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.metrics = StageMetrics(MetricCollection({"mean": MeanMetric(), "sum": SumMetric()}), stages=("val",))
            self.logged = {}

        def log_dict(self, values, **kwargs):
            self.logged.update(values)

    module, callback = Module(), LogMetrics()
    module.metrics["val"].update(torch.tensor([0.1, 0.1], dtype=torch.float64))
    want = {k: v.clone() for k, v in module.metrics["val"].compute().items()}
    callback.on_validation_epoch_end(type("Trainer", (), {"sanity_checking": False})(), module)
    for key, value in want.items():
        assert module.logged[key].dtype == torch.float64 and module.logged[key].item() == value.item(), key
        assert callback.history[key] == [value.item()], key
