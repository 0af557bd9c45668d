"""Learning-to-rank quality: an MLP trained with each ranking loss, ours beside allRank 1.4.3's and LightGBM's
LambdaMART, judged by the exact held-out NDCG@10 (exponential gain, ``torchmetrics_lite.functional``).

Data:
1. the MSLR-WEB10K fold-1 5k-row samples the demo uses (43 train / 43 test queries, up to 308 items; fetched once
   from PyPI's rankeval sdist, see ``examples/train_ranker.py``), features squashed and standardised as the demo;
2. a larger synthetic set: 2,000 train / 500 test queries of 100 items whose feature rows are bootstrapped from the
   MSLR sample (training queries from its training rows, test queries from its test rows: the first version drew
   both from the training rows, and LightGBM then scored the test set perfectly by memorising rows), graded by a
   fixed random teacher network (136-32-1, tanh) binned to MSLR's label frequencies.

Every loss trains the same MLP (136-64-1, ReLU; Adam, lr 2e-3, 32 queries per batch) for the same number of
epochs, over 3 seeds. Each batch takes a random slate of at most 120 real items per query, in random order
(allRank's ``slate_length``; ties in relevance never follow the file order, and MSLR's lists of up to 308 items
stay affordable for the O(n^2) losses); evaluation ranks the whole test lists. The table gives the mean and the
population standard deviation over the seeds of the last epoch's NDCG@10, and the training time per run (the
machine was shared, so times are indicative).

allRank cannot be imported whole on a current torch (``allrank.models.losses`` pulls its data loader, which needs
an old torchvision, and its model utilities need gcsfs), but each loss file needs only torch. So allRank is
installed without dependencies and its loss files are loaded by path, with the two constants they read
(``PADDED_Y_VALUE = -1``, ``DEFAULT_EPS = 1e-10``) and ``get_torch_device`` (CPU) stood in. It pads with
relevance -1, which is what it gets here. Nothing of allRank is vendored.

Install: pip install --no-deps allRank==1.4.3 && pip install lightgbm
Run: python -m benchmarks.bench_ltr_quality [--epochs-mslr 30] [--epochs-synthetic 4] [--seeds 3] [--only NAMES]
     [--datasets mslr,synthetic]
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

import losses
from torchmetrics_lite.functional import retrieval_normalized_dcg

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples"))
import train_ranker

Lists = tuple[torch.Tensor, torch.Tensor, torch.Tensor]
LossFn = Callable[[torch.Tensor, torch.Tensor, torch.Tensor], torch.Tensor]


# ----------------------------------------------------------------------------------------------------- allRank
def load_allrank() -> dict[str, types.ModuleType] | None:
    """allRank's loss modules loaded by path (see the module docstring), or None when it is not installed."""
    spec = importlib.util.find_spec("allrank")
    if spec is None or not spec.submodule_search_locations:
        return None
    root = next(iter(spec.submodule_search_locations))
    stubs = {"allrank": {}, "allrank.data": {}, "allrank.data.dataset_loading": {"PADDED_Y_VALUE": -1},
             "allrank.models": {}, "allrank.models.losses": {"DEFAULT_EPS": 1e-10},
             "allrank.models.model_utils": {"get_torch_device": lambda: torch.device("cpu")}}
    saved = {name: sys.modules.get(name) for name in stubs}
    try:
        for name, attrs in stubs.items():
            module = types.ModuleType(name)
            module.__path__ = []  # a package, so that submodules resolve through sys.modules
            module.__dict__.update(attrs)
            sys.modules[name] = module

        def load(name: str, rel: str) -> types.ModuleType:
            s = importlib.util.spec_from_file_location(name, os.path.join(root, rel))
            module = importlib.util.module_from_spec(s)
            sys.modules[name] = module
            s.loader.exec_module(module)
            return module

        load("allrank.models.metrics", "models/metrics.py")
        load("allrank.models.losses.loss_utils", "models/losses/loss_utils.py")
        files = ("neuralNDCG", "listMLE", "listNet", "lambdaLoss", "approxNDCG", "rankNet")
        return {f: load(f"allrank.models.losses.{f}", f"models/losses/{f}.py") for f in files}
    finally:
        for name, module in saved.items():  # leave sys.modules as it was (the loaded modules keep their refs)
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def allrank_fn(fn: Callable, **kwargs) -> LossFn:
    """allRank's calling convention: padded relevance is -1, no mask."""
    def loss(scores, rel, mask):
        return fn(scores, torch.where(mask, rel, torch.full_like(rel, -1.0)), **kwargs)
    return loss


def ours(fn: Callable, **kwargs) -> LossFn:
    def loss(scores, rel, mask):
        return fn(scores, rel, mask=mask, validate_args=False, **kwargs)
    return loss


def loss_table(ar: dict[str, types.ModuleType] | None) -> dict[str, LossFn]:
    table = {
        "ours LambdaRank@10": ours(losses.lambdarank_loss, k=10, gain="exponential"),
        "ours NDCG-Loss2++@10": ours(losses.lambdarank_loss, k=10, weighting="ndcgloss2pp", gain="exponential"),
        "ours ApproxNDCG": ours(losses.approx_ndcg_loss, temperature=1.0, gain="exponential"),
        "ours NeuralNDCG@10": ours(losses.neural_ndcg_loss, k=10, temperature=1.0, gain="exponential"),
        "ours NeuralNDCG^T@10": ours(losses.neural_ndcg_loss, k=10, temperature=1.0, transposed=True,
                                     gain="exponential"),
        "ours ListMLE": ours(losses.listmle_loss),
        "ours Softmax": ours(losses.softmax_loss),
        "ours ListNet": ours(losses.listnet_loss),
        "ours RankNet": ours(losses.ranknet_loss),
    }
    if ar is not None:
        ll = ar["lambdaLoss"]
        table.update({
            "allRank LambdaRank@10": allrank_fn(ll.lambdaLoss, weighing_scheme="lambdaRank_scheme", k=10),
            "allRank NDCG-Loss2++@10": allrank_fn(ll.lambdaLoss, weighing_scheme="ndcgLoss2PP_scheme", k=10),
            "allRank ApproxNDCG": allrank_fn(ar["approxNDCG"].approxNDCGLoss, alpha=1.0),
            "allRank NeuralNDCG@10": allrank_fn(ar["neuralNDCG"].neuralNDCG, k=10, temperature=1.0),
            "allRank NeuralNDCG^T@10": allrank_fn(ar["neuralNDCG"].neuralNDCG_transposed, k=10, temperature=1.0),
            "allRank ListMLE": allrank_fn(ar["listMLE"].listMLE),
            "allRank ListNet": allrank_fn(ar["listNet"].listNet),
            "allRank RankNet": allrank_fn(ar["rankNet"].rankNet),
        })
    return table


# -------------------------------------------------------------------------------------------------------- data
def mslr() -> tuple[Lists, Lists]:
    train, test, name = train_ranker.load_data(synthetic=False)
    if "MSLR" not in name:
        raise SystemExit("the MSLR sample could not be fetched; this benchmark needs it")
    return train, test


def synthetic(train: Lists, test: Lists, n_train: int = 2000, n_test: int = 500, n_items: int = 100,
              seed: int = 0) -> tuple[Lists, Lists]:
    """Feature rows bootstrapped from the (standardised) MSLR rows, the training queries' from the training sample
    and the test queries' from the test sample (no feature row is shared, so a model cannot score the test set by
    memorising rows); grades from a fixed random teacher network, binned so that the grade frequencies are MSLR's."""
    rows = train[0][train[2]]
    labels = train[1][train[2]]
    freq = torch.stack([(labels == g).double().mean() for g in range(5)])
    g = torch.Generator().manual_seed(seed)
    teacher = torch.nn.Sequential(torch.nn.Linear(rows.shape[1], 32), torch.nn.Tanh(), torch.nn.Linear(32, 1))
    with torch.no_grad():
        for p in teacher.parameters():
            p.copy_(torch.randn(p.shape, generator=g) / max(1, p.shape[-1]) ** 0.5 * 2.0)
    out = []
    for q, pool in ((n_train, rows), (n_test, test[0][test[2]])):
        x = pool[torch.randint(len(pool), (q, n_items), generator=g)]
        with torch.no_grad():
            latent = teacher(x).squeeze(-1)
        out.append((x, latent))
    cuts = torch.quantile(out[0][1].flatten(), torch.cumsum(freq, 0)[:-1].float())  # MSLR's label frequencies
    return tuple((x, torch.bucketize(z, cuts).float(), torch.ones(z.shape, dtype=torch.bool)) for x, z in out)


# ------------------------------------------------------------------------------------------------ train / eval
def ndcg10(scores: torch.Tensor, rel: torch.Tensor, mask: torch.Tensor) -> float:
    return retrieval_normalized_dcg(scores, rel, mask=mask, k=10, gain="exponential", empty="skip").item()


def train_mlp(loss_fn: LossFn, train: Lists, test: Lists, epochs: int, seed: int, batch: int = 32,
              slate: int = 120) -> float:
    x, rel, mask = train
    torch.manual_seed(seed)
    model = torch.nn.Sequential(torch.nn.Linear(x.shape[-1], 64), torch.nn.ReLU(), torch.nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    g = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        for idx in torch.randperm(x.shape[0], generator=g).split(batch):
            # real items first in random order, then padding; at most `slate` items per list (allRank's slate_length)
            key = torch.rand(len(idx), x.shape[1], generator=g) + (~mask[idx]).float()
            perm = torch.argsort(key, dim=-1)[:, :slate]
            xb = torch.gather(x[idx], 1, perm[..., None].expand(-1, -1, x.shape[-1]).contiguous())
            rb, mb = torch.gather(rel[idx], 1, perm), torch.gather(mask[idx], 1, perm)
            opt.zero_grad()
            loss_fn(model(xb).squeeze(-1), rb, mb).backward()
            opt.step()
    with torch.no_grad():
        return ndcg10(model(test[0]).squeeze(-1), test[1], test[2])


def lambdamart(train: Lists, test: Lists, seed: int, rounds: int) -> float | None:
    try:
        import lightgbm
    except ImportError:
        return None
    x, rel, mask = train
    model = lightgbm.LGBMRanker(n_estimators=rounds, learning_rate=0.05, num_leaves=31, random_state=seed,
                                subsample=0.8, subsample_freq=1, colsample_bytree=0.8, verbose=-1, n_jobs=1)
    model.fit(x[mask].numpy(), rel[mask].numpy().astype(int), group=mask.sum(-1).numpy())
    scores = torch.zeros(test[1].shape)
    scores[test[2]] = torch.from_numpy(model.predict(test[0][test[2]].numpy())).float()
    return ndcg10(scores, test[1], test[2])


def run(name: str, train: Lists, test: Lists, epochs: int, seeds: int, rounds: int, fns: dict[str, LossFn]
        ) -> list[tuple[str, list[float], float]]:
    rows = []
    for label, fn in fns.items():
        start = time.perf_counter()
        vals = [train_mlp(fn, train, test, epochs, seed) for seed in range(seeds)]
        rows.append((label, vals, (time.perf_counter() - start) / seeds))
        print(f"  [{name}] {label:26s} {statistics.mean(vals):.4f} +- {statistics.pstdev(vals):.4f}"
              f"  ({rows[-1][2]:.1f} s per run)", flush=True)
    start = time.perf_counter()
    vals = [lambdamart(train, test, seed, rounds) for seed in range(seeds)]
    if vals[0] is not None:
        rows.append((f"LightGBM LambdaMART ({rounds} trees)", vals, (time.perf_counter() - start) / seeds))
        print(f"  [{name}] {rows[-1][0]:26s} {statistics.mean(vals):.4f} +- {statistics.pstdev(vals):.4f}", flush=True)
    return rows


def markdown(title: str, rows: list[tuple[str, list[float], float]]) -> str:
    lines = [f"**{title}**", "", "| loss | NDCG@10 mean | sd | s per run |", "|---|---:|---:|---:|"]
    for label, vals, secs in rows:
        lines.append(f"| {label} | {statistics.mean(vals):.4f} | {statistics.pstdev(vals):.4f} | {secs:.1f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs-mslr", type=int, default=30)
    parser.add_argument("--epochs-synthetic", type=int, default=4)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--only", default="", help="comma-separated substrings of the loss names to run")
    parser.add_argument("--datasets", default="mslr,synthetic", help="comma-separated: mslr, synthetic")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    ar = load_allrank()
    fns = loss_table(ar)
    if args.only:
        fns = {k: v for k, v in fns.items() if any(s in k for s in args.only.split(","))}
    print(f"torch {torch.__version__}, 1 thread; allRank {'loaded by path' if ar else 'not installed'}", flush=True)
    train, test = mslr()
    syn_train, syn_test = synthetic(train, test)
    tables = []
    if "mslr" in args.datasets:
        tables.append(markdown(f"MSLR-WEB10K 5k sample ({train[0].shape[0]} train / {test[0].shape[0]} test queries), "
                               f"{args.epochs_mslr} epochs, {args.seeds} seeds",
                               run("mslr", train, test, args.epochs_mslr, args.seeds, 100, fns)))
    if "synthetic" in args.datasets:
        tables.append(markdown(f"synthetic teacher set (2,000 / 500 queries x 100 items), {args.epochs_synthetic} "
                               f"epochs, {args.seeds} seeds", run("synthetic", syn_train, syn_test,
                                                                  args.epochs_synthetic, args.seeds, 200, fns)))
    print("\n" + "\n\n".join(tables))


if __name__ == "__main__":
    main()
