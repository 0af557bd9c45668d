"""_sort: the numpy and torch paths agree with each other and with a reference, for every dtype."""
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from torchmetrics_lite import _sort

DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.uint8]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("descending", [False, True])
def test_paths_agree(dtype, descending):
    g = torch.Generator().manual_seed(0)
    x = (torch.randint(0, 50, (1000,), generator=g)).to(dtype)
    ref = torch.sort(x.double(), descending=descending, stable=True)
    for backend in ("numpy", "torch"):
        assert torch.equal(_sort.sort(x, descending=descending, backend=backend).double(), ref.values)
        idx = _sort.argsort(x, descending=descending, stable=True, backend=backend)
        assert torch.equal(idx, ref.indices), backend
        loose = _sort.argsort(x, descending=descending, backend=backend)
        assert torch.equal(x[loose].double(), ref.values)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=60), st.lists(st.integers(-6, 6), max_size=10), st.booleans())
def test_searchsorted_matches_numpy(values, queries, right):
    s = torch.sort(torch.tensor(values, dtype=torch.float64)).values
    q = torch.tensor(queries, dtype=torch.float64)
    want = np.searchsorted(s.numpy(), q.numpy(), side="right" if right else "left")
    for backend in ("numpy", "torch"):
        assert _sort.searchsorted(s, q, right=right, backend=backend).tolist() == want.tolist()


def test_default_backend_and_numpy_needs_cpu():
    assert _sort.default_backend(torch.zeros(1)) == "numpy"
    meta = torch.zeros(3, device="meta")
    assert _sort.default_backend(meta) == "torch"
    with pytest.raises(ValueError, match=r"Expected a CPU tensor for backend='numpy', got device meta"):
        _sort.sort(meta, backend="numpy")


def test_float64_near_ties_stay_distinct():
    x = torch.tensor([1.0, 1.0 + 1e-12, 1.0 - 1e-12], dtype=torch.float64)
    assert _sort.argsort(x).tolist() == [2, 0, 1]
