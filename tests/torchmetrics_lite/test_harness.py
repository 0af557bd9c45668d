"""evaluate() fault tolerance, MultipleChoiceAccuracy (against a brute-force argmax) and score_choices (against
one model call per token)."""
import sys
import types
from functools import partial

import pytest
import torch
from torch import nn
from torch.utils.data import DataLoader

from tests.helpers.distributed import Case, distributed_test
from tests.helpers.metric_tester import assert_close, check_metric, check_rejects
from torchmetrics_lite import (
    EvalReport,
    MeanMetric,
    Metric,
    MetricCollection,
    MultipleChoiceAccuracy,
    evaluate,
    score_choices,
)
from torchmetrics_lite.functional import multiple_choice_accuracy
from torchmetrics_lite.harness import _take

GEN = torch.Generator().manual_seed(0)


# ------------------------------------------------------------------------------------------- evaluate
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
    """Linear scorer that raises on inputs whose first feature is negative."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 1)
        self.calls = []

    def forward(self, x):
        self.calls.append((x.shape[0], torch.is_inference_mode_enabled(), self.training))
        if (x[:, 0] < 0).any():
            raise RuntimeError(f"bad row in batch of {x.shape[0]}")
        return self.lin(x).squeeze(-1)


N = 23
X = torch.rand(N, 3, generator=GEN)
W = torch.rand(N, generator=GEN) + 0.5
MODEL_BAD = {2, 3, 11, 22}  # the model raises on these
METRIC_BAD = {7, 15}  # the model is fine, MeanMetric rejects the NaN weight (OutputLog would accept it)
for i in MODEL_BAD:
    X[i, 0] = -1.0
for i in METRIC_BAD:
    W[i] = float("nan")
GOOD = [i for i in range(N) if i not in MODEL_BAD | METRIC_BAD]


def _metrics():
    return {"log": OutputLog(), "mean": MeanMetric()}  # "log" first: it must not be merged when "mean" rejects


def _expected(model):
    with torch.no_grad():
        out = model.lin(X[GOOD]).squeeze(-1)
    ref = MetricCollection(_metrics())
    ref.update(out, W[GOOD])
    return ref.compute(), out


def _check_report(report, metrics, model):
    expected, out = _expected(model)
    assert report.n_ok == len(GOOD) and report.n_errors == len(MODEL_BAD | METRIC_BAD)
    assert [i for i, _ in report.failed] == sorted(MODEL_BAD | METRIC_BAD)
    for i, err in report.failed:
        assert ("RuntimeError('bad row" in err) if i in MODEL_BAD else ("`weight` to contain no NaN" in err)
    assert_close(report.values, expected, atol=1e-6)
    assert_close(metrics["log"].local_state()["rows"], out, atol=1e-6)  # good rows only, in order


@pytest.mark.parametrize("batch_size", [None, 1, 3, 4, 50])
def test_examples_failures_lose_only_bad_examples(batch_size):
    model, metrics = Flaky(), _metrics()
    data = [(X[i], W[i]) for i in range(N)]
    report = evaluate(model, data, metrics, batch_size=batch_size, progress=False)
    _check_report(report, metrics, model)


@pytest.mark.parametrize("batch_size", [1, 5])
def test_dataloader_failures_lose_only_bad_examples(batch_size):
    model, metrics = Flaky(), MetricCollection(_metrics())
    loader = DataLoader(list(zip(X, W)), batch_size=batch_size)
    report = evaluate(model, loader, metrics, progress=False)
    _check_report(report, metrics, model)


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
    report = evaluate(lambda x: x @ torch.ones(3), data, {"m": MeanMetric()}, batch_size=4, progress=False)
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


# ---------------------------------------------------------------------------------- multiple choice
def _brute_accuracy(loglik, target, lengths, normalize):
    correct = 0
    for i in range(loglik.shape[0]):
        scores = [loglik[i, c].item() / (lengths[i, c].item() if normalize == "length" else 1.0)
                  for c in range(loglik.shape[1])]
        best = 0
        for c in range(1, len(scores)):
            if scores[c] > scores[best]:
                best = c
        correct += best == target[i].item()
    return correct / loglik.shape[0]


def _mc_batches(sizes, c=4):
    out = []
    for n in sizes:
        ll = -torch.randint(1, 40, (n, c), generator=GEN).double()  # integer values: many ties
        lengths = torch.randint(1, 6, (n, c), generator=GEN)
        out.append((ll, torch.randint(0, c, (n,), generator=GEN), lengths))
    return out


MC_BATCHES = _mc_batches([6, 0, 17, 1, 9])


@pytest.mark.parametrize("normalize", ["none", "length"])
def test_multiple_choice_against_brute_force(normalize):
    ll, target, lengths = (torch.cat(t) for t in zip(*MC_BATCHES))
    expected = torch.tensor(_brute_accuracy(ll, target, lengths, normalize), dtype=torch.float64)
    fn = partial(multiple_choice_accuracy, normalize=normalize)
    check_metric(partial(MultipleChoiceAccuracy, normalize), MC_BATCHES, expected, batch_value=fn)


def test_multiple_choice_conventions_on_hand_made_cases():
    # row 0: raw picks 0, per-token picks 1; row 1: raw tie -> 0; row 2: per-token tie (-2/1 = -4/2) -> 0
    loglik = torch.tensor([[-2.0, -3.0, -9.0], [-1.0, -1.0, -5.0], [-2.0, -4.0, -6.0], [-inf(), -inf(), -inf()]])
    lengths = torch.tensor([[1, 3, 1], [1, 1, 1], [1, 2, 1], [1, 1, 1]])
    assert multiple_choice_accuracy(loglik, torch.tensor([0, 0, 0, 0]), lengths).item() == 1.0
    assert multiple_choice_accuracy(loglik, torch.tensor([1, 0, 0, 0]), lengths, normalize="length").item() == 1.0
    assert multiple_choice_accuracy(loglik, torch.tensor([0, 1, 1, 2]), lengths, normalize="length").item() == 0.0
    assert multiple_choice_accuracy(loglik[:0], torch.zeros(0, dtype=torch.long)).item() == 0.0
    nan = multiple_choice_accuracy(loglik[:0], torch.zeros(0, dtype=torch.long), zero_division=float("nan"))
    assert torch.isnan(nan)
    half = multiple_choice_accuracy(loglik.half(), torch.tensor([0, 1, 0, 1]))
    assert half.item() == 0.5 and half.dtype == torch.float64


def inf():
    return float("inf")


def test_multiple_choice_validate_args_false_skips_value_checks():
    m = MultipleChoiceAccuracy(validate_args=False)
    m.update(torch.tensor([[0.0, 1.0]]), torch.tensor([5]))
    assert m.compute().item() == 0.0


MC_GOOD = MC_BATCHES[:1]
LL, TG, LN = MC_BATCHES[0]
MC_REJECTS = [
    ("none", ([[0.0]], TG), TypeError, r"Expected `loglik` to be a torch.Tensor, got list"),
    ("none", (LL.long(), TG), TypeError, r"Expected `loglik` to have a floating dtype, got torch.int64"),
    ("none", (LL[0], TG), ValueError, r"Expected `loglik` to be 2-D, got shape \(4,\)"),
    ("none", (LL[:, :0], TG), ValueError, r"Expected `loglik` to have at least one choice \(column\), got shape"),
    ("none", (LL, TG.float()), TypeError, r"Expected `target` to have an integer dtype, got torch.float32"),
    ("none", (LL, TG[:, None]), ValueError, r"Expected `target` to be 1-D, got shape \(6, 1\)"),
    ("none", (LL, TG[:3]), ValueError, r"Expected `target` to have shape \(6,\), got \(3,\)"),
    ("none", (LL, TG + 4), ValueError, r"Expected `target` to lie in \[0, 3\], got values in \[4, 7\] \(C=4 choices\)"),
    ("none", (LL.index_fill(0, torch.tensor([2]), float("nan")), TG), ValueError,
     r"Expected `loglik` to contain no NaN, got 4 NaN"),
    ("none", (LL, TG, LN[:2]), ValueError, r"Expected `lengths` and `loglik` to have the same shape, got \(2, 4\)"),
    ("none", (LL, TG, [1]), TypeError, r"Expected `lengths` to be a torch.Tensor, got list"),
    ("length", (LL, TG), ValueError, r"Expected `lengths` to be a tensor of shape \(N, C\) when normalize='length'"),
    ("length", (LL, TG, LN > 0), TypeError, r"Expected `lengths` to have a real, non-bool dtype, got torch.bool"),
    ("length", (LL, TG, LN - 1), ValueError, r"Expected `lengths` to be positive, got minimum 0"),
]


@pytest.mark.parametrize("normalize,bad,exc,match", MC_REJECTS, ids=[m[3][:40] for m in MC_REJECTS])
def test_multiple_choice_rejects(normalize, bad, exc, match):
    check_rejects(partial(MultipleChoiceAccuracy, normalize), MC_GOOD, bad, exc, match)


def test_multiple_choice_option_errors():
    with pytest.raises(ValueError, match=r"Expected `normalize` to be one of \('none', 'length'\), got 'token'"):
        MultipleChoiceAccuracy("token")
    with pytest.raises(ValueError, match=r"Expected `normalize` to be one of"):
        multiple_choice_accuracy(LL, TG, normalize="chars")
    with pytest.raises(ValueError, match=r"Expected `zero_division` to be a number or float\('nan'\), got 'x'"):
        MultipleChoiceAccuracy(zero_division="x")


def test_multiple_choice_collection_shares_stats_only_with_same_convention():
    acc, acc2, norm = MultipleChoiceAccuracy(), MultipleChoiceAccuracy(), MultipleChoiceAccuracy("length")
    assert acc.stats_key == acc2.stats_key != norm.stats_key
    mc = MetricCollection({"acc": acc, "acc2": acc2, "norm": norm})
    for b in MC_BATCHES:
        mc.update(*b)
    ll, target, lengths = (torch.cat(t) for t in zip(*MC_BATCHES))
    assert_close(mc.compute(), {"acc": _brute_accuracy(ll, target, lengths, "none"),
                                "acc2": _brute_accuracy(ll, target, lengths, "none"),
                                "norm": _brute_accuracy(ll, target, lengths, "length")})


# ------------------------------------------------------------------------------------------ score_choices
class TinyCausalLM(nn.Module):
    """Embedding, causal prefix mean, linear head: position t's logits depend on tokens 0..t only."""

    def __init__(self, vocab=11, dim=8):
        super().__init__()
        g = torch.Generator().manual_seed(1)
        self.emb = nn.Parameter(torch.randn(vocab, dim, generator=g))
        self.head = nn.Parameter(torch.randn(dim, vocab, generator=g) * 3)

    def forward(self, ids):
        h = self.emb[ids].cumsum(dim=1) / torch.arange(1, ids.shape[1] + 1).view(1, -1, 1)
        return torch.tanh(h) @ self.head


def _brute_loglik(model, context, choice):
    total = 0.0
    for j, token in enumerate(choice):
        prefix = torch.tensor([list(context) + list(choice[:j])])
        logits = model(prefix)[0, -1].double()
        total += (logits[token] - torch.log(torch.exp(logits).sum())).item()
    return total


def test_score_choices_against_one_call_per_token():
    model = TinyCausalLM()
    context = [3, 1, 4, 1, 5]
    choices = [[9], [2, 6, 5], [3, 5, 8, 9, 7], [0, 10]]
    with torch.no_grad():
        loglik, lengths = score_choices(model, torch.tensor(context), [torch.tensor(c) for c in choices])
        expected = [_brute_loglik(model, context, c) for c in choices]
        from_lists = score_choices(model, context, choices)
    assert loglik.dtype == torch.float64 and lengths.tolist() == [1, 3, 5, 2]
    assert_close(loglik, torch.tensor(expected), atol=1e-5)
    assert torch.equal(from_lists[0], loglik)
    acc = MultipleChoiceAccuracy()
    acc.update(loglik[None], torch.tensor([int(torch.tensor(expected).argmax())]))
    assert acc.compute().item() == 1.0


def test_score_choices_calls_the_model_once_with_right_padding():
    seen = []

    def logits_fn(ids):
        seen.append(ids.clone())
        return torch.zeros(*ids.shape, 7)

    loglik, _ = score_choices(logits_fn, [1, 2], [[3], [4, 5, 6]])
    assert len(seen) == 1 and seen[0].tolist() == [[1, 2, 3, 0, 0], [1, 2, 4, 5, 6]]
    assert_close(loglik, torch.tensor([-1.0, -3.0], dtype=torch.float64) * torch.log(torch.tensor(7.0)).double())


@pytest.mark.parametrize("context,choices,exc,match", [
    ([], [[1]], ValueError, r"Expected `context` to be a non-empty 1-D sequence of token ids, got shape \(0,\)"),
    ([[1, 2]], [[1]], ValueError, r"`context` to be a non-empty 1-D sequence of token ids, got shape \(1, 2\)"),
    ([1.0], [[1]], TypeError, r"Expected `context` to hold integer token ids, got torch.float32"),
    ([1], [[1], []], ValueError, r"Expected `choices\[1\]` to be a non-empty 1-D sequence of token ids"),
    ([1], [torch.tensor([True])], TypeError, r"Expected `choices\[0\]` to hold integer token ids, got torch.bool"),
    ([1], [], ValueError, r"Expected `choices` to hold at least one candidate, got 0"),
])
def test_score_choices_input_errors(context, choices, exc, match):
    with pytest.raises(exc, match=match):
        score_choices(TinyCausalLM(), context, choices)


def test_score_choices_rejects_bad_logits():
    with pytest.raises(ValueError, match=r"Expected `logits_fn` to return logits of shape \(2, 3, V\), got \(2, 3\)"):
        score_choices(lambda ids: ids.float(), [1], [[2, 3], [4]])
    with pytest.raises(ValueError, match=r"Expected `logits_fn` to return logits of shape \(1, 2, V\), got list"):
        score_choices(lambda ids: [0], [1], [[2]])


def test_evaluate_multiple_choice_end_to_end():
    model = TinyCausalLM()
    examples = [([1, 2, 3], [[4], [5, 6]], 1), ([7], [[8, 9, 1], [2], [3, 3]], 2), ([5, 5], [[1], [2]], 0)]

    def scorer(batch):  # batch_size 1: the collated context (1, L) and choices, a list of (1, L_c)
        context, choices = batch
        return score_choices(model, context[0], [c[0] for c in choices])[0][None]

    data = [((torch.tensor(c), [torch.tensor(x) for x in ch]), (torch.tensor(t), torch.tensor([len(x) for x in ch])))
            for c, ch, t in examples]  # input: (context, choices); target: (label, lengths)
    data.insert(1, ((torch.tensor([1]), [torch.tensor([])]), (torch.tensor(0), torch.tensor([1]))))  # bad example
    metrics = {"acc": MultipleChoiceAccuracy(), "acc_norm": MultipleChoiceAccuracy("length")}
    report = evaluate(scorer, data, metrics, progress=False)
    assert [i for i, _ in report.failed] == [1] and report.n_ok == 3
    rows = [torch.tensor([_brute_loglik(model, c, x) for x in ch]) for c, ch, _ in examples]
    target = torch.tensor([t for _, _, t in examples])
    lengths = [torch.tensor([float(len(x)) for x in ch]) for _, ch, _ in examples]
    raw = sum(int(r.argmax()) == t for r, t in zip(rows, target.tolist())) / 3
    norm = sum(int((r / n).argmax()) == t for r, n, t in zip(rows, lengths, target.tolist())) / 3
    assert_close(report.values, {"acc": raw, "acc_norm": norm})


# ------------------------------------------------------------------------------------------------ distributed
CASES = [Case(f"mc_{n}", partial(MultipleChoiceAccuracy, n), MC_BATCHES) for n in ("none", "length")]


test_distributed_equals_single_process = distributed_test(CASES)
