"""Retrieval metrics, relevance graded 0-4, single thread, at two shapes.

Uniform: 10,000 queries x 100 items, scores without ties (uniform float32) and with ties (integers 0-9 as
float32, about 10 items per tie group).
Uneven (``--shape uneven``): 10,000 queries whose sizes are drawn as ``clip(lognormal(log 80, 0.9), 1, 1300)``
(MSLR-like, 1.19M rows), scores tied (50 levels), grades 0-4; dense means the masked ``(10000, 1300)`` block a
padded batch would give. Its headline row is NDCG@10 + MAP together against pytrec_eval's ``evaluate()`` for
both measures (one evaluator).
Ours: dense ``(queries, items)`` input and the same rows flat and shuffled with query ids (``indexes``).
Peers, same run: scikit-learn ``ndcg_score`` (averages ties), pytrec_eval (its ``evaluate`` call; building
its dicts is reported apart; trec_eval breaks ties by document id instead of averaging), ranx (numba JIT warmed
first; ties broken by document id) and torchmetrics (a Python loop over queries; timed on 1,000 queries and
scaled x10 when 10,000 would take more than ~30 s).
NDCG@10 also lists one row-wise ``torch.sort`` of the same block (the floor of any exact ranking).
Run: python -m benchmarks.bench_retrieval [--shape uniform|uneven|both]
"""
import argparse
import time

import numpy as np
import torch

from benchmarks._runner import header, median_time, optional, print_tables, table
from torchmetrics_lite.functional import (
    retrieval_average_precision,
    retrieval_normalized_dcg,
    retrieval_precision,
    retrieval_reciprocal_rank,
)

Q, N = 10_000, 100
OURS = {"ndcg@10": (retrieval_normalized_dcg, {"k": 10}), "map": (retrieval_average_precision, {}),
        "mrr": (retrieval_reciprocal_rank, {})}
TREC = {"ndcg@10": ("ndcg_cut.10", "ndcg_cut_10"), "map": ("map", "map"), "mrr": ("recip_rank", "recip_rank")}
RANX = {"ndcg@10": "ndcg@10", "map": "map", "mrr": "mrr"}
TM = {"ndcg@10": ("RetrievalNormalizedDCG", {"top_k": 10}), "map": ("RetrievalMAP", {}), "mrr": ("RetrievalMRR", {})}


def data(ties: bool):
    g = torch.Generator().manual_seed(0)
    target = torch.randint(0, 5, (Q, N), generator=g)
    preds = torch.randint(0, 10, (Q, N), generator=g).float() if ties else torch.rand(Q, N, generator=g)
    rows = torch.arange(Q)[:, None].expand(Q, N).reshape(-1)
    perm = torch.randperm(Q * N, generator=g)
    flat = (preds.reshape(-1)[perm], target.reshape(-1)[perm], rows[perm])
    return preds, target, flat


def trec_dicts(preds, target):
    p, t = preds.tolist(), target.tolist()
    qrel = {f"q{i}": {f"d{j}": t[i][j] for j in range(N)} for i in range(Q)}
    run = {f"q{i}": {f"d{j}": p[i][j] for j in range(N)} for i in range(Q)}
    return qrel, run


def peer_rows(metric, preds, target, dicts, rows):
    pytrec_eval, ranx, tm = optional("pytrec_eval"), optional("ranx"), optional("torchmetrics")
    qrel, run = dicts
    if pytrec_eval is not None:
        build = median_time(lambda: pytrec_eval.RelevanceEvaluator(qrel, {TREC[metric][0]}), repeat=3)
        ev = pytrec_eval.RelevanceEvaluator(qrel, {TREC[metric][0]})
        rows.append(("pytrec_eval", median_time(lambda: ev.evaluate(run), repeat=3),
                     f"evaluate() only; RelevanceEvaluator(qrels) {build:.2f} s"))
    if ranx is not None:
        qr, rn = ranx.Qrels.from_dict(qrel), ranx.Run.from_dict(run)
        ranx.evaluate(qr, rn, RANX[metric], threads=1)  # JIT warm-up
        rows.append(("ranx", median_time(lambda: ranx.evaluate(qr, rn, RANX[metric], threads=1,
                                                              save_results_in_run=False), repeat=3), "JIT warm"))
    if metric == "ndcg@10":
        from sklearn.metrics import ndcg_score

        t_np, p_np = target.numpy(), preds.numpy()
        rows.append(("scikit-learn", median_time(lambda: ndcg_score(t_np, p_np, k=10), repeat=3), "ndcg_score"))
    if tm is not None:
        name, kw = TM[metric]
        idx = torch.arange(Q)[:, None].expand(Q, N)
        tm_target = target if metric == "ndcg@10" else target > 0  # its MAP / MRR want binary targets

        def run_tm(n_q):
            m = getattr(tm.retrieval, name)(**kw)
            m.update(preds[:n_q].reshape(-1), tm_target[:n_q].reshape(-1), indexes=idx[:n_q].reshape(-1))
            return m.compute()

        start = time.perf_counter()
        run_tm(1000)
        small = time.perf_counter() - start
        if small * 10 > 30:
            rows.append(("torchmetrics", median_time(lambda: run_tm(1000), repeat=1, warmup=0) * 10,
                         f"{tm.__version__}, 1,000 queries x10"))
        else:
            rows.append(("torchmetrics", median_time(lambda: run_tm(Q), repeat=1, warmup=0), tm.__version__))


# ------------------------------------------------------------------------------------------ uneven shape
UNEVEN = {**OURS, "P@10": (retrieval_precision, {"k": 10})}
TREC["P@10"], RANX["P@10"], TM["P@10"] = ("P.10", "P_10"), "precision@10", ("RetrievalPrecision", {"top_k": 10})


def uneven_data():
    rng = np.random.default_rng(0)
    sizes = np.clip(np.round(rng.lognormal(np.log(80), 0.9, Q)), 1, 1300).astype(np.int64)
    n = int(sizes.sum())
    qid = np.repeat(np.arange(Q), sizes)
    preds = rng.integers(0, 50, n).astype(np.float32)
    target = rng.integers(0, 5, n)
    perm = rng.permutation(n)
    flat = tuple(torch.from_numpy(x[perm]) for x in (preds, target, qid))
    m = int(sizes.max())
    mask = torch.from_numpy(np.arange(m) < sizes[:, None])
    dense_p, dense_t = torch.zeros(Q, m), torch.zeros(Q, m, dtype=torch.int64)
    dense_p[mask], dense_t[mask] = torch.from_numpy(preds), torch.from_numpy(target)  # rows in query order
    qrel, run = {}, {}
    for q, d, s, t in zip(qid.tolist(), range(n), preds.tolist(), target.tolist()):
        qrel.setdefault(f"q{q}", {})[f"d{d}"] = t
        run.setdefault(f"q{q}", {})[f"d{d}"] = s
    return flat, (dense_p, dense_t, mask), (qrel, run), sizes


def tm_uneven(metric, flat, n_q):
    """torchmetrics on the first ``n_q`` queries of the flat input."""
    tm = optional("torchmetrics")
    name, kw = TM[metric]
    p, t, i = flat
    keep = i < n_q
    target = t[keep] if metric == "ndcg@10" else t[keep] > 0
    m = getattr(tm.retrieval, name)(**kw)
    m.update(p[keep], target, indexes=i[keep])
    return m.compute()


def uneven_tables():
    flat, dense, (qrel, run), sizes = uneven_data()
    n_rows = int(sizes.sum())
    title = f"{Q:,} queries, sizes clip(lognormal(log 80, 0.9), 1, 1300) ({n_rows:,} rows), 50 score levels"
    tables = []
    pytrec_eval, ranx, tm = optional("pytrec_eval"), optional("ranx"), optional("torchmetrics")
    both = lambda: (retrieval_normalized_dcg(*flat, k=10), retrieval_average_precision(*flat))  # noqa: E731
    rows = [("torchmetrics_lite flat", median_time(both, repeat=5), "shuffled, indexes; two calls")]
    if pytrec_eval is not None:
        ev = pytrec_eval.RelevanceEvaluator(qrel, {"ndcg_cut.10", "map"})
        rows.append(("pytrec_eval", median_time(lambda: ev.evaluate(run), repeat=3), "evaluate() for both"))
    tables.append(table(f"NDCG@10 + MAP, {title}", rows, ours="torchmetrics_lite flat"))
    for metric, (fn, kw) in UNEVEN.items():
        rows = [("torchmetrics_lite flat", median_time(lambda: fn(*flat, **kw), repeat=5), "shuffled, indexes"),
                ("torchmetrics_lite dense", median_time(lambda: fn(dense[0], dense[1], mask=dense[2], **kw), repeat=3),
                 "masked (10000, 1300) block")]
        if pytrec_eval is not None:
            ev = pytrec_eval.RelevanceEvaluator(qrel, {TREC[metric][0]})
            rows.append(("pytrec_eval", median_time(lambda: ev.evaluate(run), repeat=3), "evaluate() only"))
        if ranx is not None:
            qr, rn = ranx.Qrels.from_dict(qrel), ranx.Run.from_dict(run)
            ranx.evaluate(qr, rn, RANX[metric], threads=1)  # JIT warm-up
            rows.append(("ranx", median_time(lambda: ranx.evaluate(qr, rn, RANX[metric], threads=1,
                                                                  save_results_in_run=False), repeat=3), "JIT warm"))
        if tm is not None:  # all 10,000 queries unless that would take minutes (then 2,000, scaled)
            sub = 2000
            t_sub = median_time(lambda: tm_uneven(metric, flat, sub), repeat=1, warmup=0)
            if t_sub * Q / sub > 60:
                rows.append(("torchmetrics", t_sub * Q / sub, f"{tm.__version__}, first {sub:,} queries, x{Q // sub}"))
            else:
                rows.append(("torchmetrics", median_time(lambda: tm_uneven(metric, flat, Q), repeat=1, warmup=0),
                             f"{tm.__version__}, all queries"))
        tables.append(table(f"{metric}, {title}", rows, ours="torchmetrics_lite flat"))
    return tables


def uniform_tables():
    tables = []
    for ties in (False, True):
        preds, target, flat = data(ties)
        dicts = trec_dicts(preds, target)
        label = "tied scores (0-9)" if ties else "no ties"
        for metric, (fn, kw) in OURS.items():
            rows = [("torchmetrics_lite dense", median_time(lambda: fn(preds, target, **kw), repeat=5), "ties=average"),
                    ("torchmetrics_lite flat", median_time(lambda: fn(*flat, **kw), repeat=5), "shuffled, indexes")]
            if metric == "ndcg@10":  # the floor: one row-wise sort of the same block (no ranking arithmetic)
                rows.append(("torch.sort rows", median_time(lambda: torch.sort(preds, dim=1, descending=True),
                                                            repeat=5), "one row-wise sort, values + indices"))
            peer_rows(metric, preds, target, dicts, rows)
            tables.append(table(f"{metric}, {Q:,} queries x {N} items, {label}", rows, ours="torchmetrics_lite dense"))
    return tables


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--shape", choices=("uniform", "uneven", "both"), default="both")
    shape = parser.parse_args().shape
    torch.set_num_threads(1)
    tables = (uniform_tables() if shape != "uneven" else []) + (uneven_tables() if shape != "uniform" else [])
    print(header())
    print_tables(tables)


if __name__ == "__main__":
    main()
