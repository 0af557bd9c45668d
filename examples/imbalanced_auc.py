"""Imbalanced classification: BCE against two AUC surrogates (soft-AUC, AUC-M), judged by exact held-out metrics.

Data: scikit-learn's breast-cancer set with the malignant class subsampled to 5% positives. A linear model on
standardised features is trained full-batch with each loss. Scores are mapped to probabilities with a
:class:`~torchmetrics_lite.calibrators.PlattScaler` fitted on the training split (AUC losses only fix the order
of the scores), then the exact held-out AUROC, average precision, F1 at 0.5 and ECE are reported. Three PNG
figures, every model overlaid: ``roc.png``, ``precision_recall.png`` and ``reliability.png``.

Run: python examples/imbalanced_auc.py [--out DIR] [--steps N]
"""
from __future__ import annotations

import argparse
import os
from typing import Dict, Tuple

import torch

import losses
from torchmetrics_lite.calibrators import PlattScaler
from torchmetrics_lite.functional import (
    binary_auroc,
    binary_average_precision,
    binary_calibration_error,
    binary_f1_score,
    binary_precision_recall_curve,
    binary_roc,
)

Split = Tuple[torch.Tensor, torch.Tensor]


def load_data(pos_fraction: float = 0.05, seed: int = 0) -> Tuple[Split, Split]:
    """Breast cancer (malignant = positive) with positives subsampled; a stratified 60/40 split."""
    from sklearn.datasets import load_breast_cancer

    data = load_breast_cancer()
    x = torch.tensor(data.data, dtype=torch.float32)
    y = torch.tensor(data.target == 0, dtype=torch.float32)  # 0 is "malignant" in scikit-learn's coding
    g = torch.Generator().manual_seed(seed)
    pos, neg = torch.nonzero(y == 1).squeeze(1), torch.nonzero(y == 0).squeeze(1)
    n_pos = round(pos_fraction / (1 - pos_fraction) * len(neg))
    pos = pos[torch.randperm(len(pos), generator=g)[:n_pos]]
    parts = []
    for idx in (pos, neg[torch.randperm(len(neg), generator=g)]):
        cut = round(0.6 * len(idx))
        parts.append((idx[:cut], idx[cut:]))
    train_idx = torch.cat([parts[0][0], parts[1][0]])
    test_idx = torch.cat([parts[0][1], parts[1][1]])
    mean, std = x[train_idx].mean(0), x[train_idx].std(0).clamp_min(1e-6)
    x = (x - mean) / std
    return (x[train_idx], y[train_idx]), (x[test_idx], y[test_idx])


def train(loss: str, data: Split, steps: int, seed: int = 0) -> torch.nn.Module:
    """Full-batch training of a linear scorer with ``loss`` in {"bce", "soft_auc", "aucm"}."""
    x, y = data
    torch.manual_seed(seed)
    model = torch.nn.Linear(x.shape[1], 1)
    if loss == "aucm":
        aucm = losses.AUCMLoss(imratio=float(y.mean()))
        opt = torch.optim.SGD(list(model.parameters()) + list(aucm.parameters()), lr=0.1)
    else:
        opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for _ in range(steps):
        opt.zero_grad()
        scores = model(x).squeeze(-1)
        if loss == "bce":
            value = torch.nn.functional.binary_cross_entropy_with_logits(scores, y)
        elif loss == "soft_auc":
            value = losses.soft_auc_loss(scores, y, surrogate="squared_hinge", margin=1.0)
        else:
            value = aucm(torch.sigmoid(scores), y)
        value.backward()
        opt.step()
    return model


def evaluate(model: torch.nn.Module, train_data: Split, test_data: Split) -> Dict[str, object]:
    with torch.no_grad():
        train_scores = model(train_data[0]).squeeze(-1)
        scores = model(test_data[0]).squeeze(-1)
    target = test_data[1].long()
    probs = PlattScaler().fit(train_scores, train_data[1].long()).predict_proba(scores)
    return {
        "auroc": binary_auroc(scores, target).item(),
        "ap": binary_average_precision(scores, target).item(),
        "f1": binary_f1_score(probs, target).item(),
        "ece": binary_calibration_error(probs, target, n_bins=10).item(),
        "scores": scores, "probs": probs, "target": target,
    }


#: the demo's figures, one per kind, every model overlaid
PLOT_FILES = ("roc.png", "precision_recall.png", "reliability.png")


def save_plots(results: Dict[str, Dict[str, object]], out_dir: str) -> None:
    """One figure per kind (ROC, precision-recall, reliability of the Platt-scaled probabilities), with every
    model of ``results`` (name -> :func:`evaluate` output) overlaid."""
    from torchmetrics_lite import plot

    roc_ax = pr_ax = rel_ax = None
    for name, result in results.items():
        scores, probs, target = result["scores"], result["probs"], result["target"]
        fpr, tpr, _ = binary_roc(scores, target)
        precision, recall, _ = binary_precision_recall_curve(scores, target)
        roc_ax = plot.plot_roc_curve(fpr, tpr, auc=result["auroc"], label=name, ax=roc_ax,
                                     title="ROC, held-out split")
        pr_ax = plot.plot_precision_recall_curve(precision, recall, average_precision=result["ap"], label=name,
                                                 ax=pr_ax, title="Precision-recall, held-out split")
        rel_ax = plot.plot_reliability_diagram(probs, target, n_bins=10, label=name, ax=rel_ax,
                                               title="Reliability (Platt-scaled), held-out split")
    for ax, file in zip((roc_ax, pr_ax, rel_ax), PLOT_FILES):
        plot.save(ax, os.path.join(out_dir, file))


def main(out_dir: str = "demo_output", steps: int = 300, verbose: bool = True) -> Dict[str, Dict[str, float]]:
    import matplotlib

    matplotlib.use("Agg")
    torch.set_num_threads(max(1, min(2, torch.get_num_threads())))
    train_data, test_data = load_data()
    os.makedirs(out_dir, exist_ok=True)
    if verbose:
        print(f"[imbalanced_auc] breast cancer, positives subsampled: train {len(train_data[1])} "
              f"({int(train_data[1].sum())} positive), test {len(test_data[1])} ({int(test_data[1].sum())} positive)")
    results, curves = {}, {}
    for name, loss in (("BCE", "bce"), ("soft-AUC", "soft_auc"), ("AUC-M", "aucm")):
        result = evaluate(train(loss, train_data, steps), train_data, test_data)
        curves[name] = result
        results[name] = {k: v for k, v in result.items() if isinstance(v, float)}
    save_plots(curves, out_dir)
    if verbose:
        print(f"{'loss':10s} {'AUROC':>7s} {'AP':>7s} {'F1':>7s} {'ECE':>7s}   (held-out, exact; F1/ECE after Platt)")
        for name, r in results.items():
            print(f"{name:10s} {r['auroc']:7.4f} {r['ap']:7.4f} {r['f1']:7.4f} {r['ece']:7.4f}")
        print(f"[imbalanced_auc] plots written to {os.path.abspath(out_dir)}")
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="demo_output", help="folder for the PNG plots")
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()
    main(out_dir=args.out, steps=args.steps)
