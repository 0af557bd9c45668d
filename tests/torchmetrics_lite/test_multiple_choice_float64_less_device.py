"""The float32 policy of multiple-choice accuracy and ``score_choices`` on an emulated float64-less device
(``tests/helpers/no_float64``): no float64 tensor made, float32 values close to the float64 ones."""
from functools import partial

import pytest
import torch

import torchmetrics_lite.functional.multiple_choice as fmc
import torchmetrics_lite.multiple_choice as mmc
from tests.helpers.no_float64 import assert_float32_close, check_float32_policy, float64_less_cpu
from torchmetrics_lite import MultipleChoiceAccuracy, score_choices
from torchmetrics_lite.functional import multiple_choice_accuracy


def _batches(sizes, float_lengths=False, c=4):
    """Integer-valued float32 log-likelihoods (ties on purpose: a ratio of integers rounds the same way in float32
    and float64, so ties stay ties) and lengths."""
    g = torch.Generator().manual_seed(3)
    out = []
    for n in sizes:
        lengths = torch.randint(1, 6, (n, c), generator=g)
        out.append((-torch.randint(1, 30, (n, c), generator=g).float(), torch.randint(0, c, (n,), generator=g),
                    lengths.float() if float_lengths else lengths))
    return out


CASES = {
    "acc": (MultipleChoiceAccuracy, multiple_choice_accuracy, _batches([9, 0, 14])),
    "acc_norm": (partial(MultipleChoiceAccuracy, normalize="length"),
                 partial(multiple_choice_accuracy, normalize="length"), _batches([9, 0, 14])),
    "acc_norm, float lengths": (partial(MultipleChoiceAccuracy, normalize="length"),
                                partial(multiple_choice_accuracy, normalize="length"), _batches([12, 5], True)),
    "empty input, zero_division=nan": (partial(MultipleChoiceAccuracy, zero_division=float("nan")),
                                       partial(multiple_choice_accuracy, zero_division=float("nan")),
                                       _batches([0, 0])),
}


@pytest.mark.parametrize("name", list(CASES))
def test_multiple_choice_accuracy_float32_policy(monkeypatch, name):
    make, function, batches = CASES[name]
    check_float32_policy(monkeypatch, make, batches, function)


def test_score_choices_float32_policy(monkeypatch):
    logits = torch.randn(12, 12, generator=torch.Generator().manual_seed(0)) * 4  # a bigram model over 12 tokens

    def bigram(ids):
        return logits[ids]

    want, want_lengths = score_choices(bigram, [1, 2, 3], [[4], [5, 0, 11], [7, 7]])
    with float64_less_cpu(monkeypatch):
        got, lengths = score_choices(bigram, [1, 2, 3], [[4], [5, 0, 11], [7, 7]])
    assert torch.equal(lengths, want_lengths)
    assert_float32_close(got, want)  # a float32 log_softmax: close to the float64 one within float32 rounding


def test_every_public_name_is_covered():
    covered = {"MultipleChoiceAccuracy", "multiple_choice_accuracy", "score_choices"}
    assert set(fmc.__all__) | set(mmc.__all__) == covered
