"""The ``classify`` subcommand: binary classification measures of two CSV columns (imports torch)."""
from __future__ import annotations

import argparse
import math
from typing import Any, Callable, Dict, List, Sequence, TextIO, Tuple

from torchmetrics_lite.cli.errors import EXIT_USAGE, CliError
from torchmetrics_lite.cli.files import decode, read_bytes
from torchmetrics_lite.cli.retrieval.measures import Measure, parse_measures


def read_csv_columns(path: str, preds: str, target: str) -> Tuple[Any, Any, List[int]]:
    """Float64 scores, int64 0/1 labels (torch tensors) and the line of each row, from two columns of a CSV
    file with a header row."""
    import csv

    import torch

    rows = csv.reader(decode(path, read_bytes(path)).splitlines())
    header = next(rows, None)
    if header is None:
        raise CliError(f"{path}: empty file (expected a header row)")
    cols = []
    for name in (preds, target):
        if name not in header:
            raise CliError(f"{path}: no column {name!r} (columns: {', '.join(header)})")
        cols.append(header.index(name))
    scores, labels, lines = [], [], []
    for row in rows:
        no = rows.line_num
        if not row:
            continue
        if len(row) != len(header):
            raise CliError(f"{path}:{no}: expected {len(header)} fields, got {len(row)}")
        raw_score, raw_label = row[cols[0]].strip(), row[cols[1]].strip()
        try:
            score = float(raw_score)
        except ValueError:
            score = math.nan
        if math.isnan(score):
            raise CliError(f"{path}:{no}: column {preds!r}: {raw_score!r} is not a number")
        label = {"0": 0, "1": 1, "0.0": 0, "1.0": 1, "false": 0, "true": 1}.get(raw_label.lower())
        if label is None:
            raise CliError(f"{path}:{no}: column {target!r}: {raw_label!r} is not a 0/1 label")
        scores.append(score)
        labels.append(label)
        lines.append(no)
    if not scores:
        raise CliError(f"{path}: no data rows")
    return torch.tensor(scores, dtype=torch.float64), torch.tensor(labels, dtype=torch.int64), lines


def _function(measure: Measure) -> Callable[..., Any]:
    import torchmetrics_lite.functional as F

    fn = getattr(F, measure.function, None)
    if fn is None:
        raise CliError(f"measure {measure.label!r} needs torchmetrics_lite.functional.{measure.function}, "
                       "which this installation does not provide", EXIT_USAGE)
    return fn


_THRESHOLD_FREE = ("binary_auroc", "binary_average_precision")


def classify_values(preds: Any, target: Any, measures: Sequence[Measure], *, threshold: float = 0.5,
                    from_logits: bool = False) -> Dict[str, float]:
    """Each measure on float64 scores and 0/1 labels; a value a measure rejects is a :class:`CliError` that
    names the command-line flag (``--from-logits``), not the Python argument."""
    out = {}
    for m in measures:
        fn = _function(m)
        kwargs = {} if m.function in _THRESHOLD_FREE else {"threshold": threshold, "from_logits": from_logits}
        try:
            out[m.label] = float(fn(preds, target, **kwargs))
        except ValueError as e:
            message = str(e).replace("from_logits=True", "--from-logits").replace("`threshold`", "--threshold")
            raise CliError(f"{m.label}: {message}") from None
    return out


def run_classify(args: argparse.Namespace, out: TextIO) -> int:
    measures = parse_measures(args.measures, "classify")
    if len(args.files) != 1:
        raise CliError(f"classify takes one CSV file, got {len(args.files)}: {' '.join(args.files) or '(none)'}",
                       EXIT_USAGE)
    path = args.files[0]
    preds, target, lines = read_csv_columns(path, args.preds, args.target)
    if not args.from_logits and any(m.function not in _THRESHOLD_FREE for m in measures):
        outside = ((preds < 0) | (preds > 1)).nonzero()
        if outside.numel():
            i = int(outside[0])
            raise CliError(f"{path}:{lines[i]}: column {args.preds!r}: {preds[i].item()!r} is not a probability in "
                           "[0, 1]; pass --from-logits for real-valued scores (threshold on sigmoid(preds))")
    values = classify_values(preds, target, measures, threshold=args.threshold, from_logits=args.from_logits)
    width = max(22, *(len(m.label) for m in measures))
    out.write(f"{'num_rows':<{width}}\t{preds.numel()}\n")
    for label, value in values.items():
        out.write(f"{label:<{width}}\t{value:.{args.digits}f}\n")
    return 0
