"""The metric test harness every family uses.

A *batch* is a tuple of positional ``update`` arguments whose tensors share their first dimension (samples,
queries or rows). A *factory* builds a fresh metric (use ``functools.partial(Class, **options)`` so it pickles
for the multi-process checks). ``check_metric`` runs every generic property at once:

* streaming over the given batches equals ``expected`` (an oracle or the one-shot functional value);
* streaming over any random split of the same rows equals it too (hypothesis, empty batches included);
* ``forward`` returns each batch's own value and leaves the same final state as ``update``;
* ``compute`` is cached, repeatable, and leaves the local state untouched;
* ``merge_state`` is associative and a reset metric is its identity;
* states are not in ``state_dict`` by default (torchmetrics' rule); with ``persistent(True)`` a ``state_dict``
  taken mid-stream resumes exactly; pickling, ``deepcopy`` and ``clone()`` keep the state;
* ``compute`` returns a value the caller owns: editing it changes no later ``compute``.
"""
from __future__ import annotations

import copy
import math
import pickle
import warnings
from typing import Any, Callable, List, Optional, Sequence, Tuple

import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from torch import Tensor

Batch = Tuple[Any, ...]
Factory = Callable[[], Any]


# --------------------------------------------------------------------------------------------- comparison
def assert_close(actual: Any, expected: Any, *, atol: float = 1e-9, rtol: float = 1e-7, path: str = "value") -> None:
    """Recursive comparison of tensors, numbers, dicts and sequences; NaN equals NaN."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict) and set(actual) == set(expected), f"{path}: keys {actual!r} vs {expected!r}"
        for k in expected:
            assert_close(actual[k], expected[k], atol=atol, rtol=rtol, path=f"{path}[{k!r}]")
        return
    if isinstance(expected, (list, tuple)) and not isinstance(actual, Tensor):
        assert len(actual) == len(expected), f"{path}: length {len(actual)} vs {len(expected)}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_close(a, e, atol=atol, rtol=rtol, path=f"{path}[{i}]")
        return
    a = torch.as_tensor(actual).detach().cpu().to(torch.float64)
    e = torch.as_tensor(expected).detach().cpu().to(torch.float64)
    assert a.shape == e.shape, f"{path}: shape {tuple(a.shape)} vs {tuple(e.shape)}"
    torch.testing.assert_close(a, e, atol=atol, rtol=rtol, equal_nan=True, msg=lambda m: f"{path}: {m}")


def states_equal(a: dict, b: dict) -> bool:
    if set(a) != set(b):
        return False
    return all(x.dtype == y.dtype and x.shape == y.shape and torch.equal(x, y) for x, y in
               ((a[k].cpu(), b[k].cpu()) for k in a))


def snapshot(metric: Any) -> dict:
    return {k: v.detach().clone() for k, v in metric.local_state().items()}


# ------------------------------------------------------------------------------------------------ batches
def concat(batches: Sequence[Batch]) -> Batch:
    """Join batches row-wise (non-tensor arguments are taken from the first batch)."""
    first = batches[0]
    return tuple(torch.cat([b[i] for b in batches]) if isinstance(x, Tensor) else x for i, x in enumerate(first))


def split(batch: Batch, cuts: Sequence[int]) -> List[Batch]:
    """Split one batch at the given row positions (sorted, duplicates give empty batches)."""
    n = next(x for x in batch if isinstance(x, Tensor)).shape[0]
    bounds = [0, *sorted(min(max(c, 0), n) for c in cuts), n]
    return [tuple(x[lo:hi] if isinstance(x, Tensor) else x for x in batch) for lo, hi in zip(bounds, bounds[1:])]


def feed(metric: Any, batches: Sequence[Batch]) -> Any:
    for b in batches:
        metric.update(*b)
    return metric


# ------------------------------------------------------------------------------------------------- checks
def check_streaming(factory: Factory, batches: Sequence[Batch], expected: Any, **tol: float) -> None:
    m = feed(factory(), batches)
    before = snapshot(m)
    value = m.compute()
    assert_close(value, expected, path="streamed compute()", **tol)
    _scribble(m.compute())  # the caller owns the value: writing into it changes nothing
    assert_close(m.compute(), value, path="compute() after editing a returned value", **tol)
    assert states_equal(snapshot(m), before), "compute() changed the local state"


def _scribble(value: Any) -> None:
    if isinstance(value, Tensor):
        if value.numel() and not value.is_complex():
            value.fill_(True if value.dtype == torch.bool else 7)
    elif isinstance(value, dict):
        for v in value.values():
            _scribble(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _scribble(v)


def check_any_split(factory: Factory, batches: Sequence[Batch], expected: Any, *, max_examples: int = 15,
                    allow_empty: bool = True, **tol: float) -> None:
    whole = concat(batches)
    n = next(x for x in whole if isinstance(x, Tensor)).shape[0]
    low = 0 if allow_empty else 1

    @settings(max_examples=max_examples, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(st.lists(st.integers(low, max(n - low, low)), max_size=5))
    def run(cuts: List[int]) -> None:
        parts = split(whole, cuts)
        if not allow_empty:
            parts = [p for p in parts if next(x for x in p if isinstance(x, Tensor)).shape[0]]
        assert_close(feed(factory(), parts).compute(), expected, path=f"split at {sorted(cuts)}", **tol)

    run()


def check_forward(factory: Factory, batches: Sequence[Batch], batch_value: Optional[Callable[..., Any]],
                  **tol: float) -> None:
    """``forward`` gives each batch's value (``batch_value(*batch)``, e.g. the functional form) and ends in
    exactly the state that ``update`` leaves."""
    m_fwd, m_upd = factory(), feed(factory(), batches)
    for b in batches:
        value = m_fwd(*b)
        if batch_value is not None:
            assert_close(value, batch_value(*b), path="forward() batch value", **tol)
    assert states_equal(snapshot(m_fwd), snapshot(m_upd)), "forward() left a different state than update()"


def check_merge(factory: Factory, batches: Sequence[Batch], expected: Any, **tol: float) -> None:
    parts = [batches[0::3], batches[1::3], batches[2::3]]
    a, b, c = (feed(factory(), p) for p in parts)
    left = copy.deepcopy(a).merge_state(b).merge_state(c)
    bc = copy.deepcopy(b).merge_state(c)
    right = copy.deepcopy(a).merge_state(bc)
    assert_close(left.compute(), expected, path="(a+b)+c", **tol)
    assert_close(right.compute(), expected, path="a+(b+c)", **tol)
    empty = factory()
    empty.update(*batches[0])
    empty.reset()
    ident = copy.deepcopy(left).merge_state(empty)
    assert_close(ident.compute(), expected, path="merge with a reset metric", **tol)
    assert_close(feed(empty, batches).compute(), expected, path="stream after reset", **tol)


def check_persistence(factory: Factory, batches: Sequence[Batch], expected: Any, **tol: float) -> None:
    half = max(len(batches) // 2, 1)
    m = feed(factory(), batches[:half])
    m.compute()  # a mid-epoch compute must not disturb anything
    assert not set(m.state_dict()) & set(m.local_state()), "states are in state_dict() without persistent(True)"
    m.persistent(True)
    resumed = factory()
    resumed.load_state_dict(m.state_dict())
    assert states_equal(snapshot(resumed), snapshot(m)), "load_state_dict(state_dict()) changed the state"
    for clone in (resumed, pickle.loads(pickle.dumps(m)), copy.deepcopy(m), m.clone(), m):
        assert_close(feed(clone, batches[half:]).compute(), expected, path="resumed stream", **tol)


def check_rejects(factory: Factory, batches: Sequence[Batch], bad: Batch, exc: type, match: str) -> None:
    """A bad batch raises ``exc`` matching ``match`` and leaves the metric (and a forward call) unchanged."""
    import pytest

    m = feed(factory(), batches)
    value = m.compute()
    before = snapshot(m)
    with pytest.raises(exc, match=match):
        m.update(*bad)
    with pytest.raises(exc, match=match):
        m(*bad)
    assert states_equal(snapshot(m), before), "a rejected update changed the state"
    assert_close(m.compute(), value, path="compute() after a rejected update")


def check_metric(factory: Factory, batches: Sequence[Batch], expected: Any, *,
                 batch_value: Optional[Callable[..., Any]] = None, max_examples: int = 15,
                 allow_empty: bool = True, atol: float = 1e-9, rtol: float = 1e-7) -> None:
    """Every generic property of a metric on one data set (see the module docstring)."""
    tol = {"atol": atol, "rtol": rtol}
    check_streaming(factory, batches, expected, **tol)
    check_any_split(factory, batches, expected, max_examples=max_examples, allow_empty=allow_empty, **tol)
    check_forward(factory, batches, batch_value, **tol)
    check_merge(factory, batches, expected, **tol)
    check_persistence(factory, batches, expected, **tol)


def check_metric_against_function(factory: Factory, function: Callable[..., Any], batches: Sequence[Batch], *,
                                  max_examples: int = 3) -> None:
    """:func:`check_metric` with the function's value on all the batches as the oracle, and its value on each batch
    as ``forward``'s, to 1e-12 (a module and its function share their two steps). UserWarnings (an undefined class,
    ...) are the function's and the module's alike, and are not checked here."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        expected = function(*concat(batches))
        check_metric(factory, batches, expected, batch_value=function, max_examples=max_examples, atol=1e-12, rtol=0)


def nan_equal(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b
