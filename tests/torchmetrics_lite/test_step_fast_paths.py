"""The per-step fast paths give the bits of the paths they shortcut.

* ``fold_comoments_pair`` (the Pearson / concordance update merge, Python floats) against ``fold_comoments`` of
  the stacked pair (torch), bit for bit, empty parts and extreme offsets included; a float32 state (a device
  without float64) takes ``fold_comoments`` itself.
* the host-side rounding of a threshold to float32 / float16 / bfloat16 (``_stat_scores._rounded_to``) against
  ``float(torch.tensor(x, dtype=dtype))``, on values half-way between two representable ones included.
"""
import math

import torch

from torchmetrics_lite.functional.classification._stat_scores import _rounded_to
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
