"""Retrieval input forms and rules: shuffled flat input equals dense input, mask and ignore_index, empty queries,
dtypes, and every error message of the functions."""
import pytest
import torch

from tests.helpers.metric_tester import assert_close
from torchmetrics_lite import _backend
from torchmetrics_lite.functional import (
    retrieval_auroc,
    retrieval_average_precision,
    retrieval_dcg,
    retrieval_fall_out,
    retrieval_hit_rate,
    retrieval_normalized_dcg,
    retrieval_precision,
    retrieval_r_precision,
    retrieval_recall,
    retrieval_reciprocal_rank,
)

FNS = {
    "ndcg": retrieval_normalized_dcg, "ap": retrieval_average_precision, "rr": retrieval_reciprocal_rank,
    "precision": retrieval_precision, "recall": retrieval_recall, "hit_rate": retrieval_hit_rate,
    "r_precision": retrieval_r_precision,
}
G = torch.Generator().manual_seed(3)
Q, N = 25, 12
PREDS = torch.randint(0, 4, (Q, N), generator=G).float()
TARGET = torch.randint(0, 3, (Q, N), generator=G)
MASK = torch.rand(Q, N, generator=G) < 0.8
MASK[5] = False  # a query with no item: not a query at all
TARGET[7] = 0  # a query with no relevant item


def _kw(name, **kw):
    return kw if name in ("r_precision", "auroc") else {"k": 4, **kw}


def _to_flat(preds, target, mask, ids):
    """Flat rows of the masked dense block, query ids ``ids[row]``, rows shuffled."""
    rows = torch.arange(Q)[:, None].expand(Q, N)[mask]
    perm = torch.randperm(rows.numel(), generator=G)
    return preds[mask][perm], target[mask][perm], ids[rows[perm]]


@pytest.mark.parametrize("ids", ["small", "huge"])
@pytest.mark.parametrize("name", sorted(FNS))
def test_shuffled_flat_equals_dense(name, ids):
    fn = FNS[name]
    id_values = torch.randperm(Q, generator=G) * 3 + 11 if ids == "small" else torch.randperm(Q, generator=G) * 10**12
    p, t, i = _to_flat(PREDS, TARGET, MASK, id_values)
    dense = fn(PREDS, TARGET, mask=MASK, reduction="none", **_kw(name))
    flat = fn(p, t, i, reduction="none", **_kw(name))
    present = MASK.any(1)
    assert_close(flat, dense[present][torch.argsort(id_values[present])], atol=1e-12)
    assert_close(fn(p, t, i, **_kw(name)), fn(PREDS, TARGET, mask=MASK, **_kw(name)), atol=1e-12)


@pytest.mark.parametrize("name", sorted(FNS))
def test_flat_in_query_order_equals_dense_with_order_ties(name):
    fn = FNS[name]
    rows = torch.arange(Q)[:, None].expand(Q, N)[MASK]  # ascending: items grouped by query, in order
    p, t = PREDS[MASK], TARGET[MASK]
    flat_rows = rows[torch.randperm(rows.numel(), generator=G)]  # queries interleaved at random
    src = torch.empty_like(rows)
    src[torch.sort(flat_rows, stable=True).indices] = torch.arange(rows.numel())  # each query's slots, in order
    dense = fn(PREDS, TARGET, mask=MASK, ties="order", reduction="none", **_kw(name))
    flat = fn(p[src], t[src], flat_rows, ties="order", reduction="none", **_kw(name))
    assert_close(flat, dense[MASK.any(1)], atol=1e-12)


def test_ignore_index_drops_items():
    t = TARGET.clone()
    t[~MASK] = -100
    for name, fn in FNS.items():
        assert_close(fn(PREDS, t, ignore_index=-100, reduction="none", **_kw(name)),
                     fn(PREDS, TARGET, mask=MASK, reduction="none", **_kw(name)), atol=1e-12)


def test_one_dim_input_is_one_query_and_order_ties():
    p, t = torch.tensor([0.5, 0.5, 0.1]), torch.tensor([0, 1, 0])
    assert retrieval_reciprocal_rank(p, t).item() == pytest.approx(0.75, abs=1e-15)
    assert retrieval_reciprocal_rank(p, t, ties="order").item() == 0.5
    assert retrieval_reciprocal_rank(p.flip(0), t.flip(0), ties="order").item() == 1.0


@pytest.mark.parametrize("name", sorted(FNS))
def test_empty_rules(name):
    fn = FNS[name]
    blank = (TARGET[MASK.any(1)] * MASK[MASK.any(1)]).sum(1) == 0
    per_query = fn(PREDS, TARGET, mask=MASK, empty="skip", reduction="none", **_kw(name))
    assert torch.isnan(per_query[5]) and torch.isnan(per_query[7])
    present = per_query[MASK.any(1)]
    counted = present[~blank]
    n_present = present.numel()
    assert_close(fn(PREDS, TARGET, mask=MASK, empty="skip", **_kw(name)), counted.mean(), atol=1e-12)
    assert_close(fn(PREDS, TARGET, mask=MASK, **_kw(name)), counted.sum() / n_present, atol=1e-12)  # default
    assert_close(fn(PREDS, TARGET, mask=MASK, empty="one", **_kw(name)),
                 (counted.sum() + blank.sum()) / n_present, atol=1e-12)
    zero = fn(PREDS, TARGET, mask=MASK, empty="zero", reduction="none", **_kw(name))
    assert zero[7].item() == 0.0 and torch.isnan(zero[5])
    with pytest.raises(ValueError, match=r"`target` to hold a relevant item \(target > 0\) in every query, got 1"):
        fn(PREDS, TARGET, mask=MASK, empty="error", **_kw(name))
    assert torch.isnan(fn(PREDS[:0], TARGET[:0]))  # no query at all: 0 / 0


def test_scores_by_order_only_and_float64_kept():
    shifted = retrieval_average_precision(PREDS * 3 - 100, TARGET, reduction="none")
    assert_close(shifted, retrieval_average_precision(PREDS, TARGET, reduction="none"), atol=1e-12)
    close = torch.tensor([1.0, 1.0 + 1e-12], dtype=torch.float64)
    assert retrieval_reciprocal_rank(close, torch.tensor([0, 1])).item() == 1.0
    assert retrieval_normalized_dcg(close, torch.tensor([0, 1])).dtype == torch.float64
    half = retrieval_average_precision(PREDS.half(), TARGET, reduction="none")
    assert_close(half, retrieval_average_precision(PREDS, TARGET, reduction="none"), atol=1e-12)
    ints = retrieval_average_precision(PREDS.long(), TARGET.bool(), reduction="none")
    assert_close(ints, retrieval_average_precision(PREDS, TARGET, reduction="none"), atol=1e-12)


MORE = {"dcg": retrieval_dcg, "fall_out": retrieval_fall_out, "auroc": retrieval_auroc}


@pytest.mark.parametrize("ties", ["average", "order"])
@pytest.mark.parametrize("name", sorted({**FNS, **MORE}))
def test_torch_kernels_equal_numpy_kernels(name, ties):
    """The torch path (as on CUDA and under torch.compile), run on CPU, gives the numpy path's values, for
    32-bit and wider scores (packed keys; an argsort), whole and fractional grades (packed into the sort key;
    not), dense and shuffled flat input."""
    fn = {**FNS, **MORE}[name]
    ids = torch.randperm(Q, generator=G) * 3 + 11
    for scores in (PREDS, PREDS.double() + 1e-10):
        for target in (TARGET, TARGET * 0.25):
            p, t, i = _to_flat(scores, target, MASK, ids)
            got = {}
            for backend in ("numpy", "torch"):
                with _backend.force(backend):
                    got[backend] = (fn(scores, target, mask=MASK, ties=ties, reduction="none", **_kw(name)),
                                    fn(p, t, i, ties=ties, reduction="none", **_kw(name)))
            assert_close(got["torch"][0], got["numpy"][0], atol=1e-12)
            assert_close(got["torch"][1], got["numpy"][1], atol=1e-12)
            if ties == "average":  # input order does not matter: flat equals the dense rows
                present = MASK.any(1)
                assert_close(got["numpy"][1], got["numpy"][0][present][torch.argsort(ids[present])], atol=1e-12)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("dtype", [torch.bool, torch.uint8, torch.float16, torch.bfloat16, torch.float64])
def test_target_dtypes_on_every_path(dtype, backend):
    target = TARGET.to(dtype)
    want = {name: fn(PREDS, TARGET.double() if dtype != torch.bool else TARGET > 0, mask=MASK, reduction="none",
                     **_kw(name)) for name, fn in FNS.items()}
    rows = torch.arange(Q)[:, None].expand(Q, N)[MASK]
    with _backend.force(backend):
        for name, fn in FNS.items():
            dense = fn(PREDS, target, mask=MASK, reduction="none", **_kw(name))
            flat = fn(PREDS[MASK], target[MASK], rows, reduction="none", **_kw(name))
            assert_close(dense, want[name], atol=1e-12, path=f"{backend} {name} dense")
            assert_close(flat, want[name][MASK.any(1)], atol=1e-12, path=f"{backend} {name} flat")


@pytest.mark.parametrize("name", sorted(FNS))
def test_edge_blocks_give_float64_values(name):
    fn = FNS[name]
    zero_width = fn(torch.zeros(3, 0), torch.zeros(3, 0, dtype=torch.long), reduction="none", **_kw(name))
    assert zero_width.dtype == torch.float64 and zero_width.shape == (3,) and torch.isnan(zero_width).all()
    tied, blank = torch.tensor([[1.0, 1.0, 0.0]]), torch.zeros(1, 3, dtype=torch.long)  # no relevant item
    assert fn(tied, blank, reduction="none", **_kw(name)).dtype == torch.float64
    assert fn(tied, blank, empty="one", **_kw(name)).item() == 1.0


@pytest.mark.parametrize("ties", ["average", "order"])
def test_uneven_queries(ties):
    """One query of 3000 items beside 200 of one item: flat input equals the masked dense block (no padding is
    built on the flat path)."""
    g = torch.Generator().manual_seed(8)
    sizes = torch.tensor([3000] + [1] * 200)
    q, m = sizes.numel(), int(sizes.max())
    valid = torch.arange(m) < sizes[:, None]
    preds = torch.randint(0, 50, (q, m), generator=g).float()
    target = torch.randint(0, 3, (q, m), generator=g)
    target[1:, 0] = 1  # the one-item queries are not skipped
    rows = torch.arange(q)[:, None].expand(q, m)[valid]
    p, t = preds[valid], target[valid]
    for name, fn in FNS.items():
        assert_close(fn(p, t, rows, ties=ties, reduction="none", **_kw(name)),
                     fn(preds, target, mask=valid, ties=ties, reduction="none", **_kw(name)), atol=1e-12)


def test_scores_requiring_grad_are_fine():
    p = PREDS.clone().requires_grad_(True)
    assert_close(retrieval_normalized_dcg(p, TARGET, k=3), retrieval_normalized_dcg(PREDS, TARGET, k=3))


def test_float_graded_target():
    t = TARGET.double() * 0.5
    assert_close(retrieval_normalized_dcg(PREDS, t, reduction="none"),
                 retrieval_normalized_dcg(PREDS, TARGET, reduction="none"), atol=1e-12)


def test_validate_args_false_skips_value_checks(monkeypatch):
    """No value check runs (they need a host sync); a negative grade is then simply not relevant."""
    from torchmetrics_lite.functional.retrieval import _torch_kernels

    bad = TARGET.clone()
    bad[0, 0] = -1
    with pytest.raises(ValueError, match=r"`target` to be non-negative"):
        retrieval_precision(PREDS, bad)

    def fail(*args, **kwargs):
        raise AssertionError("a value check ran with validate_args=False")

    want = {name: fn(PREDS, bad.clamp(min=0), reduction="none", **_kw(name)) for name, fn in FNS.items()}
    monkeypatch.setattr(_torch_kernels, "check_retrieval_values", fail)
    for name, fn in FNS.items():
        assert_close(fn(PREDS, bad, validate_args=False, reduction="none", **_kw(name)), want[name], atol=1e-12)


ERRORS = [
    (dict(preds=[0.1]), TypeError, r"`preds` to be a torch.Tensor, got list"),
    (dict(target=torch.ones(Q, N, dtype=torch.complex64)), TypeError, r"`target` to have a real dtype"),
    # each branch of check_retrieval_inputs' one-test fast path, and the order of its messages
    (dict(target=[1]), TypeError, r"`target` to be a torch.Tensor, got list"),
    (dict(preds=torch.ones(Q, N, dtype=torch.complex64)), TypeError, r"`preds` to have a real dtype"),
    (dict(preds=torch.ones(Q, 3, dtype=torch.complex64)), TypeError, r"`preds` to have a real dtype"),
    (dict(preds=torch.ones(Q, 3, dtype=torch.complex64), target=(0,)), TypeError, r"`target` to be a torch.Tensor"),
    (dict(target=TARGET[:, :3].to(torch.complex64)), TypeError, r"`target` to have a real dtype"),
    (dict(target=TARGET[:, :3]), ValueError, r"`preds` and `target` to have the same shape, got \(25, 12\) and"),
    (dict(preds=PREDS[None], target=TARGET[None]), ValueError, r"`preds` to be 1-D or 2-D, got shape \(1, 25, 12\)"),
    (dict(indexes=torch.zeros(Q, N, dtype=torch.long)), ValueError, r"`preds` to be 1-D, got shape \(25, 12\)"),
    (dict(preds=PREDS[0], target=TARGET[0], indexes=torch.zeros(N)), TypeError, r"`indexes` to have an integer dtype"),
    (dict(preds=PREDS[0], target=TARGET[0], indexes=torch.zeros(3, dtype=torch.long)), ValueError,
     r"`indexes` and `preds` to have the same shape"),
    (dict(mask=MASK.long()), TypeError, r"`mask` to have dtype torch.bool, got torch.int64"),
    (dict(mask=MASK[:2]), ValueError, r"`mask` and `preds` to have the same shape"),
    (dict(k=0), ValueError, r"`k` to be a positive int or None, got 0"),
    (dict(ties="random"), ValueError, r"`ties` to be one of \('average', 'order'\), got 'random'"),
    (dict(empty="nan"), ValueError, r"`empty` to be one of \('skip', 'zero', 'one', 'error'\), got 'nan'"),
    (dict(reduction="sum"), ValueError, r"`reduction` to be one of \('mean', 'none'\), got 'sum'"),
    (dict(ignore_index=1.5), ValueError, r"`ignore_index` to be an int or None, got 1.5"),
    # check_retrieval_options' one-test fast path: a bool is no int, and the first bad option is named
    (dict(k=True), ValueError, r"`k` to be a positive int or None, got True"),
    (dict(ignore_index=False), ValueError, r"`ignore_index` to be an int or None, got False"),
    (dict(k=0, ties="random", reduction="sum"), ValueError, r"`k` to be a positive int or None, got 0"),
    (dict(empty="nan", reduction="sum"), ValueError, r"`empty` to be one of"),
    (dict(preds=torch.full((Q, N), float("nan"))), ValueError, r"`preds` to contain no NaN, got 300"),
    (dict(target=TARGET - 1), ValueError, r"`target` to be non-negative \(relevance grades\), got minimum -1"),
    (dict(target=TARGET.double().fill_(float("nan"))), ValueError, r"`target` to contain no NaN"),
]


@pytest.mark.parametrize("bad, exc, match", ERRORS, ids=lambda x: x if isinstance(x, str) else None)
def test_errors(bad, exc, match):
    args = {"preds": PREDS, "target": TARGET, **bad}
    with pytest.raises(exc, match=match):
        retrieval_average_precision(**args)


def test_gain_error():
    with pytest.raises(ValueError, match=r"`gain` to be one of \('linear', 'exponential'\), got 'log'"):
        retrieval_normalized_dcg(PREDS, TARGET, gain="log")
