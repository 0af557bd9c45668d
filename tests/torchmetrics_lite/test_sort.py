"""_sort: the numpy and torch paths agree with each other and with a reference, for every dtype."""
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from torchmetrics_lite import _backend, _sort
from torchmetrics_lite._sort_keys import segment_sort_payload
from torchmetrics_lite._xp import namespace
from torchmetrics_lite.functional.auroc._kernels import row_sort

DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.uint8]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("descending", [False, True])
def test_paths_agree(dtype, descending):
    g = torch.Generator().manual_seed(0)
    x = (torch.randint(0, 50, (1000,), generator=g)).to(dtype)
    ref = torch.sort(x.double(), descending=descending, stable=True)
    for backend in ("numpy", "torch"):
        with _backend.force(backend):
            assert torch.equal(_sort.sort(x, descending=descending).double(), ref.values)
            assert torch.equal(_sort.sort(x, descending=descending, runs=True).double(), ref.values)
            idx = _sort.argsort(x, descending=descending, stable=True)
            assert torch.equal(idx, ref.indices), backend
            loose = _sort.argsort(x, descending=descending)
            assert torch.equal(x[loose].double(), ref.values)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=60), st.lists(st.integers(-6, 6), max_size=10), st.booleans())
def test_searchsorted_matches_numpy(values, queries, right):
    s = torch.sort(torch.tensor(values, dtype=torch.float64)).values
    q = torch.tensor(queries, dtype=torch.float64)
    want = np.searchsorted(s.numpy(), q.numpy(), side="right" if right else "left")
    for backend in ("numpy", "torch"):
        with _backend.force(backend):
            assert _sort.searchsorted(s, q, right=right).tolist() == want.tolist()


def test_sort_of_sorted_runs_gives_the_same_bits():
    """``runs=True`` (numpy's stable merge of sorted runs) sorts rows of curves laid end to end into the same
    values, -0.0 and +0.0 included, as ``torch.sort`` (the union grid of the macro EER)."""
    g = torch.Generator().manual_seed(1)
    rows = torch.rand(4, 300, generator=g, dtype=torch.float64).sort(1).values
    rows[1, :20], rows[2, :5] = 0.0, -0.0
    x = rows.reshape(-1)
    with _backend.force("numpy"):
        got = _sort.sort(x, runs=True)
    assert torch.equal(got, torch.sort(x).values) and got.dtype == x.dtype


def test_numpy_needs_cpu():
    assert _backend.use_numpy(torch.zeros(1))
    meta = torch.zeros(3, device="meta")
    assert not _backend.use_numpy(meta)
    with _backend.force("numpy"):  # numpy runs CPU tensors only: others stay on torch
        assert not _backend.use_numpy(meta) and _backend.use_numpy(torch.zeros(1))
    with _backend.force("torch"):
        assert not _backend.use_numpy(torch.zeros(1))


def test_float64_near_ties_stay_distinct():
    x = torch.tensor([1.0, 1.0 + 1e-12, 1.0 - 1e-12], dtype=torch.float64)
    assert _sort.argsort(x).tolist() == [2, 0, 1]


# ------------------------------------------------------------------------- segment_argsort (retrieval)
def _lex_reference(seg, values, descending):
    v = values.double().numpy()
    return np.lexsort((np.arange(len(v)), -v if descending else v, seg.numpy()))


SEG_DTYPES = [torch.float32, torch.float64, torch.float16, torch.int64, torch.int32, torch.uint8]


@pytest.mark.parametrize("dtype", SEG_DTYPES)
@pytest.mark.parametrize("grouped", [False, True])
@pytest.mark.parametrize("descending", [False, True])
def test_segment_argsort_matches_lexsort(dtype, grouped, descending):
    g = torch.Generator().manual_seed(1)
    seg = torch.randint(0, 7, (500,), generator=g)
    if grouped:
        seg = torch.sort(seg).values
    values = torch.randint(-20, 20, (500,), generator=g).to(dtype)
    if dtype.is_floating_point:
        values = values / 4 - 0.0  # ties, negatives and -0.0 / +0.0
        values[:3] = torch.tensor([0.0, -0.0, 0.0])
    if dtype == torch.uint8:
        values = torch.randint(0, 5, (500,), generator=g).to(dtype)
    want = _lex_reference(seg, values, descending).tolist()
    for backend in ("numpy", "torch"):
        with _backend.force(backend):
            perm = _sort.segment_argsort(seg, values, n_segments=7, descending=descending, stable=True)
            assert perm.tolist() == want, backend
            loose = _sort.segment_argsort(seg, values, n_segments=7, descending=descending)
            assert torch.equal(seg[loose], seg[torch.tensor(want)])
            assert torch.equal(values[loose], values[torch.tensor(want)])


@pytest.mark.parametrize("case", ["float64_fine", "int64_wide", "many_segments"])
def test_segment_argsort_fallback_paths(case):
    g = torch.Generator().manual_seed(2)
    n = 300
    seg = torch.randint(0, 5, (n,), generator=g)
    n_segments = 5
    values = torch.randint(0, 4, (n,), generator=g).double()
    if case == "float64_fine":  # not representable in float32: no 32-bit key
        values = values + torch.rand(n, generator=g, dtype=torch.float64) * 1e-12
    elif case == "int64_wide":
        values = (values.long() - 2) * (1 << 40)
    else:  # segment bits + 32 + position bits > 63
        n_segments = 1 << 31
        seg = seg * (1 << 28)
    for stable in (True, False):
        with _backend.force("numpy"):
            perm = _sort.segment_argsort(seg, values, n_segments=n_segments, stable=stable)
        want = _lex_reference(seg, values, True)
        if stable:
            assert perm.tolist() == want.tolist()
        else:
            assert torch.equal(seg[perm], seg[want]) and torch.equal(values[perm], values[want])


def test_segment_argsort_empty():
    e = torch.zeros(0, dtype=torch.int64)
    assert _sort.segment_argsort(e, torch.zeros(0), n_segments=0).tolist() == []
    with _backend.force("torch"):
        assert _sort.segment_argsort(e, torch.zeros(0), n_segments=0).tolist() == []


# ----------------------------------------------------------------- packed payload sort (retrieval)
@pytest.mark.parametrize("payload_kind", ["int", "bool", "float_integral", "bfloat16"])
def test_segment_sort_payload_matches_lexsort(payload_kind):
    g = torch.Generator().manual_seed(7)
    seg = torch.randint(0, 5, (300,), generator=g)
    values = torch.randint(-4, 4, (300,), generator=g).float() / 2
    load = torch.randint(0, 6, (300,), generator=g)
    load = {"int": load, "bool": load > 2, "float_integral": load.double(), "bfloat16": load.bfloat16()}[payload_kind]
    ref = load.long().numpy()
    want = np.lexsort((ref, -values.numpy(), seg.numpy()))
    host = load.float() if load.dtype == torch.bfloat16 else load
    keys, got = segment_sort_payload(seg.numpy(), values.numpy(), host.numpy(), n_segments=5)
    assert got.tolist() == ref[want].tolist()
    assert (keys >> 32).tolist() == seg[want].tolist()
    same = (values.numpy()[want][1:] == values.numpy()[want][:-1]) & (seg.numpy()[want][1:] == seg.numpy()[want][:-1])
    assert (keys[1:] == keys[:-1]).tolist() == same.tolist()


def test_segment_sort_payload_declines_what_does_not_fit():
    seg, values, load = np.array([0, 1, 0]), np.array([0.5, 0.1, 0.2], dtype=np.float32), np.array([1, 0, 2])
    fits = segment_sort_payload
    assert fits(seg, values, load, n_segments=2) is not None
    assert fits(seg, values, load / 2, n_segments=2) is None  # not integral
    assert fits(seg, values, load - 1, n_segments=2) is None  # negative
    assert fits(seg, values, load * (1 << 40), n_segments=2) is None  # too wide
    assert fits(seg, values.astype(np.float64) + 1e-12, load, n_segments=2) is None  # values wider than 32 bits
    assert fits(seg[:0], values[:0], load[:0], n_segments=0) is None


# ------------------------------------------------------------ row-wise sorts (multiclass/multilabel AUROC)
ROW_CASES = ["float32", "float64_fine", "int64_wide", "float16", "int32", "uint8"]


def _row_values(case, g, shape):
    v = torch.randint(-6, 6, shape, generator=g)
    if case == "float32":
        v = v.float() / 4
        v[0, :3] = torch.tensor([0.0, -0.0, 0.0])  # -0.0 ties +0.0
        v[1, :2] = torch.tensor([float("inf"), -float("inf")])
        return v
    if case == "float64_fine":  # not exact float32: ranked within rows first
        return v.double() + torch.randint(0, 2, shape, generator=g).double() * 1e-12
    if case == "int64_wide":
        return v * (1 << 40)
    return v.abs().to(getattr(torch, case)) if case == "uint8" else v.to(getattr(torch, case))


def _row_reference(values, valid, descending):
    """Per row: lexsort by (invalid last, value, column), and where consecutive valid values are equal."""
    v = values.double().numpy()
    order = np.stack([np.lexsort((np.arange(v.shape[1]), -r if descending else r, ~ok))
                      for r, ok in zip(v, valid.numpy())])
    ordered = np.take_along_axis(v, order, axis=1)
    ok = np.take_along_axis(valid.numpy(), order, axis=1)
    return order, (ordered[:, 1:] == ordered[:, :-1]) & ok[:, 1:] & ok[:, :-1], ~ok


def _rank_rows(values, **options):
    """The AUROC family's row sort in the batch's namespace (as its chooser decides it), as tensors."""
    return tuple(torch.as_tensor(v) for v in row_sort.rank_rows(namespace(values), values, **options))


@pytest.mark.parametrize("case", ROW_CASES)
@pytest.mark.parametrize("descending", [True, False])
@pytest.mark.parametrize("masked", [False, True])
def test_rank_rows_matches_lexsort(case, descending, masked):
    g = torch.Generator().manual_seed(4)
    values = _row_values(case, g, (9, 13))
    valid = torch.rand(9, 13, generator=g) < 0.7 if masked else torch.ones(9, 13, dtype=torch.bool)
    order, same, pad = _row_reference(values, valid, descending)
    for backend in ("numpy", "torch"):
        with _backend.force(backend):
            got, keys = _rank_rows(values, valid=valid if masked else None, descending=descending)
            real = ~torch.from_numpy(pad)
            assert torch.equal(got[real], torch.from_numpy(order)[real]), backend  # padding: last, any order
            assert torch.equal(got.sort(dim=1).values, torch.arange(13).expand(9, 13))
            assert torch.equal(keys[:, 1:] == keys[:, :-1], torch.from_numpy(same) | torch.from_numpy(pad[:, 1:]
                                                                                                    & pad[:, :-1]))
            assert torch.equal(keys == row_sort.PAD_KEY, torch.from_numpy(pad)) and bool((keys.diff(dim=1) >= 0).all())


def test_rank_rows_wide_rows_fall_back_to_stable_argsort(monkeypatch):
    g = torch.Generator().manual_seed(5)
    values, valid = torch.randint(0, 4, (6, 20), generator=g).float(), torch.rand(6, 20, generator=g) < 0.8
    want = _rank_rows(values, valid=valid)
    monkeypatch.setattr(row_sort, "_PACKED_BITS", 34)  # as if the rows had more than 2**30 columns
    got = _rank_rows(values, valid=valid)
    assert torch.equal(got[0], want[0]) and torch.equal(got[1], want[1])


def test_rank_rows_empty_and_errors():
    order, keys = _rank_rows(torch.zeros(3, 0))
    assert order.shape == keys.shape == (3, 0)
    with pytest.raises(ValueError, match=r"Expected `x` to be 2-D, got shape \(4,\)"):
        _rank_rows(torch.zeros(4))

