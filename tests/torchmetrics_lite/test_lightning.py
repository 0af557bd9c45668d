"""A real Lightning Trainer on CPU, 1 process and 2 DDP processes (gloo), logs the same epoch values; LogMetrics
and the torchmetrics-style ``self.log(name, metric)`` adapter."""
import json
import os
import subprocess
import sys

import pytest
import torch

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
    # torchmetrics' pattern (self.log(name, metric), self.log_dict(collection)) logs the exact epoch values,
    # the ones LogMetrics logs, not a mean of batch values
    from tests.helpers.lightning_case import N_VAL

    for values in [single, *ddp.values()]:
        assert values["tm_val_mean"] == pytest.approx(values["val/mean_score"], rel=1e-12)
        assert values["tm_val_max"] == pytest.approx(values["val/max_score"], rel=1e-12)
        assert values["tm_val_total"] / N_VAL == pytest.approx(values["val/mean_score"], rel=1e-9)
        assert values["tm_train_mean_epoch"] == pytest.approx(values["train/mean_score"], rel=1e-12)
        assert {"val/f1_class_neg", "val/f1_class_pos"} <= set(values)  # per class, with the given labels


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


class _Module(torch.nn.Module):
    def __init__(self, stage_metrics):
        super().__init__()
        self.metrics = stage_metrics
        self.logged = {}

    def log_dict(self, values, **kwargs):
        self.logged.update(values)


_TRAINER = type("Trainer", (), {"sanity_checking": False})()


def test_non_scalar_values_are_logged_per_class_and_a_stage_never_updated_logs_nothing():
    from torchmetrics_lite import MeanMetric, MetricCollection, MulticlassConfusionMatrix, MulticlassF1Score
    from torchmetrics_lite.integrations.lightning import LogMetrics, StageMetrics

    collection = MetricCollection({"f1": MulticlassF1Score(3, average=None), "cm": MulticlassConfusionMatrix(2),
                                   "loss": MeanMetric()})
    module = _Module(StageMetrics(collection, stages=("val", "test"), separator="_"))
    callback = LogMetrics(labels={"f1": ["a", "b", "c"]})
    callback.on_test_epoch_end(_TRAINER, module)  # never updated: nothing logged, no warning
    assert module.logged == {} and callback.history == {}
    val = module.metrics["val"]
    val["f1"].update(torch.tensor([0, 1, 2, 2]), torch.tensor([0, 1, 1, 2]))
    val["cm"].update(torch.tensor([0, 1, 1]), torch.tensor([0, 1, 0]))
    val["loss"].update(torch.tensor([1.0, 2.0]))
    want = {k: v.clone() for k, v in val.compute().items()}
    callback.on_validation_epoch_end(_TRAINER, module)
    expected = {"val_f1_a": want["val_f1"][0], "val_f1_b": want["val_f1"][1], "val_f1_c": want["val_f1"][2],
                "val_cm_0_0": want["val_cm"][0, 0], "val_cm_0_1": want["val_cm"][0, 1],
                "val_cm_1_0": want["val_cm"][1, 0], "val_cm_1_1": want["val_cm"][1, 1],
                "val_loss": want["val_loss"]}
    assert set(module.logged) == set(expected)
    for key, value in expected.items():
        assert module.logged[key].dim() == 0 and module.logged[key].item() == value.item(), key
    assert not any(m.update_called for m in val.values())  # reset after logging


def test_stage_prefix_and_separator():
    from torchmetrics_lite import MeanMetric, MetricCollection
    from torchmetrics_lite.integrations.lightning import StageMetrics

    m = StageMetrics(MetricCollection({"acc": MeanMetric()}), stages=("val",), separator="_", prefix="m_")
    m["val"].update(torch.tensor([1.0]))
    assert list(m["val"].compute()) == ["m_val_acc"]
    assert list(StageMetrics(MetricCollection({"acc": MeanMetric()}))["test"].keys()) == ["test/acc"]


def test_lightning_takes_our_metric_objects_as_its_own():
    torchmetrics = pytest.importorskip("torchmetrics")
    from torchmetrics_lite import BinaryAccuracy, Metric
    from torchmetrics_lite.integrations.lightning import register_with_lightning

    register_with_lightning()  # idempotent; already done at import
    assert isinstance(BinaryAccuracy(), torchmetrics.Metric) and issubclass(Metric, torchmetrics.Metric)
    m = BinaryAccuracy()
    value = m(torch.tensor([0.9, 0.2]), torch.tensor([1, 1]))
    assert m._forward_cache.item() == value.item() == 0.5  # what Lightning's on_step logging reads
    assert m.device == torch.device("cpu")


def test_logged_values_are_float32_on_a_device_without_float64(monkeypatch):
    """On a float64-less device (emulated: ``tests/helpers/no_float64``) integer values (confusion-matrix counts)
    are logged as float32, the scores as the float32 the metrics computed, and no float64 tensor is made."""
    from tests.helpers.no_float64 import float64_less_cpu
    from torchmetrics_lite import MeanMetric, MetricCollection, MulticlassConfusionMatrix, MulticlassF1Score
    from torchmetrics_lite.integrations.lightning import LogMetrics, StageMetrics

    collection = MetricCollection({"f1": MulticlassF1Score(3), "cm": MulticlassConfusionMatrix(2),
                                   "loss": MeanMetric()})
    module, callback = _Module(StageMetrics(collection, stages=("val",))), LogMetrics()
    val = module.metrics["val"]
    with float64_less_cpu(monkeypatch), pytest.warns(UserWarning, match="has no float64"):
        val["f1"].update(torch.tensor([0, 1, 2, 2]), torch.tensor([0, 1, 1, 2]))
        val["cm"].update(torch.tensor([0, 1, 1]), torch.tensor([0, 1, 0]))
        val["loss"].update(torch.tensor([1.0, 2.0]))
        callback.on_validation_epoch_end(_TRAINER, module)
    assert {k: v.dtype for k, v in module.logged.items()} == dict.fromkeys(module.logged, torch.float32)
    assert module.logged["val/cm_0_1"].item() == 1.0 and module.logged["val/loss"].item() == 1.5
    assert module.logged["val/f1"].item() == pytest.approx(7 / 9, rel=1e-6)  # mean of F1 1, 2/3, 2/3
