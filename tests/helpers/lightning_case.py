"""A tiny LightningModule whose logged epoch metrics can be compared across 1 and 2 DDP processes.

The optimiser has learning rate 0, so predictions are identical in every run and the logged values depend only
on which samples each rank saw. Shards are uneven on purpose (use_distributed_sampler=False).
"""
from __future__ import annotations

import json
import os

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset

from torchmetrics_lite import MaxMetric, MeanMetric, MetricCollection
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
    return MetricCollection(members)


class TinyModel(pl.LightningModule):
    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.net = torch.nn.Linear(5, 1)
        self.metrics = StageMetrics(metrics(), stages=("train", "val"))

    def _update(self, stage, batch):
        x, y = batch
        scores = self.net(x).squeeze(-1)
        for name, m in self.metrics[stage].items():
            if name in ("mean_score", "max_score"):
                m.update(scores)
            else:
                m.update(scores, y)
        return torch.nn.functional.binary_cross_entropy_with_logits(scores, y.float())

    def training_step(self, batch, batch_idx):
        return self._update("train", batch)

    def validation_step(self, batch, batch_idx):
        self._update("val", batch)

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
    logger = LogMetrics()
    trainer = pl.Trainer(
        accelerator="cpu", devices=devices, strategy="ddp" if devices > 1 else "auto", max_epochs=1,
        use_distributed_sampler=False, logger=False, enable_checkpointing=False, enable_progress_bar=False,
        enable_model_summary=False, num_sanity_val_steps=2, callbacks=[logger],
    )
    trainer.fit(TinyModel())
    with open(os.path.join(out_dir, f"rank{trainer.global_rank}_of_{devices}.json"), "w") as f:
        json.dump({k: v[-1] for k, v in logger.history.items()}, f)


if __name__ == "__main__":
    import sys

    run(int(sys.argv[1]), sys.argv[2])
