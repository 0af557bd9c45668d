"""``trec_eval -R prefs`` / ``-R qrels_prefs`` and the ``all_prefs`` measures on hand-worked examples (trec_eval's
own expected outputs, ``out.test.prefs`` and ``out.test.qrels_prefs``, are in test_cli_trec_eval.py)."""
import io
import sys

import pytest

from torchmetrics_lite.cli import main

# q1: run a, b, then c and d tied (ascending docno breaks the tie: c before d). Judged: a b c d e f; docid
# ranks a=0 b=1 c=2 d=3 (retrieved), e=4 f=5 (not retrieved, docno order). njr = 4.
# Group u1 (one sub-group: classes c | d e | a f): c>d ful ret; c>a, d>a unful ret; c>e, c>f, d>f ful implied;
#   e>a unful implied; e>f neither retrieved. ful_ret 1, poss_ret 3, ful_imp 3, poss_imp 4, notoccur 1;
#   R 3 (c d e), 2 retrieved; N 2 (a f), 1 retrieved.
# Group u2 (two sub-groups: d>b, b>a; closure adds d>a): all three retrieved and unfulfilled: poss_ret 3.
#   R 2 (b d), both retrieved; N 1 (a), retrieved.
# q2: run h, g, i; judged h(1) g i j(0): ranks h=0 g=1 i=2 j=3, njr = 3. One group, classes h | g i j:
#   h>g, h>i ful ret, h>j ful implied. R 1 < N 3: the Rnonrel measures are recalculated as trec_eval does,
#   on the first R lines of the lowest class (g): every line against g, fulfilled when ranked above it
#   (h; g against itself is possible, unfulfilled): 1 / 4; retrieved lines only: 1 / 3.
PREFS = """q1 u1 s a 0
q1 u1 s c 2
q1 u1 s d 1
q1 u1 s e 1
q1 u1 s f 0
q1 u2 s1 d 3
q1 u2 s1 b 1
q1 u2 s2 b 2
q1 u2 s2 a 0
q2 u1 0 h 1
q2 u1 0 g 0
q2 u1 0 i 0
q2 u1 0 j 0
"""
RUN = """q1 Q0 a 1 0.9 hand
q1 Q0 b 2 0.8 hand
q1 Q0 d 3 0.5 hand
q1 Q0 c 4 0.5 hand
q1 Q0 x 5 0.4 hand
q2 Q0 h 1 0.9 hand
q2 Q0 g 2 0.8 hand
q2 Q0 i 3 0.7 hand
"""
HAND = {
    "q1": {"prefs_num_prefs_poss": 3 + 4 + 1 + 3, "prefs_num_prefs_ful": 1 + 3, "prefs_num_prefs_ful_ret": 1,
           "prefs_simp": 4 / 11, "prefs_avgjg": (4 / 8 + 0 / 3) / 2,
           # pairs (counts over both groups): retrieved {a,b} {a,c} {a,d} {b,d} {c,d}: only c>d fulfilled;
           # one retrieved {c,e} {c,f} {d,f} fulfilled, {a,e} not; {e,f} neither retrieved
           "prefs_pair": (1 + 3) / (5 + 4 + 1), "prefs_pair_ret": 1 / 5, "prefs_pair_imp": (1 + 3) / (5 + 4),
           # R >= N: R - N fulfilled preferences added per retrieved relevant document, R - N possible per one
           "prefs_avgjg_Rnonrel": ((4 + 2 * 1) / (8 + 3 * 1) + (0 + 2 * 1) / (3 + 2 * 1)) / 2,
           "prefs_simp_ret": 1 / 6, "prefs_avgjg_ret": (1 / 3 + 0 / 3) / 2,
           # retrieved R and N (2, 1; 2, 1); trec_eval adds R - N times the group's whole R to the possible
           "prefs_avgjg_Rnonrel_ret": ((1 + 2) / (3 + 3) + (0 + 2) / (3 + 2)) / 2,
           "prefs_simp_imp": 4 / 10, "prefs_avgjg_imp": (4 / 7 + 0 / 3) / 2},
    "q2": {"prefs_num_prefs_poss": 3, "prefs_num_prefs_ful": 3, "prefs_num_prefs_ful_ret": 2, "prefs_simp": 1,
           "prefs_avgjg": 1, "prefs_pair": 1, "prefs_pair_ret": 1, "prefs_pair_imp": 1,
           "prefs_avgjg_Rnonrel": 1 / 4, "prefs_simp_ret": 1, "prefs_avgjg_ret": 1,
           "prefs_avgjg_Rnonrel_ret": 1 / 3, "prefs_simp_imp": 1, "prefs_avgjg_imp": 1},
}


def trec_eval(tmp_path, *argv, prefs=PREFS, run=RUN):
    (tmp_path / "prefs").write_text(prefs)
    (tmp_path / "run").write_text(run)
    out, err, old = io.StringIO(), io.StringIO(), sys.stderr
    sys.stderr = err
    try:
        code = main(["trec_eval", *argv, str(tmp_path / "prefs"), str(tmp_path / "run")], stdout=out)
    finally:
        sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def _values(out):
    return {(line.split("\t")[0].strip(), line.split("\t")[1]): line.split("\t")[2] for line in out.splitlines()}


def test_all_prefs_by_hand(tmp_path):
    code, out, err = trec_eval(tmp_path, "-q", "-m", "all_prefs", "-R", "prefs", "--full-precision")
    assert code == 0, err
    got = _values(out)
    for qid, values in HAND.items():
        for name, value in values.items():
            assert float(got[name, qid]) == pytest.approx(value, abs=1e-15), (qid, name)
    for name in HAND["q1"]:
        if name.startswith("prefs_num"):  # summary: the sum over queries
            assert float(got[name, "all"]) == HAND["q1"][name] + HAND["q2"][name]
        else:
            assert float(got[name, "all"]) == pytest.approx((HAND["q1"][name] + HAND["q2"][name]) / 2, abs=1e-15)
    assert got["num_q", "all"] == "2" and got["runid", "all"] == "hand"


def test_qrels_prefs_reads_qrels_as_one_sub_group(tmp_path):
    qrels = "q2 0 h 1\nq2 0 g 0\nq2 0 i 0\nq2 0 j 0\n"
    code, out, err = trec_eval(tmp_path, "-q", "-m", "all_prefs", "-R", "qrels_prefs", "--full-precision",
                               prefs=qrels)
    assert code == 0, err
    got = _values(out)
    for name, value in HAND["q2"].items():
        assert float(got[name, "q2"]) == pytest.approx(value, abs=1e-15), name


@pytest.mark.parametrize("prefs, run, message", [
    ("q u s a 1\nq u s a 0\n", RUN.replace("q1", "q"), "a document occurs with different rel_level"),
    ("q u s1 a 2\nq u s1 b 1\nq u s2 b 2\nq u s2 a 1\n", RUN.replace("q1", "q"), "inconsistent preferences"),
    ("q u s1 a 1\nq u s1 b 2\nq u s2 a 0\nq u s2 c 1\n", RUN.replace("q1", "q"), "both 0 and non-0 rel_level"),
    (PREFS, RUN + "q1 Q0 a 9 0.1 hand\n", "duplicate docs a in query 'q1'"),
    # R 2 < N 3, but the lowest class (level -1) holds 1 line: trec_eval reads past it
    ("q u s a 2\nq u s b 1\nq u s c 0\nq u s d 0\nq u s e -1\n", RUN.replace("q1", "q"),
     "more relevant documents (2) than its lowest level (1)"),
])
def test_bad_preferences_stop_with_a_clear_error(tmp_path, prefs, run, message):
    code, _, err = trec_eval(tmp_path, "-m", "all_prefs", "-R", "prefs", prefs=prefs, run=run)
    assert code == 1 and message in err, err


def test_zscores_and_complete(tmp_path):
    (tmp_path / "z").write_text("q2 prefs_avgjg_Rnonrel 0.5 0.125\n")
    code, out, err = trec_eval(tmp_path, "-q", "-m", "prefs_avgjg_Rnonrel", "-R", "prefs", "-Z", str(tmp_path / "z"))
    assert code == 0, err
    assert _values(out)["Zprefs_avgjg_Rnonrel", "q2"] == "-2.0000"  # (1/4 - 0.5) / 0.125
    assert _values(out)["Zprefs_avgjg_Rnonrel", "q1"] == "-1000000.0000"  # no line for q1: trec_eval's rule
    code, _, err = trec_eval(tmp_path, "-c", "-m", "all_prefs", "-R", "prefs")
    assert code == 2 and "-c is not supported with -R prefs" in err, err
