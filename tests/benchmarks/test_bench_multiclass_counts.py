"""benchmarks/bench_multiclass_counts.py stays runnable: one row per selected metric and shape, with every timing
column filled (ours, torchmetrics, checks on and off) and a speed-up for each."""
import re

from benchmarks import bench_multiclass_counts


def test_a_small_run_fills_every_column(capsys):
    bench_multiclass_counts.main(["--shapes", "small", "--rounds", "1", "--number", "2",
                                  "--only", "multiclass_accuracy"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| `")]
    assert [row.split(" | ")[:2] for row in rows] == [["| `multiclass_accuracy macro`", "256 x 10"],
                                                      ["| `multiclass_accuracy micro`", "256 x 10"]]
    for row in rows:
        assert len(re.findall(r"\| [\d.]+ (?:us|ms|s) ", row)) == 4 and len(re.findall(r"\| [\d.]+x", row)) == 2
