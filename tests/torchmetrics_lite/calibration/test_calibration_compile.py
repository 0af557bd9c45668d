"""Every calibration function and module update traces as one graph (``fullgraph=True``, no graph break) with
``validate_args=False`` and gives the eager value: under ``torch.compile`` the torch kernels run (static-shape
binning: a binary search and ``index_add_`` into ``n_bins`` slots)."""
from functools import partial

import pytest
import torch

from tests.helpers.compile import check_compiles, graph_breaks
from tests.helpers.metric_tester import assert_close
from torchmetrics_lite import BinaryBrierScore, BinaryCalibrationError, MulticlassBrierScore, MulticlassCalibrationError
from torchmetrics_lite.functional import (
    binary_brier_score,
    binary_calibration_error,
    multiclass_brier_score,
    multiclass_calibration_error,
)

GEN = torch.Generator().manual_seed(71)
PROBS = torch.rand(50, generator=GEN)
LABELS = (torch.rand(50, generator=GEN) < PROBS).long()
MC_PROBS = torch.softmax(2 * torch.randn(50, 4, generator=GEN), dim=1)
MC_LABELS = torch.randint(0, 4, (50,), generator=GEN)
WEIGHT = torch.rand(50, generator=GEN)
CASES = [  # function, module factory, batch
    (binary_brier_score, BinaryBrierScore, (PROBS, LABELS)),
    (partial(binary_calibration_error, n_bins=7), partial(BinaryCalibrationError, n_bins=7), (PROBS, LABELS)),
    (partial(binary_calibration_error, norm="max"), partial(BinaryCalibrationError, norm="max"), (PROBS, LABELS)),
    (multiclass_brier_score, partial(MulticlassBrierScore, num_classes=4), (MC_PROBS, MC_LABELS)),
    (partial(multiclass_calibration_error, norm="l2"), partial(MulticlassCalibrationError, num_classes=4, norm="l2"),
     (MC_PROBS, MC_LABELS)),
]
IDS = ["binary brier", "binary ece", "binary mce", "multiclass brier", "multiclass rms"]


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_functional_compiles_without_graph_break(case, weighted):
    fn, _, batch = case
    kwargs = {"weight": WEIGHT} if weighted else {}
    check_compiles(partial(fn, validate_args=False), *batch, **kwargs)


def test_calibration_error_under_inductor_gives_the_eager_value():
    check_compiles(partial(binary_calibration_error, validate_args=False), PROBS, LABELS, weight=WEIGHT,
                   backends=("inductor",))


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_module_update_compiles_without_graph_break(case, weighted):
    _, cls, batch = case
    kwargs = {"weight": WEIGHT} if weighted else {}
    factory = partial(cls, validate_args=False)
    eager, traced, compiled = factory(), factory(), factory()
    for _ in range(2):
        eager.update(*batch, **kwargs)
    assert graph_breaks(traced.update, *batch, **kwargs) == 0  # explain() runs one update
    torch._dynamo.reset()
    torch.compile(compiled.update, backend="eager", fullgraph=True)(*batch, **kwargs)
    for m in (traced, compiled):
        m.update(*batch, **kwargs)
        assert_close(m.local_state(), eager.local_state(), rtol=1e-12)
        assert_close(m.compute(), eager.compute(), rtol=1e-12)
