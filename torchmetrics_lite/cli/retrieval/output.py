"""The ``retrieval`` subcommand's printed lines (numpy alone, no torch)."""
from __future__ import annotations

from typing import Dict, List, Sequence, TextIO

import numpy as np

from torchmetrics_lite.cli.retrieval.measures import mean


def write_retrieval(out: TextIO, qids: Sequence[str], labels: Sequence[str], values: Dict[str, np.ndarray], *,
                    per_query: bool, digits: int) -> None:
    """``retrieval``'s lines ``label <TAB> qid <TAB> value``: with ``per_query``, one per query and measure;
    then ``num_q`` and the mean of each measure over the queries (``all``)."""
    width = max(22, *(len(label) for label in labels))
    lines: List[str] = []
    if per_query:
        columns = [values[label].tolist() for label in labels]
        for i, q in enumerate(qids):
            for label, col in zip(labels, columns):
                lines.append(f"{label:<{width}}\t{q}\t{col[i]:.{digits}f}\n")
    lines.append(f"{'num_q':<{width}}\tall\t{len(qids)}\n")
    for label in labels:
        lines.append(f"{label:<{width}}\tall\t{mean(values[label]):.{digits}f}\n")
    out.write("".join(lines))
