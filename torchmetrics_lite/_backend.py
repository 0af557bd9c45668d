"""The one switch between numpy and torch kernels.

On CPU, numpy on a zero-copy view of a tensor's memory beats torch where a call's dispatch costs more than its
arithmetic (small reductions every training step) and where numpy's SIMD sort is faster (every rank metric).
On every other device, and while ``torch.compile`` traces, the torch kernels run, with no host sync.

Kernels ask :func:`use_numpy` once per batch; nothing else chooses. The tests force either path with
:func:`force`, so both are checked against each other on CPU:

>>> import torch
>>> x = torch.arange(4.0)
>>> use_numpy(x)
True
>>> with force("torch"):
...     use_numpy(x)
False
"""
from __future__ import annotations

import contextlib
from typing import Iterator, Optional

import numpy as np
import torch
from torch import Tensor

__all__ = ["use_numpy", "host", "force", "forced"]

_BACKENDS = ("numpy", "torch")
_forced: Optional[str] = None


def forced() -> Optional[str]:
    """The backend forced by :func:`force`, or ``None``."""
    return _forced


@contextlib.contextmanager
def force(backend: str) -> Iterator[None]:
    """Run every kernel inside the block on ``backend`` (``"numpy"`` or ``"torch"``); for tests and benchmarks.

    ``"numpy"`` applies to CPU tensors only: a CUDA tensor still takes the torch path.
    """
    global _forced
    if backend not in _BACKENDS:
        raise ValueError(f"Expected `backend` to be one of {_BACKENDS}, got {backend!r}")
    previous, _forced = _forced, backend
    try:
        yield
    finally:
        _forced = previous


def use_numpy(t: Tensor, max_elements: Optional[int] = None) -> bool:
    """Whether a kernel runs in numpy for ``t``: a CPU tensor, not under ``torch.compile``, of at most
    ``max_elements`` elements (``None``: any size), unless :func:`force` says otherwise."""
    if not t.is_cpu or torch.compiler.is_compiling():  # is_cpu: a tenth of device.type's cost (hot path)
        return False
    if _forced is not None:
        return _forced == "numpy"
    return max_elements is None or t.numel() <= max_elements


def host(t: Tensor) -> np.ndarray:
    """Zero-copy numpy view of a CPU tensor (detached); bfloat16 and float16, which numpy kernels lack or run
    slowly, go through float32 (exact)."""
    if t.dtype in (torch.bfloat16, torch.float16):
        t = t.float()
    return t.numpy(force=True)
