"""Fault-tolerant model evaluation, and multiple-choice (HellaSwag-style) accuracy for language models.

* :func:`evaluate` runs a model over a dataset and feeds a set of metrics; one bad example never stops the run,
  it is recorded in the returned :class:`EvalReport` and left out of every metric.
* :class:`MultipleChoiceAccuracy` scores per-choice log-likelihoods (``acc`` and ``acc_norm`` of LM evaluation
  harnesses); :func:`score_choices` computes those log-likelihoods from a causal LM's logits.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import torch
from torch import Tensor, nn

from torchmetrics_lite._checks import (
    check_choice, check_floating, check_integer, check_ndim, check_no_nan, check_positive_int, check_range,
    check_same_shape, check_tensor, check_zero_division, upcast,
)
from torchmetrics_lite.collection import MetricCollection
from torchmetrics_lite.metric import Metric

__all__ = ["evaluate", "EvalReport", "MultipleChoiceAccuracy", "multiple_choice_accuracy", "score_choices"]


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
    total = len(data) if hasattr(data, "__len__") else None  # type: ignore[arg-type]
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


# ------------------------------------------------------------------------------------------ multiple choice
def _check_multiple_choice(loglik: Any, target: Any, lengths: Any, normalize: str,
                           validate_args: bool) -> Tuple[Tensor, Tensor, Optional[Tensor]]:
    loglik, target = check_tensor("loglik", loglik), check_tensor("target", target)
    check_floating("loglik", loglik)
    check_ndim("loglik", loglik, (2,))
    if loglik.shape[1] == 0:
        raise ValueError(f"Expected `loglik` to have at least one choice (column), got shape {tuple(loglik.shape)}")
    check_integer("target", target, allow_bool=False)
    check_ndim("target", target, (1,))
    if target.shape[0] != loglik.shape[0]:
        raise ValueError(f"Expected `target` to have shape ({loglik.shape[0]},), got {tuple(target.shape)}")
    if lengths is None and normalize == "length":
        raise ValueError("Expected `lengths` to be a tensor of shape (N, C) when normalize='length', got None")
    if lengths is not None:
        check_tensor("lengths", lengths)
        check_same_shape("lengths", lengths, "loglik", loglik)
        if lengths.dtype == torch.bool or lengths.is_complex():
            raise TypeError(f"Expected `lengths` to have a real, non-bool dtype, got {lengths.dtype}")
    if validate_args:
        check_no_nan("loglik", loglik)
        check_range("target", target, 0, loglik.shape[1] - 1, hint=f" (C={loglik.shape[1]} choices)")
        if lengths is not None and lengths.numel() and not bool((lengths > 0).all()):
            raise ValueError(f"Expected `lengths` to be positive, got minimum {lengths.min().item()!r}")
    return upcast(loglik), target, lengths


def _multiple_choice_stats(loglik: Tensor, target: Tensor, lengths: Optional[Tensor],
                           normalize: str) -> Dict[str, Tensor]:
    scores = loglik.to(torch.float64)
    if normalize == "length":
        scores = scores / lengths.to(device=scores.device, dtype=torch.float64)  # type: ignore[union-attr]
    n, c = scores.shape
    best = scores.max(dim=1, keepdim=True).values if n else scores[:, :1]
    col = torch.arange(c, device=scores.device).expand(n, c)
    choice = torch.where(scores == best, col, c).min(dim=1).values  # the lowest index among the maxima
    correct = (choice == target.to(choice.device)).sum()
    return {"correct": correct.to(torch.int64), "total": torch.tensor(n, dtype=torch.int64, device=scores.device)}


def _multiple_choice_from_stats(state: Dict[str, Tensor], zero_division: float) -> Tensor:
    total = state["total"]
    if int(total) == 0:
        return torch.tensor(zero_division, dtype=torch.float64, device=total.device)
    return state["correct"].to(torch.float64) / total


def multiple_choice_accuracy(loglik: Tensor, target: Tensor, lengths: Optional[Tensor] = None, *,
                             normalize: str = "none", zero_division: float = 0.0,
                             validate_args: bool = True) -> Tensor:
    """Functional form of :class:`MultipleChoiceAccuracy` (same arguments, same rules).

    >>> loglik = torch.tensor([[-3.0, -4.0], [-6.0, -5.0]])
    >>> multiple_choice_accuracy(loglik, torch.tensor([1, 0]), torch.tensor([[3, 2], [6, 2]]), normalize="length")
    tensor(0.5000, dtype=torch.float64)
    """
    check_choice("normalize", normalize, ("none", "length"))
    zero_division = check_zero_division(zero_division)
    loglik, target, lengths = _check_multiple_choice(loglik, target, lengths, normalize, validate_args)
    return _multiple_choice_from_stats(_multiple_choice_stats(loglik, target, lengths, normalize), zero_division)


class MultipleChoiceAccuracy(Metric):
    """Accuracy of picking the most likely choice: ``mean_i [argmax_c s_ic == target_i]``.

    ``update(loglik, target, lengths=None)``:

    * ``loglik``: (N, C) floating, the summed log-likelihood of each of C candidate continuations
      (:func:`score_choices` gives one row); ``-inf`` is allowed, NaN is not.
    * ``target``: (N,) integer, the index of the correct choice, in ``[0, C)``.
    * ``lengths``: (N, C) positive numbers, each candidate's length (tokens, or characters as lm-eval's
      ``acc_norm`` uses); required when ``normalize="length"``, checked and ignored when ``"none"`` (so that both
      conventions can share one :class:`MetricCollection` update).

    Args:
        normalize: ``"none"`` scores a choice by ``s = loglik`` (``acc``); ``"length"`` by ``s = loglik / lengths``
            (``acc_norm``), computed in float64.
        zero_division: the value with no example seen (default 0.0; ``float('nan')`` allowed).

    Ties: among equal scores the lowest choice index wins (a row of all ``-inf`` picks choice 0), on every
    device. States: ``correct`` and ``total`` (int64 sums). Reference: Zellers et al., "HellaSwag", ACL 2019;
    EleutherAI lm-evaluation-harness (``acc``, ``acc_norm``).

    >>> acc, acc_norm = MultipleChoiceAccuracy(), MultipleChoiceAccuracy(normalize="length")
    >>> loglik = torch.tensor([[-3.0, -4.0], [-6.0, -5.0]])
    >>> target, lengths = torch.tensor([1, 0]), torch.tensor([[3, 2], [6, 2]])
    >>> acc.update(loglik, target, lengths); acc_norm.update(loglik, target, lengths)
    >>> acc.compute().item(), acc_norm.compute().item()
    (0.0, 0.5)
    """

    def __init__(self, normalize: str = "none", *, zero_division: float = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_choice("normalize", normalize, ("none", "length"))
        self.normalize = normalize
        self.zero_division = check_zero_division(zero_division)
        self.stats_key = ("multiple_choice_accuracy", normalize, self.validate_args)
        self.add_state("correct", torch.zeros((), dtype=torch.int64), reduce="sum")
        self.add_state("total", torch.zeros((), dtype=torch.int64), reduce="sum")

    def _stats(self, loglik: Tensor, target: Tensor, lengths: Optional[Tensor] = None) -> Dict[str, Tensor]:
        loglik, target, lengths = _check_multiple_choice(loglik, target, lengths, self.normalize, self.validate_args)
        return _multiple_choice_stats(loglik, target, lengths, self.normalize)

    def _from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _multiple_choice_from_stats(state, self.zero_division)

    def _config(self) -> Dict[str, Any]:
        return {"normalize": self.normalize}


# ------------------------------------------------------------------------------------------- score_choices
def score_choices(logits_fn: Callable[[Tensor], Tensor], context: Union[Tensor, Sequence[int]],
                  choices: Sequence[Union[Tensor, Sequence[int]]]) -> Tuple[Tensor, Tensor]:
    """Summed log-likelihood of each candidate continuation under a causal language model.

    For choice ``c`` with tokens ``y_1..y_m`` after the context ``x_1..x_n``:
    ``loglik_c = sum_j log softmax(logits[n + j - 1])[y_j]`` (position ``t``'s logits predict token ``t + 1``),
    computed with ``log_softmax`` in float64 (numerically stable).

    Args:
        logits_fn: called once with a ``(C, L)`` int64 tensor of token ids (context + choice ``c`` in row ``c``,
            right-padded with 0, ``L`` the longest), returns ``(C, L, V)`` logits. The model must be causal
            (position ``t`` sees tokens ``<= t``), so padding never affects the positions that are read.
        context: 1-D token ids (tensor or list), at least one token.
        choices: C >= 1 candidate continuations, each 1-D token ids with at least one token.

    Returns:
        ``(loglik, lengths)``: float64 ``(C,)`` log-likelihoods and int64 ``(C,)`` lengths in tokens, on the
        context's device; stack rows into :class:`MultipleChoiceAccuracy`'s ``(N, C)`` inputs.

    >>> _ = torch.manual_seed(0)
    >>> logits = torch.randn(10, 5)  # a bigram model: the next token depends on the current one only
    >>> loglik, lengths = score_choices(lambda ids: logits[ids], [1, 2], [[3], [4, 0]])
    >>> lengths.tolist()
    [1, 2]
    >>> expected = torch.log_softmax(logits.double(), -1)[2, 4] + torch.log_softmax(logits.double(), -1)[4, 0]
    >>> bool(torch.isclose(loglik[1], expected))
    True
    """
    ctx = _token_ids("context", context, None)
    conts = [_token_ids(f"choices[{i}]", c, ctx.device) for i, c in enumerate(choices)]
    if not conts:
        raise ValueError("Expected `choices` to hold at least one candidate, got 0")
    n = ctx.shape[0]
    lengths = torch.tensor([c.shape[0] for c in conts], dtype=torch.int64, device=ctx.device)
    width = n + int(lengths.max())
    ids = ctx.new_zeros((len(conts), width))
    ids[:, :n] = ctx
    for i, c in enumerate(conts):  # C is small (a handful of candidates); the heavy work is one batched call
        ids[i, n : n + c.shape[0]] = c
    logits = logits_fn(ids)
    if not isinstance(logits, Tensor) or logits.dim() != 3 or logits.shape[:2] != ids.shape:
        got = tuple(logits.shape) if isinstance(logits, Tensor) else type(logits).__name__
        raise ValueError(f"Expected `logits_fn` to return logits of shape ({ids.shape[0]}, {width}, V), got {got}")
    m = width - n
    steps = logits[:, n - 1 : width - 1].to(torch.float64).log_softmax(dim=-1)  # (C, m, V) rows that predict
    token_lp = steps.gather(-1, ids[:, n:].unsqueeze(-1).to(steps.device)).squeeze(-1)
    mask = torch.arange(m, device=steps.device) < lengths.to(steps.device).unsqueeze(1)
    loglik = torch.where(mask, token_lp, torch.zeros((), dtype=torch.float64, device=steps.device)).sum(dim=1)
    return loglik.to(ctx.device), lengths


def _token_ids(name: str, ids: Any, device: Optional[torch.device]) -> Tensor:
    t = ids if isinstance(ids, Tensor) else torch.as_tensor(list(ids))
    if t.dim() != 1 or t.shape[0] == 0:
        raise ValueError(f"Expected `{name}` to be a non-empty 1-D sequence of token ids, got shape {tuple(t.shape)}")
    if t.is_floating_point() or t.is_complex() or t.dtype == torch.bool:
        raise TypeError(f"Expected `{name}` to hold integer token ids, got {t.dtype}")
    return t.to(dtype=torch.int64, device=device if device is not None else t.device)
