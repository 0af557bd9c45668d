"""The array namespace ``xp`` (``torchmetrics_lite._xp``): both spellings of every method agree, and the module
works when imported before torch (the command line's numpy kernels import it without torch)."""
import subprocess
import sys

import numpy as np
import torch

from torchmetrics_lite import _backend
from torchmetrics_lite._xp import NUMPY, Xp, _Numpy, _Torch, namespace, torch_namespace


def test_every_method_is_documented_once_and_spelled_for_both_libraries():
    methods = [name for name, value in vars(Xp).items() if callable(value) and not name.startswith("_")]
    assert methods == sorted(methods)
    for cls in (_Numpy, _Torch):
        spelled = [name for name in vars(cls) if name in methods]
        assert spelled == methods, cls  # every method, in the same (alphabetical) order
        assert all(vars(Xp)[name].__doc__ for name in methods)


def test_the_namespace_is_the_one_backend_decision():
    x = torch.arange(4.0)
    assert namespace(x) is NUMPY
    with _backend.force("torch"):
        assert namespace(x) is torch_namespace(torch.float64)
    assert namespace(x, max_elements=3) is torch_namespace(torch.float64)
    assert torch_namespace(torch.float32).real == torch.float32


ROUNDED = {"exp", "exp2", "lgamma", "log", "log1p", "log2"}


def test_both_spellings_give_the_same_values():
    rng = np.random.default_rng(0)
    a = rng.random(9)
    ids = rng.integers(0, 4, 9)
    mask = a > 0.5
    t = torch_namespace(torch.float64)
    calls = [
        ("bincount", (ids, 4)), ("ceil", (a * 7,)), ("clip", (ids - 2, ids * 0 + 1)), ("cumsum0", (mask,)),
        ("cumsum0", (a,)), ("divisor", (ids - 1.0,)), ("exp", (a,)), ("exp2", (a,)), ("floating", (ids,)),
        ("lgamma", (ids + 1.0,)), ("log", (a,)), ("log1p", (a,)), ("log2", (a,)), ("maximum", (a, 0.5)),
        ("minimum", (ids, 2)), ("nonzero", (mask,)), ("repeat", (a, ids)), ("searchsorted", (np.sort(a), a)),
        ("segment_sum", (a, ids, 5)), ("subtract", (a, ids)), ("take", (a, ids)), ("where", (mask, a, 0.0)),
        ("diff", (ids, 9)), ("run_starts", (np.sort(ids),)), ("run_starts", (ids[:0],)), ("select_sorted", (a, mask)),
        ("select_sorted", (a, mask.astype(np.int64))), ("sort", (a,)), ("sort", (ids, True)),
        ("searchsorted", (np.sort(ids), ids, True)), ("column_extremes", (a, np.empty((2, 1)))),
        ("column_extremes", (a.reshape(3, 3), np.empty((2, 3)))), ("column_extremes", (ids, np.empty((2, 1)))),
    ]
    for name, args in calls:
        want = np.asarray(getattr(NUMPY, name)(*args))
        got = getattr(t, name)(*(torch.from_numpy(np.asarray(v)) if isinstance(v, np.ndarray) else v for v in args))
        if name in ROUNDED:  # the libraries' own transcendental functions: a last bit may differ
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-15, atol=0, err_msg=name)
        else:
            np.testing.assert_array_equal(got.numpy(), want, err_msg=name)
        assert str(got.dtype).split(".")[-1] == str(want.dtype), name


def test_imported_before_torch_it_binds_torch_on_first_need():
    code = ("import sys; import numpy as np; from torchmetrics_lite._xp import NUMPY, namespace; "
            "assert 'torch' not in sys.modules; assert NUMPY.cumsum0(np.ones(2)).tolist() == [0, 1, 2]; "
            "import torch; x = torch.ones(3); xp = namespace(x); "
            "assert xp is NUMPY and xp.tensor(xp.asarray(x) * 2, x).tolist() == [2, 2, 2]")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
