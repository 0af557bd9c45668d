"""``torch.compile(fullgraph=True)`` with ``validate_args=False`` for the single-file families that have no compile
test of their own: multiple choice (function and module update) and aggregation (every module's update). No graph
break, and the compiled value equals the eager one (backend "eager")."""
from functools import partial

import pytest
import torch

import torchmetrics_lite as T
from tests.helpers.compile import check_compiles, check_update_compiles
from torchmetrics_lite.functional import multiple_choice_accuracy

G = torch.Generator().manual_seed(14)
LOGLIK = torch.randn(30, 4, generator=G).round(decimals=1)  # ties: the lowest index wins
TARGET = torch.randint(0, 4, (30,), generator=G)
LENGTHS = torch.randint(1, 6, (30, 4), generator=G)
VALUES, WEIGHTS = torch.randn(40, generator=G, dtype=torch.float64), torch.rand(40, generator=G, dtype=torch.float64)


@pytest.mark.parametrize("normalize", ["none", "length"])
def test_multiple_choice_accuracy_compiles(normalize):
    fn = partial(multiple_choice_accuracy, normalize=normalize, validate_args=False)
    check_compiles(fn, LOGLIK, TARGET, LENGTHS if normalize == "length" else None)


def test_multiple_choice_accuracy_empty_input_compiles():
    """The empty rule (``zero_division``) is a tensor select, not a host branch."""
    fn = partial(multiple_choice_accuracy, zero_division=float("nan"), validate_args=False)
    assert torch.isnan(check_compiles(fn, LOGLIK[:0], TARGET[:0]))


UPDATES = {
    "MultipleChoiceAccuracy": (partial(T.MultipleChoiceAccuracy, normalize="length"), (LOGLIK, TARGET, LENGTHS)),
    "SumMetric": (T.SumMetric, (VALUES,)),
    "MeanMetric": (T.MeanMetric, (VALUES, WEIGHTS)),
    "MaxMetric": (T.MaxMetric, (VALUES,)),
    "MinMetric": (T.MinMetric, (VALUES,)),
}


@pytest.mark.parametrize("name", sorted(UPDATES))
def test_module_update_compiles(name):
    factory, args = UPDATES[name]
    shifted = (args[0] + 1.0,) + args[1:]  # a second, different batch: the compiled step accumulates
    check_update_compiles(partial(factory, validate_args=False), [args, shifted])
