"""benchmarks/float32_streams.py stays runnable, and at a small size its float32 values stay close to float64."""
import re

from benchmarks import float32_streams


def test_small_run_reports_every_metric_within_1e_5(capsys):
    float32_streams.main(["--samples", "20000", "--batches", "1000", "300"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) == 1 + 7  # the header, then one row per metric
    errors = [float(e) for row in rows[1:] for e in re.findall(r"\| (\d\.\de[+-]\d+) ", row + " ")]
    assert len(errors) == 7 * 2 and max(errors) < 1e-5
