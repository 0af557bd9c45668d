"""The command line against pytrec_eval (retrieval) and scikit-learn (classify), and its error cases."""
import io
import itertools
import subprocess
import sys

import numpy as np
import pytest
import pytrec_eval
from sklearn import metrics as skm

from tests.helpers.cli import PAIRS, TREC_MEASURES
from tests.helpers.cli import parse_trec_lines as _parse
from tests.helpers.cli import run_cli as _cli
from torchmetrics_lite.cli import main


def _generate(seed, tie_decimals=None, max_n=45):
    """qrels {qid: {doc: rel}} and run {qid: {doc: score}}: graded and negative judgements, unjudged and
    unretrieved documents, queries without relevant documents (q % 7 == 0), a query with more relevant documents
    than any run list when ``max_n`` is small (q == 3), queries in one file only."""
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(1, 27):
        docs = [f"d{j}" for j in rng.permutation(80)[:50]]
        if q <= 23:  # 24..26: in the run only
            rels = rng.choice([-1, 0, 0, 0, 1, 1, 2, 3], size=25) if q % 7 else np.zeros(25, dtype=int)
            rels = rng.integers(1, 4, size=25) if q == 3 else rels
            qrels[str(q)] = {d: int(r) for d, r in zip(docs[:25], rels)}
        if q != 5:  # 5: in the qrels only
            n = int(rng.integers(1, max_n))
            picked = [docs[j] for j in rng.permutation(50)[:n]]
            scores = rng.normal(size=n) * 3
            if tie_decimals is not None:
                scores = np.round(scores, tie_decimals)
            run[str(q)] = {d: float(s) for d, s in zip(picked, scores)}
    return qrels, run


def _write(tmp_path, qrels, run):
    qp, rp = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qp.write_text("".join(f"{q} 0 {d} {r}\n" for q, docs in qrels.items() for d, r in docs.items()))
    lines = []
    for q, docs in run.items():
        for rank, (d, s) in enumerate(sorted(docs.items(), key=lambda x: -x[1]), 1):
            lines.append(f"{q} Q0 {d} {rank} {s!r} tag\n")
    rp.write_text("".join(reversed(lines)))  # any line order
    return str(qp), str(rp)


def _trec(qrels, run):
    return pytrec_eval.RelevanceEvaluator(qrels, TREC_MEASURES).evaluate(run)


def _check_against_trec(printed, expected):
    qids = sorted(expected, key=int)
    assert printed["num_q", "all"] == len(qids)
    for ours, theirs in PAIRS.items():
        for q in qids:
            assert printed[ours, q] == pytest.approx(expected[q][theirs], abs=1e-11), (ours, q)
        mean = np.mean([expected[q][theirs] for q in qids])
        assert printed[ours, "all"] == pytest.approx(mean, abs=1e-11), ours


@pytest.mark.parametrize("seed,max_n", [(0, 45), (1, 12)])
def test_retrieval_matches_pytrec_eval_without_ties(tmp_path, seed, max_n):
    qrels, run = _generate(seed, max_n=max_n)
    assert all(len(set(d.values())) == len(d) for d in run.values())
    code, out, err = _cli("retrieval", *_write(tmp_path, qrels, run), "-m", *PAIRS, "--per-query", "--digits", 15)
    assert code == 0 and err == ""
    expected = _trec(qrels, run)
    assert "5" not in expected and "24" not in expected and len(expected) == 22
    _check_against_trec(_parse(out), expected)


def test_retrieval_docid_ties_match_pytrec_eval(tmp_path):
    qrels, run = _generate(2, tie_decimals=0)
    assert any(len(set(d.values())) < len(d) for d in run.values())
    code, out, _ = _cli("retrieval", *_write(tmp_path, qrels, run), "-m", *PAIRS, "-q", "--digits", 15,
                        "--ties", "docid")
    assert code == 0
    _check_against_trec(_parse(out), _trec(qrels, run))


def test_retrieval_average_ties_are_the_mean_over_tie_orders(tmp_path):
    # q1: tie groups {a,b,c} and {e,f}; q2: {x,y}. Oracle: pytrec_eval over every order of the tied documents.
    qrels = {"1": {"a": 2, "c": 1, "f": 1, "g": 3}, "2": {"y": 1, "w": 0}}
    run = {"1": {"a": 1.0, "b": 1.0, "c": 1.0, "d": 0.5, "e": 0.2, "f": 0.2}, "2": {"x": 3.0, "y": 3.0}}
    groups = [("1", ["a", "b", "c"]), ("1", ["e", "f"]), ("2", ["x", "y"])]
    totals = {}
    orders = list(itertools.product(*(itertools.permutations(g) for _, g in groups)))
    for perm in orders:
        broken = {q: dict(d) for q, d in run.items()}
        for (q, _), order in zip(groups, perm):
            for i, doc in enumerate(order):
                broken[q][doc] -= i * 1e-6
        for q, vals in _trec(qrels, broken).items():
            for name, v in vals.items():
                totals[name, q] = totals.get((name, q), 0.0) + v / len(orders)
    code, out, _ = _cli("retrieval", *_write(tmp_path, qrels, run), "-m", *PAIRS, "-q", "--digits", 15)
    printed = _parse(out)
    assert code == 0
    for ours, theirs in PAIRS.items():
        for q in ("1", "2"):
            assert printed[ours, q] == pytest.approx(totals[theirs, q], abs=1e-11), (ours, q)


def test_retrieval_output_format_and_empty_skip(tmp_path):
    qrels = {"1": {"a": 1}, "2": {"b": 0}}
    run = {"1": {"a": 2.0, "z": 1.0}, "2": {"b": 1.0}}
    paths = _write(tmp_path, qrels, run)
    code, out, _ = _cli("retrieval", *paths, "-m", "P@2", "map", "map")
    assert code == 0
    assert out.splitlines() == [f"{'num_q':<22}\tall\t2", f"{'P@2':<22}\tall\t0.2500", f"{'map':<22}\tall\t0.5000"]
    code, out, _ = _cli("retrieval", *paths, "-m", "map", "--empty", "skip", "--per-query")
    assert out.splitlines() == [f"{'map':<22}\t1\t1.0000", f"{'map':<22}\t2\tnan", f"{'num_q':<22}\tall\t2",
                                f"{'map':<22}\tall\t1.0000"]


def test_python_dash_m_entry_point_and_exit_code(tmp_path):
    qp, rp = _write(tmp_path, {"1": {"a": 1}}, {"1": {"a": 1.0}})  # one interpreter start: the slow part
    done = subprocess.run([sys.executable, "-m", "torchmetrics_lite", "retrieval", qp, rp, "-m", "ndcg@10", "foo"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "tml-eval: error: unknown retrieval measure 'foo' (known: ndcg[@k], map[@k], mrr[@k], " \
        "P@k, recall@k, success@k, Rprec)\n"


# ------------------------------------------------------------------------------------------- classify
def _csv(tmp_path, text, name="scores.csv"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_classify_matches_scikit_learn(tmp_path):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 200)
    p = np.round(np.clip(rng.normal(0.4 + 0.3 * y, 0.25), 0, 1), 2)  # ties included
    logit = np.log(np.clip(p, 1e-3, 1 - 1e-3) / (1 - np.clip(p, 1e-3, 1 - 1e-3)))
    rows = (f"{i},{float(a)!r},{float(b)!r},{int(c)}\n" for i, (a, b, c) in enumerate(zip(p, logit, y)))
    text = "id,score,logit,label\n" + "".join(rows)
    path = _csv(tmp_path, text)
    code, out, _ = _cli("classify", path, "--preds", "score", "--target", "label", "-m", "auroc", "ap", "f1",
                        "accuracy", "precision", "recall", "--threshold", "0.6", "--digits", "15")
    assert code == 0
    got = dict((k.strip(), float(v)) for k, v in (line.split("\t") for line in out.splitlines()))
    hard = p > 0.6
    expected = {"num_rows": 200, "auroc": skm.roc_auc_score(y, p), "ap": skm.average_precision_score(y, p),
                "f1": skm.f1_score(y, hard), "accuracy": skm.accuracy_score(y, hard),
                "precision": skm.precision_score(y, hard), "recall": skm.recall_score(y, hard)}
    assert got == pytest.approx(expected, abs=1e-12)
    code, out, _ = _cli("classify", path, "--preds", "logit", "--target", "label", "-m", "acc", "--from-logits",
                        "--digits", "15")
    clipped = np.clip(p, 1e-3, 1 - 1e-3)
    assert float(out.splitlines()[1].split("\t")[1]) == pytest.approx(skm.accuracy_score(y, clipped > 0.5))


# -------------------------------------------------------------------------------------------- errors
QRELS_OK = "1 0 a 1\n1 0 b 0\n"
RUN_OK = "1 Q0 a 1 2.0 t\n1 Q0 b 2 1.0 t\n"

FILE_ERRORS = [
    ("1 0 a 1\n1 0 b\n", RUN_OK, r"qrels.txt:2: expected 4 fields 'qid iter docid rel', got 3"),
    ("1 0 a x\n", RUN_OK, r"qrels.txt:1: relevance 'x' is not an integer"),
    ("1 0 a 1\n\n1 0 a 0\n", RUN_OK, r"qrels.txt:3: document 'a' is judged twice for query '1'"),
    (QRELS_OK, "1 Q0 a 1\n",
     "run.txt:1: expected 6 or more (or 5, without the tag) fields 'qid Q0 docid rank score tag', got 4"),
    (QRELS_OK, "1 Q0 a 1 2.0 t\n\n1 Q0 b 2 1.0\n",
     "run.txt:3: expected 6 or more (or 5, without the tag) fields 'qid Q0 docid rank score tag', got 5 (line 1 "
     "has 6)"),
    (QRELS_OK, "\n  \n", r"run.txt: the file is empty (expected lines 'qid Q0 docid rank score tag')"),
    ("", RUN_OK, r"qrels.txt: the file is empty (expected lines 'qid iter docid rel')"),
    (QRELS_OK, "1 Q0 a 1 2.0 t\n1 Q0 b 2 high t\n", r"run.txt:2: score 'high' is not a number"),
    (QRELS_OK, "1 Q0 a 1 nan t\n", r"run.txt:1: score 'nan' is not a number"),
    (QRELS_OK, "1 Q0 a 1 2.0 t\n1 Q0 a 2 1.0 t\n", r"run.txt:2: document 'a' is retrieved twice for query '1'"),
    (QRELS_OK, "7 Q0 a 1 2.0 t\n", r"no query of the run has judgements in the qrels"),
]


@pytest.mark.parametrize("qrels,run,message", FILE_ERRORS, ids=[m[:30] for *_, m in FILE_ERRORS])
def test_retrieval_malformed_files(tmp_path, qrels, run, message):
    qp, rp = _csv(tmp_path, qrels, "qrels.txt"), _csv(tmp_path, run, "run.txt")
    code, out, err = _cli("retrieval", qp, rp, "-m", "map")
    assert code == 1 and out == ""
    assert err.startswith("tml-eval: error: ") and message in err and err.count("\n") == 1


def test_unreadable_files(tmp_path):
    qp, rp = _csv(tmp_path, QRELS_OK, "qrels.txt"), _csv(tmp_path, RUN_OK, "run.txt")
    code, _, err = _cli("retrieval", qp, tmp_path / "missing.txt", "-m", "map")
    assert code == 1 and f"cannot read {tmp_path / 'missing.txt'}: No such file or directory" in err
    code, _, err = _cli("retrieval", tmp_path, rp, "-m", "map")
    assert code == 1 and f"cannot read {tmp_path}: Is a directory" in err
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"1 0 a 1\n\xff\xfe\n")
    code, _, err = _cli("retrieval", binary, rp, "-m", "map")
    assert code == 1 and "cannot read" in err and "not UTF-8 text (byte 8)" in err


@pytest.mark.parametrize("argv,message", [
    (["retrieval", "Q", "R", "-m", "ndgc@10"], "unknown retrieval measure 'ndgc@10' (known: ndcg[@k], map[@k]"),
    (["retrieval", "Q", "R", "-m", "auroc"], "unknown retrieval measure 'auroc'"),
    (["retrieval", "Q", "R", "-m", "precision"], "measure 'precision' needs a cut-off, e.g. precision@10"),
    (["retrieval", "Q", "R", "-m", "bpref"], "unknown retrieval measure 'bpref' (known: ndcg[@k], map[@k], mrr[@k], "
     "P@k, recall@k, success@k, Rprec); bpref is trec_eval's: `tml-eval trec_eval -m bpref QRELS RUN` evaluates it"),
    (["retrieval", "Q", "R", "-m", "Rprec@5"], "measure 'Rprec@5' takes no cut-off"),
    (["retrieval", "Q", "R", "-m", "ndcg@0"], "measure 'ndcg@0': the cut-off must be a positive integer"),
    (["classify", "F", "--preds", "p", "--target", "t", "-m", "ndcg"], "unknown classify measure 'ndcg'"),
])
def test_unknown_measures_are_usage_errors(argv, message):
    code, _, err = _cli(*argv)  # checked before any file is read
    assert code == 2 and f"tml-eval: error: {message}" in err


@pytest.mark.parametrize("argv", [[], ["rank"], ["retrieval", "Q", "R"], ["retrieval", "Q", "R", "-m", "map",
                                  "--ties", "random"], ["classify", "F", "-m", "auroc"]])
def test_argparse_usage_errors(argv, capsys):
    assert main(argv) == 2
    assert "usage: tml-eval" in capsys.readouterr().err


def test_help_exits_zero(capsys):
    assert main(["retrieval", "--help"]) == 0
    assert "--per-query" in capsys.readouterr().out


CSV_ERRORS = [
    ("", r"scores.csv: empty file (expected a header row)"),
    ("score,y\n0.5,1\n", r"scores.csv: no column 'label' (columns: score, y)"),
    ("score,label\n", r"scores.csv: no data rows"),
    ("score,label\n0.5,1\n0.2\n", r"scores.csv:3: expected 2 fields, got 1"),
    ("score,label\n0.5,1\nabc,0\n", r"scores.csv:3: column 'score': 'abc' is not a number"),
    ("score,label\n0.5,2\n", r"scores.csv:2: column 'label': '2' is not a 0/1 label"),
    ("score,label\n0.5,1\n\n1.5,1\n0.2,0\n", r"scores.csv:4: column 'score': 1.5 is not a probability in [0, 1]; "
     "pass --from-logits for real-valued scores"),
]


@pytest.mark.parametrize("text,message", CSV_ERRORS, ids=[m[:30] for _, m in CSV_ERRORS])
def test_classify_errors(tmp_path, text, message):
    path = _csv(tmp_path, text)
    code, out, err = _cli("classify", path, "--preds", "score", "--target", "label", "-m", "f1")
    assert code == 1 and out == "" and message in err, err


# ----------------------------------------------------------------------------------------- review: file edge cases
def test_byte_order_mark_is_not_part_of_the_first_query_id(tmp_path):
    """A UTF-8 BOM (Notepad, Excel) made the first qrels line query '\\ufeff1': its judgement was silently lost."""
    qp, rp = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qp.write_bytes(b"\xef\xbb\xbf1 0 a 1\n1 0 b 0\n")
    rp.write_bytes(b"\xef\xbb\xbf1 Q0 a 1 0.5 t\n1 Q0 b 2 0.9 t\n")
    code, out, err = _cli("retrieval", qp, rp, "-m", "map", "--digits", 6)
    assert code == 0 and err == ""
    assert _parse(out)["map", "all"] == 0.5  # a (relevant) at rank 2
    csv = tmp_path / "scores.csv"
    csv.write_bytes(b"\xef\xbb\xbfscore,label\n0.9,1\n0.1,0\n")
    code, out, err = _cli("classify", csv, "--preds", "score", "--target", "label", "-m", "auroc")
    assert code == 0 and err == "" and out.splitlines()[-1].split() == ["auroc", "1.0000"]


def test_query_ids_that_look_numeric_but_are_not_integers(tmp_path):
    """'²'.isdigit() is True but int('²') raises: that crashed with a traceback; '7' and '07' also sorted in
    hash order. Numeric ids sort by value, then as text."""
    qrels = {"²": {"a": 1}, "07": {"a": 1}, "7": {"b": 1}, "10": {"a": 1}}
    run = {q: {"a": 1.0, "b": 0.5} for q in qrels}
    code, out, err = _cli("retrieval", *_write(tmp_path, qrels, run), "-m", "mrr", "--per-query")
    assert code == 0 and err == ""
    assert [line.split("\t")[1] for line in out.splitlines()[:4]] == ["07", "7", "10", "²"]
    assert [float(line.split("\t")[2]) for line in out.splitlines()[:4]] == [1.0, 0.5, 1.0, 1.0]


# ------------------------------------------------------------------------------ trec_eval syntax, files, no torch
def test_measure_syntax_as_trec_eval_users_type_it(tmp_path):
    qrels, run = _generate(4)
    qp, rp = _write(tmp_path, qrels, run)
    want = _parse(_cli("retrieval", qp, rp, "-m", "ndcg_cut_10", "map", "P_5", "P_10", "--digits", 12)[1])
    for argv in (["-m", "ndcg_cut_10", "-m", "map", "-m", "P_5", "-m", "P_10", qp, rp],  # repeated flag
                 ["-m", "ndcg_cut_10", "map", "P_5", "P_10", qp, rp],  # several values before the files
                 [qp, rp, "-m", "ndcg_cut_10", "map", "-m", "P_5,P_10"],  # after the files; a comma list
                 ["-m", "ndcg_cut_10,map", "-m", "P_5,10", qp, rp]):  # trec_eval's P.5,10 form
        code, out, err = _cli("retrieval", *argv, "--digits", 12)
        assert code == 0 and err == "", (argv, err)
        assert _parse(out) == want, argv
    code, _, err = _cli("retrieval", "-m", "map", qp)
    assert code == 2 and "retrieval takes two files, QRELS and RUN, got 1" in err


def test_five_column_run_stdin_and_gzip(tmp_path, monkeypatch):
    import gzip

    qrels, run = _generate(5)
    qp, rp = _write(tmp_path, qrels, run)
    want = _cli("retrieval", qp, rp, "-m", "map", "ndcg@10", "-q", "--digits", 12)[1]
    lines = open(rp).read().splitlines()
    five = tmp_path / "run5.txt"
    five.write_text("".join(" ".join(line.split()[:5]) + "\n" for line in lines))  # no tag column
    assert _cli("retrieval", qp, five, "-m", "map", "ndcg@10", "-q", "--digits", 12)[1] == want
    gz = tmp_path / "run.txt.gz"
    gz.write_bytes(gzip.compress(open(rp, "rb").read()))
    assert _cli("retrieval", qp, gz, "-m", "map", "ndcg@10", "-q", "--digits", 12)[1] == want
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(open(rp, "rb").read())))
    assert _cli("retrieval", qp, "-", "-m", "map", "ndcg@10", "-q", "--digits", 12)[1] == want


def test_help_says_the_default_tie_rule_differs_from_trec_eval(capsys):
    assert main(["retrieval", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "differs from trec_eval" in text.lower() and "--ties docid reproduces trec_eval" in text


def test_retrieval_command_line_never_imports_torch(tmp_path):
    """``python -m torchmetrics_lite retrieval`` runs on numpy alone: importing the package and evaluating a run
    leave torch unimported (it would cost seconds of start-up). ``-X importtime`` lists every module imported,
    up to the end (the command line exits without the interpreter's teardown)."""
    qp, rp = _write(tmp_path, *_generate(6))
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "torchmetrics_lite", "retrieval", qp, rp, "-m",
                           "map", "ndcg@10", "P@5", "--ties", "docid"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    modules = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")]
    assert "torchmetrics_lite.cli" in modules and "numpy" in modules
    assert not [m for m in modules if m == "torch" or m.startswith("torch.")]
    assert done.stdout.splitlines()[0].split()[:3] == ["num_q", "all", "22"]


def test_files_read_in_chunks_give_the_same_values(tmp_path, monkeypatch):
    """Large files are tokenized a chunk of bytes at a time: chunk boundaries must lose no line (and error lines
    count across chunks)."""
    from torchmetrics_lite.cli import files

    qrels, run = _generate(7)
    qp, rp = _write(tmp_path, qrels, run)
    want = _cli("retrieval", qp, rp, "-m", "map", "recall@20", "ndcg", "-q", "--digits", 12)
    monkeypatch.setattr(files, "_CHUNK", 97)  # a few lines per chunk, boundaries anywhere
    assert _cli("retrieval", qp, rp, "-m", "map", "recall@20", "ndcg", "-q", "--digits", 12) == want
    lines = open(rp).read().splitlines()
    lines[40] = " ".join(lines[40].split()[:4])
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines) + "\n")
    code, _, err = _cli("retrieval", qp, bad, "-m", "map")
    assert code == 1 and "bad.txt:41: expected 6 or more (or 5, without the tag) fields" in err
