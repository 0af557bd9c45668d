"""The command line's file parsing (bytes -> fields, id keys, exact decimals) against Python's own parsing and
pytrec_eval: odd whitespace, CRLF, number spellings, long / prefix / unicode document ids, the listed-run
shortcut, and the byte-level helpers on their own."""
import io
import os
import sys

import numpy as np
import pytest
import pytrec_eval
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.helpers.cli import PAIRS, TREC_MEASURES
from tests.helpers.cli import parse_trec_lines as _parse
from tests.helpers.cli import run_cli as _cli
from torchmetrics_lite.cli import files as cli_files
from torchmetrics_lite.cli import parse as cli_parse
from torchmetrics_lite.cli.ids import Vocab

# document ids: <= 8 bytes, 9 .. 16, over 16, prefixes of each other, unicode (UTF-8: 2 and 3 bytes a character)
DOCS = ["d1", "d10", "d100", "d1000000", "d10000000", "doc-0001", "doc-00010", "clueweb09-en0000-00-00001",
        "clueweb09-en0000-00-00010", "clueweb09-en0000-00-0001", "dé", "dè", "文書1", "文書10", "Z", "a", "a0", "a00"]


def _data(seed, tie_decimals=1):
    """qrels {qid: {doc: rel}} and run {qid: {doc: score}}: graded and negative judgements, judged documents the
    run misses, a query whose judgements are all non-relevant ('7'), one in the qrels only ('5'), one in the run
    only ('9'), tied scores."""
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in ["1", "2", "3", "5", "7", "9", "10", "q-long-query-id"]:
        docs = [DOCS[j] for j in rng.permutation(len(DOCS))]
        if q != "9":
            qrels[q] = {d: int(r) for d, r in zip(docs[:10], rng.choice([-1, 0, 1, 2, 3], size=10))}
            if q == "7":
                qrels[q] = dict.fromkeys(qrels[q], 0)
        if q != "5":
            picked = docs[3:3 + int(rng.integers(2, len(DOCS) - 3))]
            run[q] = {d: float(np.round(s, tie_decimals)) for d, s in zip(picked, rng.normal(size=len(picked)))}
    return qrels, run


def _score_text(value, style):
    """A spelling of a score and the float Python reads from it."""
    text = {"repr": repr(value), "fixed": f"{value:.4f}", "exp": f"{value:.6e}", "EXP": f"{value:.3E}",
            "plus": f"{value:+.2f}", "int": f"{round(value)}"}[style]
    return text, float(text)


def _write(tmp_path, qrels, run, sep=" ", eol="\n", styles=("repr",), listed=False, seed=0):
    """Write both files with separator ``sep`` (a string, or a callable giving one), line end ``eol`` and score
    spellings cycling over ``styles``; returns the paths and the run as the file spells it."""
    rng = np.random.default_rng(seed)
    pick = sep if callable(sep) else (lambda: sep)
    qp, rp = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qp.write_bytes("".join(pick().join([q, "0", d, str(r)]) + eol for q, docs in qrels.items()
                           for d, r in docs.items()).encode())
    rows, spelled = [], {}
    for q, docs in run.items():
        spelled[q] = {}
        for i, (d, s) in enumerate(docs.items()):
            text, value = _score_text(s, styles[i % len(styles)])
            spelled[q][d] = value
            rows.append((q, d, value, text))
    if listed:  # rank order within each query (ties in any docid order): the CLI skips its sort
        rows.sort(key=lambda r: ((0, int(r[0])) if r[0].isdigit() else (1, 0), r[0], -r[2]))  # output order
    else:
        rows = [rows[i] for i in rng.permutation(len(rows))]
    rp.write_bytes("".join(pick().join([q, "Q0", d, str(i), text, "tag"]) + eol
                           for i, (q, d, _, text) in enumerate(rows, 1)).encode())
    return str(qp), str(rp), spelled


def _check(qp, rp, qrels, run, *extra):
    code, out, err = _cli("retrieval", qp, rp, "-m", *PAIRS, "--per-query", "--digits", 15, "--ties", "docid", *extra)
    assert code == 0 and err == "", err
    expected = pytrec_eval.RelevanceEvaluator(qrels, TREC_MEASURES).evaluate(run)
    assert sorted(expected) == ["1", "10", "2", "3", "7", "q-long-query-id"]
    printed = _parse(out)
    for ours, theirs in PAIRS.items():  # numeric ids first (by value), then the others: not _check_against_trec's
        for q in expected:
            assert printed[ours, q] == pytest.approx(expected[q][theirs], abs=1e-11), (ours, q)
        mean = np.mean([v[theirs] for v in expected.values()])
        assert printed[ours, "all"] == pytest.approx(mean, abs=1e-11), ours


FORMATS = {
    "tabs": dict(sep="\t"),
    "crlf": dict(eol="\r\n"),
    "odd whitespace": dict(sep=lambda: " \t"[np.random.randint(2)] * np.random.randint(1, 4), eol=" \t\n\n \x0b\x0c\n"),
    "number spellings": dict(styles=("repr", "fixed", "exp", "EXP", "plus", "int")),
    "listed ranked": dict(listed=True, styles=("fixed",)),
}


@pytest.mark.parametrize("chunk", [97, 1 << 20], ids=["chunks of 97 bytes", "one chunk"])
@pytest.mark.parametrize("name", list(FORMATS))
def test_file_formats_match_pytrec_eval(tmp_path, monkeypatch, name, chunk):
    np.random.seed(1)
    monkeypatch.setattr(cli_files, "_CHUNK", chunk)
    qrels, run = _data(0)
    qp, rp, spelled = _write(tmp_path, qrels, run, **FORMATS[name])
    _check(qp, rp, qrels, spelled)


def test_negative_scores_and_no_final_line_break(tmp_path):
    qrels, run = _data(1)
    run = {q: {d: -abs(s) - 1e-3 * (i % 3) for i, (d, s) in enumerate(docs.items())} for q, docs in run.items()}
    qp, rp, spelled = _write(tmp_path, qrels, run, styles=("repr", "fixed", "exp"))
    with open(rp, "rb+") as f:  # the last line without its line break
        f.truncate(len(f.read()) - 1)
    _check(qp, rp, qrels, spelled)


def test_listed_run_with_queries_out_of_order(tmp_path):
    """Each query's documents in rank order but the queries in any order: the blocks are reordered, no sort."""
    qrels, run = _data(2)
    qp, rp, spelled = _write(tmp_path, qrels, run, listed=True, styles=("fixed",))
    lines = open(rp, "rb").read().splitlines(keepends=True)
    blocks = {}
    for line in lines:
        blocks.setdefault(line.split()[0], []).append(line)
    open(rp, "wb").write(b"".join(b"".join(blocks[q]) for q in sorted(blocks, reverse=True)))
    _check(qp, rp, qrels, spelled)
    # a query in two blocks is not a listed run: the sort runs
    open(rp, "wb").write(b"".join(blocks[b"1"][:1] + blocks[b"2"] + blocks[b"1"][1:] + [
        line for q in blocks if q not in (b"1", b"2") for line in blocks[q]]))
    _check(qp, rp, qrels, spelled)


def test_listed_order_of_runs_written_ranked():
    from torchmetrics_lite.cli.rank import _LISTED, _listed_order

    q, score = np.array([0, 0, 0, 1, 1, 2]), np.array([3.0, 2.0, 2.0, 5.0, 1.0, 0.0])
    assert _listed_order(q, score) is _LISTED
    blocks = np.array([2, 1, 1, 0, 0, 0]), np.array([0.0, 5.0, 1.0, 3.0, 2.0, 2.0])
    order = _listed_order(*blocks)
    assert order.tolist() == [3, 4, 5, 1, 2, 0] and (np.diff(blocks[0][order]) >= 0).all()
    assert _listed_order(np.array([0, 1, 0]), np.array([3.0, 2.0, 1.0])) is None  # query 0 in two blocks
    assert _listed_order(np.array([0, 0, 1]), np.array([1.0, 2.0, 1.0])) is None  # not by descending score


def test_average_ties_read_the_same_from_every_spelling(tmp_path):
    qrels, run = _data(3)
    want = _cli("retrieval", *_write(tmp_path, qrels, run)[:2], "-m", *PAIRS, "-q", "--digits", 15)
    for fmt in FORMATS.values():
        if "styles" not in fmt:
            got = _cli("retrieval", *_write(tmp_path, qrels, run, **fmt)[:2], "-m", *PAIRS, "-q", "--digits", 15)
            assert got == want


@pytest.mark.parametrize("data,message", [
    (b"1 0 a 1\n1 0 b\x00 1\n", "qrels.txt: not a text file (a NUL byte at byte 13)"),
    (b"1 0 a 1\n1 0 b 1e3\n", "qrels.txt:2: relevance '1e3' is not an integer"),
    (b"1 0 a 1\n1 0 b 99999999999999999999\n", "qrels.txt:2: relevance '99999999999999999999' is out of range"),
])
def test_qrels_errors(tmp_path, data, message):
    (tmp_path / "qrels.txt").write_bytes(data)
    (tmp_path / "run.txt").write_bytes(b"1 Q0 a 1 1.0 t\n")
    code, _, err = _cli("retrieval", tmp_path / "qrels.txt", tmp_path / "run.txt", "-m", "map")
    assert code == 1 and message in err, err


@pytest.mark.parametrize("judged", ["文書-long-document-id", "a1z"])  # long ids (codes), short ones (keys)
def test_repeated_long_and_unicode_documents_are_reported(tmp_path, judged):
    (tmp_path / "qrels.txt").write_bytes(f"1 0 {judged} 1\n".encode())
    for doc in ("文書-long-document-id", "文書", "d", "c3z"):  # 'c3z': every short id ends with a 'z' byte
        (tmp_path / "run.txt").write_bytes(f"1 Q0 b2z 1 2.0 t\n1 Q0 {doc} 2 1.0 t\n1 Q0 {doc} 3 0.5 t\n".encode())
        code, _, err = _cli("retrieval", tmp_path / "qrels.txt", tmp_path / "run.txt", "-m", "map")
        assert code == 1 and f"run.txt:3: document '{doc}' is retrieved twice for query '1'" in err, err


# ---------------------------------------------------------------------------------------------- byte level
def _fields(tokens):
    text = cli_parse.padded(b" ".join(tokens))
    f = cli_parse.fields(text, text.lo, text.hi)
    return text, f.start, f.end


NUMBER_TEXT = st.one_of(
    st.from_regex(r"\A[+-]?[0-9]{0,10}(\.[0-9]{0,10})?\Z"),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.floats(-1e6, 1e6).map(lambda x: f"{x:.4f}"),
    st.text("0123456789.+-eE_xn", min_size=1, max_size=20),
).filter(lambda s: s != "")


@settings(deadline=None, max_examples=60)
@given(st.lists(NUMBER_TEXT, min_size=1, max_size=40))
def test_decimals_equal_python_float_and_int(tokens):
    text, start, end = _fields([t.encode() for t in tokens])
    for integral, parse in ((False, float), (True, int)):
        values, ok = cli_parse.decimals(text, start, end, integral)
        for token, value, fast in zip(tokens, values.tolist(), ok.tolist()):
            plain = token.lstrip("+-")
            digits = plain.replace(".", "", 1)
            simple = (digits.isdigit() and digits.isascii() and token.count("-") + token.count("+") <= 1
                      and len(token) <= 16 and len(digits) <= 15 and ("." not in plain or not integral))
            if simple:
                assert fast, token  # every plain decimal of at most 15 digits and 16 bytes takes the exact path
            if fast:
                expected = parse(token)
                assert value == expected and np.signbit(value) == np.signbit(expected), token


@settings(deadline=None, max_examples=40)
@example(["00\u0801", "00001"])  # the ids share low bits that are not zero
@given(st.lists(st.text(st.characters(min_codepoint=33, max_codepoint=0x3000, blacklist_categories=("Zs", "Cc",
                                                                                                     "Cs")),
                        min_size=1, max_size=12), min_size=1, max_size=30))
def test_id_keys_compare_as_the_bytes(ids):
    raw = [i.encode() for i in ids if not any(c.isspace() for c in i)] or [b"x"]
    text, start, end = _fields(raw)
    keys = cli_parse.id_keys(text, start, end)
    assert keys.dtype == (np.uint64 if max(map(len, raw)) <= 8 else np.dtype(f"S{-(-max(map(len, raw)) // 8) * 8}"))
    for i in range(len(raw)):
        for j in range(len(raw)):
            assert (keys[i] < keys[j]) == (raw[i] < raw[j]) and (keys[i] == keys[j]) == (raw[i] == raw[j])
    vocab = Vocab()
    vocab.add(keys[: len(raw) // 2])
    vocab.add(keys[len(raw) // 2:])
    for max_bits in (62, 1):  # keys without their shared bits, or codes
        parts, bits = vocab.keys(max_bits)
        flat = np.concatenate(parts)
        assert flat.min(initial=0) >= 0 and flat.max(initial=0) < 2 ** bits
        assert vocab.names(flat) == [r.decode() for r in raw]
        for i in range(len(raw)):
            assert ((flat[i] < flat) == [raw[i] < r for r in raw]).all()


def test_python_m_reads_standard_input_with_windows_line_ends(tmp_path, monkeypatch):
    qrels, run = _data(4)
    qp, rp, spelled = _write(tmp_path, qrels, run, eol="\r\n")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(open(rp, "rb").read())))
    _check(qp, "-", qrels, spelled)


def test_run_asks_openblas_for_one_thread(tmp_path, monkeypatch, capsys):
    from torchmetrics_lite.__main__ import run

    qrels, run_scores = _data(5)
    qp, rp, _ = _write(tmp_path, qrels, run_scores)
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)  # restored after the test
    monkeypatch.setattr(sys, "argv", ["tml-eval", "retrieval", qp, rp, "-m", "map", "--digits", "12"])
    assert run() == 0
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    want = _cli("retrieval", qp, rp, "-m", "map", "--digits", "12")[1]
    assert capsys.readouterr().out == want
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")  # a count the user chose stays
    assert run() == 0 and os.environ["OPENBLAS_NUM_THREADS"] == "4"


def test_tml_eval_script_flushes_its_output_and_exit_code(tmp_path):
    """``script`` ends the process without the interpreter's teardown: what it printed must still arrive."""
    import subprocess

    qp, rp, _ = _write(tmp_path, *_data(6)[:2])
    code = "import sys; from torchmetrics_lite.__main__ import script; sys.argv = sys.argv[1:]; script()"
    done = subprocess.run([sys.executable, "-c", code, "tml-eval", "retrieval", qp, rp, "-m", "map", "P@5"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == _cli("retrieval", qp, rp, "-m", "map", "P@5")[1]
    done = subprocess.run([sys.executable, "-c", code, "tml-eval", "retrieval", qp, "missing", "-m", "map"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and done.stdout == "" and "cannot read missing" in done.stderr
