"""Train a small ranker with LambdaRank against a pointwise MSE baseline, under PyTorch Lightning.

Data: the 5,000-row samples of MSLR-WEB10K fold 1 that the ``rankeval`` source distribution ships under
``rankeval/test/data/`` (fetched once from PyPI and cached in ``~/.cache/torchmetrics_lite``, or
``$TML_CACHE``; never committed). When they cannot be fetched, a synthetic learning-to-rank set is used and the
run says so.

Every epoch logs the exact held-out NDCG@10, MAP and MRR (``torchmetrics_lite`` retrieval modules on the
padded (queries, items) block with a mask), through :mod:`torchmetrics_lite.integrations.lightning`.

Run: python examples/train_ranker.py [--synthetic] [--epochs N]
"""
from __future__ import annotations

import argparse
import io
import json
import os
import tarfile
import urllib.request
from typing import Dict, Optional, Tuple

import numpy as np
import pytorch_lightning as pl
import torch
from torch.utils.data import BatchSampler, DataLoader, RandomSampler, SequentialSampler, TensorDataset

import losses
from torchmetrics_lite import MetricCollection, RetrievalMAP, RetrievalMRR, RetrievalNormalizedDCG
from torchmetrics_lite.integrations.lightning import LogMetrics, StageMetrics

Lists = Tuple[torch.Tensor, torch.Tensor, torch.Tensor]  # features (Q, N, F), relevance (Q, N), mask (Q, N)
MSLR_FILES = ("msn1.fold1.train.5k.txt", "msn1.fold1.test.5k.txt")


# ------------------------------------------------------------------------------------------------------ data
def cache_dir() -> str:
    return os.environ.get("TML_CACHE", os.path.join(os.path.expanduser("~"), ".cache", "torchmetrics_lite"))


def fetch_mslr_sample(timeout: float = 30.0) -> Optional[Tuple[str, str]]:
    """Paths of the cached MSLR sample files, downloading rankeval's sdist from PyPI once; None if unreachable."""
    folder = os.path.join(cache_dir(), "mslr_5k")
    paths = tuple(os.path.join(folder, name) for name in MSLR_FILES)
    if all(os.path.exists(p) for p in paths):
        return paths  # type: ignore[return-value]
    try:
        meta = json.load(urllib.request.urlopen("https://pypi.org/pypi/rankeval/json", timeout=timeout))
        sdist = next(u["url"] for u in meta["urls"] if u["packagetype"] == "sdist")
        archive = tarfile.open(fileobj=io.BytesIO(urllib.request.urlopen(sdist, timeout=timeout).read()))
        os.makedirs(folder, exist_ok=True)
        for member in archive.getmembers():
            name = os.path.basename(member.name)
            if name in MSLR_FILES and "/test/data/" in member.name:
                with open(os.path.join(folder, name), "wb") as f:
                    f.write(archive.extractfile(member).read())  # type: ignore[union-attr]
    except Exception as err:  # network, registry or archive problems all mean "fall back"
        print(f"[train_ranker] could not fetch the MSLR sample from PyPI ({type(err).__name__}: {err})")
        return None
    return paths if all(os.path.exists(p) for p in paths) else None  # type: ignore[return-value]


def parse_svmlight(path: str, n_features: int = 136) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(features, relevance, query id) of an SVMlight / LETOR file (``rel qid:Q 1:v 2:v ...``)."""
    rows, rels, qids = [], [], []
    with open(path) as f:
        for line in f:
            parts = line.split("#", 1)[0].split()
            if not parts:
                continue
            x = np.zeros(n_features, dtype=np.float32)
            for item in parts[2:]:
                j, v = item.split(":")
                x[int(j) - 1] = float(v)
            rows.append(x)
            rels.append(float(parts[0]))
            qids.append(int(parts[1].split(":")[1]))
    return np.stack(rows), np.asarray(rels, dtype=np.float32), np.asarray(qids)


def parse_cached(path: str) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``parse_svmlight`` once, then from a .npz beside the text file."""
    cached = path + ".npz"
    if not os.path.exists(cached):
        x, rel, qid = parse_svmlight(path)
        np.savez(cached, x=x, rel=rel, qid=qid)
    with np.load(cached) as f:
        return f["x"], f["rel"], f["qid"]


def to_lists(x: np.ndarray, rel: np.ndarray, qid: np.ndarray) -> Lists:
    """Pad the rows of each query into a (queries, items) block with a boolean mask (vectorised)."""
    _, query, counts = np.unique(qid, return_inverse=True, return_counts=True)
    order = np.argsort(query, kind="stable")
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    position = np.arange(len(order)) - np.repeat(starts, counts)
    q, n = len(counts), int(counts.max())
    feats = torch.zeros(q, n, x.shape[1])
    relevance = torch.zeros(q, n)
    mask = torch.zeros(q, n, dtype=torch.bool)
    qi, pi = torch.from_numpy(query[order]), torch.from_numpy(position)
    feats[qi, pi] = torch.from_numpy(x[order])
    relevance[qi, pi] = torch.from_numpy(rel[order])
    mask[qi, pi] = True
    return feats, relevance, mask


def synthetic_lists(n_queries: int, n_items: int = 60, n_features: int = 20, seed: int = 0) -> Lists:
    """Graded labels 0-4 from a hidden linear model plus noise."""
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(n_features, generator=g)
    x = torch.randn(n_queries, n_items, n_features, generator=g)
    latent = x @ w / n_features ** 0.5 + 0.5 * torch.randn(n_queries, n_items, generator=g)
    rel = torch.bucketize(latent, torch.tensor([0.0, 0.7, 1.3, 2.0])).float()
    return x, rel, torch.ones(n_queries, n_items, dtype=torch.bool)


def standardise(train: Lists, test: Lists) -> Tuple[Lists, Lists]:
    """sign(x) log1p(|x|), then z-scores with the training rows' mean and std (MSLR features are heavy-tailed)."""
    def squash(t: torch.Tensor) -> torch.Tensor:
        return torch.sign(t) * torch.log1p(t.abs())

    rows = squash(train[0][train[2]])
    mean, std = rows.mean(0), rows.std(0).clamp_min(1e-6)
    return tuple(((squash(d[0]) - mean) / std * d[2][..., None], d[1], d[2]) for d in (train, test))  # type: ignore


def load_data(synthetic: bool = False) -> Tuple[Lists, Lists, str]:
    paths = None if synthetic else fetch_mslr_sample()
    if paths is None:
        if not synthetic:
            print("[train_ranker] falling back to a synthetic learning-to-rank set")
        train, test = synthetic_lists(200, seed=0), synthetic_lists(100, seed=1)
        name = "synthetic (hidden linear model)"
    else:
        train, test = (to_lists(*parse_cached(p)) for p in paths)
        name = "MSLR-WEB10K fold 1, 5k-row samples (rankeval)"
    train, test = standardise(train, test)
    return train, test, name


# ----------------------------------------------------------------------------------------------------- model
class Ranker(pl.LightningModule):
    """A linear scorer trained on whole lists with a ranking loss ("lambdarank", "approx_ndcg") or pointwise MSE."""

    def __init__(self, n_features: int, loss: str = "lambdarank", lr: float = 0.05) -> None:
        super().__init__()
        self.loss_name, self.lr = loss, lr
        torch.manual_seed(0)
        self.scorer = torch.nn.Linear(n_features, 1)
        self.metrics = StageMetrics(MetricCollection({
            "ndcg@10": RetrievalNormalizedDCG(k=10), "map": RetrievalMAP(), "mrr": RetrievalMRR(),
        }), stages=("val",))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.scorer(x).squeeze(-1)

    def training_step(self, batch, batch_idx):
        x, rel, mask = batch
        scores = self(x)
        if self.loss_name == "lambdarank":
            loss = losses.lambdarank_loss(scores, rel, mask=mask, k=10)
        elif self.loss_name == "approx_ndcg":
            loss = losses.approx_ndcg_loss(scores, rel, mask=mask, temperature=0.1)
        else:
            loss = ((scores - rel) ** 2)[mask].mean()
        self.log("train/loss", loss, prog_bar=True, on_step=False, on_epoch=True)
        return loss

    def validation_step(self, batch, batch_idx):
        x, rel, mask = batch
        self.metrics["val"].update(self(x), rel, mask=mask)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.lr)


def batches(data: Lists, size: int, shuffle: bool = False) -> DataLoader:
    """Batches of ``size`` lists, each taken from the prebuilt tensors by one index per tensor (a batch sampler, no
    per-list collation: stacking the lists one by one cost more than the training); reshuffled each epoch."""
    dataset = TensorDataset(*data)
    order = RandomSampler(dataset) if shuffle else SequentialSampler(dataset)
    return DataLoader(dataset, sampler=BatchSampler(order, size, drop_last=False), batch_size=None)


def train(loss: str, train_data: Lists, test_data: Lists, epochs: int) -> Dict[str, float]:
    """Fit one ranker; returns its held-out metrics of the last epoch (and keeps the per-epoch history)."""
    logger = LogMetrics(prog_bar=False)
    trainer = pl.Trainer(accelerator="cpu", devices=1, max_epochs=epochs, logger=False, enable_checkpointing=False,
                         enable_progress_bar=False, enable_model_summary=False, num_sanity_val_steps=0,
                         callbacks=[logger])
    model = Ranker(train_data[0].shape[-1], loss=loss)
    trainer.fit(model, batches(train_data, 64, shuffle=True), batches(test_data, 256))
    return {k.split("/", 1)[1]: v[-1] for k, v in logger.history.items()}


def main(epochs: int = 30, synthetic: bool = False, verbose: bool = True) -> Dict[str, Dict[str, float]]:
    torch.set_num_threads(1)  # small ops: a second thread only waits, and on a busy machine it costs 10x
    train_data, test_data, name = load_data(synthetic)
    if verbose:
        q, n = train_data[2].shape
        print(f"[train_ranker] data: {name}; train {q} queries, test {test_data[2].shape[0]} queries (<= {n} items)")
    results = {label: train(loss, train_data, test_data, epochs)
               for label, loss in (("LambdaRank@10", "lambdarank"), ("MSE (pointwise baseline)", "mse"))}
    if verbose:
        print(f"{'loss':26s} {'NDCG@10':>8s} {'MAP':>8s} {'MRR':>8s}   (held-out, exact)")
        for label, r in results.items():
            print(f"{label:26s} {r['ndcg@10']:8.4f} {r['map']:8.4f} {r['mrr']:8.4f}")
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--synthetic", action="store_true", help="skip the download and use synthetic data")
    args = parser.parse_args()
    main(epochs=args.epochs, synthetic=args.synthetic)
