"""The command line on hostile files (issue 34): one 10**6-byte docid among short ones runs in memory linear in
the input (a subprocess under an address-space limit, where padding every id to the longest needs gigabytes),
ids of any length get codes in byte order (``long_ids``, against Python's sort), a MemoryError is one line and a
non-zero exit, and no library warning reaches stderr (a score of 1e309 is inf, as trec_eval's ``atof``)."""
import importlib
import io
import random
import resource
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import pytrec_eval

from torchmetrics_lite.cli import long_ids, main
from torchmetrics_lite.cli.files import read_run
from torchmetrics_lite.cli.ids import Vocab
from torchmetrics_lite.cli.parse import id_keys, padded

ROOT = Path(__file__).resolve().parents[2]
LONG = "x" * 10**6


def _cli(*argv, limit_mib=None, warnings_as_errors=True):
    """Exit code, stdout, stderr of ``python -m torchmetrics_lite ARGS`` in a subprocess (RLIMIT_AS optional)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (limit_mib * 2**20, limit_mib * 2**20))

    flags = ["-W", "error"] if warnings_as_errors else []
    run = subprocess.run([sys.executable, *flags, "-m", "torchmetrics_lite", *map(str, argv)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, preexec_fn=limit if limit_mib else None)
    return run.returncode, run.stdout, run.stderr


def _files(tmp_path, long_id):
    """2,000 judged documents and a run of 2,000 lines plus one document whose id is ``long_id`` (judged
    relevant, tied in score with two others: the docid order decides)."""
    rng = random.Random(34)
    qrels = [f"q{q} 0 doc-{q}-{d:04d} {rng.randint(0, 2)}\n" for q in range(20) for d in range(100)]
    qrels.append(f"q3 0 {long_id} 1\n")
    run = [f"q{q} Q0 doc-{q}-{d:04d} {d + 1} {(100 - d) // 2} tag\n" for q in range(20) for d in range(100)]
    run.insert(350, f"q3 Q0 {long_id} 51 25 tag\n")
    (tmp_path / "qrels").write_text("".join(qrels))
    (tmp_path / "run").write_text("".join(run))
    return tmp_path / "qrels", tmp_path / "run"


def test_one_megabyte_docid_runs_in_linear_memory(tmp_path):
    """Padded to the longest id the qrels' and run's 4,000 ids need 4 GB; under a 768 MiB address space the run
    finishes, and prints what the same files with a short id in its place print (an id that sorts the same)."""
    (tmp_path / "short").mkdir()
    short, files = _files(tmp_path / "short", "x"), _files(tmp_path, LONG)
    for argv in (["trec_eval", "-q", "-m", "all_trec"], ["retrieval", "-m", "map", "ndcg@10", "--ties", "docid"]):
        code, expected, err = _cli(*argv, *short)
        assert code == 0, err
        code, out, err = _cli(*argv, *files, limit_mib=768)
        assert (code, err) == (0, "")
        assert out == expected


@pytest.mark.parametrize("seed", range(4))
def test_ids_of_any_length_get_codes_in_byte_order(seed):
    rng = random.Random(seed)
    alphabet = "ab~é"  # a multi-byte UTF-8 character, prefixes and repeats
    ids = ["".join(rng.choice(alphabet) for _ in range(rng.choice([1, 2, 3, 8, 9, 17, 40]))) for _ in range(300)]
    ids += [ids[0] * 5000, ids[1] * 3000, ids[1] * 3000 + "a", ids[0] * 5000]  # long ones: equal, prefixes
    rng.shuffle(ids)
    text = padded(" ".join(ids).encode())
    bounds = np.flatnonzero(np.diff(np.concatenate([[1], (text.arr[text.lo:text.hi] == 32).astype(np.int8), [1]])))
    start, end = bounds[0::2] + text.lo, bounds[1::2] + text.lo
    keys = id_keys(text, start, end)
    assert isinstance(keys, long_ids.LongIds)  # padding 304 ids to 15,000 bytes: not bounded
    vocab = Vocab()
    halves = vocab.add(keys.take(np.arange(0, 150))), vocab.add(keys.take(np.arange(150, len(ids))))
    codes = np.concatenate([vocab.codes()[h] for h in halves])
    order = sorted(set(i.encode() for i in ids))
    assert codes.tolist() == [order.index(i.encode()) for i in ids]
    assert vocab.names(np.arange(len(order))) == [b.decode() for b in order]
    mixed = long_ids.concat([np.array([int.from_bytes(b"ab".ljust(8, b"\0"), "big")], dtype=np.uint64),
                             np.array([b"abcdefghij"]), keys])
    assert isinstance(mixed, long_ids.LongIds) and mixed.tolist()[:2] == [b"ab", b"abcdefghij"]


def test_long_fields_elsewhere_read_as_numbers_and_ids(tmp_path):
    digits = "0." + "1" * 5000  # a score of 5,002 bytes: read by Python, its double as float() gives
    (tmp_path / "run").write_text(f"q1 Q0 {LONG} 1 {digits} t\nq1 Q0 d2 2 1e-3 t\nq1 Q0 d3 3 2.5E1 t\n")
    queries, docs = Vocab(), Vocab()
    run = read_run(str(tmp_path / "run"), queries, docs)
    assert run.score.tolist() == [float(digits), 1e-3, 25.0]
    assert docs.names(docs.codes()[run.doc]) == [LONG, "d2", "d3"]


def test_a_memory_error_is_one_line_and_a_non_zero_exit(tmp_path, monkeypatch):
    import torchmetrics_lite.cli.trec_eval.command as te

    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(te, "read_qrels", no_memory)
    qrels, run = _files(tmp_path, "x")
    for argv in (["trec_eval", qrels, run], ["retrieval", "-m", "map", qrels, run]):
        if argv[0] == "retrieval":
            monkeypatch.setattr(importlib.import_module("torchmetrics_lite.cli.main"), "read_qrels", no_memory)
        err = io.StringIO()
        monkeypatch.setattr(sys, "stderr", err)
        code = main([str(a) for a in argv], stdout=io.StringIO())
        assert code == 1
        assert err.getvalue().count("\n") == 1 and "out of memory" in err.getvalue()
        assert "Traceback" not in err.getvalue()


def test_overflowing_scores_are_inf_as_trec_eval_reads_them_and_print_no_warning(tmp_path):
    """trec_eval reads scores with atof: 1e309 is inf, -1e309 is -inf, 1e-400 is 0 (tied inf scores: by
    descending docid); pytrec_eval (trec_eval's C code, scores read as C floats) on the same values; no NumPy
    warning ("overflow encountered in cast") on stderr, run with warnings as errors. 3.4e39 overflows C's float
    only: with --float32-scores."""
    lines = [("a", "1e309"), ("b", "5"), ("c", "-1e309"), ("d", "1E400"), ("e", "1e-400"), ("g", "-2")]
    qrels = {"q1": {"a": 0, "b": 1, "c": 1, "d": 1, "e": 0, "f": 1, "g": 1}}
    (tmp_path / "qrels").write_text("".join(f"q1 0 {d} {r}\n" for d, r in qrels["q1"].items()))
    measures = {"map", "P_5", "recip_rank", "ndcg"}
    for extra, flags in (([], ["--full-precision"]), ([], ["--float32-scores"]), ([("f", "3.4e39")],
                                                                                 ["--float32-scores"])):
        (tmp_path / "run").write_text("".join(f"q1 Q0 {d} 1 {s} tag\n" for d, s in lines + extra))
        code, out, err = _cli("trec_eval", *flags, "-q", "--full-precision", "-m", "all_trec", tmp_path / "qrels",
                              tmp_path / "run")
        assert (code, err) == (0, "")
        ours = {line.split("\t")[0].strip(): float(line.split("\t")[2]) for line in out.splitlines()
                if line.split("\t")[1] == "q1" and line.split("\t")[0].strip() in measures}
        scores = {d: float(s) for d, s in lines + extra}
        theirs = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate({"q1": scores})["q1"]
        assert ours == pytest.approx(theirs, abs=1e-12)
