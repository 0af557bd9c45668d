"""``python -m torchmetrics_lite trec_eval`` against trec_eval 10.0's own test suite: every expected output in
``tests/data/trec_eval`` (trec_eval's ``test/`` folder, with its licence) reproduced byte for byte with trec_eval's
arguments (a test per file), plus hand-worked examples of the measures and trec_eval's argument and input rules."""
import io
import os
import sys
from pathlib import Path

import numpy as np
import pytest

from torchmetrics_lite.cli import main

TESTS = Path(__file__).resolve().parents[1] / "data" / "trec_eval"

# expected output -> trec_eval's arguments (the folder's README), and the same output from other inputs
CASES = [
    ("out.test", "qrels.test results.test"),
    ("out.test", "qrels.test.with-comments results.test"),
    ("out.comment.test", "qrels.comment.test results.comment.test"),
    ("out.test.a", "-m all_trec qrels.test results.test"),
    ("out.test.aq", "-m all_trec -q qrels.test results.test"),
    ("out.test.aqc", "-m all_trec -q -c qrels.test results.trunc"),
    ("out.test.aqcM", "-m all_trec -q -c -M100 qrels.test results.trunc"),
    ("out.test.aql", "-m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test"),
    ("out.test.meas_params", "-q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000 "
     "-m Rprec_mult.5.0,0.2,0.35 -mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 -mndcg.1=3,2=9,4=4.5 "
     "-mndcg_cut.10,20,23.4 -msuccess.2,5,20 qrels.test results.test"),
    ("out.test.aqZ", "-q -m all_trec -Z zscores_file qrels.test results.test"),
    ("out.test.qrels_jg", "-m qrels_jg -q -R qrels_jg qrels.123 results.test"),
    ("out.test.qrels_jg", "-m qrels_jg -q -R qrels_jg qrels.comments.123 results.test"),
    ("out.test.prefs", "-m all_prefs -q -R prefs prefs.test prefs.results.test"),
    ("out.test.prefs", "-m all_prefs -q -R prefs prefs.comment.test prefs.results.test"),
    ("out.test.qrels_prefs", "-m all_prefs -q -R qrels_prefs qrels.test results.test"),
]


def _folder() -> Path:
    """trec_eval's test files, in the repository: missing files fail, they never skip."""
    if not (TESTS / "out.test").is_file():
        pytest.fail(f"trec_eval's test files are missing: expected them in {TESTS}")
    return TESTS


def trec_eval(*argv, folder=None):
    """Exit code, stdout and stderr of ``trec_eval ARGS`` run in ``folder`` (relative file names)."""
    out, err = io.StringIO(), io.StringIO()
    old_err, old_cwd = sys.stderr, os.getcwd()
    sys.stderr = err
    try:
        if folder is not None:
            os.chdir(folder)
        code = main(["trec_eval", *map(str, argv)], stdout=out)
    finally:
        sys.stderr = old_err
        os.chdir(old_cwd)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("expected, arguments", CASES, ids=[f"{e}:{a.split()[-2]}" for e, a in CASES])
def test_trec_eval_test_suite_byte_for_byte(expected, arguments):
    folder = _folder()
    code, out, err = trec_eval(*arguments.split(), folder=folder)
    assert code == 0, err
    assert out.encode() == (folder / expected).read_bytes()


# a hand-worked query: a (2) x (not judged) b (0) d (judged -1: in the pool, unjudged) c (1); e (1) not retrieved
QRELS = "q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq1 0 d -1\nq1 0 e 1\n"
RUN = "q1 Q0 a 1 0.9 hand\nq1 Q0 x 2 0.8 hand\nq1 Q0 b 3 0.7 hand\nq1 Q0 d 4 0.6 hand\nq1 Q0 c 5 0.5 hand\n"


def _files(tmp_path, qrels=QRELS, run=RUN):
    (tmp_path / "qrels").write_text(qrels)
    (tmp_path / "run").write_text(run)
    return tmp_path / "qrels", tmp_path / "run"


def _values(out):
    return {(line.split("\t")[0].strip(), line.split("\t")[1]): line.split("\t")[2] for line in out.splitlines()}


def test_measures_by_hand(tmp_path):
    """Each measure from its definition, worked by hand on one query: ranks 1-5 are a (2), x (not in the qrels),
    b (0), d (in the pool, unjudged), c (1); R = 3 (a, c, e), one judged non-relevant document (b)."""
    code, out, err = trec_eval("-q", "--full-precision", "-m", "all_trec", *_files(tmp_path))
    assert code == 0, err
    v = {name: value for (name, q), value in _values(out).items() if q == "q1"}
    f = {name: float(value) for name, value in v.items() if name != "relstring"}
    log2 = np.log2
    ideal = 2 / log2(2) + 1 / log2(3) + 1 / log2(4)
    expected = {
        "num_ret": 5, "num_rel": 3, "num_rel_ret": 2, "map": (1 / 1 + 2 / 5) / 3, "Rprec": 1 / 3, "recip_rank": 1.0,
        "bpref": (1 + (1 - 1 / 1)) / 3,  # c has one judged non-relevant document (b) above it
        "infAP": (1 + (1 / 5 + (4 / 5) * (3 / 4) * ((1 + 1e-5) / (2 + 2e-5)))) / 3,
        "P_5": 2 / 5, "recall_5": 2 / 3, "relative_P_5": 2 / 3, "success_1": 1.0, "unj_5": 2 / 5,
        "iprec_at_recall_0.00": 1.0, "iprec_at_recall_0.50": 2 / 5, "iprec_at_recall_1.00": 0.0,
        "Rprec_mult_0.20": 1.0, "utility": 2 - 3, "set_P": 2 / 5, "set_recall": 2 / 3, "set_F": 0.5,
        "set_map": (2 / 5) * (2 / 3), "num_nonrel_judged_ret": 1,
        "binG": (1 / log2(2) + 1 / log2(5)) / 3, "ndcg": (2 / log2(2) + 1 / log2(6)) / ideal,
        "ndcg_cut_5": (2 / log2(2) + 1 / log2(6)) / ideal,
        "rbp": 0.1 * (1.0 + 0.5 * 0.9 ** 4),  # gains 0-2 scaled to [0, 1]: a 1, c 0.5
        "rbp_resid": 0.9 ** 5 + 0.1 * (0.9 + 0.9 ** 3),  # x and d are unjudged
    }
    for name, value in expected.items():
        assert f[name] == pytest.approx(value, abs=1e-12), name
    assert v["relstring"] == "'2-0.1'"


def test_comment_lines_and_long_run_lines(tmp_path):
    """A comment of four words ending in a number is a comment, not a judgement of query '#' (num_q 1, not 2);
    run lines with more than 6 fields are read, the rest of the line ignored."""
    qrels = "# assessed in 2024\n" + QRELS
    run = "".join(line + " more junk 7\n" for line in RUN.splitlines())
    code, out, err = trec_eval(*_files(tmp_path, qrels, run))
    assert code == 0, err
    code, plain, err = trec_eval(*_files(tmp_path))
    assert out == plain and _values(out)["num_q", "all"] == "1"
    code, out, err = main_retrieval(tmp_path, qrels, run, "map")
    assert code == 0 and _values(out)["num_q", "all"] == "1"


def main_retrieval(tmp_path, qrels, run, *measures):
    qp, rp = _files(tmp_path, qrels, run)
    out, err = io.StringIO(), io.StringIO()
    old = sys.stderr
    sys.stderr = err
    try:
        code = main(["retrieval", str(qp), str(rp), "-m", *measures, "--ties", "docid", "--digits", "15"], stdout=out)
    finally:
        sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def test_retrieval_bare_names_get_trec_eval_default_cut_offs(tmp_path):
    """``-m ndcg_cut`` is trec_eval's nine cut-offs (not one uncut value); P, recall, success too; a fractional
    cut-off reads as trec_eval reads it (23.4 -> 23)."""
    code, out, err = main_retrieval(tmp_path, QRELS, RUN, "ndcg_cut", "P", "success", "ndcg_cut.10,23.4")
    assert code == 0, err
    names = [line.split("\t")[0].strip() for line in out.splitlines()]
    assert names == ["num_q"] + [f"ndcg_cut_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)] + \
        [f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)] + ["success_1", "success_5", "success_10",
                                                                         "ndcg_cut.10", "ndcg_cut.23"]
    code, te, err = trec_eval("-m", "ndcg_cut", "-m", "P", "-m", "success", *_files(tmp_path))
    theirs = {name: float(v) for (name, q), v in _values(te).items() if q == "all" and name != "runid"}
    for (name, q), value in _values(out).items():
        if name in theirs:
            assert float(value) == pytest.approx(theirs[name], abs=5e-5), name


def test_flags(tmp_path):
    qp, rp = _files(tmp_path, QRELS + "q2 0 z 1\n")
    code, out, _ = trec_eval("-n", "-q", "-m", "P.2", qp, rp)
    assert code == 0 and out == "P_2                   \tq1\t0.5000\n"  # -n: no summary
    code, out, _ = trec_eval("-J", "-q", "-m", "P.2", "-m", "num_ret", qp, rp)  # judged only: a b d c -> a b c
    assert _values(out)["num_ret", "q1"] == "3" and _values(out)["P_2", "q1"] == "0.5000"
    code, out, _ = trec_eval("-M2", "-m", "num_ret", "-m", "num_rel_ret", qp, rp)
    assert _values(out)["num_ret", "all"] == "2" and _values(out)["num_rel_ret", "all"] == "1"
    code, out, _ = trec_eval("-N", "100", "-m", "utility.0,0,0,1", qp, rp)  # d: 100 + 2 - 5 - 3 non-retrieved
    assert _values(out)["utility_0,0,0,1", "all"] == "94.0000"
    # q2: judged, not in the run
    code, out, _ = trec_eval("-c", "-q", "-m", "P.5", "-m", "num_ret", "-m", "num_q", qp, rp)
    assert _values(out)["num_ret", "q2"] == "0" and _values(out)["P_5", "all"] == "0.2000"
    assert _values(out)["num_q", "all"] == "2"
    # without -c, q2 is left out (trec_eval 9.x's rule: docs/trec_eval.md)
    code, out, _ = trec_eval("-m", "P.5", "-m", "num_q", qp, rp)
    assert _values(out)["num_q", "all"] == "1" and _values(out)["P_5", "all"] == "0.4000"
    code, out, _ = trec_eval("-l2", "-m", "num_rel", qp, rp)
    assert _values(out)["num_rel", "all"] == "1"


def test_version_and_help(capsys):
    assert trec_eval("-v")[0] == 0
    assert "trec_eval version 10.0" in trec_eval("--version")[2]
    assert trec_eval("-h")[0] == 0
    help_text = capsys.readouterr().out
    assert "-m measure" in help_text and "--trec-version V    10 (default): trec_eval 10.0's rules" in help_text


@pytest.mark.parametrize("arguments, code, message", [
    ("-m nosuch", 1, "trec_eval: illegal measure 'nosuch'"),
    ("-m P.5,5", 2, "duplicate cutoffs detected"),
    ("-m P.0,5", 2, "Negative cutoff detected"),
    ("-m P.", 1, "improper measure in parameter 'P'"),
    ("-m ndcg.1:3", 2, "malformed pair parameters in '1:3'"),
    ("-T other", 2, "Illegal retrieval results format 'other'"),
    ("-R other", 2, "Illegal rel_format 'other'"),
    ("-x", 1, "Usage: trec_eval"),
    ("-m all_prefs", 4, "measure 'prefs_num_prefs_poss' needs -R prefs or -R qrels_prefs"),
    ("-m map_avgjg", 4, "measure 'map_avgjg' needs -R qrels_jg"),
    ("-R qrels_prefs -m map", 4, "measure 'map' needs -R qrels (with -R qrels_prefs: the all_prefs measures)"),
    ("-R prefs -m all_prefs", 1, "qrels:1: expected 5 fields 'qid jg jsg docno rel_level', got 4"),
    ("-R qrels_jg -m map", 4, "measure 'map' needs -R qrels"),
])
def test_usage_errors(tmp_path, arguments, code, message):
    got, _, err = trec_eval(*arguments.split(), *_files(tmp_path))
    assert got == code and message in err, err


@pytest.mark.parametrize("run, message", [
    (RUN + "q1 Q0 a 6 0.1 hand\n", "run:6: document 'a' is retrieved twice for query 'q1'"),
    ("q1 Q0 a 1 0.9\n", "run:1: expected 6 or more fields 'qid Q0 docid rank score tag', got 5"),
])
def test_bad_runs_stop_with_a_clear_error(tmp_path, run, message):
    code, _, err = trec_eval(*_files(tmp_path, run=run))
    assert code == 1 and message in err, err


def test_missing_file(tmp_path):
    code, _, err = trec_eval(tmp_path / "nope", tmp_path / "nope2")
    assert code == 1 and "cannot read" in err and "nope" in err


def test_trec_eval_command_never_imports_torch(tmp_path):
    """``python -m torchmetrics_lite trec_eval`` (the process a script starts) runs on numpy alone and prints
    trec_eval's lines."""
    import subprocess

    qp, rp = _files(tmp_path)
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "torchmetrics_lite", "trec_eval", "-m", "all_trec",
                           str(qp), str(rp)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert done.returncode == 0, done.stderr
    modules = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")]
    assert "torchmetrics_lite.cli.trec_eval" in modules and "numpy" in modules
    assert not [m for m in modules if m == "torch" or m.startswith("torch.")]
    assert done.stdout.splitlines()[:2] == ["runid                 \tall\thand", "num_q                 \tall\t1"]


def test_a_query_judged_only_negative(tmp_path):
    """A query whose judgements are all negative (in the pool, unjudged) has no relevant document: every measure of
    relevance is 0 (pytrec_eval's ndcg_cut never returns on it); utility counts the retrieved document as
    non-relevant, unj and rbp_resid as unjudged."""
    code, out, err = trec_eval("-m", "all_trec", *_files(tmp_path, "q1 0 a -1\nq1 0 b -1\n", "q1 Q0 a 1 1.0 t\n"))
    assert code == 0, err
    values = _values(out)
    assert values["utility", "all"] == "-1.0000" and values["unj_5", "all"] == "0.2000"
    assert values["rbp_resid", "all"] == f"{0.9 + 0.1:6.4f}"
    rest = {name: v for (name, q), v in values.items()
            if name not in ("runid", "num_q", "num_ret", "utility", "rbp_resid") and not name.startswith("unj")}
    assert set(rest.values()) == {"0", "0.0000"}, rest


def test_scores_as_double_or_float32(tmp_path):
    """Scores that differ only beyond float32: trec_eval 10.0 (and the default) ranks them by score as doubles;
    ``--float32-scores`` makes them tie, as trec_eval 9.x and pytrec_eval read them, and the docid breaks the tie
    (descending: z before a)."""
    qrels, run = "q 0 a 1\nq 0 z 0\n", "q Q0 a 1 0.1000000001 t\nq Q0 z 2 0.1 t\n"
    assert _values(trec_eval("-m", "P.1", *_files(tmp_path, qrels, run))[1])["P_1", "all"] == "1.0000"
    assert _values(trec_eval("--float32-scores", "-m", "P.1", *_files(tmp_path, qrels, run))[1])["P_1", "all"] == \
        "0.0000"


def test_trec_versions_place_recall_points_apart(tmp_path):
    """4 relevant documents at ranks 1, 3, 4, 10 (precisions 1, 2/3, 3/4, 4/10; the best at or after each: 1, 3/4,
    3/4, 4/10). Recall 0.3 is the relevant document lround(1.2) = 1 in trec_eval 10.0 (the default), (long)(1.2 +
    0.9) = 2 in trec_eval 9.x (``--trec-version 9``, pytrec_eval's values); 11pt_avg by hand from the 11 points:
    10.0 takes documents 1 1 1 1 2 2 2 3 3 4 4 (the first for 0)."""
    import pytrec_eval

    docs = [f"d{i}" for i in range(10)]
    relevant = {"d0", "d2", "d3", "d9"}
    qrels = "".join(f"q 0 {d} {int(d in relevant)}\n" for d in docs)
    run = "".join(f"q Q0 {d} {i} {10 - i} t\n" for i, d in enumerate(docs))
    files = _files(tmp_path, qrels, run)
    ten = _values(trec_eval("-m", "iprec_at_recall.0.3", "-m", "11pt_avg", *files)[1])
    assert ten["iprec_at_recall_0.30", "all"] == "1.0000"
    assert ten["11pt_avg", "all"] == f"{(4 * 1 + 5 * 0.75 + 2 * 0.4) / 11:6.4f}" == "0.7773"
    code, out, err = trec_eval("--trec-version", "9", "--full-precision", "-m", "iprec_at_recall", "-m", "11pt_avg",
                               *files)
    nine = {name: float(v) for (name, q), v in _values(out).items()}
    evaluator = pytrec_eval.RelevanceEvaluator({"q": {d: int(d in relevant) for d in docs}},
                                               {"iprec_at_recall", "11pt_avg"})
    theirs = evaluator.evaluate({"q": {d: float(10 - i) for i, d in enumerate(docs)}})["q"]
    assert code == 0 and nine["iprec_at_recall_0.30"] == 0.75 and nine == pytest.approx(theirs, abs=1e-15), err


def test_trec_version_9_reads_float32_scores(tmp_path):
    qrels, run = "q 0 a 1\nq 0 z 0\n", "q Q0 a 1 0.1000000001 t\nq Q0 z 2 0.1 t\n"
    assert _values(trec_eval("--trec-version", "10", "-m", "P.1", *_files(tmp_path, qrels, run))[1])["P_1", "all"] \
        == "1.0000"
    assert _values(trec_eval("--trec-version", "9", "-m", "P.1", *_files(tmp_path, qrels, run))[1])["P_1", "all"] \
        == "0.0000"


@pytest.mark.parametrize("arguments, message", [
    ("--trec-version 8", "trec_eval: --trec-version must be one of 9, 10 (the trec_eval whose rules to follow), "
     "got '8'"),
    ("--trec-version 9.0.8", "--trec-version must be one of 9, 10 (the trec_eval whose rules to follow), got '9.0.8'"),
    ("--trec-version=", "--trec-version must be one of 9, 10 (the trec_eval whose rules to follow), got ''"),
], ids=["8", "9.0.8", "empty"])
def test_bad_trec_version(tmp_path, arguments, message):
    code, out, err = trec_eval(*arguments.split(), *_files(tmp_path))
    assert (code, out) == (1, "") and message in err and err.count("\n") == 1, err
    code, _, err = trec_eval(*_files(tmp_path), "--trec-version")
    assert code == 1 and "option --trec-version requires argument" in err and "Usage: trec_eval" in err


def test_judged_query_missing_from_the_run(tmp_path):
    """Left out without -c in both versions (trec_eval 9.x); under the 10.0 default a warning says so, since
    trec_eval 10.0 evaluates it against another query's results."""
    files = _files(tmp_path, QRELS + "q2 0 z 1\nq3 0 z 1\n")
    code, out, err = trec_eval("-m", "P.5", "-m", "num_q", *files)
    assert code == 0 and _values(out)["num_q", "all"] == "1" and _values(out)["P_5", "all"] == "0.4000"
    assert err == "trec_eval: warning: 2 judged queries have no results in the run: left out, as trec_eval 9.x " \
        "does (trec_eval 10.0 evaluates each against another query's results); -c counts them as 0\n"
    assert trec_eval("--trec-version", "9", "-m", "P.5", "-m", "num_q", *files)[1:] == (out, "")
    assert trec_eval("-c", "-m", "P.5", *files)[2] == ""


@pytest.mark.parametrize("qrels, run, where", [
    (QRELS, RUN + "q9 Q0 a 1 0.5 hand\nq9 Q0 a 2 0.4 hand\n", "run:7: document 'a' is retrieved twice for query 'q9'"),
    (QRELS + "q8 0 a 1\nq8 0 a 0\n", RUN, "qrels:7: document 'a' is judged twice for query 'q8'"),
], ids=["run-only query", "qrels-only query"])
def test_a_repeat_in_a_query_trec_eval_never_evaluates(tmp_path, qrels, run, where):
    """trec_eval never reads the run of a query without judgements, nor (without -c) the judgements of a query
    without results: a repeated document there is a warning, the run goes on with the same values; with -c the
    judged query is evaluated and its repeat stops the run."""
    code, out, err = trec_eval("-q", "-m", "all_trec", *_files(tmp_path, qrels, run))
    assert code == 0 and out == trec_eval("-q", "-m", "all_trec", *_files(tmp_path))[1]
    assert err.startswith("trec_eval: warning: ") and f"/{where}, in a query not evaluated: ignored\n" in err, err
    code, _, err = trec_eval("-c", "-m", "P.5", *_files(tmp_path, qrels, run))
    assert (code == 1 and where in err) if "judged" in where else code == 0, err


def test_qrels_jg_repeats(tmp_path):
    """-R qrels_jg: a repeat in a query no group evaluates warns (the output stays trec_eval's, byte for byte); in
    an evaluated query it stops the run (it used to drop the judgement group silently)."""
    folder = _folder()
    results = (folder / "results.test").read_text()
    (tmp_path / "qrels").write_bytes((folder / "qrels.123").read_bytes())
    first = results.splitlines()[0].split()  # qid Q0 docid rank score tag
    (tmp_path / "run").write_text(results + f"999 Q0 a 1 0.5 {first[5]}\n999 Q0 a 2 0.4 {first[5]}\n")
    code, out, err = trec_eval("-m", "qrels_jg", "-q", "-R", "qrels_jg", tmp_path / "qrels", tmp_path / "run")
    assert code == 0 and out.encode() == (folder / "out.test.qrels_jg").read_bytes()
    assert "document 'a' is retrieved twice for query '999', in a query not evaluated: ignored" in err, err
    (tmp_path / "run").write_text(results + f"{first[0]} Q0 {first[2]} 1 0.5 t\n")
    code, _, err = trec_eval("-m", "qrels_jg", "-R", "qrels_jg", tmp_path / "qrels", tmp_path / "run")
    assert code == 1 and f"is retrieved twice for query '{first[0]}'" in err, err
