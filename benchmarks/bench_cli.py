"""The command line end to end against pytrec_eval: process start to printed result, as a user times it.

Generated TREC files: 500 queries x 1,000 retrieved documents (scores with 4 decimals, so some tie), qrels of 200
judged documents per query (grades 0-3, a few relevant documents the run misses). Five measures (NDCG@10, MAP,
MRR, P@10, recall@100) with ``--ties docid`` (trec_eval's tie order, so both print the same numbers).

* ours: ``python -m torchmetrics_lite retrieval QRELS RUN -m ndcg_cut_10 map recip_rank P_10 recall_100
  --ties docid``;
* peer: a script that parses the files with pytrec_eval's ``parse_qrel`` / ``parse_run`` (Python), evaluates the
  same measures with ``RelevanceEvaluator(...).evaluate`` and prints the means.

Both are separate processes started the same way (``subprocess``, wall clock), run in alternation ``--repeat``
times; the table gives medians and the peak resident memory of each process (``wait4``). The printed means are
checked to agree to 1e-12.
Run: python -m benchmarks.bench_cli [--repeat 5]
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

N_Q, N_DOCS, N_JUDGED = 500, 1000, 200
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
result = pytrec_eval.RelevanceEvaluator(qrels, set(names.values())).evaluate(run)
print("num_q\\tall\\t%d" % len(result))
for ours in sys.argv[3:]:
    values = [q[ours] for q in result.values()]
    print("%s\\tall\\t%.15f" % (ours, sum(values) / len(values)))
"""


def generate(folder: str) -> Tuple[str, str]:
    rng = np.random.default_rng(0)
    qrels_lines: List[str] = []
    run_lines: List[str] = []
    for q in range(1, N_Q + 1):
        docs = rng.permutation(5000)[:N_DOCS + 20]
        judged = docs[np.r_[0:N_JUDGED - 20, N_DOCS:N_DOCS + 20]]  # 20 judged documents the run misses
        grades = rng.choice([0, 0, 0, 1, 1, 2, 3], size=judged.size)
        qrels_lines += [f"{q} 0 doc{d} {g}\n" for d, g in zip(judged.tolist(), grades.tolist())]
        scores = np.round(rng.random(N_DOCS) * 10, 4)
        order = np.argsort(-scores, kind="stable")
        run_lines += [f"{q} Q0 doc{docs[i]} {r} {scores[i]:.4f} bench\n" for r, i in enumerate(order.tolist(), 1)]
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
    return {line.split()[0]: float(line.split()[2]) for line in text.splitlines() if line.strip()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as folder:
        qrels, run = generate(folder)
        peer_script = os.path.join(folder, "peer.py")
        with open(peer_script, "w") as f:
            f.write(PEER)
        ours = [sys.executable, "-m", "torchmetrics_lite", "retrieval", qrels, run, "-m", *MEASURES,
                "--ties", "docid", "--digits", "15"]
        peer = [sys.executable, peer_script, qrels, run, *MEASURES]
        times: Dict[str, List[float]] = {"ours": [], "peer": []}
        memory: Dict[str, int] = {"ours": 0, "peer": 0}
        outputs = {}
        for _ in range(repeat):
            for name, argv in (("ours", ours), ("peer", peer)):
                elapsed, rss, out = run_with_rusage(argv)
                times[name].append(elapsed)
                memory[name] = max(memory[name], rss)
                outputs[name] = out
    a, b = means(outputs["ours"]), means(outputs["peer"])
    assert a.keys() == b.keys() and all(abs(a[k] - b[k]) <= 1e-12 for k in a), (a, b)
    size = f"{N_Q} queries x {N_DOCS} documents, {N_Q * N_JUDGED:,} judgements"
    rows = [("torchmetrics_lite CLI", statistics.median(times["ours"]),
             f"python -m torchmetrics_lite, peak RSS {memory['ours'] / 2**20:.0f} MiB"),
            ("pytrec_eval", statistics.median(times["peer"]),
             f"parse_qrel/parse_run + evaluate, peak RSS {memory['peer'] / 2**20:.0f} MiB")]
    print(f"process wall clock, median of {repeat}, run in alternation; means agree to 1e-12")
    print_tables([table(f"CLI end to end, {size}, 5 measures, --ties docid", rows, ours="torchmetrics_lite CLI")])


if __name__ == "__main__":
    main()
