"""The float32 policy of the wrappers and of MetricCollection on an emulated float64-less device
(``tests/helpers/no_float64``): every wrapper over metrics with float64 sum, max, fold and ``cat`` states (and an
optional ``cat`` state no batch fills, whose default the stacked layouts substitute), integer-valued metrics
(BootStrapper's float values of integer counts), and the containers that are not metrics (MetricTracker,
MetricCollection). No float64 tensor is made; states and values are float32 and close to the float64 ones."""
import warnings
from functools import partial
from typing import Dict, Optional

import pytest
import torch
from torch import Tensor

import torchmetrics_lite.wrappers as wrappers
from tests.helpers.no_float64 import assert_float32_close, check_float32_policy, float64_less_cpu
from torchmetrics_lite import (
    BinaryCohenKappa,
    BinaryF1Score,
    BinaryPrecision,
    BinaryStatScores,
    MeanMetric,
    MetricCollection,
    MulticlassAccuracy,
    MulticlassRecall,
    R2Score,
)
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.metric import Fold, Metric
from torchmetrics_lite.wrappers import BootStrapper, ClasswiseWrapper, MetricTracker, Running

C = 3


def merge_count_mean(stack: Tensor) -> Tensor:
    """(k, 2) rows ``[count, mean]`` -> one row (associative; zeros are the identity)."""
    n = stack[:, 0].sum()
    return torch.stack([n, (stack[:, 0] * stack[:, 1]).sum() / n.clamp_min(1)])


class Summary(Metric):
    """Every kind of floating state: a ``cat`` of values, an optional ``cat`` of weights, a fold, a sum, a max."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.add_state("values", torch.zeros(0, dtype=torch.float64), reduce="cat")
        self.add_state("weights", torch.zeros(0, dtype=torch.float64), reduce="cat")
        self.add_state("count_mean", torch.zeros(2, dtype=torch.float64), reduce=Fold(merge_count_mean))
        self.add_state("total", torch.zeros((), dtype=torch.float64), reduce="sum")
        self.add_state("peak", torch.tensor(-float("inf"), dtype=torch.float64), reduce="max")

    def batch_stats(self, x: Tensor, w: Optional[Tensor] = None) -> Dict[str, Tensor]:
        x = x.to(float_dtype(x.device))
        stats = {"values": x, "count_mean": torch.stack([x.new_tensor(float(x.numel())), x.mean() if x.numel()
                                                         else x.new_zeros(())]),
                 "total": x.sum(), "peak": x.max() if x.numel() else x.new_tensor(-float("inf"))}
        if w is not None:
            stats["weights"] = w.to(x.dtype)
        return stats

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        v, w = state["values"], state.get("weights")  # a batch without weights has no "weights" statistic
        return torch.stack([(v * v).sum(), v.new_zeros(()) if w is None else w.sum(), state["count_mean"][1],
                            state["total"], state["peak"]])


def _batches(sizes, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(n, generator=g) + 3,) for n in sizes]


def _classification(sizes, task="multiclass", weighted=False, seed=1):
    g = torch.Generator().manual_seed(seed)
    out = []
    for n in sizes:
        if task == "binary":
            preds = torch.rand(n, generator=g)
            target = (torch.rand(n, generator=g) < preds).long()
        else:
            target = torch.randint(0, C, (n,), generator=g)
            preds = torch.rand(n, C, generator=g)
            preds[torch.arange(n), target] += 0.3
        out.append((preds, target, torch.rand(n, generator=g)) if weighted else (preds, target))
    return out


CASES = {
    "Running(Summary)": (partial(Running, Summary(), window=2), _batches([5, 0, 7, 4])),
    "Running(weighted accuracy)": (partial(Running, MulticlassAccuracy(C, weighted=True), window=2),
                                   _classification([9, 6, 11], weighted=True)),
    "BootStrapper(Summary)": (partial(BootStrapper, Summary(), num_bootstraps=4, quantile=torch.tensor([0.1, 0.9]),
                                      raw=True, seed=0), _batches([6, 0, 9])),
    "BootStrapper(multinomial, weighted recall)": (
        partial(BootStrapper, MulticlassRecall(C, weighted=True), num_bootstraps=3, sampling_strategy="multinomial",
                seed=1), _classification([10, 8], weighted=True)),
    "BootStrapper(int stat scores)": (partial(BootStrapper, BinaryStatScores(), num_bootstraps=3, seed=2),
                                      _classification([12, 7], task="binary")),
    "ClasswiseWrapper(weighted recall)": (partial(ClasswiseWrapper, MulticlassRecall(C, None, weighted=True)),
                                          _classification([8, 0, 13], weighted=True)),
    "ClasswiseWrapper(accuracy)": (partial(ClasswiseWrapper, MulticlassAccuracy(C, None), labels=["a", "b", "c"]),
                                   _classification([8, 13])),
    "MinMaxMetric(accuracy)": (partial(wrappers.MinMaxMetric, MulticlassAccuracy(C)), _classification([8, 0, 13])),
    "MultioutputWrapper(R2 fold)": (partial(wrappers.MultioutputWrapper, R2Score(), 2),
                                    [(p.reshape(-1, 2), p.reshape(-1, 2).flip(0)) for (p,) in _batches([6, 0, 8])]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_wrapper_float32_policy(monkeypatch, name):
    make, batches = CASES[name]
    check_float32_policy(monkeypatch, make, batches)


@pytest.mark.parametrize("name", list(CASES))
def test_wrapper_forward_float32_policy(monkeypatch, name):
    """``forward``'s batch value: BootStrapper's copies of one batch leave the optional ``cat`` state unfilled,
    so its default stands in (on the device, as float32)."""
    make, batches = CASES[name]
    want, metric = make()(*batches[0]), make()
    with float64_less_cpu(monkeypatch), pytest.warns(UserWarning, match="has no float64"):
        got = metric(*batches[0])
    assert_float32_close(got, want)


def test_metric_tracker_float32_policy(monkeypatch):
    """``increment()`` copies the tracked metric where it was built (on a real machine the CPU, which has float64;
    here outside the block), then each epoch's copy meets the device at its first update and warns once."""
    epochs = (_batches([4, 6], seed=3), _batches([5], seed=4))
    want = MetricTracker(MeanMetric(), maximize=True)
    for scale, batches in enumerate(epochs, 1):
        want.increment()
        for (x,) in batches:
            want.update(x * scale)
    tracker = MetricTracker(MeanMetric(), maximize=True)
    for scale, batches in enumerate(epochs, 1):
        tracker.increment()
        with float64_less_cpu(monkeypatch), pytest.warns(UserWarning, match="has no float64"):
            for (x,) in batches:
                tracker.update(x * scale)
    with float64_less_cpu(monkeypatch):
        got, (best, step) = tracker.compute_all(), tracker.best_metric(return_step=True)
    assert_float32_close(got, want.compute_all())
    want_best, want_step = want.best_metric(return_step=True)
    assert step == want_step == 1 and best == pytest.approx(want_best, rel=1e-6)


def test_metric_collection_float32_policy(monkeypatch):
    def make():
        return MetricCollection({"f1": BinaryF1Score(weighted=True), "precision": BinaryPrecision(weighted=True),
                                 "kappa": BinaryCohenKappa(weights="linear", weighted=True)}, prefix="val/")

    batches = _classification([9, 0, 14], task="binary", weighted=True)
    want, collection = make(), make()
    for preds, target, w in batches:
        want.update(preds, target, weight=w)
    with float64_less_cpu(monkeypatch), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for preds, target, w in batches:
            collection.update(preds, target, weight=w)
        got = collection.compute()
        batch_value = collection(*batches[0][:2], weight=batches[0][2])  # forward: the batch's values
    assert sorted(str(c.message).split(":")[0] for c in caught) == ["BinaryCohenKappa", "BinaryF1Score",
                                                                     "BinaryPrecision"]  # one per member
    assert all("has no float64" in str(c.message) for c in caught)
    assert all(s.dtype != torch.float64 for m in collection.values() for s in m.local_state().values())
    assert_float32_close(got, want.compute())
    assert_float32_close(batch_value, make()(*batches[0][:2], weight=batches[0][2]))


def test_multitask_wrapper_float32_policy(monkeypatch):
    tasks = wrappers.MultitaskWrapper({"a": MulticlassAccuracy(C), "r": R2Score()})
    (p, t), = _classification([9])
    (x,), = _batches([9])
    with float64_less_cpu(monkeypatch), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the one float32 warning of each task's metric
        tasks.update({"a": p, "r": x}, {"a": t, "r": x.flip(0)})
        got = tasks.compute()
    assert got["r"].dtype == torch.float32 and got["a"].dtype == torch.float32


def test_every_public_name_is_covered():
    covered = {type(make.func(*make.args, **make.keywords)).__name__ for make, _ in CASES.values()} | {
        "MetricTracker", "MultitaskWrapper"}
    assert set(wrappers.__all__) == covered
