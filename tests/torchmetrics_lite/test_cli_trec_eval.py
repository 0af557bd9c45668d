"""``python -m torchmetrics_lite trec_eval`` against trec_eval 10.0's own test suite: every expected output in
``<repo root>/../shared/trec_eval_tests`` reproduced byte for byte with trec_eval's arguments (a test per file),
plus hand-worked examples of the measures and trec_eval's argument and input rules."""
import io
import os
import sys
from pathlib import Path

import pytest

from torchmetrics_lite.cli import main

TESTS = Path(__file__).resolve().parents[2].parent / "shared" / "trec_eval_tests"

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
]


def _folder() -> Path:
    if TESTS.is_dir():
        return TESTS
    if os.environ.get("CI"):  # CI has shared/ beside the clone: its absence is a failure, not a skip
        pytest.fail(f"trec_eval's test files are missing: {TESTS}")
    pytest.skip(f"trec_eval's test files are not beside this clone ({TESTS}); CI has them")


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
