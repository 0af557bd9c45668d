"""Fault-tolerant model evaluation: :func:`evaluate` runs a model over a dataset and feeds a set of metrics; one
bad example never stops the run, it is recorded in the returned :class:`EvalReport` and left out of every
metric. (Multiple-choice accuracy for language models is :mod:`torchmetrics_lite.multiple_choice`.)
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple, Union

import torch
from torch import Tensor, nn

from torchmetrics_lite._checks import check_positive_int
from torchmetrics_lite.collection import MetricCollection
from torchmetrics_lite.metric import Metric

__all__ = ["evaluate", "EvalReport"]


# ------------------------------------------------------------------------------------------------ evaluate
@dataclass
class EvalReport:
    """What :func:`evaluate` returns.

    Attributes:
        values: the metrics computed over the examples that succeeded (``{name: value}``).
        n_ok: number of examples that went through the model and every metric.
        n_errors: number of examples left out because the model or a metric's input check raised.
        failed: ``(index, repr(error))`` of each failed example, in order; ``index`` is the example's position in
            the stream (for a DataLoader: batch offset + row).

    ``str(report)`` is a one-line summary that always shows the error count next to the scores (plus the first
    failure, if any).
    """

    values: Dict[str, Any]
    n_ok: int
    n_errors: int
    failed: List[Tuple[int, str]] = field(default_factory=list)

    def __str__(self) -> str:
        scores = "  ".join(f"{name}={_fmt(v)}" for name, v in self.values.items())
        line = f"{scores}  [{self.n_ok} ok, {self.n_errors} error{'' if self.n_errors == 1 else 's'}]"
        if self.failed:
            index, error = self.failed[0]
            error = error if len(error) <= 120 else error[:117] + "..."
            line += f"\nfirst error: example {index}: {error}"
        return line


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
) -> EvalReport:
    """Run ``model`` over ``data`` and update ``metrics``, skipping (and recording) the examples that fail.

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

    Fault tolerance: an ``Exception`` raised while collating a batch, running the model or checking the metrics'
    inputs fails the batch; every metric is validated before any state changes, so a failed batch changes no
    metric. A failed batch of several examples is retried one example at a time, so only the bad examples are
    lost; each is recorded as ``(index, repr(error))``. ``KeyboardInterrupt`` and ``SystemExit`` propagate.
    Errors raised by ``data``'s own iterator propagate too. In a process group the metric values are synced
    (by ``compute``) while ``n_ok``, ``n_errors`` and ``failed`` are this process's.

    >>> from torchmetrics_lite import MeanMetric
    >>> def model(x):
    ...     if (x < 0).any():
    ...         raise ValueError("negative input")
    ...     return x * 2
    >>> data = [(torch.tensor(v), torch.tensor(1.0)) for v in (1.0, -1.0, 3.0, 5.0)]  # target: MeanMetric's weight
    >>> report = evaluate(model, data, {"mean": MeanMetric()}, batch_size=2, progress=False)
    >>> report.n_ok, report.failed
    (3, [(1, "ValueError('negative input')")])
    >>> print(report)
    mean=6.0000  [3 ok, 1 error]
    first error: example 1: ValueError('negative input')
    """
    collection = _as_collection(metrics)
    check_positive_int("batch_size", batch_size, allow_none=True)
    is_loader = isinstance(data, torch.utils.data.DataLoader)
    if is_loader and batch_size is not None:
        raise ValueError(f"Expected `batch_size` to be None when `data` is a DataLoader, got {batch_size!r}")
    runner = _Runner(model, collection, torch.device(device) if device is not None else _model_device(model))
    with _eval_mode(model, runner.device if device is not None else None):
        stream = _progress(data, progress)
        chunks = _loader_chunks(stream) if is_loader else _example_chunks(stream, batch_size or 1)
        for chunk in chunks:
            runner.run(chunk)
    values = collection.compute()
    return EvalReport(dict(values), runner.n_ok, len(runner.failed), runner.failed)


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
        singles = [(start + i, (lambda ex=ex: default_collate([ex]))) for i, ex in enumerate(examples)]
        return (lambda: default_collate(examples)), singles

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
        singles = [(offset + r, (lambda r=r: _take(batch, r, n))) for r in range(n)]
        yield (lambda batch=batch: batch), singles
        offset += n


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
        return type(obj)({k: _take(v, r, n) for k, v in obj.items()})
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
        return type(obj)({k: _to_device(v, device) for k, v in obj.items()})
    if isinstance(obj, (list, tuple)):
        parts = [_to_device(x, device) for x in obj]
        return type(obj)(*parts) if hasattr(obj, "_fields") else type(obj)(parts)
    return obj


class _Runner:
    def __init__(self, model: Callable[[Any], Any], collection: MetricCollection,
                 device: Optional[torch.device]) -> None:
        self.model, self.collection, self.device = model, collection, device
        self.n_ok = 0
        self.failed: List[Tuple[int, str]] = []

    def run(self, chunk: Chunk) -> None:
        whole, singles = chunk
        try:
            self._step(whole())
            self.n_ok += len(singles)
            return
        except Exception as error:  # noqa: BLE001 (fault tolerance is the point; BaseException propagates)
            if len(singles) == 1:
                self.failed.append((singles[0][0], repr(error)))
                return
        for index, single in singles:
            try:
                self._step(single())
                self.n_ok += 1
            except Exception as error:  # noqa: BLE001
                self.failed.append((index, repr(error)))

    def _step(self, batch: Any) -> None:
        inputs, target = batch
        inputs, target = _to_device(inputs, self.device), _to_device(target, self.device)
        with torch.inference_mode():
            output = self.model(inputs)
        with torch.no_grad():  # metric states stay normal tensors (never created under inference mode)
            if isinstance(target, (tuple, list)):
                self.collection.update(output, *target)
            else:
                self.collection.update(output, target)
