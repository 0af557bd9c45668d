"""Every regression function and module update traces as one graph (``fullgraph=True``, no graph break) with
``validate_args=False`` and gives the eager value: under ``torch.compile`` the torch kernels run."""
from functools import partial

import pytest
import torch

from tests.helpers.compile import check_compiles, graph_breaks
from tests.helpers.metric_tester import assert_close
from torchmetrics_lite import (
    ExplainedVariance,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,
    MeanSquaredError,
    R2Score,
    RootMeanSquaredError,
)
from torchmetrics_lite.functional import (
    explained_variance,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    r2_score,
    root_mean_squared_error,
)

GEN = torch.Generator().manual_seed(70)
TARGET = 1e3 + torch.randn(40, 2, generator=GEN)
PREDS = TARGET + 0.5 * torch.randn(40, 2, generator=GEN)
WEIGHT = torch.rand(40, generator=GEN)
FUNCTIONS = [mean_squared_error, root_mean_squared_error, mean_absolute_error, mean_absolute_percentage_error,
             r2_score, explained_variance]
MODULES = [MeanSquaredError, RootMeanSquaredError, MeanAbsoluteError, MeanAbsolutePercentageError, R2Score,
           ExplainedVariance]


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f.__name__)
def test_functional_compiles_without_graph_break(fn, weighted):
    kwargs = {"weight": WEIGHT} if weighted else {}
    check_compiles(partial(fn, validate_args=False, multioutput="raw_values"), PREDS, TARGET, **kwargs)


def test_adjusted_r2_compiles_and_inductor_gives_the_eager_value():
    """The adjusted score's check is a host sync: ``validate_args=False`` skips it (``nan`` if n - p - 1 <= 0)."""
    fn = partial(r2_score, adjusted=3, validate_args=False)
    check_compiles(fn, PREDS[:, 0], TARGET[:, 0], weight=WEIGHT, backends=("eager", "inductor"))
    assert torch.isnan(fn(PREDS[:4, 0], TARGET[:4, 0]))  # n - p - 1 = 0


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("cls", MODULES, ids=lambda c: c.__name__)
def test_module_update_compiles_without_graph_break(cls, weighted):
    kwargs = {"weight": WEIGHT} if weighted else {}
    factory = partial(cls, num_outputs=2, multioutput="raw_values", validate_args=False)
    eager, traced, compiled = factory(), factory(), factory()
    for _ in range(2):
        eager.update(PREDS, TARGET, **kwargs)
    assert graph_breaks(traced.update, PREDS, TARGET, **kwargs) == 0  # explain() runs one update
    torch._dynamo.reset()
    torch.compile(compiled.update, backend="eager", fullgraph=True)(PREDS, TARGET, **kwargs)
    for m in (traced, compiled):
        m.update(PREDS, TARGET, **kwargs)  # and an eager one on top: the states merge
        assert_close(m.local_state(), eager.local_state(), rtol=1e-12)
        assert_close(m.compute(), eager.compute(), rtol=1e-12)
