"""PyTorch Lightning integration: log our metric objects as torchmetrics users do, or let a callback do it.

Two ways, pick one per metric:

1. **torchmetrics' pattern.** Lightning accepts our metrics in ``self.log`` and our collections in
   ``self.log_dict`` with no extra import: the core registers :class:`~torchmetrics_lite.Metric` as a virtual
   subclass of ``torchmetrics.Metric`` (the only type Lightning's ``self.log`` takes as a metric object) as soon as
   torchmetrics is imported, which Lightning does (``torchmetrics_lite._interop``; this module registers too)::

       class Model(pl.LightningModule):
           def __init__(self):
               super().__init__()
               self.val_acc = BinaryAccuracy()
               self.val_metrics = MetricCollection({"f1": BinaryF1Score(), "auroc": BinaryAUROC()}, prefix="val_")

           def validation_step(self, batch, batch_idx):
               x, y = batch
               scores = self(x)
               self.val_acc.update(scores, y)
               self.val_metrics.update(scores, y)
               self.log("val_acc", self.val_acc)  # the object, not a value
               self.log_dict(self.val_metrics)

   At the epoch end Lightning calls ``compute()`` (which syncs across ranks, so the logged value is the exact
   global one) and ``reset()``. Log the *object*: ``self.log("acc", self.acc(preds, y))`` logs the batch
   values and Lightning averages them over the epoch, which is not the epoch's accuracy.

2. **A callback.** Attach one :class:`~torchmetrics_lite.MetricCollection` per stage with :class:`StageMetrics`,
   update it in the step, and let :class:`LogMetrics` compute, log (``"<stage><separator><name>"``) and reset
   it at each epoch end. Values that are not scalars (``average=None``, a confusion matrix) are logged one
   entry per class; a stage that no rank updated logs nothing; the sanity-check run is not logged.

Under DDP, Lightning's default ``DistributedSampler`` pads the last shard with repeated samples so that every rank
gets the same count; the metrics then count those samples twice. For exact values pass
``use_distributed_sampler=False`` and shard the data yourself (uneven shards are fine: our sync handles them).

This module imports Lightning (``pytorch_lightning`` or ``lightning.pytorch``) and torchmetrics (a Lightning
dependency); the core package never does.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, Iterator, Mapping, Optional, Sequence, Tuple, Union

import torch
from torch import Tensor, nn

from torchmetrics_lite import sync
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.collection import MetricCollection
from torchmetrics_lite.metric import Metric

try:  # the standalone package first, then the unified one
    import pytorch_lightning as pl
except ImportError:  # pragma: no cover - depends on what is installed
    try:
        import lightning.pytorch as pl  # type: ignore[no-redef]
    except ImportError as err:
        raise ImportError(
            "torchmetrics_lite.integrations.lightning needs PyTorch Lightning: "
            "pip install 'torchmetrics-lite[lightning]'"
        ) from err

__all__ = ["LogMetrics", "StageMetrics", "register_with_lightning"]

STAGES: Tuple[str, ...] = ("train", "val", "test")


def register_with_lightning() -> None:
    """Let ``LightningModule.log``/``log_dict`` take our metric objects (done by the core as soon as torchmetrics
    is imported, and when this module is imported).

    Lightning accepts a metric object only if it is a ``torchmetrics.Metric``; that class is an abstract base
    class, so registering :class:`~torchmetrics_lite.Metric` as its virtual subclass is enough: Lightning then
    reads ``_forward_cache`` (the last ``forward`` value, for ``on_step`` logging), calls ``compute()`` and
    ``reset()`` at the epoch end, and moves the metric with ``.to(device)``. Idempotent.
    """
    import torchmetrics

    if not issubclass(Metric, torchmetrics.Metric):
        torchmetrics.Metric.register(Metric)


register_with_lightning()


class StageMetrics(nn.Module):
    """One copy of ``collection`` per stage, keys ``prefix + stage + separator + name``; a submodule, so it follows
    the model's device (its states are in checkpoints only with ``persistent(True)``).

    Args:
        collection: the metrics of one stage (copied for each stage).
        stages: a subset of ``("train", "val", "test")``.
        separator: between the stage and the metric name. The default ``"/"`` groups the values in TensorBoard;
            use ``"_"`` when a key names a file (``ModelCheckpoint(filename="{val_acc:.3f}")``), where ``"/"``
            would create a sub-directory.
        prefix: before the stage name (``"metrics/"``...).

    Raises:
        ValueError: an unknown stage.

    Examples:
        >>> from torchmetrics_lite import MeanMetric
        >>> m = StageMetrics(MetricCollection({"loss": MeanMetric()}), stages=("train", "val"), separator="_")
        >>> m["val"].update(torch.tensor([1.0, 3.0]))
        >>> {k: v.item() for k, v in m["val"].compute().items()}
        {'val_loss': 2.0}
    """

    def __init__(self, collection: MetricCollection, stages: Iterable[str] = STAGES, *, separator: str = "/",
                 prefix: str = "") -> None:
        super().__init__()
        for stage in stages:
            if stage not in STAGES:
                raise ValueError(f"Expected every stage to be one of {STAGES}, got {stage!r}")
        # keys get a suffix: "train" is an nn.Module method and cannot be a submodule name
        self.collections = nn.ModuleDict({f"{s}_metrics": collection.clone(prefix=f"{prefix}{s}{separator}")
                                          for s in stages})

    def __getitem__(self, stage: str) -> MetricCollection:
        return self.collections[f"{stage}_metrics"]  # type: ignore[return-value]

    def __contains__(self, stage: str) -> bool:
        return f"{stage}_metrics" in self.collections


def _loggable(value: Tensor) -> Tensor:
    """The value as a tensor Lightning logs unchanged: float32 / float64 as they are (a cast to float32 would
    round the exact value), anything else as float64 (float32 where the device lacks it)."""
    if value.dtype in (torch.float32, torch.float64):
        return value
    return value.to(float_dtype(value.device))


def _flatten(key: str, value: Any, labels: Optional[Sequence[str]]) -> Iterator[Tuple[str, Tensor]]:
    """``(key, scalar)`` pairs: a scalar as it is, a per-class tensor as ``key_<label or index>`` per entry (a
    matrix as ``key_<row>_<column>``), a dict by its keys. Curves (tuples) are not scalars: skipped."""
    if isinstance(value, Mapping):
        for k, v in value.items():
            yield from _flatten(f"{key}_{k}", v, labels)
        return
    if isinstance(value, (tuple, list)):
        return
    value = torch.as_tensor(value)
    if value.dim() == 0:
        yield key, _loggable(value)
        return
    for i, row in enumerate(value.unbind(0)):
        name = labels[i] if labels is not None and len(labels) == value.shape[0] else str(i)
        yield from _flatten(f"{key}_{name}", row, labels)


class LogMetrics(pl.Callback):
    """Compute, log and reset every :class:`StageMetrics` of the LightningModule at each epoch end.

    Args:
        prog_bar: show the values on the progress bar.
        labels: names for the entries of per-class values (``average=None``, confusion matrices): one
            sequence for every member, or a dict ``member name -> sequence``. Default: the class index
            (``f1_0``, ``f1_1``...).

    The values logged at each epoch are also kept in ``history`` (``key -> list of floats``).
    """

    def __init__(self, prog_bar: bool = True,
                 labels: Optional[Union[Sequence[str], Mapping[str, Sequence[str]]]] = None) -> None:
        super().__init__()
        self.prog_bar = prog_bar
        self.labels = labels
        self.history: Dict[str, list] = {}

    def _labels(self, name: str) -> Optional[Sequence[str]]:
        if isinstance(self.labels, Mapping):
            return self.labels.get(name)
        return self.labels

    def _flush(self, trainer: Any, pl_module: Any, stage: str) -> None:
        for holder in pl_module.modules():
            if isinstance(holder, StageMetrics) and stage in holder:
                collection = holder[stage]
                if not _updated_on_any_rank(collection):
                    collection.reset()
                    continue
                values = collection.compute()  # syncs across ranks inside
                collection.reset()
                if trainer.sanity_checking:
                    continue
                floats: Dict[str, Tensor] = {}
                for name in collection.keys(keep_base=True):
                    key = collection.prefix + name + collection.postfix
                    floats.update(_flatten(key, values[key], self._labels(name)))
                pl_module.log_dict(floats, prog_bar=self.prog_bar, on_step=False, on_epoch=True, sync_dist=False)
                for k, v in floats.items():
                    self.history.setdefault(k, []).append(float(v))

    def on_train_epoch_end(self, trainer: Any, pl_module: Any) -> None:
        self._flush(trainer, pl_module, "train")

    def on_validation_epoch_end(self, trainer: Any, pl_module: Any) -> None:
        self._flush(trainer, pl_module, "val")

    def on_test_epoch_end(self, trainer: Any, pl_module: Any) -> None:
        self._flush(trainer, pl_module, "test")


def _updated_on_any_rank(collection: MetricCollection) -> bool:
    """Whether any member was updated on any rank (one tiny all_reduce in a process group, so that every rank
    takes the same branch: computing on some ranks only would hang the others)."""
    members = list(collection.values())
    group = members[0].process_group if members else None
    device = members[0].device if members else None
    return sync.any_rank(any(m.update_called for m in members), group, device)
