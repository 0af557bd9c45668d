"""benchmarks/_breadth_ranking.py (the AUROC-family group of ``python -m benchmarks.bench_breadth``) stays runnable:
at a tiny size, with one call per timing, every EER and LogAUC row (multiclass on probabilities and on logits,
per class and macro) has our time and torchmetrics', and a peer that raises is marked so in its row."""
import re

from benchmarks import _breadth_ranking as bench

ROWS = ["binary EER (1e6)", "multiclass EER (1e3 x 10, probabilities)", "multiclass EER (1e3 x 10, logits)",
        "multiclass EER macro (1e3 x 10, probabilities)", "multiclass EER macro (1e3 x 10, logits)",
        "multilabel EER (1e5 x 50)", "binary LogAUC (1e6)", "multiclass LogAUC (1e3 x 10, probabilities)",
        "multiclass LogAUC (1e3 x 10, logits)", "multilabel LogAUC (1e5 x 50)"]


def test_a_tiny_run_has_every_eer_and_logauc_row_with_both_times(monkeypatch, capsys):
    monkeypatch.setenv("BENCH_BREADTH_SCALE", "0.001")
    monkeypatch.setattr(bench, "median_time", lambda fn, repeat, warmup: (fn(), 0.5)[1])  # one call, no gc runs
    bench.main()
    ratios = dict(re.findall(r"^\| (.+) \| ([\d.]+)x \|$", capsys.readouterr().out, re.M))
    assert [name for name in ratios if "EER" in name or "LogAUC" in name] == ROWS
    assert all(ratios[name] == "1.00" for name in ROWS)  # ours and the peer both timed (0.5 s each here)


def test_a_peer_that_raises_is_marked_in_its_row():
    def fails():
        raise RuntimeError("[enforce fail at alloc_cpu.cpp:117] DefaultCPUAllocator: not enough memory\nmore")

    rows = bench._rows(lambda: None, fails, size="1e6 x 10")  # the message's first line is kept
    assert rows[1] == ("torchmetrics 1.9", None, "fails at 1e6 x 10: RuntimeError: [enforce fail at "
                                                  "alloc_cpu.cpp:117] DefaultCPUAllocator: not enough memory")
    assert bench._rows(lambda: None, None)[1] == ("torchmetrics 1.9", None, "not installed")


def test_the_summary_says_where_every_peer_fails(monkeypatch, capsys):
    rows = [(bench.OURS, 1.0, ""), ("torchmetrics 1.9", None, "fails at 1e6 x 10: RuntimeError: no memory")]
    monkeypatch.setattr(bench, "_cases", lambda scale: {"multiclass EER macro (1e6 x 10, logits)": rows})
    bench.main()
    out = capsys.readouterr().out
    assert "| multiclass EER macro (1e6 x 10, logits) | every peer fails |" in out
    assert "| torchmetrics 1.9 | n/a | n/a | fails at 1e6 x 10: RuntimeError: no memory |" in out
