"""What the sync handshake compares besides the states: each metric's *identity* and its *options*.

**Identity.** Two metrics of the same class and options computed in a different order on two ranks would
otherwise exchange each other's states. So every metric records, when it is built, where it was built and how
many metrics of its class were built there before it in this process: ``"BinaryF1Score built at
train.validate:42 #2"``. The place is the first caller outside this package and the copy/pickle machinery (the
module, function and line of the user's code: a ``clone()``, ``deepcopy`` or unpickling counts where it is
called), so metrics built by the same code on every rank get the same identities, and metrics built only on some
ranks elsewhere do not shift them. A metric built with ``sync_on_compute=False`` takes no number (a rank-0-only
reference metric shifts nothing); if it is later switched to syncing, its identity is unknown and the handshake
fails on every rank rather than guess.

**Options.** :func:`describe_options` writes the constructor arguments that can change the value (every
argument but ``validate_args``, ``process_group``, ``sync_on_compute``, ``sync_timeout`` and ``persistent``,
and none that equals its default) in a canonical text: tensors by dtype, shape and a hash of their bytes,
wrapped metrics by their own class and options, devices by their type only (``cuda:0`` and ``cuda:1`` are the
same option on two ranks), random generators by their type (ranks draw differently on purpose), objects whose
``repr`` is a memory address by their type.
"""
from __future__ import annotations

import hashlib
import sys
import types
from typing import Any, Dict, Optional, Tuple

import torch
from torch import Tensor

__all__ = ["NOT_OPTIONS", "build_site", "describe_options", "describe_value", "next_identity"]

#: Constructor arguments that never change a metric's value: not part of the options the ranks compare.
NOT_OPTIONS = frozenset({"validate_args", "process_group", "sync_on_compute", "sync_timeout", "persistent"})

_SKIPPED = frozenset({"torchmetrics_lite", "copy", "copyreg", "pickle", "_pickle", "torch", "functools",
                      "multiprocessing", "importlib", "_compat_pickle"})
_COUNTS: Dict[Tuple[str, str], int] = {}


def build_site() -> str:
    """``module.function:line`` of the first caller outside this package and the copy/pickle machinery."""
    frame: Optional[types.FrameType] = sys._getframe(1)
    while frame is not None:
        module = frame.f_globals.get("__name__", "?")
        if module.split(".")[0] not in _SKIPPED:
            return f"{module}.{frame.f_code.co_name}:{frame.f_lineno}"
        frame = frame.f_back
    return "?"


def next_identity(cls: type) -> str:
    """A new identity for a metric of class ``cls`` built now: ``"<Class> built at <site> #<n>"``.

    Examples:
        >>> class Toy: pass
        >>> a, b = next_identity(Toy), next_identity(Toy)  # two on one line: same site, numbers 1 and 2
        >>> a.rsplit(" #", 1)[1], b.rsplit(" #", 1)[1], a.rsplit(" #", 1)[0] == b.rsplit(" #", 1)[0]
        ('1', '2', True)
    """
    site = build_site()
    key = (cls.__qualname__, site)
    _COUNTS[key] = n = _COUNTS.get(key, 0) + 1
    return f"{cls.__qualname__} built at {site} #{n}"


def describe_options(init_args: Dict[str, Any], defaults: Dict[str, Any]) -> str:
    """The value-changing constructor arguments in a canonical, rank-independent text (see the module docstring).

    Examples:
        >>> describe_options({"max_fpr": 0.5, "validate_args": False, "strict": False}, {"strict": False})
        'max_fpr=0.5'
    """
    from torchmetrics_lite._compat import same_value

    shown = []
    for name in sorted(init_args):
        value = init_args[name]
        if name in NOT_OPTIONS or (name in defaults and same_value(value, defaults[name])):
            continue
        shown.append(f"{name}={describe_value(value)}")
    return ", ".join(shown)


def describe_value(value: Any) -> str:
    """One constructor argument in the canonical text of :func:`describe_options`.

    Examples:
        >>> describe_value([1, "macro", None, (0.5, torch.float64)])
        "[1, 'macro', None, (0.5, torch.float64)]"
        >>> describe_value(torch.device("cuda", 1)), describe_value(torch.Generator())
        ('device cuda', 'Generator')
    """
    if value is None or isinstance(value, (bool, int, float, str, bytes, torch.dtype)):
        return repr(value) if not isinstance(value, torch.dtype) else str(value)
    if isinstance(value, Tensor):
        data = value.detach().cpu().contiguous().reshape(-1)
        data = data.view(torch.uint8) if data.dtype != torch.bool else data.to(torch.uint8)
        digest = hashlib.blake2b(data.numpy().tobytes(), digest_size=8).hexdigest()
        return f"tensor({value.dtype}, {tuple(value.shape)}, {digest})"
    if isinstance(value, torch.device):
        return f"device {value.type}"
    if isinstance(value, torch.Generator):
        return "Generator"
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        inner = ", ".join(describe_value(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if len(value) == 1 else ''})"
    if isinstance(value, dict):
        items = sorted((repr(k), describe_value(v)) for k, v in value.items())
        return "{" + ", ".join(f"{k}: {v}" for k, v in items) + "}"
    options = getattr(value, "sync_options", None)
    if isinstance(options, str):  # a wrapped metric (or collection): its class and its own options
        return f"{type(value).__qualname__}({options})"
    if isinstance(value, (type, types.FunctionType, types.BuiltinFunctionType)):
        return f"{getattr(value, '__module__', '?')}.{getattr(value, '__qualname__', repr(value))}"
    text = repr(value)
    return type(value).__qualname__ if " at 0x" in text else text
