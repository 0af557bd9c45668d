"""Fault-tolerant model evaluation: :func:`evaluate` runs a model over a dataset and feeds a set of metrics. A bad
*example* (one the model or the collate fails on, or whose output is not finite) is recorded in the returned
:class:`EvalReport` and left out of every metric; a bad *setup* (a metric that rejects well-formed model output,
nothing that succeeds, too many failures) raises :class:`EvaluationError`. (Multiple-choice accuracy for language
models is :mod:`torchmetrics_lite.multiple_choice`.)
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple, Union, cast

import torch
from torch import Tensor, nn

from torchmetrics_lite._checks import check_positive_int
from torchmetrics_lite._checks.wrappers import check_max_error_rate
from torchmetrics_lite.collection import MetricCollection
from torchmetrics_lite.metric import Metric

__all__ = ["evaluate", "EvalReport", "EvaluationError"]


# ------------------------------------------------------------------------------------------------ evaluate
@dataclass
class EvalReport:
    """What :func:`evaluate` returns (and what an :class:`EvaluationError` carries as ``report``).

    Attributes:
        values: the metrics computed over the examples that succeeded (``{name: value}``); empty in the report
            of a run stopped by a setup error (no ``compute``, which would need every rank in a process group).
        n_ok: number of examples that went through the model and every metric.
        n_errors: number of examples left out because the collate or the model raised on them, or their output
            was not finite.
        failed: ``(index, repr(error))`` of each failed example, in order; ``index`` is the example's position in
            the stream (for a DataLoader: batch offset + row).

    ``str(report)`` is a one-line summary that always shows the error count next to the scores (plus the first
    failure, if any).

    Examples:
        >>> print(EvalReport({"acc": 0.75}, n_ok=4, n_errors=1, failed=[(2, "RuntimeError('bad image')")]))
        acc=0.7500  [4 ok, 1 error]
        first error: example 2: RuntimeError('bad image')
    """

    values: Dict[str, Any]
    n_ok: int
    n_errors: int
    failed: List[Tuple[int, str]] = field(default_factory=list)

    @property
    def error_rate(self) -> float:
        """``n_errors / (n_ok + n_errors)`` (0.0 when nothing ran)."""
        total = self.n_ok + self.n_errors
        return self.n_errors / total if total else 0.0

    def __str__(self) -> str:
        scores = "  ".join(f"{name}={_fmt(v)}" for name, v in self.values.items())
        line = f"{scores}  [{self.n_ok} ok, {self.n_errors} error{'' if self.n_errors == 1 else 's'}]".lstrip()
        if self.failed:
            index, error = self.failed[0]
            error = error if len(error) <= 120 else error[:117] + "..."
            line += f"\nfirst error: example {index}: {error}"
        return line


class EvaluationError(RuntimeError):
    """:func:`evaluate` stopped: the setup is wrong, not an example. ``report`` holds the run so far.

    Raised when a metric rejects the model's output (a value range, a label range, a shape, a dtype: the
    original error is the ``__cause__``), when no example succeeded, and when the share of failed examples
    exceeds ``max_error_rate``.

    Args:
        message: what went wrong and what to change.
        report: the :class:`EvalReport` of the run so far.
    """

    def __init__(self, message: str, report: EvalReport) -> None:
        super().__init__(message)
        self.report = report


def _fmt(value: Any) -> str:
    if isinstance(value, Tensor) and value.numel() == 1:
        value = value.item()
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, Tensor):
        return f"tensor{tuple(value.shape)}"
    return str(value)


def evaluate(
    model: Callable[[Any], Any],
    data: Iterable[Any],
    metrics: Union[Mapping[str, Metric], MetricCollection],
    *,
    batch_size: Optional[int] = None,
    device: Optional[Union[str, torch.device]] = None,
    progress: bool = True,
    max_error_rate: float = 0.1,
) -> EvalReport:
    """Run ``model`` over ``data`` and update ``metrics``; skip and record bad examples, stop on a bad setup.

    Bad examples are isolated: an ``Exception`` raised while collating a batch or running the model, or a model
    output that holds NaN or an infinity (a log-likelihood of ``-inf`` too: clamp it in the model if it is
    meant), fails the batch; a failed batch of several examples is retried one
    example at a time, so only the bad examples are lost, each recorded as ``(index, repr(error))``.

    A bad setup raises :class:`EvaluationError` (with ``.report``, the run so far): a metric that rejects the
    model's output or the targets (logits given to a metric that expects probabilities, labels outside
    ``num_classes``, a wrong shape or dtype) raises at once, since every example would be rejected or, worse,
    only some, biasing the value; the metric's own error is the ``__cause__``. At the end of the run it raises
    when no example succeeded (an empty ``data`` included) and when ``n_errors / (n_ok + n_errors)`` exceeds
    ``max_error_rate``; the metric values are computed first (they are in ``.report``). Every metric is validated
    before any state changes, so a rejected batch changes no metric. ``KeyboardInterrupt``, ``SystemExit`` and
    errors raised by ``data``'s own iterator propagate.

    Args:
        model: a callable (usually an ``nn.Module``) mapping a batch of inputs to a batch of outputs. An
            ``nn.Module`` is moved to ``device`` (if given) and put in eval mode for the run (its previous
            train/eval mode is restored afterwards); it always runs under ``torch.inference_mode()``.
        data: an iterable of ``(input, target)`` examples, collated into batches of ``batch_size`` (default 1)
            with ``torch.utils.data.default_collate`` (so the model always sees a batch), or a
            ``torch.utils.data.DataLoader`` whose batches are ``(inputs, targets)`` (then ``batch_size`` must be
            ``None``). Inputs and targets are moved to the device (``device``, else the model's parameters').
        metrics: a dict ``name -> Metric`` or a :class:`MetricCollection`, updated in place (not reset first) with
            ``update(output, target)``; a tuple/list target is unpacked: ``update(output, *target)`` (e.g.
            ``(label, lengths)`` for :class:`MultipleChoiceAccuracy`).
        batch_size: examples per model call, for an iterable of examples.
        device: where the model and the batches run.
        progress: show a tqdm progress bar (only if tqdm is installed, and only after the run has taken a
            second); ``False`` never imports tqdm.
        max_error_rate: the largest tolerated share of failed examples, in [0, 1] (default 0.1: 5 failures in
            103 examples return a report, 11 in 100 raise).

    Returns:
        An :class:`EvalReport`: the values over the examples that succeeded, the counts and the failures. In a
        process group the values are synced (by ``compute``, which every rank reaches before any end-of-run
        check) while ``n_ok``, ``n_errors`` and ``failed`` are this process's.

    Raises:
        EvaluationError: a metric rejected the model output or the targets; no example succeeded; the error rate
            exceeds ``max_error_rate``.
        TypeError: ``metrics`` is not a dict of Metric or a MetricCollection.
        ValueError: ``batch_size`` is not a positive int (or is given with a DataLoader); ``max_error_rate`` is
            not in [0, 1].

    Examples:
        >>> from torchmetrics_lite import MeanMetric
        >>> def model(x):
        ...     if (x < 0).any():
        ...         raise ValueError("negative input")
        ...     return x * 2
        >>> data = [(torch.tensor(v), torch.tensor(1.0)) for v in (1.0, -1.0, 3.0, 5.0)]  # target: MeanMetric's weight
        >>> report = evaluate(model, data, {"mean": MeanMetric()}, batch_size=2, progress=False, max_error_rate=0.5)
        >>> report.n_ok, report.failed
        (3, [(1, "ValueError('negative input')")])
        >>> print(report)
        mean=6.0000  [3 ok, 1 error]
        first error: example 1: ValueError('negative input')
        >>> try:  # with the default max_error_rate=0.1, 1 failure in 4 examples stops the run
        ...     evaluate(model, data, {"mean": MeanMetric()}, progress=False)
        ... except EvaluationError as error:
        ...     print(str(error)[:57], error.report.n_ok)
        1 of 4 examples failed (25.0%), more than max_error_rate= 3
    """
    collection = _as_collection(metrics)
    check_positive_int("batch_size", batch_size, allow_none=True)
    max_error_rate = check_max_error_rate(max_error_rate)
    is_loader = isinstance(data, torch.utils.data.DataLoader)
    if is_loader and batch_size is not None:
        raise ValueError(f"Expected `batch_size` to be None when `data` is a DataLoader, got {batch_size!r}")
    runner = _Runner(model, collection, torch.device(device) if device is not None else _model_device(model))
    with _eval_mode(model, runner.device if device is not None else None):
        stream = _progress(data, progress)
        chunks = _loader_chunks(stream) if is_loader else _example_chunks(stream, batch_size or 1)
        for chunk in chunks:
            runner.run(chunk)
    report = runner.report(collection.compute())
    _check_outcome(report, max_error_rate)
    return report


def _check_outcome(report: EvalReport, max_error_rate: float) -> None:
    first = f"; first error: example {report.failed[0][0]}: {report.failed[0][1]}" if report.failed else ""
    if report.n_ok == 0:
        what = "`data` was empty" if not report.n_errors else f"all {report.n_errors} examples failed"
        raise EvaluationError(f"No example succeeded: {what}{first}", report)
    if report.error_rate > max_error_rate:
        raise EvaluationError(f"{report.n_errors} of {report.n_ok + report.n_errors} examples failed "
                              f"({100 * report.error_rate:.1f}%), more than max_error_rate={max_error_rate:g}{first}",
                              report)


def _as_collection(metrics: Any) -> MetricCollection:
    if isinstance(metrics, MetricCollection):
        return metrics
    if isinstance(metrics, Mapping):
        return MetricCollection(metrics)  # members validated together, merged only if all accept the batch
    raise TypeError(f"Expected `metrics` to be a dict of Metric or a MetricCollection, got {type(metrics).__name__}")


def _model_device(model: Any) -> Optional[torch.device]:
    if isinstance(model, nn.Module):
        for p in model.parameters():
            return p.device
    return None


@contextmanager
def _eval_mode(model: Any, device: Optional[torch.device]) -> Iterator[None]:
    if not isinstance(model, nn.Module):
        yield
        return
    was_training = model.training
    if device is not None:
        model.to(device)
    model.eval()
    try:
        yield
    finally:
        model.train(was_training)


def _progress(data: Iterable[Any], enabled: bool) -> Iterable[Any]:
    if not enabled:
        return data
    try:
        from tqdm import tqdm  # optional dependency, imported only when a bar is wanted
    except ImportError:
        return data
    try:
        total: Optional[int] = len(data)  # type: ignore[arg-type]
    except TypeError:  # a generator, or a DataLoader over an IterableDataset without __len__
        total = None
    return tqdm(data, total=total, delay=1.0, desc="evaluate", leave=False)


# A chunk is one model call: the whole batch, and its examples one by one for the retry.
Chunk = Tuple[Callable[[], Any], List[Tuple[int, Callable[[], Any]]]]


def _example_chunks(stream: Iterable[Any], batch_size: int) -> Iterator[Chunk]:
    from torch.utils.data import default_collate

    def chunk(start: int, examples: List[Any]) -> Chunk:
        singles: List[Tuple[int, Callable[[], Any]]] = [
            (start + i, partial(default_collate, [ex])) for i, ex in enumerate(examples)
        ]
        return partial(default_collate, examples), singles

    pending: List[Any] = []
    start = 0
    for example in stream:
        pending.append(example)
        if len(pending) == batch_size:
            yield chunk(start, pending)
            start, pending = start + batch_size, []
    if pending:
        yield chunk(start, pending)


def _loader_chunks(stream: Iterable[Any]) -> Iterator[Chunk]:
    offset = 0
    for batch in stream:
        n = _batch_len(batch)
        singles: List[Tuple[int, Callable[[], Any]]] = [(offset + r, partial(_take, batch, r, n)) for r in range(n)]
        yield partial(_same, batch), singles
        offset += n


def _same(obj: Any) -> Any:
    return obj


def _batch_len(obj: Any) -> int:
    """Rows of a collated batch: the first dimension of its first tensor (1 if it holds none)."""
    if isinstance(obj, Tensor):
        return obj.shape[0] if obj.dim() else 1
    items = obj.values() if isinstance(obj, Mapping) else obj if isinstance(obj, (list, tuple)) else ()
    for item in items:
        if isinstance(item, (Tensor, Mapping, list, tuple)):
            return _batch_len(item)
    return len(obj) if isinstance(obj, (list, tuple)) and obj else 1


def _take(obj: Any, r: int, n: int) -> Any:
    """Row ``r`` of a collated batch of ``n`` rows, as a batch of one."""
    if isinstance(obj, Tensor):
        return obj[r : r + 1] if obj.dim() else obj
    if isinstance(obj, Mapping):
        return cast(Any, type(obj))({k: _take(v, r, n) for k, v in obj.items()})
    if isinstance(obj, (list, tuple)):
        named = hasattr(obj, "_fields")
        leaves = all(not isinstance(x, (Tensor, Mapping, list, tuple)) for x in obj)
        if leaves and len(obj) == n and not named:  # a collated list of strings / numbers: one entry per row
            return type(obj)([obj[r]])
        parts = [_take(x, r, n) for x in obj]
        return type(obj)(*parts) if named else type(obj)(parts)
    return obj


def _to_device(obj: Any, device: Optional[torch.device]) -> Any:
    if device is None:
        return obj
    if isinstance(obj, Tensor):
        return obj.to(device)
    if isinstance(obj, Mapping):
        return cast(Any, type(obj))({k: _to_device(v, device) for k, v in obj.items()})
    if isinstance(obj, (list, tuple)):
        parts = [_to_device(x, device) for x in obj]
        return type(obj)(*parts) if hasattr(obj, "_fields") else type(obj)(parts)
    return obj


class _ExampleFailure(Exception):
    """The example's own failure (collate, model, non-finite output): recorded, and the run goes on."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(repr(error))
        self.error = error


class _Runner:
    def __init__(self, model: Callable[[Any], Any], collection: MetricCollection,
                 device: Optional[torch.device]) -> None:
        self.model, self.collection, self.device = model, collection, device
        self.n_ok = 0
        self.failed: List[Tuple[int, str]] = []

    def report(self, values: Optional[Dict[str, Any]] = None) -> EvalReport:
        return EvalReport(dict(values or {}), self.n_ok, len(self.failed), list(self.failed))

    def run(self, chunk: Chunk) -> None:
        whole, singles = chunk
        try:
            output, target = self._forward(whole)
        except _ExampleFailure as failure:
            if len(singles) == 1:
                self.failed.append((singles[0][0], repr(failure.error)))
                return
        else:
            self._update(output, target, singles[0][0])
            self.n_ok += len(singles)
            return
        for index, single in singles:  # the batch failed: retry its examples one by one
            try:
                output, target = self._forward(single)
            except _ExampleFailure as failure:
                self.failed.append((index, repr(failure.error)))
                continue
            self._update(output, target, index)
            self.n_ok += 1

    def _forward(self, make_batch: Callable[[], Any]) -> Tuple[Any, Any]:
        """Collate, move and run the model: any Exception here is the example's failure."""
        try:
            inputs, target = make_batch()
            inputs, target = _to_device(inputs, self.device), _to_device(target, self.device)
            with torch.inference_mode():
                output = self.model(inputs)
        except Exception as error:  # noqa: BLE001 (fault tolerance is the point; BaseException propagates)
            raise _ExampleFailure(error) from error
        if not _all_finite(output):
            raise _ExampleFailure(FloatingPointError("the model output holds NaN or infinite values"))
        return output, target

    def _update(self, output: Any, target: Any, first_index: int) -> None:
        """Feed the metrics: a rejection of well-formed model output is a setup error and stops the run."""
        try:
            with torch.no_grad():  # metric states stay normal tensors (never created under inference mode)
                if isinstance(target, (tuple, list)):
                    self.collection.update(output, *target)
                else:
                    self.collection.update(output, target)
        except Exception as error:  # noqa: BLE001
            raise EvaluationError(
                f"A metric rejected the model output of the batch that starts at example {first_index}: "
                f"{error} -- this is a setup error (the model's output format, the targets or the metric's "
                "arguments), not a bad example, so the run stops instead of skipping it",
                self.report(),
            ) from error


def _all_finite(output: Any) -> bool:
    """Whether every floating tensor in the model output is finite (one host sync per tensor)."""
    if isinstance(output, Tensor):
        return not (output.is_floating_point() or output.is_complex()) or bool(torch.isfinite(output).all())
    if isinstance(output, Mapping):
        return all(_all_finite(v) for v in output.values())
    if isinstance(output, (list, tuple)):
        return all(_all_finite(v) for v in output)
    return True
