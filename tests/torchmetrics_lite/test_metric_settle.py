"""Pending states (``add_state(..., pending=True)``): rows that ``update`` only appends and that settle into the
other states once ``settle_numel`` elements are held, when a batch brings another row shape, and before anything
reads or merges the state. CosineSimilarity is the metric that keeps its rows pending; the value must not depend on
when they settle, and the wrappers, which settle every batch, give the wrapped values."""
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
    m.settle_numel = 20
    (a, b), (c, d) = _rows([(3, 4), (3, 4)])
    m.update(a, b)
    assert _filled(m, "preds") == 3  # 12 row elements, below the threshold: appended only
    m.update(c, d)  # 24 row elements >= 20: settled at this update
    assert _filled(m, "preds") == 0 and _filled(m, "target") == 0
    assert m.__dict__["_state"]["total"].item() == 6
    m.update(a, b)
    assert _filled(m, "preds") == 3
    assert m.total.item() == 9 and _filled(m, "preds") == 0  # reading a state settles first
    m.update(a, b)
    state = m.local_state()  # so does the state a sync or a checkpoint reads: empty, the default's row shape
    assert state["preds"].shape == (0, 0) and state["total"].item() == 12
    expected = F.cosine_similarity(torch.cat([a, c, a, a]), torch.cat([b, d, b, b]), "mean")
    assert math.isclose(m.compute().item(), expected.item(), rel_tol=1e-14)


def test_pending_rows_take_their_bound_at_once_and_keep_it():
    m = tl.CosineSimilarity()
    m.settle_numel = 100  # 25 rows of 4: the bound, plus the batch that crosses it
    (a, b), = _rows([(6, 4)])
    m.update(a, b)
    buf = m.__dict__["_state"]["preds"]
    assert buf.shape == (25 + 6, 4)  # one allocation, not doublings from the minimum capacity
    for _ in range(3):
        m.update(a, b)
    assert m.__dict__["_state"]["preds"] is buf and _filled(m, "preds") == 24
    m.update(a, b)  # 30 rows >= 25: settled, in the same memory
    assert m.__dict__["_state"]["preds"] is buf and _filled(m, "preds") == 0
    big = torch.randn(40, 4)
    m.update(big, big)  # a batch past the bound grows it, as any cat state
    assert m.__dict__["_state"]["preds"].shape[0] >= 40
    expected = F.cosine_similarity(torch.cat([a] * 5 + [big]), torch.cat([b] * 5 + [big]))
    assert math.isclose(m.compute().item(), expected.item(), rel_tol=1e-14)
    never = tl.CosineSimilarity()
    never.settle_numel = 2**40  # a bound too large to take at once: doubling from the minimum capacity
    never.update(a, b)
    assert never.__dict__["_state"]["preds"].shape == (1024, 4)


def test_a_batch_of_another_row_length_settles_the_rows_held_first():
    (a, b), (c, d) = _rows([(3, 4), (2, 5)])
    m = tl.CosineSimilarity(reduction="none")
    m.update(a, b)
    m.update(torch.zeros(0, 7), torch.zeros(0, 7))  # no rows: nothing settles, nothing changes shape
    assert _filled(m, "preds") == 3 and m.__dict__["_state"]["preds"].shape[1] == 4
    m.update(c, d)
    assert _filled(m, "preds") == 2 and m.__dict__["_state"]["preds"].shape[1] == 5  # the 3 rows settled
    assert _filled(m, "measures") == 3
    assert m.preds.shape == (0, 0) and _filled(m, "measures") == 5  # an attribute read settles, as local_state
    m.update(a, b)
    expected = torch.cat([F.cosine_similarity(a, b, "none"), F.cosine_similarity(c, d, "none"),
                          F.cosine_similarity(a, b, "none")])
    assert torch.equal(m.compute(), expected)


@settings(max_examples=25, deadline=None)
@given(sizes=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 4)), min_size=1, max_size=8),
       settle_numel=st.integers(1, 40), seed=st.integers(0, 2**16))
def test_the_value_does_not_depend_on_when_rows_settle(sizes, settle_numel, seed):
    batches = _rows(sizes, seed)
    expected = torch.cat([F.cosine_similarity(p, t, "none") for p, t in batches])  # row lengths change freely
    for reduction in ("none", "sum", "mean"):
        m = tl.CosineSimilarity(reduction=reduction)
        m.settle_numel = settle_numel
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
    b.settle_numel = 1  # b's rows settled, a's pending: a's come first after the merge
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


def test_wrappers_settle_every_batch_and_give_the_wrapped_values():
    batches = _rows([(5, 4), (3, 4), (4, 2), (6, 2)])
    window, minmax = tl.Running(tl.CosineSimilarity(reduction="mean"), window=2), tl.MinMaxMetric(
        tl.CosineSimilarity(reduction="sum"))
    per_batch = []
    for p, t in batches:
        window.update(p, t)
        per_batch.append(minmax(p, t)["raw"])
        assert torch.equal(per_batch[-1], F.cosine_similarity(p, t))
    last = torch.cat([F.cosine_similarity(p, t, "none") for p, t in batches[2:]])
    torch.testing.assert_close(window.compute(), last.mean(), rtol=1e-14, atol=0)
    got = minmax.compute()
    total = torch.cat([F.cosine_similarity(p, t, "none") for p, t in batches]).sum()
    torch.testing.assert_close(got["raw"], total, rtol=1e-14, atol=0)
    assert torch.equal(got["max"], torch.stack(per_batch).max())
    assert "preds" not in window.state_reductions and "preds" not in minmax.state_reductions
    outputs = tl.MultioutputWrapper(tl.CosineSimilarity(reduction="none"), num_outputs=2)
    g = torch.Generator().manual_seed(3)
    p, t = torch.randn(6, 3, 2, generator=g), torch.randn(6, 3, 2, generator=g)
    outputs.update(p, t)
    expected = torch.stack([F.cosine_similarity(p[..., i], t[..., i], "none") for i in range(2)])
    assert torch.equal(outputs.compute(), expected)


def test_a_bootstrap_of_pending_rows_is_the_resampled_rows_value():
    (p, t), = _rows([(7, 3)])
    boot = tl.BootStrapper(tl.CosineSimilarity(reduction="mean"), num_bootstraps=4, raw=True,
                           sampling_strategy="multinomial", seed=11)
    boot.update(p, t)
    index = torch.randint(0, 7, (4, 7), generator=torch.Generator().manual_seed(11))
    expected = torch.stack([F.cosine_similarity(p[i], t[i], "mean") for i in index])
    torch.testing.assert_close(boot.compute()["raw"], expected, rtol=1e-14, atol=0)


def test_settled_stats_refuses_a_state_named_by_both_the_batch_and_the_settle():
    class Both(Metric):
        def __init__(self):
            super().__init__()
            self.add_state("rows", torch.zeros(0), reduce="cat", pending=True)
            self.add_state("total", torch.zeros(()), reduce="sum")

        def batch_stats(self, x):
            return {"rows": x, "total": x.sum()}

        def settle(self, pending):
            return {"total": pending["rows"].sum()}

        def compute_from_stats(self, state):
            return state["total"]

    m = Both()
    assert m.pending_states == ("rows",)
    with pytest.raises(ValueError, match=r"Expected the batch statistics of Both and its settled pending rows to "
                                         r"name different states, got \['total'\] in both"):
        m.settled_stats(m.batch_stats(torch.ones(2)))
    assert m.settled_stats({"rows": torch.ones(2)}) == {"total": torch.tensor(2.0)}
