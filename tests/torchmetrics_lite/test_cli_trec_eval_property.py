"""``trec_eval`` against pytrec_eval on random qrels/run pairs: ties, graded and negative judgements, missing and
extra queries, unjudged documents, odd whitespace; every per-query value of every measure both compute.

Scores are multiples of 1/8 (exact in float32 and float64, so pytrec_eval's float32 reading ranks as trec_eval
10.0's double reading). ``--trec-version 9`` (trec_eval 9.x, pytrec_eval's) is compared on every measure, the
default (trec_eval 10.0) on all but ``iprec_at_recall`` and ``11pt_avg``, whose recall points trec_eval 10.0 rounds
(``lround``) where trec_eval 9 adds 0.9 and truncates; pytrec_eval gets the whole qrels, judged queries missing
from the run included (left out in both versions, and of ``num_q``). Left out: the summary-only ``gm_*``,
``runid``, ``relstring``. Every judged query has a judgement >= 0: pytrec_eval's ``ndcg_cut`` never
returns on a query whose only judgements are negative."""
import io
import sys

import pytest
import pytrec_eval
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from torchmetrics_lite.cli import main

SKIP = ("gm_", "num_q", "runid", "relstring")
SKIP_10 = SKIP + ("iprec_at_recall", "11pt_avg")
SPACE = st.sampled_from([" ", "\t", "  ", " \t "])


@st.composite
def cases(draw):
    """qrels {q: {doc: rel}}, run {q: {doc: score}}, and the two files' text."""
    n_q = draw(st.integers(1, 5))
    qrels, run = {}, {}
    for q in range(n_q):
        qid = f"q{q}"
        docs = [f"d{j}" for j in range(draw(st.integers(1, 12)))]
        if draw(st.integers(0, 5)) > 0:  # a query in the run only, sometimes
            judged = draw(st.lists(st.sampled_from(docs), unique=True, min_size=1))
            qrels[qid] = {d: draw(st.integers(-1, 3)) for d in judged}
            qrels[qid].update({f"x{j}": 1 for j in range(draw(st.integers(0, 6)))})  # relevant, never retrieved
            qrels[qid][judged[0]] = max(qrels[qid][judged[0]], 0)  # pytrec_eval hangs on a query judged only -1
        if draw(st.integers(0, 5)) > 0:  # a query in the qrels only, sometimes
            picked = draw(st.lists(st.sampled_from(docs), unique=True, min_size=1))
            run[qid] = {d: draw(st.integers(-16, 16)) / 8 for d in picked}
    sp = draw(SPACE)
    qrels_text = "".join(f"{q}{sp}0{sp}{d}{sp}{r}\n" for q, docs in qrels.items() for d, r in docs.items())
    run_text = "".join(f"{q}{sp}Q0{sp}{d}{sp}1{sp}{s!r}{sp}tag{' extra' * draw(st.booleans())}\n"
                       for q, docs in run.items() for d, s in docs.items())
    return qrels, run, qrels_text, run_text


def _ours(tmp_path, qrels_text, run_text, *options):
    (tmp_path / "qrels").write_text(qrels_text)
    (tmp_path / "run").write_text(run_text)
    out, err = io.StringIO(), io.StringIO()
    old = sys.stderr
    sys.stderr = err
    try:
        code = main(["trec_eval", *options, "-q", "--full-precision", "-m", "all_trec", str(tmp_path / "qrels"),
                     str(tmp_path / "run")], stdout=out)
    finally:
        sys.stderr = old
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("version", ["10", "9"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=cases())
def test_agrees_with_pytrec_eval(tmp_path, version, case):
    qrels, run, qrels_text, run_text = case
    code, out, err = _ours(tmp_path, qrels_text, run_text, "--trec-version", version)
    both = sorted(set(qrels) & set(run))
    if not qrels or not run:
        assert code == 1 and "the file is empty" in err
        return
    if not both:
        assert code == 7 and "No queries with both results and relevance info" in err
        return
    assert code == 0, err
    ours = {}
    for line in out.splitlines():
        name, q, value = (part.strip() for part in line.split("\t"))
        if name == "num_q":
            assert int(value) == len(both)  # the judged queries missing from the run are left out
        elif q != "all" and not name.startswith(SKIP if version == "9" else SKIP_10):
            ours[name, q] = float(value)
    assert ("warning: " in err) == (version == "10" and bool(set(qrels) - set(run)))
    theirs = pytrec_eval.RelevanceEvaluator(qrels, pytrec_eval.supported_measures).evaluate(run)
    assert sorted(theirs) == both
    compared = 0
    for q, values in theirs.items():
        for name, value in values.items():
            if (name, q) in ours:
                assert ours[name, q] == pytest.approx(value, abs=1e-12, nan_ok=True), (name, q)
                compared += 1
    assert compared >= 60 * len(both)
