"""The command line end to end against pytrec_eval: process start to printed result, as a user times it.

Generated TREC files: 5,000 queries x 1,000 retrieved documents (scores with 4 decimals, so some tie), qrels of
200 judged documents per query (grades 0-3, a few relevant documents the run misses). Two comparisons:

* every ``all_trec`` measure: ``python -m torchmetrics_lite trec_eval -m all_trec QRELS RUN`` against a script
  that parses the files with pytrec_eval's ``parse_qrel`` / ``parse_run`` and evaluates every measure it supports
  (``RelevanceEvaluator(qrels, pytrec_eval.supported_measures)``), then prints the means;
* five measures (NDCG@10, MAP, MRR, P@10, recall@100) with ``retrieval ... --ties docid`` against the same
  script asking for those five.

Both are separate processes started the same way (``posix_spawn``, wall clock), run in alternation ``--repeat``
times; the table gives medians and the peak resident memory of each process (``wait4``). The means of every
measure both print are checked to agree (1e-9; trec_eval 10.0 and pytrec_eval's trec_eval 9 differ in
``iprec_at_recall``/``11pt_avg``'s rounding of the recall points, which are left out of the check).
Run: python -m benchmarks.bench_cli [--repeat 3] [--queries 5000]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from typing import Dict, List, Tuple

import numpy as np

from benchmarks._runner import print_tables, table

N_Q, N_DOCS, N_JUDGED = 5000, 1000, 200
MEASURES = ["ndcg_cut_10", "map", "recip_rank", "P_10", "recall_100"]
PEER = """
import sys
import pytrec_eval
with open(sys.argv[1]) as f:
    qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f:
    run = pytrec_eval.parse_run(f)
names = {"ndcg_cut_10": "ndcg_cut.10", "map": "map", "recip_rank": "recip_rank", "P_10": "P.10",
         "recall_100": "recall.100"}
wanted = pytrec_eval.supported_measures if sys.argv[3] == "all" else set(names.values())
result = pytrec_eval.RelevanceEvaluator(qrels, wanted).evaluate(run)
print("num_q\\tall\\t%d" % len(result))
import math
for ours in sorted(next(iter(result.values()))) if sys.argv[3] == "all" else sys.argv[3:]:
    values = [q[ours] for q in result.values()]
    if ours == "num_q":
        continue
    mean = sum(values) if ours.startswith("num_") else sum(values) / len(values)
    print("%s\\tall\\t%.15f" % (ours, math.exp(mean) if ours.startswith("gm_") else mean))
"""


def generate(folder: str, n_q: int) -> Tuple[str, str]:
    rng = np.random.default_rng(0)
    qrels_lines: List[str] = []
    run_lines: List[str] = []
    for q in range(1, n_q + 1):
        docs = rng.permutation(5000)[:N_DOCS + 20]
        judged = docs[np.r_[0:N_JUDGED - 20, N_DOCS:N_DOCS + 20]]  # 20 judged documents the run misses
        grades = rng.choice([0, 0, 0, 1, 1, 2, 3], size=judged.size)
        qrels_lines.append("".join(f"{q} 0 doc{d} {g}\n" for d, g in zip(judged.tolist(), grades.tolist())))
        scores = np.round(rng.random(N_DOCS) * 10, 4)
        order = np.argsort(-scores, kind="stable")
        names, ranked = docs[order].tolist(), scores[order].tolist()
        run_lines.append("".join(f"{q} Q0 doc{d} {r} {v:.4f} bench\n"
                                 for r, (d, v) in enumerate(zip(names, ranked), 1)))
    paths = os.path.join(folder, "qrels.txt"), os.path.join(folder, "run.txt")
    for path, lines in zip(paths, (qrels_lines, run_lines)):
        with open(path, "w") as f:
            f.writelines(lines)
    return paths


def run_with_rusage(argv: List[str]) -> Tuple[float, int, str]:
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        pid = os.posix_spawn(argv[0], argv, dict(os.environ), file_actions=[(os.POSIX_SPAWN_DUP2, out.fileno(), 1)])
        _, status, usage = os.wait4(pid, 0)
        elapsed = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status):
            raise RuntimeError(f"{' '.join(argv[:4])} exited with {os.waitstatus_to_exitcode(status)}")
        out.seek(0)
        return elapsed, usage.ru_maxrss * 1024, out.read()


def means(text: str) -> Dict[str, float]:
    rows = [line.split() for line in text.splitlines() if line.strip()]
    return {row[0]: float(row[2]) for row in rows if row[1] == "all" and row[0] != "runid"}


def compare(argvs: Dict[str, List[str]], repeat: int) -> Tuple[Dict[str, List[float]], Dict[str, int], Dict[str, str]]:
    times: Dict[str, List[float]] = {name: [] for name in argvs}
    memory: Dict[str, int] = {name: 0 for name in argvs}
    outputs = {}
    for _ in range(repeat):
        for name, argv in argvs.items():
            elapsed, rss, out = run_with_rusage(argv)
            times[name].append(elapsed)
            memory[name] = max(memory[name], rss)
            outputs[name] = out
    return times, memory, outputs


SKIPPED = ("iprec_at_recall", "11pt_avg")  # trec_eval 10.0 rounds the recall points (lround), trec_eval 9 adds 0.9


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--queries", type=int, default=N_Q)
    args = parser.parse_args()
    tables = []
    with tempfile.TemporaryDirectory() as folder:
        qrels, run = generate(folder, args.queries)
        peer_script = os.path.join(folder, "peer.py")
        with open(peer_script, "w") as f:
            f.write(PEER)
        size = f"{args.queries} queries x {N_DOCS} documents, {args.queries * N_JUDGED:,} judgements"
        cases = {
            "every all_trec measure": (
                [sys.executable, "-m", "torchmetrics_lite", "trec_eval", "-m", "all_trec", "--full-precision", qrels,
                 run], [sys.executable, peer_script, qrels, run, "all"]),
            "5 measures, retrieval --ties docid": (
                [sys.executable, "-m", "torchmetrics_lite", "retrieval", qrels, run, "-m", *MEASURES, "--ties",
                 "docid", "--digits", "15"], [sys.executable, peer_script, qrels, run, *MEASURES]),
        }
        for title, (ours, peer) in cases.items():
            times, memory, outputs = compare({"ours": ours, "peer": peer}, args.repeat)
            a, b = means(outputs["ours"]), means(outputs["peer"])
            shared = [k for k in a.keys() & b.keys() if not k.startswith(SKIPPED)]
            assert len(shared) >= min(len(a), 5) - 1, (sorted(a), sorted(b))
            bad = {k: (a[k], b[k]) for k in shared if abs(a[k] - b[k]) > 1e-9}
            assert not bad, bad
            rows = [("torchmetrics_lite CLI", statistics.median(times["ours"]),
                     f"python -m torchmetrics_lite, peak RSS {memory['ours'] / 2**20:.0f} MiB"),
                    ("pytrec_eval", statistics.median(times["peer"]),
                     f"parse_qrel/parse_run + evaluate, peak RSS {memory['peer'] / 2**20:.0f} MiB")]
            tables.append(table(f"CLI end to end, {size}, {title} ({len(shared)} means agree to 1e-9)", rows,
                                ours="torchmetrics_lite CLI"))
    print(f"process wall clock, median of {args.repeat}, run in alternation")
    print_tables(tables)


if __name__ == "__main__":
    main()
