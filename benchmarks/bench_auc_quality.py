"""Imbalanced-classification quality: the AUC losses (ours beside LibAUC 2.0.1's ``AUCMLoss`` and
``pAUC_CVaR_Loss``, and BCE), judged by the exact held-out AUROC and partial AUROC of ``torchmetrics_lite``.

Data (each split 60/40, stratified, anew for each of 3 seeds; features standardised on the training rows):
1. scikit-learn's digits, digit 0 as the positive class (about 10% positives, 1,797 samples);
2. scikit-learn's breast cancer, the malignant class subsampled to 5% positives (375 samples);
3. ``make_classification`` with 1% positives at 50,000 samples (the demo's set, ``examples/imbalanced_auc.py``).

Every loss trains the same linear scorer full-batch for 300 steps. Optimisers: BCE, soft-AUC and the partial AUC
losses use Adam (lr 0.01); the AUC-M losses use projected SGD descent-ascent (ours: ``AUCMLoss`` with plain SGD,
LibAUC's: its PESG optimizer), both with the step ``0.05 / (p (1 - p))`` because the objective is scaled by
``p (1 - p)`` (``p`` the positive ratio). LibAUC's losses take ``sigmoid(scores)`` as its examples do; its
``pAUC_CVaR_Loss`` (one-way pAUC, FPR <= 0.3) keeps a dual variable per positive, indexed by sample.

LibAUC is installed without dependencies and its loss and optimizer files are loaded by path (the package's
``__init__`` imports its whole model zoo); nothing of it is vendored.

Install: pip install --no-deps libauc==2.0.1
Run: python -m benchmarks.bench_auc_quality [--steps 300] [--seeds 3]
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
import types
from typing import Callable

import torch
import torch.nn.functional as F

import losses
from torchmetrics_lite.functional import binary_auroc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples"))
import imbalanced_auc

Split = tuple[torch.Tensor, torch.Tensor]
MAX_FPR = 0.3


def load_libauc() -> dict[str, types.ModuleType] | None:
    """LibAUC's ``losses/auc.py`` and ``optimizers/pesg.py`` loaded by path, or None when it is not installed."""
    spec = importlib.util.find_spec("libauc")
    if spec is None or not spec.submodule_search_locations:
        return None
    root = next(iter(spec.submodule_search_locations))
    saved = {name: sys.modules.get(name) for name in ("libauc", "libauc.utils", "libauc.losses", "libauc.optimizers")}
    try:
        for name in saved:
            module = types.ModuleType(name)
            module.__path__ = []
            sys.modules[name] = module

        def load(name: str, rel: str) -> types.ModuleType:
            s = importlib.util.spec_from_file_location(name, os.path.join(root, rel))
            module = importlib.util.module_from_spec(s)
            sys.modules[name] = module
            s.loader.exec_module(module)
            return module

        utils = load("libauc.utils.utils", "utils/utils.py")
        sys.modules["libauc.utils"].__dict__.update({k: getattr(utils, k) for k in ("is_distributed",
                                                                                     "check_tensor_shape")})
        load("libauc.losses.surrogate", "losses/surrogate.py")
        return {"auc": load("libauc.losses.auc", "losses/auc.py"), "pesg": load("libauc.optimizers.pesg",
                                                                                "optimizers/pesg.py")}
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def digits(seed: int) -> tuple[Split, Split]:
    from sklearn.datasets import load_digits

    x, y = load_digits(return_X_y=True)
    return imbalanced_auc.split(torch.tensor(x, dtype=torch.float32), torch.tensor(y == 0, dtype=torch.float32), seed)


DATASETS: dict[str, Callable[[int], tuple[Split, Split]]] = {
    "digits (digit 0 positive, ~10%)": digits,
    "breast cancer, 5% positives": lambda seed: imbalanced_auc.load_breast_cancer_data(0.05, seed),
    "make_classification, 1% of 50k": imbalanced_auc.load_data,
}


def train(name: str, data: Split, steps: int, seed: int, libauc: dict[str, types.ModuleType] | None
          ) -> torch.nn.Module:
    x, y = data
    torch.manual_seed(seed)
    model = torch.nn.Linear(x.shape[1], 1)
    p = float(y.mean())
    sgd_lr = 0.05 / (p * (1 - p))
    if name == "ours AUC-M":
        aucm = losses.AUCMLoss(imratio=p)
        opt = torch.optim.SGD(list(model.parameters()) + list(aucm.parameters()), lr=sgd_lr)
        def loss_fn(s):
            return aucm(torch.sigmoid(s), y)
    elif name == "LibAUC AUCMLoss (PESG)":
        aucm = libauc["auc"].AUCMLoss(imratio=p, device=torch.device("cpu"))
        opt = libauc["pesg"].PESG(model.parameters(), loss_fn=aucm, lr=sgd_lr, verbose=False,
                                  device=torch.device("cpu"))
        def loss_fn(s):
            return aucm(torch.sigmoid(s), y)
    else:
        opt = torch.optim.Adam(model.parameters(), lr=0.01)
        if name == "BCE":
            def loss_fn(s):
                return F.binary_cross_entropy_with_logits(s, y)
        elif name == "ours soft-AUC (squared hinge)":
            def loss_fn(s):
                return losses.soft_auc_loss(s, y, surrogate="squared_hinge")
        elif name == f"ours partial AUC (FPR <= {MAX_FPR})":
            def loss_fn(s):
                return losses.partial_auc_loss(s, y, max_fpr=MAX_FPR)
        else:
            pauc = libauc["auc"].pAUC_CVaR_Loss(data_len=len(y), pos_len=int(y.sum()), beta=MAX_FPR,
                                                device=torch.device("cpu"))
            index = torch.arange(len(y))
            def loss_fn(s):
                return pauc(torch.sigmoid(s), y, index)
    for _ in range(steps):
        opt.zero_grad()
        loss_fn(model(x).squeeze(-1)).backward()
        opt.step()
    return model


def names(libauc) -> list[str]:
    out = ["BCE", "ours soft-AUC (squared hinge)", "ours AUC-M", f"ours partial AUC (FPR <= {MAX_FPR})"]
    if libauc is not None:
        out[3:3] = ["LibAUC AUCMLoss (PESG)"]
        out.append(f"LibAUC pAUC_CVaR_Loss (FPR <= {MAX_FPR})")
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    libauc = load_libauc()
    print(f"torch {torch.__version__}, 1 thread; LibAUC {'loaded by path' if libauc else 'not installed'}")
    out = []
    for title, load in DATASETS.items():
        rows = {name: ([], [], 0.0) for name in names(libauc)}
        for seed in range(args.seeds):
            train_data, (x_test, y_test) = load(seed)
            for name, (auc, pauc, secs) in rows.items():
                start = time.perf_counter()
                model = train(name, train_data, args.steps, seed, libauc)
                with torch.no_grad():
                    s = model(x_test).squeeze(-1)
                auc.append(binary_auroc(s, y_test.long()).item())
                pauc.append(binary_auroc(s, y_test.long(), max_fpr=MAX_FPR).item())
                rows[name] = (auc, pauc, secs + time.perf_counter() - start)
        test_pos = int(load(0)[1][1].sum())
        lines = [f"**{title}** ({test_pos} test positives), {args.steps} full-batch steps, {args.seeds} seeds", "",
                 f"| loss | AUROC mean | sd | pAUROC@{MAX_FPR} (McClish) mean | sd | s per run |",
                 "|---|---:|---:|---:|---:|---:|"]
        for name, (auc, pauc, secs) in rows.items():
            lines.append(f"| {name} | {statistics.mean(auc):.4f} | {statistics.pstdev(auc):.4f} | "
                         f"{statistics.mean(pauc):.4f} | {statistics.pstdev(pauc):.4f} | {secs / args.seeds:.2f} |")
        out.append("\n".join(lines))
        print(out[-1] + "\n", flush=True)


if __name__ == "__main__":
    main()
