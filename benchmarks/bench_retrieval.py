"""Retrieval metrics on 10,000 queries x 100 items, relevance graded 0-4, single thread.

Scores without ties (uniform float32) and with ties (integers 0-9 as float32, about 10 items per tie group).
Ours: dense ``(queries, items)`` input and the same rows flat and shuffled with query ids (``indexes``).
Peers, same run: scikit-learn ``ndcg_score`` (averages ties), pytrec_eval (its ``evaluate`` call; building
its dicts is reported apart; trec_eval breaks ties by document id instead of averaging), ranx (numba JIT warmed
first; ties broken by document id) and torchmetrics (a Python loop over queries; timed on 1,000 queries and
scaled x10 when 10,000 would take more than ~30 s).
Run: python -m benchmarks.bench_retrieval
"""
import time

import torch

from benchmarks._runner import header, median_time, optional, print_tables, table
from torchmetrics_lite.functional import (
    retrieval_average_precision,
    retrieval_normalized_dcg,
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


def main() -> None:
    torch.set_num_threads(1)
    tables = []
    for ties in (False, True):
        preds, target, flat = data(ties)
        dicts = trec_dicts(preds, target)
        label = "tied scores (0-9)" if ties else "no ties"
        for metric, (fn, kw) in OURS.items():
            rows = [("torchmetrics_lite dense", median_time(lambda: fn(preds, target, **kw), repeat=5), "ties=average"),
                    ("torchmetrics_lite flat", median_time(lambda: fn(*flat, **kw), repeat=5), "shuffled, indexes")]
            peer_rows(metric, preds, target, dicts, rows)
            tables.append(table(f"{metric}, {Q:,} queries x {N} items, {label}", rows, ours="torchmetrics_lite dense"))
    print(header())
    print_tables(tables)


if __name__ == "__main__":
    main()
