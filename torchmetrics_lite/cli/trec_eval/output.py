"""The ``trec_eval`` subcommand's printed lines, byte for byte as trec_eval 10.0 prints them (numpy alone,
no torch)."""
from __future__ import annotations

import math
from typing import Any, Dict, List, Sequence, TextIO

import numpy as np


def _number(value: float, long: bool, options: Any) -> str:
    if options.full_precision:
        return repr(int(value)) if long and options.zscores is None else repr(float(value))
    if long and options.zscores is None:
        return str(int(value))
    return f"{value:6.4f}"


def _sequential_sum(values: np.ndarray) -> float:
    """The sum of ``values`` added one at a time in order (as trec_eval accumulates)."""
    return float(np.cumsum(values)[-1]) if values.size else 0.0


def write_trec_eval(out: TextIO, selected: Sequence[Any], qids: Sequence[str], values: Dict[str, np.ndarray],
                    strings: Dict[str, List[str]], runid: str, options: Any) -> None:
    """trec_eval's lines ``name <TAB> qid <TAB> value``: names padded to 22 (``Z`` before them with ``-Z``),
    ``%6.4f`` values (``%ld`` counts), each query's lines (``-q``) then the summary (``all``; not with ``-n``)."""
    z = "Z" if options.zscores is not None else ""
    lines: List[str] = []
    if options.query:
        columns = {label: v.tolist() for label, v in values.items()}
        for i, q in enumerate(qids):
            for s in selected:
                if s.kind == "relstring":
                    lines.append(f"{s.labels[0]:<22}\t{q}\t'{strings[s.labels[0]][i]}'\n")
                elif s.kind in ("long", "float", "cut_long", "cut_float", "p_float", "p_pair"):
                    for label in s.labels:
                        lines.append(f"{z}{label:<22}\t{q}\t{_number(columns[label][i], s.kind == 'long', options)}\n")
    if options.summary:
        n = len(qids)
        for s in selected:
            if s.kind == "runid":
                lines.append(f"{'runid':<22}\tall\t{runid}\n")
            elif s.kind == "num_q":
                lines.append(f"{z}{'num_q':<22}\tall\t{_number(n, True, options)}\n")
            elif s.kind == "long":
                total = _sequential_sum(values[s.labels[0]])
                lines.append(f"{z}{s.labels[0]:<22}\tall\t{_number(total, True, options)}\n")
            elif s.kind == "gm":
                mean = math.exp(_sequential_sum(values[s.labels[0]]) / n) if n else 0.0
                lines.append(f"{z}{s.labels[0]:<22}\tall\t{_number(mean, False, options)}\n")
            elif s.kind != "relstring":
                for label in s.labels:
                    mean = _sequential_sum(values[label]) / n if n else 0.0
                    lines.append(f"{z}{label:<22}\tall\t{_number(mean, False, options)}\n")
    out.write("".join(lines))
