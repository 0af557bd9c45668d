"""evaluate(): bad examples are isolated (model or collate errors, non-finite outputs), a bad setup raises
EvaluationError (a metric rejecting the output, nothing succeeding, too many failures)."""
import sys
import types

import pytest
import torch
from torch import nn
from torch.utils.data import DataLoader

from tests.helpers.metric_tester import assert_close, snapshot, states_equal
from torchmetrics_lite import (
    BinaryAccuracy,
    EvalReport,
    EvaluationError,
    MeanMetric,
    Metric,
    MetricCollection,
    MulticlassAccuracy,
    MultipleChoiceAccuracy,
    evaluate,
)
from torchmetrics_lite.functional import binary_accuracy, multiclass_accuracy
from torchmetrics_lite.harness import _take

GEN = torch.Generator().manual_seed(0)


class OutputLog(Metric):
    """Test metric: sum of outputs (sum state) and every output row (cat state); accepts any target."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.add_state("total", torch.zeros((), dtype=torch.float64), reduce="sum")
        self.add_state("rows", torch.zeros((0,), dtype=torch.float32), reduce="cat")

    def batch_stats(self, output, target):
        return {"total": output.sum(dtype=torch.float64), "rows": output.float()}

    def compute_from_stats(self, state):
        return state["total"]


class Flaky(nn.Module):
    """Linear scorer that raises on inputs whose first feature is negative and outputs NaN/inf on rows whose
    second feature is above 2."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 1)
        self.calls = []

    def forward(self, x):
        self.calls.append((x.shape[0], torch.is_inference_mode_enabled(), self.training))
        if (x[:, 0] < 0).any():
            raise RuntimeError(f"bad row in batch of {x.shape[0]}")
        out = self.lin(x).squeeze(-1)
        return torch.where(x[:, 1] > 2, x[:, 1] * float("inf") * torch.sign(x[:, 2] - 0.5), out)


N = 23
X = torch.rand(N, 3, generator=GEN)
W = torch.rand(N, generator=GEN) + 0.5
MODEL_BAD = {2, 3, 11, 22}  # the model raises on these
NON_FINITE = {7, 15}  # the model returns NaN (7) or +-inf (15)
for i in MODEL_BAD:
    X[i, 0] = -1.0
for i in NON_FINITE:
    X[i, 1] = 5.0
X[7, 2] = 0.5  # sign(0) * inf = nan
GOOD = [i for i in range(N) if i not in MODEL_BAD | NON_FINITE]
LENIENT = 0.5  # 6 failures of 23 are over the default max_error_rate


def _metrics():
    return {"log": OutputLog(), "mean": MeanMetric()}


def _expected(model):
    with torch.no_grad():
        out = model.lin(X[GOOD]).squeeze(-1)
    ref = MetricCollection(_metrics())
    ref.update(out, W[GOOD])
    return ref.compute(), out


def _check_report(report, metrics, model):
    expected, out = _expected(model)
    assert report.n_ok == len(GOOD) and report.n_errors == len(MODEL_BAD | NON_FINITE)
    assert [i for i, _ in report.failed] == sorted(MODEL_BAD | NON_FINITE)
    for i, err in report.failed:
        assert ("RuntimeError('bad row" in err) if i in MODEL_BAD else ("FloatingPointError('the model output" in err)
    assert_close(report.values, expected, atol=1e-6)
    assert_close(metrics["log"].local_state()["rows"], out, atol=1e-6)  # good rows only, in order


@pytest.mark.parametrize("batch_size", [None, 1, 3, 4, 50])
def test_examples_failures_lose_only_bad_examples(batch_size):
    model, metrics = Flaky(), _metrics()
    data = [(X[i], W[i]) for i in range(N)]
    report = evaluate(model, data, metrics, batch_size=batch_size, progress=False, max_error_rate=LENIENT)
    _check_report(report, metrics, model)


@pytest.mark.parametrize("batch_size", [1, 5])
def test_dataloader_failures_lose_only_bad_examples(batch_size):
    model, metrics = Flaky(), MetricCollection(_metrics())
    loader = DataLoader(list(zip(X, W)), batch_size=batch_size)
    report = evaluate(model, loader, metrics, progress=False, max_error_rate=LENIENT)
    _check_report(report, metrics, model)


def test_integer_and_nested_outputs_are_checked_for_finiteness():
    data = [(torch.tensor([float(v)]), torch.tensor(1.0)) for v in (1, 2, 3, 4)]

    def model(x):  # a dict output: only its floating tensors are checked, the int one is always finite
        return {"score": x[:, 0] / (x[:, 0] != 3), "ids": x[:, 0].long()}

    seen = []

    class Probe(OutputLog):
        def batch_stats(self, output, target):
            seen.append(output["ids"].tolist())
            return super().batch_stats(output["score"], target)

    report = evaluate(model, data, {"p": Probe()}, batch_size=2, progress=False, max_error_rate=LENIENT)
    assert [i for i, _ in report.failed] == [2] and "FloatingPointError" in report.failed[0][1]
    assert seen == [[1, 2], [4]]


# ---------------------------------------------------------------------------------------------- setup errors
def test_metric_rejection_raises_at_once_with_the_report_so_far():
    weights = W.clone()
    weights[9] = float("nan")  # MeanMetric rejects a NaN weight: the metric's inputs are wrong, not example 9
    model, metrics = Flaky(), _metrics()
    data = [(X[i], weights[i]) for i in range(N)]
    with pytest.raises(EvaluationError, match=r"A metric rejected the model output of the batch that starts at "
                                              r"example 9: Expected `weight` to contain no NaN") as info:
        evaluate(model, data, metrics, batch_size=4, progress=False, max_error_rate=LENIENT)
    report = info.value.report
    assert isinstance(info.value.__cause__, ValueError)
    # batches of 4; each of the first three holds a bad example, so it is retried one example at a time, and the
    # retry of the third stops at example 9 (11 is never reached)
    assert report.values == {} and [i for i, _ in report.failed] == [2, 3, 7]
    assert report.n_ok == 6 and report.n_errors == 3
    assert [c[0] for c in model.calls] == [4, 1, 1, 1, 1, 4, 1, 1, 1, 1, 4, 1, 1]
    assert metrics["log"].local_state()["rows"].shape == (6,)  # the rejected example changed no metric


def _logit_model():
    lin = nn.Linear(4, 1)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([[1.5, -2.0, 0.5, 1.0]]))
        lin.bias.fill_(0.1)
    return lambda x: lin(x).squeeze(-1)


def test_reproduction_logits_given_to_binary_accuracy_raise():
    x = torch.randn(200, 4, generator=GEN)
    y = torch.randint(0, 2, (200,), generator=GEN)
    data = list(zip(x, y))
    model = _logit_model()
    with torch.no_grad():
        logits = model(x)
    assert ((logits >= 0) & (logits <= 1)).any() and ((logits < 0) | (logits > 1)).any()  # the biased case
    with pytest.raises(EvaluationError, match=r"Expected `preds` to lie in \[0, 1\].*from_logits") as info:
        evaluate(model, data, {"acc": BinaryAccuracy()}, batch_size=32, progress=False)
    assert info.value.report.n_ok == 0 and info.value.report.n_errors == 0
    fixed = evaluate(model, data, {"acc": BinaryAccuracy(from_logits=True)}, batch_size=32, progress=False)
    assert fixed.n_errors == 0 and fixed.n_ok == 200
    assert_close(fixed.values["acc"], binary_accuracy(logits, y, from_logits=True))


def test_reproduction_labels_outside_num_classes_raise():
    x = torch.rand(100, 10, generator=GEN)
    y = torch.randint(0, 10, (100,), generator=GEN)
    data = list(zip(x, y))
    with pytest.raises(EvaluationError, match=r"example 0: Expected `target` to hold labels in \[0, 2\], "
                                              r"got values in \[5, 5\]") as info:
        evaluate(lambda b: b[:, :3].softmax(-1), data, {"acc": MulticlassAccuracy(num_classes=3)}, progress=False)
    assert isinstance(info.value.__cause__, ValueError)
    fixed = evaluate(lambda b: b.softmax(-1), data, {"acc": MulticlassAccuracy(num_classes=10)}, batch_size=7,
                     progress=False)
    assert fixed.n_errors == 0
    assert_close(fixed.values["acc"], multiclass_accuracy(x.softmax(-1), y, num_classes=10))


def test_no_example_succeeded_raises():
    data = [(X[i], W[i]) for i in sorted(MODEL_BAD)]
    with pytest.raises(EvaluationError, match=r"No example succeeded: all 4 examples failed; first error: "
                                              r"example 0: RuntimeError\('bad row in batch of 1'\)") as info:
        evaluate(Flaky(), data, {"m": MeanMetric()}, batch_size=2, progress=False, max_error_rate=1.0)
    assert info.value.report.n_errors == 4 and set(info.value.report.values) == {"m"}
    with pytest.raises(EvaluationError, match=r"No example succeeded: `data` was empty"):
        evaluate(Flaky(), [], {"m": MeanMetric()}, progress=False)


def _failing_run(n, bad, **kwargs):
    data = [(torch.tensor([-1.0 if i in bad else float(i), 0.0, 0.0]), torch.tensor(1.0)) for i in range(n)]
    return evaluate(lambda x: Flaky.forward(_PLAIN, x), data, {"m": MeanMetric()}, batch_size=8, progress=False,
                    **kwargs)


_PLAIN = Flaky()


def test_error_rate_within_max_error_rate_returns_the_report():
    report = _failing_run(103, {0, 20, 40, 60, 102})  # 5 of 103
    assert report.n_errors == 5 and report.n_ok == 98 and report.error_rate == pytest.approx(5 / 103)
    report = _failing_run(100, set(range(0, 100, 10)))  # exactly 10%: not more than max_error_rate
    assert report.n_errors == 10


def test_error_rate_above_max_error_rate_raises_with_the_values():
    with pytest.raises(EvaluationError, match=r"11 of 100 examples failed \(11.0%\), more than max_error_rate=0.1; "
                                              r"first error: example 0") as info:
        _failing_run(100, set(range(0, 100, 10)) | {5})
    report = info.value.report
    assert report.n_ok == 89 and "m" in report.values  # computed before the check
    assert _failing_run(100, set(range(0, 100, 10)) | {5}, max_error_rate=0.11).n_errors == 11


def test_model_runs_in_inference_and_eval_mode_and_mode_is_restored():
    model = Flaky().train()
    evaluate(model, [(X[0], W[0]), (X[1], W[1])], {"m": MeanMetric()}, batch_size=2, device="cpu", progress=False)
    assert model.calls == [(2, True, False)]
    assert model.training
    model.eval()
    evaluate(model, [(X[0], W[0])], {"m": MeanMetric()}, progress=False)
    assert not model.training


def test_metrics_stay_usable_after_evaluate():
    metrics = {"log": OutputLog()}
    evaluate(Flaky(), [(X[i], W[i]) for i in GOOD[:5]], metrics, batch_size=2, progress=False)
    m = metrics["log"]
    for _ in range(600):  # grows the cat buffer outside inference mode
        m.update(torch.ones(2), None)
    assert m.local_state()["rows"].shape == (1205,)
    assert not m.local_state()["rows"].is_inference()


@pytest.mark.parametrize("exc", [KeyboardInterrupt, SystemExit])
@pytest.mark.parametrize("batch_size", [1, 4])
def test_interrupts_propagate(exc, batch_size):
    seen = []

    def model(x):
        seen.append(x.shape[0])
        if len(seen) == 2:
            raise exc()
        return x[:, 0]

    with pytest.raises(exc):
        evaluate(model, [(X[i], W[i]) for i in range(N)], {"m": MeanMetric()}, batch_size=batch_size, progress=False)
    assert len(seen) == 2  # no retry, no further batch


def test_malformed_examples_and_collation_failures_are_recorded():
    data = [(X[0], W[0]), (X[1],), (torch.ones(5), W[2]), (X[3], W[3])]
    report = evaluate(lambda x: x @ torch.ones(3), data, {"m": MeanMetric()}, batch_size=4, progress=False,
                      max_error_rate=LENIENT)
    assert [i for i, _ in report.failed] == [1, 2]  # the batch of 4 fails to collate, the retry isolates 1 and 2
    assert report.failed[0][1].startswith("ValueError") and report.failed[1][1].startswith("RuntimeError")
    assert report.n_ok == 2
    assert_close(report.values["m"], (X[0].sum() * W[0] + X[3].sum() * W[3]) / (W[0] + W[3]), atol=1e-6)


def test_tuple_target_is_unpacked_into_update_arguments():
    loglik = torch.tensor([[-1.0, -3.0], [-4.0, -3.0], [-2.0, -1.0]])
    lengths = torch.tensor([[1, 5], [4, 1], [1, 2]])
    target = torch.tensor([1, 0, 0])
    data = [(loglik[i], (target[i], lengths[i])) for i in range(3)]
    mc = {"acc": MultipleChoiceAccuracy(), "acc_norm": MultipleChoiceAccuracy("length")}
    report = evaluate(lambda x: x, data, mc, batch_size=2, progress=False)
    assert report.n_errors == 0
    assert_close(report.values, {"acc": 0.0, "acc_norm": 2 / 3})


class Stream(torch.utils.data.IterableDataset):
    def __init__(self, items):
        self.items = items

    def __iter__(self):
        return iter(self.items)


def test_progress_bar_is_optional_and_lazy(monkeypatch):
    data = [(X[i], W[i]) for i in range(4)]
    calls = []
    fake = types.ModuleType("tqdm")
    fake.tqdm = lambda it, **kw: calls.append(kw) or iter(it)
    monkeypatch.setitem(sys.modules, "tqdm", fake)
    evaluate(lambda x: x[:, 0], data, {"m": MeanMetric()}, progress=False)
    assert calls == []
    report = evaluate(lambda x: x[:, 0], data, {"m": MeanMetric()})
    assert len(calls) == 1 and calls[0]["total"] == 4 and report.n_ok == 4
    stream = DataLoader(Stream(data), batch_size=3)  # no len(): the bar has no total
    assert evaluate(lambda x: x[:, 0], stream, {"m": MeanMetric()}).n_ok == 4 and calls[-1]["total"] is None
    monkeypatch.setitem(sys.modules, "tqdm", None)  # not installed: the run goes on without a bar
    assert evaluate(lambda x: x[:, 0], data, {"m": MeanMetric()}).n_ok == 4


def test_report_summary_shows_error_count():
    ok = EvalReport({"acc": torch.tensor(0.5), "n": 3}, n_ok=4, n_errors=0, failed=[])
    assert str(ok) == "acc=0.5000  n=3  [4 ok, 0 errors]"
    bad = EvalReport({"acc": 0.25, "curve": torch.zeros(3)}, 1, 2, [(0, "ValueError('" + "x" * 200 + "')"), (5, "E")])
    first, second = str(bad).splitlines()
    assert first == "acc=0.2500  curve=tensor(3,)  [1 ok, 2 errors]"
    assert second.startswith("first error: example 0: ValueError('xxx") and second.endswith("...")
    assert str(EvalReport({}, 0, 1, [(3, "E")])).splitlines()[0] == "[0 ok, 1 error]"
    assert EvalReport({}, 0, 0).error_rate == 0.0 and EvalReport({}, 3, 1).error_rate == 0.25


def test_take_splits_nested_batches():
    batch = {"ids": torch.arange(6).view(3, 2), "text": ["a", "b", "c"], "pair": (torch.arange(3), torch.ones(3))}
    row = _take(batch, 1, 3)
    assert row["ids"].tolist() == [[2, 3]] and row["text"] == ["b"]
    assert row["pair"][0].tolist() == [1] and isinstance(row["pair"], tuple)


def test_argument_errors():
    with pytest.raises(TypeError, match=r"Expected `metrics` to be a dict of Metric or a MetricCollection, got list"):
        evaluate(lambda x: x, [], [MeanMetric()])
    with pytest.raises(TypeError, match=r"Expected every value of `metrics` to be a Metric, got int for 'm'"):
        evaluate(lambda x: x, [], {"m": 1})
    with pytest.raises(ValueError, match=r"Expected `batch_size` to be None when `data` is a DataLoader, got 2"):
        evaluate(lambda x: x, DataLoader([1, 2]), {"m": MeanMetric()}, batch_size=2)
    with pytest.raises(ValueError, match=r"Expected `batch_size` to be a positive int or None, got 0"):
        evaluate(lambda x: x, [], {"m": MeanMetric()}, batch_size=0)
    for bad in (-0.1, 1.5, float("nan"), "0.1", True):
        with pytest.raises(ValueError, match=r"Expected `max_error_rate` to be a number in \[0, 1\], got"):
            evaluate(lambda x: x, [], {"m": MeanMetric()}, max_error_rate=bad)


def test_rejected_batch_leaves_every_member_unchanged():
    metrics = MetricCollection(_metrics())
    evaluate(Flaky(), [(X[i], W[i]) for i in GOOD[:4]], metrics, batch_size=2, progress=False)
    before = {k: snapshot(m) for k, m in metrics.items()}
    with pytest.raises(EvaluationError):
        evaluate(Flaky(), [(X[0], torch.tensor(float("nan")))], metrics, progress=False)
    assert all(states_equal(snapshot(m), before[k]) for k, m in metrics.items())
