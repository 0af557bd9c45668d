"""A tiny LightningModule whose logged epoch metrics can be compared across 1 and 2 DDP processes.

The optimiser has learning rate 0, so predictions are identical in every run and the logged values depend only
on which samples each rank saw. Shards are uneven on purpose (use_distributed_sampler=False). Metrics are logged
both ways: through ``StageMetrics`` + ``LogMetrics`` (keys ``val/...``, ``train/...``; a per-class F1 as
``val/f1_class_neg``, ``val/f1_class_pos``) and as torchmetrics users write it, ``self.log("tm_val_mean",
self.val_mean)`` and ``self.log_dict(self.val_metrics)`` (keys ``tm_val_...``).
"""
from __future__ import annotations

import json
import os

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset

from torchmetrics_lite import MaxMetric, MeanMetric, MetricCollection, MulticlassF1Score, SumMetric
from torchmetrics_lite.integrations.lightning import LogMetrics, StageMetrics

N_TRAIN, N_VAL = 76, 100
TRAIN_SPLIT, VAL_SPLIT = 40, 37  # rank 0 takes the first rows, rank 1 the rest (5 train batches each)


def make_data():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(N_TRAIN + N_VAL, 5, generator=g)
    y = (x[:, 0] + 0.5 * torch.randn(N_TRAIN + N_VAL, generator=g) > 0).long()
    return x, y


def metrics() -> MetricCollection:
    """The logged metrics; extended with every family that accepts (scores, labels)."""
    members = {"mean_score": MeanMetric(), "max_score": MaxMetric()}
    try:
        from torchmetrics_lite import BinaryAUROC, BinaryF1Score

        members.update(auroc=BinaryAUROC(), f1=BinaryF1Score(from_logits=True))
    except ImportError:  # pragma: no cover - families land independently
        pass
    members["f1_class"] = MulticlassF1Score(num_classes=2, average=None)  # logged per class
    return MetricCollection(members)


class TinyModel(pl.LightningModule):
    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.net = torch.nn.Linear(5, 1)
        self.metrics = StageMetrics(metrics(), stages=("train", "val"))
        # torchmetrics' pattern: metric objects given to self.log / self.log_dict
        self.val_mean = MeanMetric()
        self.val_metrics = MetricCollection({"max": MaxMetric(), "total": SumMetric()}, prefix="tm_val_")
        self.train_mean = MeanMetric()

    def _update(self, stage, batch):
        x, y = batch
        scores = self.net(x).squeeze(-1)
        for name, m in self.metrics[stage].items(keep_base=True):
            if name in ("mean_score", "max_score"):
                m.update(scores)
            elif name == "f1_class":
                m.update(torch.stack([-scores, scores], dim=1).softmax(1), y)
            else:
                m.update(scores, y)
        return scores, torch.nn.functional.binary_cross_entropy_with_logits(scores, y.float())

    def training_step(self, batch, batch_idx):
        scores, loss = self._update("train", batch)
        self.train_mean(scores)  # forward: the batch value is what on_step logs
        self.log("tm_train_mean", self.train_mean, on_step=True, on_epoch=True)
        return loss

    def validation_step(self, batch, batch_idx):
        scores, _ = self._update("val", batch)
        self.val_mean.update(scores)
        self.val_metrics.update(scores)
        self.log("tm_val_mean", self.val_mean)
        self.log_dict(self.val_metrics)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.0)

    def _loader(self, x, y, split):
        world = self.trainer.world_size
        if world > 1:
            rank = self.trainer.global_rank
            x, y = (x[:split], y[:split]) if rank == 0 else (x[split:], y[split:])
        return DataLoader(TensorDataset(x, y), batch_size=8)

    def train_dataloader(self):
        x, y = make_data()
        return self._loader(x[:N_TRAIN], y[:N_TRAIN], TRAIN_SPLIT)

    def val_dataloader(self):
        x, y = make_data()
        return self._loader(x[N_TRAIN:], y[N_TRAIN:], VAL_SPLIT)


def run(devices: int, out_dir: str) -> None:
    """Fit one epoch on ``devices`` CPU processes; each rank writes the values it logged to out_dir."""
    logger = LogMetrics(labels=["neg", "pos"])
    trainer = pl.Trainer(
        accelerator="cpu", devices=devices, strategy="ddp" if devices > 1 else "auto", max_epochs=1,
        use_distributed_sampler=False, logger=False, enable_checkpointing=False, enable_progress_bar=False,
        enable_model_summary=False, num_sanity_val_steps=2, callbacks=[logger],
    )
    trainer.fit(TinyModel())
    logged = {k: v[-1] for k, v in logger.history.items()}
    logged.update({k: float(v) for k, v in trainer.callback_metrics.items()
                   if k.startswith("tm_") and not k.endswith("_step")})  # a step value is per rank
    with open(os.path.join(out_dir, f"rank{trainer.global_rank}_of_{devices}.json"), "w") as f:
        json.dump(logged, f)


if __name__ == "__main__":
    import sys

    run(int(sys.argv[1]), sys.argv[2])
