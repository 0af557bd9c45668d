"""The command line run in-process and its trec_eval-style output read back (``test_cli.py``,
``test_cli_parse.py``), and the measures both compare against pytrec_eval."""
import io
import sys

from torchmetrics_lite.cli import main

# our measure -> pytrec_eval's result key
PAIRS = {
    "ndcg": "ndcg", "ndcg@5": "ndcg_cut_5", "ndcg_cut_10": "ndcg_cut_10", "map": "map", "map@5": "map_cut_5",
    "mrr": "recip_rank", "P@5": "P_5", "P_20": "P_20", "P@100": "P_100", "recall@10": "recall_10",
    "recall@1000": "recall_1000", "success@1": "success_1", "hit_rate@5": "success_5", "Rprec": "Rprec",
}
TREC_MEASURES = {"ndcg", "ndcg_cut.5,10", "map", "map_cut.5", "recip_rank", "P.5,20,100", "recall.10,1000",
                 "success.1,5", "Rprec"}


def run_cli(*argv):
    """``(exit code, stdout, stderr)`` of the command line run in this process on ``argv``."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stderr
    sys.stderr = err
    try:
        code = main([str(a) for a in argv], stdout=out)
    finally:
        sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def parse_trec_lines(text):
    """{(measure, qid): value} from trec_eval-style lines."""
    out = {}
    for line in text.splitlines():
        name, qid, value = (x.strip() for x in line.split("\t"))
        out[name, qid] = float(value)
    return out
