"""MultipleChoiceAccuracy (against a brute-force argmax), score_choices (against one model call per token) and
both fed by evaluate()."""
from functools import partial

import pytest
import torch
from torch import nn

from tests.helpers.distributed import Case, distributed_test
from tests.helpers.metric_tester import assert_close, check_metric, check_rejects
from torchmetrics_lite import MetricCollection, MultipleChoiceAccuracy, evaluate, score_choices
from torchmetrics_lite.functional import multiple_choice_accuracy

GEN = torch.Generator().manual_seed(0)


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
    report = evaluate(scorer, data, metrics, progress=False, max_error_rate=0.5)
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
