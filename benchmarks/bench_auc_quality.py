"""Imbalanced classification quality: every AUC / AP / partial-AUC surrogate of ``losses`` with its published
recipe, against BCE and against LibAUC 2.0.1's implementation of the same loss, judged by exact held-out metrics.

Data (generated, not shipped): ``d = 16`` standard normal features; a fixed nonlinear teacher (a 16-32-32-1 tanh
MLP with seed 0) plus Gaussian label noise (0.7 sd of the teacher's output) gives a latent score, and the top
``rate`` of it is the positive class (1% and 5% positives; the threshold is the latent score's quantile on 200,000
draws). The noise keeps the task from being separable: the teacher's own (noiseless) output, the best any model can do,
reaches a held-out AUROC of about 0.975 at 1% and 0.96 at 5% positives (its row in the tables). The data are
drawn once (seed 0: 20,000 training and 20,000 test rows); each of the 5 seeds draws the initialisation and the
batch order, so the sd is the spread of training, and "vs BCE" also gives the paired difference (the same seed).

Model and budget: an MLP 16-64-64-1 (ReLU), mini-batches of 128, the same number of steps for every loss
(``--epochs`` passes of 156 steps: 6 by default). Recipes (LibAUC's papers and examples):

* BCE: Adam (lr 1e-3) over shuffled batches for all epochs. "BCE, oversampled": the same with the surrogates'
  batches (below), to show what the sampler alone does.
* every surrogate: cross-entropy pretraining (the first half of the epochs, BCE's own model at that point, shared),
  then the second half with batches of a fixed positive share (LibAUC's ``DualSampler``: 50% positives, cycling
  through shuffled positives and negatives), on ``sigmoid(score)`` as LibAUC does:
  - AUC-M: PESG (lr 0.1, momentum 0.9 in LibAUC's convention, epoch_decay 3e-3, weight_decay 1e-4), margin 1, the
    lr divided by 10 with a reference-point update at 50% and 75% of the phase;
  - compositional AUC: PDSCA (lr 0.1, beta1 = beta2 = 0.9, epoch_decay 1e-2, weight_decay 1e-4), k = 1, the same
    schedule;
  - SOAP (AP), pAUC by KL-DRO, pAUC by CVaR (FPR <= 0.1), two-way pAUC (KL): Adam (lr 1e-3, weight_decay 1e-4) on
    gradients clipped elementwise at 1 (LibAUC's SOAP / SOPA / SOPA-s / SOTA-s optimizers in their Adam mode are
    that rule), gamma 0.9, margin 1 (SOAP's margin 0.6 as in its example);
  - the stateless ``soft_auc_loss`` (squared hinge) and ``partial_auc_loss`` (FPR <= 0.1) on raw scores with Adam.
  Our losses and LibAUC's get the same data, model, pretraining, batches, optimizer settings and seeds.

Metrics (held-out, exact, ``torchmetrics_lite.functional``): AUROC, average precision, partial AUROC up to
FPR 0.1 (McClish-standardised, as scikit-learn) and F1 at the best threshold (the maximum over the PR curve).
Each surrogate is judged on the metric it targets: AUROC (AUC-M, compositional, soft-AUC), AP (SOAP), pAUROC
(the partial-AUC losses; the two-way loss too, there being no two-way metric in the library).

LibAUC is installed without dependencies and its loss and optimizer files are loaded by path (the package's
``__init__`` imports its whole model zoo); nothing of it is vendored. Without it the LibAUC rows are left out.
``--speed`` times each stateful loss forward + backward at 1e5 scores against LibAUC's and checks that both give
the same values and gradients on the same inputs.

Install: pip install --no-deps libauc==2.0.1
Run: python -m benchmarks.bench_auc_quality [--epochs 6] [--seeds 5] [--share 0.5] [--only NAME ...] [--quick] [--speed]
"""
from __future__ import annotations

import argparse
import copy
import importlib.util
import os
import statistics
import sys
import time
import types
from typing import Any, Callable

import torch
import torch.nn.functional as F

import losses
from benchmarks._auc_agreement import clipped_adam
from losses.optim import PDSCA, PESG
from torchmetrics_lite.functional import binary_auroc, binary_average_precision, binary_precision_recall_curve

MAX_FPR = 0.1
DIM = 16
BATCH = 128


# ------------------------------------------------------------------------------------------------ LibAUC


def load_libauc() -> dict[str, types.ModuleType] | None:
    """LibAUC's loss and optimizer files loaded by path, or None when it is not installed."""
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
                                                                                     "check_tensor_shape",
                                                                                     "concat_all_gather")})
        load("libauc.losses.surrogate", "losses/surrogate.py")
        return {"auc": load("libauc.losses.auc", "losses/auc.py"),
                "ranking": load("libauc.losses.ranking", "losses/ranking.py"),
                "pesg": load("libauc.optimizers.pesg", "optimizers/pesg.py"),
                "pdsca": load("libauc.optimizers.pdsca", "optimizers/pdsca.py"),
                "soap": load("libauc.optimizers.soap", "optimizers/soap.py")}
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


# -------------------------------------------------------------------------------------------------- data


def teacher() -> torch.nn.Module:
    g = torch.Generator().manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(DIM, 32), torch.nn.Tanh(), torch.nn.Linear(32, 32), torch.nn.Tanh(),
                              torch.nn.Linear(32, 1))
    with torch.no_grad():
        for p in net.parameters():
            p.copy_(torch.randn(p.shape, generator=g) * (2.0 / p.shape[-1] ** 0.5 if p.dim() > 1 else 0.5))
    return net


def _latent(net: torch.nn.Module, n: int, g: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    x = torch.randn(n, DIM, generator=g)
    with torch.no_grad():
        z = net(x).squeeze(-1)
    return x, z + 0.7 * torch.randn(n, generator=g)  # noise sd 0.7 (the teacher's output has sd about 1)


_CUTS: dict[float, tuple[torch.nn.Module, torch.Tensor]] = {}


def make_task(rate: float, seed: int, n_train: int, n_test: int):
    """``((x_train, y_train), (x_test, y_test))`` with ``rate`` positives, drawn with ``seed``."""
    if rate not in _CUTS:
        net = teacher()
        _, z_ref = _latent(net, 200_000, torch.Generator().manual_seed(12345))
        _CUTS[rate] = net, torch.quantile(z_ref, 1.0 - rate)
    net, cut = _CUTS[rate]
    g = torch.Generator().manual_seed(1000 + seed)
    out = []
    for n in (n_train, n_test):
        x, z = _latent(net, n, g)
        out.append((x, (z > cut).float()))
    return tuple(out)


def shuffled_batches(n: int, steps: int, g: torch.Generator):
    perm, at = torch.randperm(n, generator=g), 0
    for _ in range(steps):
        if at + BATCH > n:
            perm, at = torch.randperm(n, generator=g), 0
        yield perm[at:at + BATCH]
        at += BATCH


def dual_batches(y: torch.Tensor, steps: int, g: torch.Generator, share: float = 0.5):
    """Batches of ``BATCH`` rows with ``round(share * BATCH)`` positives (LibAUC's DualSampler)."""
    pos, neg = torch.nonzero(y == 1).squeeze(1), torch.nonzero(y == 0).squeeze(1)
    n_pos = round(share * BATCH)
    streams = []
    for ids, k in ((pos, n_pos), (neg, BATCH - n_pos)):
        streams.append([ids[torch.randperm(len(ids), generator=g)], 0, k, ids])
    for _ in range(steps):
        parts = []
        for s in streams:
            order, at, k, ids = s
            if at + k > len(order):
                order, at = torch.cat([order[at:], ids[torch.randperm(len(ids), generator=g)]]), 0
                s[0] = order
            parts.append(order[at:at + k])
            s[1] = at + k
        yield torch.cat(parts)


# ------------------------------------------------------------------------------------------------ models


def mlp(seed: int) -> torch.nn.Module:
    torch.manual_seed(seed)
    return torch.nn.Sequential(torch.nn.Linear(DIM, 64), torch.nn.ReLU(), torch.nn.Linear(64, 64), torch.nn.ReLU(),
                               torch.nn.Linear(64, 1))


def bce_phase(model, data, steps, g, batches=None):
    x, y = data
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for idx in (batches if batches is not None else shuffled_batches(len(y), steps, g)):
        opt.zero_grad()
        F.binary_cross_entropy_with_logits(model(x[idx]).squeeze(-1), y[idx]).backward()
        opt.step()
    return model


def _groups(model, loss_fn, **no_decay):
    return [{"params": list(model.parameters())}, {"params": list(loss_fn.parameters()), **no_decay}]


def setup(name: str, model: torch.nn.Module, n: int, lib: dict[str, Any] | None):
    """``(loss of (score, target, index), optimizer, schedule hook(fraction))`` of one method."""
    cpu = torch.device("cpu")
    hook: Callable[[float], None] = lambda frac: None  # noqa: E731
    if name in ("AUC-M", "LibAUC AUC-M"):
        if name == "AUC-M":
            loss_fn = losses.AUCMLoss(margin=1.0)
            opt = PESG(_groups(model, loss_fn, weight_decay=0.0, epoch_decay=0.0), lr=0.1, momentum=0.9,
                       epoch_decay=3e-3, weight_decay=1e-4)
        else:
            loss_fn = lib["auc"].AUCMLoss(margin=1.0, device=cpu)
            opt = lib["pesg"].PESG(model.parameters(), loss_fn=loss_fn, lr=0.1, momentum=0.9, epoch_decay=3e-3,
                                   weight_decay=1e-4, verbose=False, device=cpu)
        fn = lambda s, y, i: loss_fn(torch.sigmoid(s), y)  # noqa: E731
    elif name in ("compositional AUC", "LibAUC compositional AUC"):
        if name == "compositional AUC":
            loss_fn = losses.CompositionalAUCLoss(k=1, margin=1.0)
            opt = PDSCA(_groups(model, loss_fn, weight_decay=0.0, epoch_decay=0.0), loss_fn, lr=0.1, beta1=0.9,
                        beta2=0.9, epoch_decay=1e-2, weight_decay=1e-4)
        else:
            loss_fn = lib["auc"].CompositionalAUCLoss(margin=1.0, k=1, device=cpu)
            opt = lib["pdsca"].PDSCA(model.parameters(), loss_fn=loss_fn, lr=0.1, beta1=0.9, beta2=0.9,
                                     epoch_decay=1e-2, weight_decay=1e-4, verbose=False, device=cpu)
        fn = lambda s, y, i: loss_fn(torch.sigmoid(s), y)  # noqa: E731
    elif name in ("soft-AUC (sq. hinge)", f"partial AUC (FPR <= {MAX_FPR})"):
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        if name.startswith("soft"):
            fn = lambda s, y, i: losses.soft_auc_loss(s, y, surrogate="squared_hinge")  # noqa: E731
        else:
            fn = lambda s, y, i: losses.partial_auc_loss(s, y, max_fpr=MAX_FPR)  # noqa: E731
        return fn, opt, hook
    else:
        ours = not name.startswith("LibAUC")
        base = name.replace("LibAUC ", "")
        if base == "SOAP":
            loss_fn = losses.SOAPLoss(n, margin=0.6) if ours else lib["auc"].APLoss(data_len=n, margin=0.6, device=cpu)
        elif base == "pAUC KL-DRO":
            loss_fn = losses.PartialAUCDROLoss(n) if ours else lib["auc"].pAUC_DRO_Loss(data_len=n, device=cpu)
        elif base == "pAUC CVaR":
            loss_fn = (losses.PartialAUCCVaRLoss(n, max_fpr=MAX_FPR) if ours else
                       lib["auc"].pAUC_CVaR_Loss(data_len=n, pos_len=0, beta=MAX_FPR, device=cpu))
        else:
            loss_fn = (losses.TwoWayPartialAUCLoss(n) if ours else
                       lib["auc"].tpAUC_KL_Loss(data_len=n, device=cpu))
        opt = clipped_adam(model.parameters())
        fn = lambda s, y, i: loss_fn(torch.sigmoid(s), y, i)  # noqa: E731
        return fn, opt, hook
    if isinstance(opt, (PESG, PDSCA)):
        hook = lambda frac: opt.update_regularizer(decay_factor=10.0)  # noqa: E731
    else:
        hook = lambda frac: opt.update_regularizer(decay_factor=10)  # noqa: E731
    return fn, opt, hook


def surrogate_phase(name, model, data, steps, g, lib, share=0.5):
    x, y = data
    fn, opt, hook = setup(name, model, len(y), lib)
    marks = {steps // 2, (3 * steps) // 4}
    for step, idx in enumerate(dual_batches(y, steps, g, share)):
        if step in marks:
            hook(step / steps)
        opt.zero_grad()
        fn(model(x[idx]).squeeze(-1), y[idx], idx).backward()
        opt.step()
    return model


# ------------------------------------------------------------------------------------------------ judging


def judge(model, data) -> dict[str, float]:
    x, y = data
    with torch.no_grad():
        s = model(x).squeeze(-1)
    t = y.long()
    precision, recall, _ = binary_precision_recall_curve(s, t)
    f1 = (2 * precision * recall / (precision + recall).clamp_min(1e-12)).max()
    return {"AUROC": binary_auroc(s, t).item(), "AP": binary_average_precision(s, t).item(),
            f"pAUROC@{MAX_FPR}": binary_auroc(s, t, max_fpr=MAX_FPR).item(), "F1*": f1.item()}


OURS = ["AUC-M", "compositional AUC", "SOAP", "pAUC KL-DRO", "pAUC CVaR", "two-way pAUC KL",
        "soft-AUC (sq. hinge)", f"partial AUC (FPR <= {MAX_FPR})"]
WITH_LIBAUC = ["AUC-M", "compositional AUC", "SOAP", "pAUC KL-DRO", "pAUC CVaR", "two-way pAUC KL"]
TARGET = {"AUC-M": "AUROC", "compositional AUC": "AUROC", "soft-AUC (sq. hinge)": "AUROC", "SOAP": "AP",
          "pAUC KL-DRO": f"pAUROC@{MAX_FPR}", "pAUC CVaR": f"pAUROC@{MAX_FPR}",
          "two-way pAUC KL": f"pAUROC@{MAX_FPR}", f"partial AUC (FPR <= {MAX_FPR})": f"pAUROC@{MAX_FPR}"}
METRICS = ("AUROC", "AP", f"pAUROC@{MAX_FPR}", "F1*")


def run_task(rate, seeds, epochs, n, lib, methods, share=0.5):
    per_epoch = n // BATCH
    half = epochs * per_epoch // 2
    rows: dict[str, list[dict[str, float]]] = {}
    secs: dict[str, float] = {}
    train, test = make_task(rate, 0, n, n)
    rows["teacher (ceiling)"] = [judge(lambda x: _CUTS[rate][0](x), test)]
    for seed in range(seeds):
        start = time.perf_counter()
        pre = bce_phase(mlp(seed), train, half, torch.Generator().manual_seed(seed))
        secs["pretraining"] = secs.get("pretraining", 0.0) + time.perf_counter() - start
        for name in ["BCE", "BCE, oversampled"] + methods:
            start = time.perf_counter()
            model = copy.deepcopy(pre)
            g = torch.Generator().manual_seed(10_000 + seed)  # the same second-phase batches for every method
            if name == "BCE":
                bce_phase(model, train, half, g)
            elif name == "BCE, oversampled":
                bce_phase(model, train, half, g, batches=dual_batches(train[1], half, g, share))
            else:
                surrogate_phase(name, model, train, half, g, lib, share)
            rows.setdefault(name, []).append(judge(model, test))
            secs[name] = secs.get(name, 0.0) + time.perf_counter() - start
    return rows, secs


def _stat(values):
    return statistics.mean(values), (statistics.stdev(values) if len(values) > 1 else 0.0)


def report(title, rows, secs, seeds, lib):
    lines = [f"**{title}**", "", "| loss | " + " | ".join(METRICS) + " | judged on | vs BCE | vs LibAUC | s/run |",
             "|---|" + "---:|" * len(METRICS) + "---|---|---|---:|"]
    for name, runs in rows.items():
        stats = {m: _stat([r[m] for r in runs]) for m in METRICS}
        cells = [f"{mu:.4f} +- {sd:.4f}" if len(runs) > 1 else f"{mu:.4f}" for mu, sd in stats.values()]
        base = name.replace("LibAUC ", "")
        target = TARGET.get(base, "")
        vs_bce = vs_lib = ""
        if target:
            mu, sd = stats[target]
            b_mu, b_sd = _stat([r[target] for r in rows["BCE"]])
            d_mu, d_sd = _stat([r[target] - b[target] for r, b in zip(runs, rows["BCE"])])
            vs_bce = (f"{mu - b_mu:+.4f} ({'**wins**' if mu - b_mu > max(sd, b_sd) else 'no win'} by 1 sd; "
                      f"paired {d_mu:+.4f} +- {d_sd:.4f})")
            if not name.startswith("LibAUC") and f"LibAUC {name}" in rows:
                l_mu, l_sd = _stat([r[target] for r in rows[f"LibAUC {name}"]])
                vs_lib = f"{mu - l_mu:+.4f} ({'not worse' if mu - l_mu >= -max(sd, l_sd) else 'worse'})"
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {target} | {vs_bce} | {vs_lib} | "
                     f"{secs.get(name, 0.0) / seeds:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--n", type=int, default=20_000, help="training (and test) rows per seed")
    parser.add_argument("--quick", action="store_true", help="a smoke test: 2,000 rows, 2 epochs, 2 seeds")
    parser.add_argument("--speed", action="store_true", help="only the fwd+bwd timing against LibAUC")
    parser.add_argument("--share", type=float, default=0.5, help="positive share of the surrogates' batches")
    parser.add_argument("--only", nargs="*", help="the methods to run (names as in the tables; BCE always runs)")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    lib = load_libauc()
    print(f"torch {torch.__version__}, 1 thread; LibAUC {'loaded by path' if lib else 'not installed'}")
    if args.speed:
        if lib is None:
            raise SystemExit("--speed compares against LibAUC: pip install --no-deps libauc==2.0.1")
        from benchmarks._auc_agreement import agreement, speed

        speed(lib)
        agreement(lib)
        return
    if args.quick:
        args.epochs, args.seeds, args.n = 2, 2, 2_000
    methods = list(OURS)
    if lib is not None:
        for name in WITH_LIBAUC:
            methods.insert(methods.index(name) + 1, f"LibAUC {name}")
    if args.only:
        methods = [m for m in methods if m in args.only]
    for rate in (0.01, 0.05):
        start = time.perf_counter()
        rows, secs = run_task(rate, args.seeds, args.epochs, args.n, lib, methods, args.share)
        title = (f"{rate:.0%} positives: teacher MLP task, {args.n} train / {args.n} test rows, MLP 16-64-64-1, "
                 f"{args.epochs} epochs of batches of {BATCH} (surrogates: CE for the first half, then "
                 f"{args.share:.0%} positives), {args.seeds} "
                 f"seeds, mean +- sd ({time.perf_counter() - start:.0f} s)")
        print(report(title, rows, secs, args.seeds, lib) + "\n", flush=True)


if __name__ == "__main__":
    main()
