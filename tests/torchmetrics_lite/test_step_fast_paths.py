"""The per-step fast paths give the bits of the paths they shortcut.

* ``fold_comoments_pair`` (the Pearson / concordance update merge, Python floats) against ``fold_comoments`` of
  the stacked pair (torch), bit for bit, empty parts and extreme offsets included; a float32 state (a device
  without float64) takes ``fold_comoments`` itself.
* the host-side rounding of a threshold to float32 / float16 / bfloat16 (``_stat_scores._rounded_to``) against
  ``float(torch.tensor(x, dtype=dtype))``, on values half-way between two representable ones included.
* the pooled regression errors' statistics (MSLE, log-cosh, Minkowski, Tweedie, (s/w)MAPE), whose exact steps run
  in numpy on small CPU batches: the bits of the torch path, on every dtype and layout, with NaN and infinite
  values, and without numpy's floating-point warnings; MSLE's one probe raises the messages of the checks it
  stands for, in their order.
* the row measures' one probe (cosine: the sum of the rows; KL, JS: the two minima): the messages of the NaN and
  lower-bound checks it stands for, in their order; a zero row (0/0 = NaN) passes.
* the multiclass exact match's numpy count (unweighted, top-1, per-step batches): the torch path's counts, and its
  errors (a target out of range, then a NaN score), for scores and labels, extra dimensions, every dtype.
"""
import math
import warnings

import pytest
import torch

from torchmetrics_lite import _backend
from torchmetrics_lite.functional.classification._stat_scores import _rounded_to
from torchmetrics_lite.functional.classification.exact_match import _multiclass_exact_match_counts
from torchmetrics_lite.functional.regression import divergence as D
from torchmetrics_lite.functional.regression import errors as E
from torchmetrics_lite.functional.regression import fold_comoments
from torchmetrics_lite.functional.regression.correlation import _comoments, fold_comoments_pair

G = torch.Generator().manual_seed(33)


def _bits(t):
    return t.contiguous().view(torch.int64) if t.dtype == torch.float64 else t.contiguous().view(torch.int32)


def test_pair_merge_is_the_stacked_fold_bit_for_bit():
    for i in range(300):
        d = 1 + i % 3
        parts = []
        for n, offset in ((2 + i % 9, 10.0 ** (i % 9)), (1 + i % 4, -1e4)):
            preds = torch.randn(n, d, generator=G, dtype=torch.float64) * 10.0 ** (i % 5 - 2) + offset
            parts.append(_comoments(preds, torch.randn(n, d, generator=G, dtype=torch.float64)))
        if i % 5 == 0:
            parts[0] = torch.zeros(6, d, dtype=torch.float64)  # the state before the first update
        if i % 7 == 0:
            parts[1] = torch.zeros(6, d, dtype=torch.float64)  # an empty batch
        state = parts[0].clone()
        fold_comoments_pair(state, parts[1])
        assert torch.equal(_bits(state), _bits(fold_comoments(torch.stack(parts)))), i


def test_pair_merge_of_a_float32_state_is_the_fold():
    a = _comoments(torch.randn(5, 1, generator=G), torch.randn(5, 1, generator=G)).float()
    b = _comoments(torch.randn(3, 1, generator=G), torch.randn(3, 1, generator=G)).float()
    state = a.clone()
    fold_comoments_pair(state, b)
    assert state.dtype == torch.float32
    assert torch.equal(_bits(state), _bits(fold_comoments(torch.stack([a, b]))))


def test_threshold_rounding_on_the_host_is_torch_rounding():
    values = (torch.rand(2000, generator=G, dtype=torch.float64) * 2 - 1).tolist()
    values += [0.3, 0.5, 1 / 3, 0.0, -0.0, 1e-8, 65519.9, 65520.0, 1e39, -1e39, math.inf, -math.inf, 5e-324]
    for dtype in (torch.float32, torch.float16, torch.bfloat16):
        grid = torch.rand(500, generator=G).to(dtype)
        above = torch.nextafter(grid, torch.full_like(grid, 2.0))
        values_here = values + ((grid.double() + above.double()) / 2).tolist()  # ties to even
        for x in values_here:
            want = float(torch.tensor(x, dtype=dtype))
            got = _rounded_to(x, dtype)
            assert math.copysign(1, got) == math.copysign(1, want) and (got == want or got != got and want != want), \
                (x, dtype, got, want)


POOLED = {
    "msle": E._msle_stats, "log_cosh": E._log_cosh_stats, "wmape": E._wmape_stats, "smape": E._smape_stats,
    "minkowski": lambda p, t, **k: E._minkowski_stats(p, t, p=3.5, **k),
    "minkowski_1": lambda p, t, **k: E._minkowski_stats(p, t, p=1, **k),
    "minkowski_2": lambda p, t, **k: E._minkowski_stats(p, t, p=2.0, **k),
    "tweedie_0": lambda p, t, **k: E._tweedie_stats(p, t, power=0, **k),
    "tweedie_1": lambda p, t, **k: E._tweedie_stats(p, t, power=1, **k),
}


def _pooled_inputs():
    for i, (n, shape) in enumerate([(0, (0,)), (1, (1,)), (37, (37,)), (300, (150, 2)), (1024, (1024,)),
                                    (9000, (9000,))]):
        g = torch.Generator().manual_seed(40 + i)
        target = torch.rand(shape, generator=g) * 10.0 ** (i - 2) + 0.5
        preds = (target + torch.randn(shape, generator=g) * 10.0 ** (i - 3)).abs() + 0.01
        for dtype in (torch.float32, torch.float64, torch.int64, torch.float16):
            yield preds.to(dtype), target.to(dtype)
        if n:
            bad = preds.clone()
            bad.view(-1)[n // 2] = math.nan
            yield bad, target
            yield preds, target.clone().view(-1).index_fill_(0, torch.tensor([0]), math.inf).view(shape)
        if len(shape) == 2:
            yield preds.T.contiguous().T, target.T.contiguous().T  # non-contiguous: the torch path's layout
    both = torch.tensor([math.inf, 1.0, 1e308, 2.0], dtype=torch.float64)
    yield both, torch.tensor([math.inf, 1.0, -1e308, 3.0], dtype=torch.float64)  # inf - inf, an overflow
    yield torch.tensor(2.0), torch.tensor(3.0)  # 0-d


@pytest.mark.parametrize("name", sorted(POOLED))
def test_pooled_error_statistics_on_numpy_are_the_torch_bits(name):
    fn = POOLED[name]
    for preds, target in _pooled_inputs():
        if name == "log_cosh" and preds.dim() not in (1, 2):
            continue
        for validate_args in (True, False):
            def run():
                try:
                    return fn(preds, target, validate_args=validate_args)
                except ValueError as e:
                    return str(e)
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # numpy warns on inf - inf and overflows; torch does not
                got = run()
                with _backend.force("torch"):
                    want = run()
            assert type(got) is type(want), (name, preds.dtype, preds.shape, got, want)
            if isinstance(got, str):
                assert got == want
                continue
            assert got.keys() == want.keys()
            for key in got:
                assert got[key].dtype == want[key].dtype and got[key].shape == want[key].shape
                assert torch.equal(_bits(got[key]) if got[key].is_floating_point() else got[key],
                                   _bits(want[key]) if want[key].is_floating_point() else want[key]), \
                    (name, key, preds.dtype, tuple(preds.shape), got[key], want[key])


@pytest.mark.parametrize("preds, target, message", [
    ([0.5, -1.0], [0.5, 0.5], r"`preds` to be > -1.0 \(log1p is finite above -1\), got a minimum of -1.0"),
    ([0.5, 0.5], [-3.0, 0.5], r"`target` to be > -1.0 .* got a minimum of -3.0"),
    ([math.nan, -2.0], [-3.0, 0.5], r"`preds` to be > -1.0 .* got a minimum of nan"),
    ([0.5, 0.5], [math.nan, 0.5], r"`target` to be > -1.0 .* got a minimum of nan"),
])
def test_msle_probe_raises_the_first_failing_check(preds, target, message):
    with pytest.raises(ValueError, match=message):
        E._msle_stats(torch.tensor(preds), torch.tensor(target))


def test_msle_probe_passes_infinite_values():
    stats = E._msle_stats(torch.tensor([math.inf, 0.0]), torch.zeros(2))
    assert stats["sum_error"].item() == math.inf
    assert math.isnan(E._msle_stats(torch.tensor([math.inf]), torch.tensor([math.inf]))["sum_error"].item())


def test_multiclass_exact_match_numpy_count_is_the_torch_count():
    for i in range(120):
        g = torch.Generator().manual_seed(i)
        n, c = (0, 1, 5, 37, 256, 1024)[i % 6], (2, 3, 5)[i % 3]
        extra = (3,) if i % 4 == 1 else ()
        preds = torch.softmax(torch.randn((n, c) + extra, generator=g), 1)
        target = torch.randint(0, c, (n,) + extra, generator=g)
        if i % 5 == 0 and n:
            preds.view(-1)[i % preds.numel()] = math.nan
        if i % 6 == 0 and n:
            target.view(-1)[0] = c if i % 12 else -1
        if i % 8 == 3:
            preds = preds.argmax(1)
        if i % 9 == 4:
            preds = preds.half() if preds.is_floating_point() else preds.int()
        for validate_args in (True, False):
            def run():
                try:
                    return _multiclass_exact_match_counts(preds, target, c, None, validate_args, None)
                except ValueError as e:
                    return str(e)
            got = run()
            with _backend.force("torch"):
                want = run()
            if isinstance(want, str) or isinstance(got, str):
                assert got == want, (i, validate_args)
                continue
            assert got.keys() == want.keys()
            for key in got:
                assert got[key].dtype == want[key].dtype and torch.equal(got[key], want[key]), (i, key)


NAN = math.nan
INF = math.inf


@pytest.mark.parametrize("fn", [D._kl_stats, D._js_stats], ids=["kl", "js"])
@pytest.mark.parametrize("p, q, message", [
    ([[0.5, NAN]], [[0.5, 0.5]], r"`p` to contain no NaN, got 1"),
    ([[-0.5, 1.0]], [[0.5, NAN]], r"`q` to contain no NaN, got 1"),  # the NaN checks first, as before
    ([[-0.5, 1.0]], [[-1.0, 0.5]], r"`p` to be >= 0.0 \(probabilities, or pass log_prob=True\), got a minimum of -0.5"),
    ([[0.5, 1.0]], [[-1.0, 0.5]], r"`q` to be >= 0.0 .* got a minimum of -1.0"),
])
def test_divergence_probe_raises_the_first_failing_check(fn, p, q, message):
    with pytest.raises(ValueError, match=message):
        fn(torch.tensor(p), torch.tensor(q))
    fn(torch.tensor(p), torch.tensor(q), validate_args=False)  # no check


def test_cosine_probe_names_the_nan_input_and_passes_a_zero_row():
    with pytest.raises(ValueError, match=r"`target` to contain no NaN, got 1"):
        D._cosine_stats(torch.ones(2, 3), torch.tensor([[1.0, 2.0, 3.0], [NAN, 0.0, 1.0]]))
    with pytest.raises(ValueError, match=r"`preds` to contain no NaN, got 2"):  # mixed dtypes: the scan itself
        D._cosine_stats(torch.tensor([[NAN, 1.0], [NAN, 2.0]], dtype=torch.float64), torch.ones(2, 2))
    leaf = torch.tensor([[1.0, NAN], [0.0, 2.0]], requires_grad=True)  # torch's dot, not numpy's: no numpy view
    with pytest.raises(ValueError, match=r"`preds` to contain no NaN, got 1"):
        D._cosine_stats(leaf, torch.ones(2, 2))
    strided = torch.tensor([[1.0, 0.0], [NAN, 2.0], [3.0, 4.0]]).t()  # a transposed view: numpy's dot flattens it
    with pytest.raises(ValueError, match=r"`target` to contain no NaN, got 1"):
        D._cosine_stats(torch.ones(2, 3), strided)
    # the probe's false alarms (an inf against a zero: a NaN dot product) pass after the scan; a zero row is 0/0
    inf_zero = D.cosine_similarity(torch.tensor([[INF, 1.0]]), torch.tensor([[0.0, 1.0]]), "none")
    assert math.isnan(inf_zero.item())
    for reduction in ("sum", "none"):
        value = D.cosine_similarity(torch.tensor([[0.0, 0.0], [1.0, 1.0]]), torch.ones(2, 2), reduction)
        assert math.isnan(value.sum().item())
