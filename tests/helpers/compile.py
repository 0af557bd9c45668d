"""``torch.compile`` checks shared by every family's tests (issue: a compiled update path).

``check_compiles(fn, *args)`` asserts that ``fn(*args)`` traces as one graph (``torch._dynamo.explain`` counts
no graph break) and that the compiled function, under each requested backend with ``fullgraph=True``, returns
the eager value. Use the ``"eager"`` backend (tracing only, fast) for most cases and ``"inductor"`` (generates
and compiles C++, seconds per case on CPU) for one representative case per family, to keep CI fast.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import torch

from tests.helpers.metric_tester import assert_close


def graph_breaks(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> int:
    """Number of graph breaks dynamo hits tracing ``fn(*args, **kwargs)`` (the reasons go into the message)."""
    torch._dynamo.reset()
    explanation = torch._dynamo.explain(fn)(*args, **kwargs)
    return explanation.graph_break_count


def check_compiles(fn: Callable[..., Any], *args: Any, backends: Sequence[str] = ("eager",), **kwargs: Any) -> Any:
    """``fn`` compiles with ``fullgraph=True`` under every backend in ``backends`` and gives the eager value."""
    want = fn(*args, **kwargs)
    torch._dynamo.reset()
    explanation = torch._dynamo.explain(fn)(*args, **kwargs)
    assert explanation.graph_break_count == 0, f"graph breaks: {explanation.break_reasons}"
    for backend in backends:
        torch._dynamo.reset()
        got = torch.compile(fn, backend=backend, fullgraph=True)(*args, **kwargs)
        assert_close(got, want, path=f"compiled ({backend})")
    return want


def check_update_compiles(factory: Callable[[], Any], batches: Sequence[Sequence[Any]]) -> None:
    """A metric's ``update`` traces with no graph break, and compiled (backend "eager", ``fullgraph=True``) over
    ``batches`` it accumulates the state an eager metric does (compared through ``compute``)."""
    probe = factory()
    assert graph_breaks(lambda *a: probe.update(*a), *batches[0]) == 0
    eager, compiled = factory(), factory()
    torch._dynamo.reset()
    step = torch.compile(lambda *a: compiled.update(*a), backend="eager", fullgraph=True)
    for batch in batches:
        eager.update(*batch)
        step(*batch)
    assert_close(compiled.compute(), eager.compute())
