"""A PyTorch Lightning training script written for torchmetrics. Porting it to torchmetrics_lite changes one line,
the import (``import torchmetrics_lite as torchmetrics``); ``tests/examples/test_lightning_port.py`` runs both on
one process and on two DDP processes and compares what they log.

It uses what tutorials use: task-string constructors (``Accuracy(task="multiclass", ...)``), a
``MetricCollection`` given to ``self.log_dict``, metric objects given to ``self.log`` (``on_step`` through
``forward``, epoch values through ``compute``), a ``ModelCheckpoint`` that monitors a logged metric, and a resume
from the last checkpoint.

    python examples/lightning_port.py OUT_DIR [DEVICES]

Each rank writes ``OUT_DIR/rank<r>.json``: the logged epoch values after each of the two epochs and the
checkpoint's best score.
"""
from __future__ import annotations

import json
import os
import sys

import pytorch_lightning as pl
import torch
import torchmetrics  # the port: import torchmetrics_lite as torchmetrics
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

N_TRAIN, N_VAL, CLASSES = 96, 64, 3


def make_data(n: int, seed: int):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 6, generator=g)
    y = (x[:, :3] + 0.8 * torch.randn(n, 3, generator=g)).argmax(1)
    return x, y


class Classifier(pl.LightningModule):
    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.net = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, CLASSES))
        self.train_acc = torchmetrics.Accuracy(task="multiclass", num_classes=CLASSES)
        self.val_metrics = torchmetrics.MetricCollection({
            "acc": torchmetrics.Accuracy(task="multiclass", num_classes=CLASSES),
            "f1": torchmetrics.F1Score(task="multiclass", num_classes=CLASSES, average="macro"),
            "precision": torchmetrics.Precision(task="multiclass", num_classes=CLASSES, average="weighted"),
        }, prefix="val/")
        self.val_auroc = torchmetrics.AUROC(task="multiclass", num_classes=CLASSES)
        self.val_loss = torchmetrics.MeanMetric()

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x)
        loss = nn.functional.cross_entropy(logits, y)
        self.train_acc(logits.softmax(-1), y)
        self.log("train/acc", self.train_acc, on_step=True, on_epoch=True)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x)
        probs = logits.softmax(-1)
        self.val_metrics.update(probs, y)
        self.val_auroc.update(probs, y)
        self.val_loss.update(nn.functional.cross_entropy(logits, y, reduction="none"))
        self.log_dict(self.val_metrics)
        self.log("val/auroc", self.val_auroc)
        self.log("val/loss", self.val_loss)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)

    def _loader(self, n: int, seed: int) -> DataLoader:
        x, y = make_data(n, seed)
        world, rank = self.trainer.world_size, self.trainer.global_rank
        return DataLoader(TensorDataset(x[rank::world], y[rank::world]), batch_size=8)  # even shards

    def train_dataloader(self):
        return self._loader(N_TRAIN, 1)

    def val_dataloader(self):
        return self._loader(N_VAL, 2)


def _trainer(devices: int, out_dir: str, epochs: int, checkpoint: pl.callbacks.ModelCheckpoint) -> pl.Trainer:
    return pl.Trainer(accelerator="cpu", devices=devices, strategy="ddp" if devices > 1 else "auto",
                      max_epochs=epochs, use_distributed_sampler=False, logger=False, enable_progress_bar=False,
                      enable_model_summary=False, num_sanity_val_steps=0, callbacks=[checkpoint],
                      default_root_dir=out_dir)


def _logged(trainer: pl.Trainer, checkpoint: pl.callbacks.ModelCheckpoint) -> dict:
    values = {k: float(v) for k, v in trainer.callback_metrics.items() if not k.endswith("_step")}
    values["best_model_score"] = float(checkpoint.best_model_score)
    return values


def main(out_dir: str, devices: int = 1) -> None:
    os.makedirs(out_dir, exist_ok=True)
    ckpt_dir = os.path.join(out_dir, "checkpoints")
    first = pl.callbacks.ModelCheckpoint(dirpath=ckpt_dir, monitor="val/auroc", mode="max", save_last=True)
    trainer = _trainer(devices, out_dir, 1, first)
    trainer.fit(Classifier())
    epochs = [_logged(trainer, first)]
    resumed = pl.callbacks.ModelCheckpoint(dirpath=ckpt_dir, monitor="val/auroc", mode="max", save_last=True)
    trainer = _trainer(devices, out_dir, 2, resumed)  # a new run that resumes from the last checkpoint
    trainer.fit(Classifier(), ckpt_path=os.path.join(ckpt_dir, "last.ckpt"))
    epochs.append(_logged(trainer, resumed))
    with open(os.path.join(out_dir, f"rank{trainer.global_rank}.json"), "w") as f:
        json.dump({"library": torchmetrics.__name__, "epochs": epochs}, f)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1)
