"""Pending states (``add_state(..., pending=True)``): rows that ``update`` only appends and that settle into the
other states once ``settle_rows`` are held and before anything reads or merges the state. CosineSimilarity is
the metric that keeps its rows pending; the value must not depend on when they settle."""
import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import torchmetrics_lite as tl
import torchmetrics_lite.functional as F
from torchmetrics_lite.metric import Metric


def _rows(sizes, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(n, d, generator=g), torch.randn(n, d, generator=g)) for n, d in sizes]


def _filled(metric, name):
    return metric.__dict__["_cat_len"][name]


def test_rows_settle_at_the_threshold_and_before_every_read():
    m = tl.CosineSimilarity(reduction="mean")
    m.settle_rows = 20
    (a, b), (c, d) = _rows([(3, 4), (3, 4)])
    m.update(a, b)
    assert _filled(m, "preds") == 12 and _filled(m, "shapes") == 1  # below the threshold: appended only
    m.update(c, d)  # 24 row elements >= 20: settled at this update
    assert _filled(m, "preds") == 0 and _filled(m, "shapes") == 0
    assert m.__dict__["_state"]["total"].item() == 6
    m.update(a, b)
    assert _filled(m, "preds") == 12
    assert m.total.item() == 9 and _filled(m, "preds") == 0  # reading a state settles first
    m.update(a, b)
    state = m.local_state()  # so does the state a sync or a checkpoint reads
    assert state["preds"].numel() == 0 and state["total"].item() == 12
    expected = F.cosine_similarity(torch.cat([a, c, a, a]), torch.cat([b, d, b, b]), "mean")
    assert math.isclose(m.compute().item(), expected.item(), rel_tol=1e-14)


@settings(max_examples=25, deadline=None)
@given(sizes=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 4)), min_size=1, max_size=8),
       settle_rows=st.integers(1, 40), seed=st.integers(0, 2**16))
def test_the_value_does_not_depend_on_when_rows_settle(sizes, settle_rows, seed):
    batches = _rows(sizes, seed)
    expected = torch.cat([F.cosine_similarity(p, t, "none") for p, t in batches])  # row lengths change freely
    for reduction in ("none", "sum", "mean"):
        m = tl.CosineSimilarity(reduction=reduction)
        m.settle_rows = settle_rows
        for p, t in batches:
            m.update(p, t)
        got = m.compute()
        if reduction == "none":  # each row's float64 value is the same bits whichever batch or settle computed it
            torch.testing.assert_close(got, expected, rtol=0, atol=0, equal_nan=True)  # a zero row: 0/0
        else:
            value = expected.sum() / (expected.numel() if reduction == "mean" else 1)
            torch.testing.assert_close(got, value, rtol=1e-12, atol=1e-12, equal_nan=True)


def test_merge_state_and_forward_keep_the_order_of_the_rows():
    first, second = _rows([(4, 3), (5, 3)]), _rows([(2, 3), (3, 3)], seed=1)
    a, b = tl.CosineSimilarity(reduction="none"), tl.CosineSimilarity(reduction="none")
    b.settle_rows = 1  # b's rows settled, a's pending: a's come first after the merge
    for (p, t), (q, u) in zip(first, second):
        a.update(p, t)
        b.update(q, u)
    a.merge_state(b)
    rows = [F.cosine_similarity(p, t, "none") for p, t in first + second]
    assert torch.equal(a.compute(), torch.cat(rows))
    c = tl.CosineSimilarity(reduction="none")
    c.update(*first[0])
    value = c(*second[0])  # forward: the batch's rows, and the batch appended after the pending ones
    assert torch.equal(value, rows[2])
    assert torch.equal(c.compute(), torch.cat([rows[0], rows[2]]))


def test_a_checkpoint_taken_with_rows_pending_resumes_the_same_value():
    batches = _rows([(5, 4), (3, 4), (6, 4)])
    m = tl.CosineSimilarity(reduction="sum", persistent=True)
    for p, t in batches[:2]:
        m.update(p, t)
    resumed = tl.CosineSimilarity(reduction="sum", persistent=True)
    resumed.load_state_dict(m.state_dict())
    for metric in (m, resumed):
        metric.update(*batches[2])
    assert torch.equal(resumed.compute(), m.compute())
    expected = F.cosine_similarity(torch.cat([p for p, _ in batches]), torch.cat([t for _, t in batches]))
    torch.testing.assert_close(m.compute(), expected, rtol=1e-14, atol=0)


def test_a_pending_state_is_a_cat_state_that_some_settle_reduces():
    class Rows(Metric):
        def __init__(self):
            super().__init__()
            self.add_state("rows", torch.zeros(0), reduce="cat", pending=True)

        def batch_stats(self, x):
            return {"rows": x}

        def compute_from_stats(self, state):
            return state["rows"].sum()

    with pytest.raises(ValueError, match=r"Expected a pending state to have reduce='cat', got 'sum'"):
        Rows().add_state("total", torch.zeros(()), reduce="sum", pending=True)
    m = Rows()
    m.update(torch.ones(3))
    with pytest.raises(NotImplementedError, match=r"Rows declares pending states but no `settle_fn`"):
        m.compute()


@settings(max_examples=20, deadline=None)
@given(cuts=st.lists(st.integers(0, 40), max_size=6), seed=st.integers(0, 2**16))
def test_without_a_settle_before_compute_the_streamed_value_is_the_one_shot_value(cuts, seed):
    (p, t), = _rows([(40, 5)], seed)
    bounds = [0, *sorted(cuts), 40]
    for reduction in ("sum", "mean", "none"):
        m = tl.CosineSimilarity(reduction=reduction)
        for lo, hi in zip(bounds, bounds[1:]):
            m.update(p[lo:hi], t[lo:hi])
        assert torch.equal(m.compute(), F.cosine_similarity(p, t, reduction))


def test_pending_rows_keep_float32_inputs_as_given_and_integers_and_float64_exactly():
    big = torch.tensor([[2**40 + 1, 3], [5, 2**33 + 7]])  # not representable in float32
    small = torch.tensor([[0.25, -1.5], [2.0, 0.5]])
    m = tl.CosineSimilarity(reduction="none")
    m.update(small, small.flip(0))
    assert m.__dict__["_state"]["preds"].dtype == torch.float32  # torchmetrics' memory for float32 inputs
    m.update(big, big.flip(1))  # integers arrive as float64 and promote the pending rows
    assert m.__dict__["_state"]["preds"].dtype == torch.float64
    m.update(small.double(), small.double())
    expected = torch.cat([F.cosine_similarity(small.double(), small.flip(0).double(), "none"),
                          F.cosine_similarity(big.double(), big.flip(1).double(), "none"),
                          torch.ones(2, dtype=torch.float64)])
    torch.testing.assert_close(m.compute(), expected, rtol=0, atol=1e-15)
