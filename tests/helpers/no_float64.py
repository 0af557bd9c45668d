"""Emulate a device without float64 (Apple MPS) on the CPU, for the float32 policy tests of every family.

On MPS a float64 tensor cannot exist: any op that would make one raises. :func:`float64_less_cpu` makes the CPU
behave the same way inside its block: the CPU joins ``NO_FLOAT64_DEVICES`` (so ``float_dtype`` answers float32
and a metric switches its floating states to float32 at the first update), every kernel takes the torch path (as
on MPS, where numpy cannot reach the data), and a dispatch mode raises on any aten op whose output is a float64
tensor. A family passes when its functions and modules run inside the block on float32 and integer inputs and
give float32 values close to the float64 ones computed outside it.

Construct metrics *outside* the block: on a real MPS machine a metric is built on the CPU (float64 states) and
moved with ``.to("mps")``, or meets its first MPS batch at ``update``; both paths convert the states.
"""
from __future__ import annotations

import contextlib
import warnings
from typing import Any, Callable, Dict, Iterator, Optional, Sequence

import pytest
import torch
from torch import Tensor
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves

import torchmetrics_lite._dtype as dtype_module
from torchmetrics_lite import _backend
from torchmetrics_lite.metric import Metric


class Float64Made(AssertionError):
    """An op made a float64 tensor on the emulated float64-less device."""


class _RaiseOnFloat64(TorchDispatchMode):
    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Optional[Dict[str, Any]] = None) -> Any:
        out = func(*args, **(kwargs or {}))
        for leaf in tree_leaves(out):
            if isinstance(leaf, Tensor) and leaf.dtype == torch.float64:
                raise Float64Made(f"{func} made a float64 tensor, which a float64-less device (MPS) cannot hold")
        return out


@contextlib.contextmanager
def float64_less_cpu(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Inside the block the CPU behaves as a device without float64 (see the module docstring); after it, as a CPU
    again (the patch is undone at the block's end, not at the test's)."""
    with monkeypatch.context() as patch, _backend.force("torch"), _RaiseOnFloat64():
        patch.setattr(dtype_module, "NO_FLOAT64_DEVICES", frozenset({"cpu", "mps"}))
        yield


def float_leaves(value: Any) -> Sequence[Tensor]:
    """Every floating tensor in a (nested) result."""
    if isinstance(value, dict):
        value = list(value.values())
    return [t for t in tree_leaves(value) if isinstance(t, Tensor) and t.is_floating_point()]


def assert_float32_close(got: Any, want: Any, rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """``got`` (from the emulated device) holds float32 tensors only, each close to ``want`` (float64 run)."""
    got_leaves, want_leaves = float_leaves(got), float_leaves(want)
    assert len(got_leaves) == len(want_leaves) > 0
    for g, w in zip(got_leaves, want_leaves):
        assert g.dtype == torch.float32, f"expected float32 on a float64-less device, got {g.dtype}"
        torch.testing.assert_close(g.double(), w.double(), rtol=rtol, atol=atol, equal_nan=True)


def check_float32_policy(monkeypatch: pytest.MonkeyPatch, make: Callable[[], Metric],
                         batches: Sequence[Sequence[Any]], functional: Optional[Callable[..., Any]] = None,
                         rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """A module (and its functional form on the concatenated batches) on the emulated float64-less device.

    ``batches`` are positional ``update`` arguments (float32 or integer tensors). The module warns once at the
    first update, keeps no float64 state, and computes float32 values close to the same module's float64 value;
    ``functional(*cat(batches))`` likewise.
    """
    reference = make()
    for batch in batches:
        reference.update(*batch)
    want = reference.compute()
    metric = make()
    with float64_less_cpu(monkeypatch):
        with pytest.warns(UserWarning, match="has no float64, so floating states and results are float32"):
            metric.update(*batches[0])
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # one warning per metric
            for batch in batches[1:]:
                metric.update(*batch)
            got = metric.compute()
        states = metric.local_state()
    assert all(s.dtype != torch.float64 for s in states.values()), {k: s.dtype for k, s in states.items()}
    assert_float32_close(got, want, rtol=rtol, atol=atol)
    if functional is not None:
        joined = [torch.cat([b[i] for b in batches]) for i in range(len(batches[0]))]
        want_fn = functional(*joined)
        with float64_less_cpu(monkeypatch):
            got_fn = functional(*joined)
        assert_float32_close(got_fn, want_fn, rtol=rtol, atol=atol)


def weighted_functional(fn: Callable[..., Any], **options: Any) -> Callable[..., Any]:
    """``fn`` called as ``fn(preds, target, weight=weight, **options)``: a functional form taking a batch of
    ``check_float32_policy`` whose optional third entry is the sample weights."""
    def call(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None) -> Any:
        return fn(preds, target, weight=weight, **options)

    call.__name__ = getattr(fn, "__name__", "functional")
    return call
