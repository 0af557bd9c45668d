"""PyTorch Lightning helpers: per-stage metric collections, computed, logged and reset at each epoch end.

Lightning's ``self.log`` accepts tensors, or torchmetrics' own metric objects; ours are logged as the tensors
they compute. Attach one :class:`~torchmetrics_lite.MetricCollection` per stage with :class:`StageMetrics`,
update it in the step, and let :class:`LogMetrics` do the epoch-end work::

    class Model(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.metrics = StageMetrics(MetricCollection({"f1": BinaryF1Score(), "auroc": BinaryAUROC()}),
                                        stages=("train", "val"))

        def validation_step(self, batch, batch_idx):
            x, y = batch
            self.metrics["val"].update(self(x), y)

    trainer = pl.Trainer(callbacks=[LogMetrics()])

At the end of each train / validation / test epoch, ``LogMetrics`` calls ``compute()`` on the stage's
collection (which syncs across ranks by itself, so the logged value is the exact global one, not a mean of
per-rank values), logs every value with ``prog_bar=True`` under ``"<stage>/<name>"``, and resets it. Values of
the sanity-check validation run are discarded.

Under DDP, Lightning's default ``DistributedSampler`` pads the last shard with repeated samples so that every rank
gets the same count; the metrics then count those samples twice. For exact values pass
``use_distributed_sampler=False`` and shard the data yourself (uneven shards are fine: our sync handles them).

This module imports Lightning (``pytorch_lightning`` or ``lightning.pytorch``); the core package never does.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, Tuple

import torch
from torch import nn

from torchmetrics_lite.collection import MetricCollection

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

__all__ = ["StageMetrics", "LogMetrics"]

STAGES: Tuple[str, ...] = ("train", "val", "test")


class StageMetrics(nn.Module):
    """One copy of ``collection`` per stage, prefixed ``"<stage>/"``; a submodule, so it follows the model's
    device and is saved in its checkpoints.

    >>> from torchmetrics_lite import MeanMetric
    >>> m = StageMetrics(MetricCollection({"loss": MeanMetric()}), stages=("train", "val"))
    >>> m["val"].update(torch.tensor([1.0, 3.0]))
    >>> {k: v.item() for k, v in m["val"].compute().items()}
    {'val/loss': 2.0}
    """

    def __init__(self, collection: MetricCollection, stages: Iterable[str] = STAGES) -> None:
        super().__init__()
        for stage in stages:
            if stage not in STAGES:
                raise ValueError(f"Expected every stage to be one of {STAGES}, got {stage!r}")
        # keys get a suffix: "train" is an nn.Module method and cannot be a submodule name
        self.collections = nn.ModuleDict({f"{s}_metrics": collection.clone(prefix=f"{s}/") for s in stages})

    def __getitem__(self, stage: str) -> MetricCollection:
        return self.collections[f"{stage}_metrics"]

    def __contains__(self, stage: str) -> bool:
        return f"{stage}_metrics" in self.collections


def _loggable(value: Any) -> torch.Tensor:
    """The value as a tensor Lightning logs unchanged: float32 / float64 as they are (a cast to float32 would
    round the exact value), anything else as float64 (float32 where the device lacks it)."""
    if not torch.is_tensor(value):
        return torch.tensor(float(value), dtype=torch.float64)
    if value.dtype in (torch.float32, torch.float64):
        return value
    return value.to(torch.float32 if value.device.type == "mps" else torch.float64)


class LogMetrics(pl.Callback):
    """Compute, log and reset every :class:`StageMetrics` of the LightningModule at each epoch end.

    Args:
        prog_bar: show the values on the progress bar.
    """

    def __init__(self, prog_bar: bool = True) -> None:
        super().__init__()
        self.prog_bar = prog_bar
        self.history: Dict[str, list] = {}

    def _flush(self, trainer: Any, pl_module: Any, stage: str) -> None:
        for holder in pl_module.modules():
            if isinstance(holder, StageMetrics) and stage in holder:
                collection = holder[stage]
                values = collection.compute()  # syncs across ranks inside
                collection.reset()
                if trainer.sanity_checking:
                    continue
                floats = {k: _loggable(v) for k, v in values.items()}
                pl_module.log_dict(floats, prog_bar=self.prog_bar, on_step=False, on_epoch=True, sync_dist=False)
                for k, v in floats.items():
                    self.history.setdefault(k, []).append(float(v))

    def on_train_epoch_end(self, trainer: Any, pl_module: Any) -> None:
        self._flush(trainer, pl_module, "train")

    def on_validation_epoch_end(self, trainer: Any, pl_module: Any) -> None:
        self._flush(trainer, pl_module, "val")

    def on_test_epoch_end(self, trainer: Any, pl_module: Any) -> None:
        self._flush(trainer, pl_module, "test")
