"""The constructor signature of a class whose ``__new__`` takes ``(*args, **kwargs)``.

``Metric.__new__`` reads every constructor argument (to reject unknown ones with torchmetrics' advice and to
record them for ``repr``), so it takes ``(*args, **kwargs)``; documentation tools and IDEs that look at
``__new__`` before ``__init__`` would show that instead of the real parameters. A class attribute
``__signature__ = ConstructorSignature()`` gives ``inspect.signature(cls)`` (and Sphinx's class headers) the
parameters of ``cls.__init__``, less ``self``. An instance has no ``__signature__`` of its own, so
``inspect.signature(metric)`` still describes calling it (``forward``).
"""
from __future__ import annotations

import inspect
from typing import Optional


class ConstructorSignature:
    """A descriptor: on the class, the signature of its ``__init__`` without ``self``; on an instance, absent."""

    def __get__(self, instance: Optional[object], owner: type) -> inspect.Signature:
        if instance is not None:
            raise AttributeError("__signature__")
        signature = inspect.signature(owner.__init__)  # type: ignore[misc]
        parameters = list(signature.parameters.values())[1:]  # drop self
        return signature.replace(parameters=parameters, return_annotation=inspect.Signature.empty)

    def __set_name__(self, owner: type, name: str) -> None:
        if name != "__signature__":
            raise TypeError(f"ConstructorSignature must be bound to __signature__, got {name!r}")


__all__ = ["ConstructorSignature"]
