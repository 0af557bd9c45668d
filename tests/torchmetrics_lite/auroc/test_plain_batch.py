"""The one-frame check of the common binary rank batch (1-D float scores, bool/integer labels, CPU) and the numpy
NaN probe: the rows are the full checks' rows, and every value they refuse falls through to the full checks,
which raise their message before any state changes."""
import pytest
import torch

import torchmetrics_lite as tml
from torchmetrics_lite import _backend
from torchmetrics_lite._checks import check_binary_rank_inputs, plain_binary_rank_rows

SCORES = torch.tensor([0.9, 0.2, 0.6, 0.4])


@pytest.mark.parametrize("dtype", [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64])
@pytest.mark.parametrize("scores", [SCORES, SCORES.double(), torch.rand(8)[::2]])  # a strided view too
def test_the_plain_rows_are_the_checked_rows(dtype, scores):
    target = torch.tensor([1, 0, 1, 0]).to(dtype)[: scores.numel()]
    plain = plain_binary_rank_rows(scores, target, True)
    assert plain is not None
    with _backend.force("torch"):  # the torch checks, which a CUDA tensor takes
        assert plain_binary_rank_rows(scores, target, True) is None
        full = check_binary_rank_inputs(scores, target, True)
    # the same scores, and the same 0/1 labels (integer labels as given: the copy into the uint8 state converts)
    assert plain[0].dtype == full[0].dtype and torch.equal(plain[0], full[0])
    assert plain[1].dtype in (torch.uint8, dtype) and torch.equal(plain[1].to(torch.uint8), full[1])
    plain_metric, full_metric = tml.BinaryAUROC(), tml.BinaryAUROC()
    plain_metric.update(scores, target)
    with _backend.force("torch"):
        full_metric.update(scores, target)
    for name, want in full_metric.local_state().items():  # the states are the same, dtypes included
        got = plain_metric.local_state()[name]
        assert got.dtype == want.dtype and torch.equal(got, want), name


@pytest.mark.parametrize("preds, target, match", [
    (torch.tensor([0.9, float("nan"), 0.6]), torch.tensor([1, 0, 1]), r"`preds` to contain no NaN, got 1"),
    (SCORES[:3], torch.tensor([1, 2, 0]), r"`target`"),
    (SCORES[:3], torch.tensor([1, -1, 0]), r"`target`"),
    (SCORES[:3], torch.tensor([1, 2, 0], dtype=torch.uint8), r"`target`"),
    (SCORES[:3], torch.tensor([1, 0]), r"same shape"),
])
def test_refused_plain_batches_raise_the_full_message_before_any_state_change(preds, target, match):
    assert plain_binary_rank_rows(preds, target, True) is None
    m = tml.BinaryAUROC()
    m.update(SCORES, torch.tensor([1, 0, 1, 0]))
    before = {k: v.clone() for k, v in m.local_state().items()}
    with pytest.raises(ValueError, match=match):
        m.update(preds, target)
    after = m.local_state()
    assert before.keys() == after.keys() and all(torch.equal(before[k], after[k]) for k in before)


def test_without_value_checks_the_plain_rows_take_any_value():
    nan = torch.tensor([float("nan"), 0.5])
    rows = plain_binary_rank_rows(nan, torch.tensor([1, 0]), False)
    assert rows is not None and rows[0] is nan


def test_infinite_scores_are_plain_and_grad_goes_the_full_way():
    inf = float("inf")
    scores = torch.tensor([inf, -inf, 1.0])
    assert plain_binary_rank_rows(scores, torch.tensor([1, 0, 1]), True) is not None  # infinities never read NaN
    assert plain_binary_rank_rows(scores.requires_grad_(), torch.tensor([1, 0, 1]), True) is None
    with _backend.force("torch"):
        assert plain_binary_rank_rows(SCORES, torch.tensor([1, 0, 1, 0]), True) is None
