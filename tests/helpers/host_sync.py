"""Catch, on the CPU, the ops that would make a CUDA device wait for the host (a device-to-host sync).

On CUDA ``torch.cuda.set_sync_debug_mode("error")`` raises on such a sync; without a GPU, :func:`no_host_sync`
raises :class:`HostSyncOp` on the aten ops that need one there: a value read on the host (``.item()``,
``int(t)``, ``bool(t)``, ``torch.equal``), and every op whose output shape depends on the data (``nonzero``,
``masked_select``, boolean-mask indexing and assignment, ``unique``, ``bincount``, ``repeat_interleave`` with
tensor repeats and no ``output_size``). Run the torch path (``_backend.force("torch")``) inside it.

What it cannot see: an explicit copy to the CPU (``.cpu()``, ``.numpy()``): on the CPU every tensor is there
already.
"""
from __future__ import annotations

import contextlib
from typing import Any, Dict, Iterator, Optional

import torch
from torch import Tensor
from torch.utils._python_dispatch import TorchDispatchMode

#: ops (overload packets) that always read a value on the host, or whose output shape depends on the data
ALWAYS = frozenset({
    "item", "_local_scalar_dense", "is_nonzero", "equal", "nonzero", "nonzero_numpy", "argwhere", "masked_select",
    "unique", "_unique", "_unique2", "unique_dim", "unique_consecutive", "bincount",
})
_INDEXING = frozenset({"index", "index_put", "index_put_", "_index_put_impl", "_index_put_impl_"})


class HostSyncOp(AssertionError):
    """An op that needs a device-to-host sync on CUDA ran inside :func:`no_host_sync`."""


def needs_host_sync(func: Any, args: tuple, kwargs: Dict[str, Any]) -> bool:
    """Whether the aten op ``func`` called with ``args``/``kwargs`` makes a CUDA device sync with the host."""
    name = func.overloadpacket.__name__
    if name in ALWAYS:
        return True
    if name in _INDEXING:  # a boolean mask among the indices is a nonzero() in disguise
        return any(isinstance(i, Tensor) and i.dtype in (torch.bool, torch.uint8) for i in args[1])
    if name == "repeat_interleave":  # tensor repeats: the output length is their sum, unless given
        repeats = args[0] if func._overloadname == "Tensor" else (args[1] if len(args) > 1 else None)
        return isinstance(repeats, Tensor) and kwargs.get("output_size") is None
    return False


class _RaiseOnHostSync(TorchDispatchMode):
    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Optional[Dict[str, Any]] = None) -> Any:
        kwargs = kwargs or {}
        if needs_host_sync(func, args, kwargs):
            raise HostSyncOp(f"{func} needs a device-to-host sync on CUDA")
        return func(*args, **kwargs)


@contextlib.contextmanager
def no_host_sync() -> Iterator[None]:
    """Inside the block, an op that would sync a CUDA device with the host raises :class:`HostSyncOp`."""
    with _RaiseOnHostSync():
        yield
