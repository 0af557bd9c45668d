"""Shared timing helpers: medians of repeated runs and a markdown table of ratios against a baseline row.

Every script times us and the peers in the same process, one after another, so machine noise hits all rows.
Peers that are not installed are reported as such instead of failing the run.
"""
from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from typing import Callable, Dict, List, Optional, Sequence, Tuple

Row = Tuple[str, Optional[float], str]  # (name, median seconds or None, note)


def median_time(fn: Callable[[], object], *, repeat: int = 7, number: int = 1, warmup: int = 1) -> float:
    """Median wall time of ``number`` calls of ``fn``, over ``repeat`` runs, divided by ``number``."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times)


def interleaved_medians(fns: Dict[str, Callable[[], object]], *, rounds: int = 15, number: int = 300,
                        warmup: int = 50) -> Dict[str, float]:
    """Median per-call time of each function, timed in alternation (``rounds`` rounds of ``number`` calls of
    each), so that the load of a shared machine hits every row alike instead of whichever ran during a busy
    spell. Use it for per-call overheads, where a few microseconds of drift would swamp the ratios."""
    for fn in fns.values():
        for _ in range(warmup):
            fn()
    times: Dict[str, List[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            gc.collect()
            start = time.perf_counter()
            for _ in range(number):
                fn()
            times[name].append((time.perf_counter() - start) / number)
    return {name: statistics.median(t) for name, t in times.items()}


def peak_python_memory(fn: Callable[[], object]) -> int:
    """Peak bytes allocated through Python's allocator during ``fn`` (numpy arrays are traced; torch tensors
    are not, so compare torch-heavy code by resident memory instead, as bench_auroc does)."""
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def optional(name: str) -> Optional[object]:
    try:
        return __import__(name)
    except Exception:  # pragma: no cover - peers are optional
        return None


def fmt_time(seconds: Optional[float]) -> str:
    if seconds is None:
        return "n/a"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def table(title: str, rows: Sequence[Row], *, ours: str) -> str:
    """Markdown table: one row per implementation, with each row's time divided by ours ("x slower than us")."""
    base = dict((n, t) for n, t, _ in rows)[ours]
    lines = [f"### {title}", "", "| implementation | median | ratio to ours | note |", "|---|---:|---:|---|"]
    for name, t, note in rows:
        ratio = "n/a" if t is None or not base else f"{t / base:.2f}x"
        lines.append(f"| {name} | {fmt_time(t)} | {ratio} | {note} |")
    return "\n".join(lines) + "\n"


def print_tables(tables: List[str]) -> None:
    print("\n".join(tables))


def header() -> str:
    import platform

    import numpy
    import torch

    return (f"python {platform.python_version()}, torch {torch.__version__}, numpy {numpy.__version__}, "
            f"{torch.get_num_threads()} torch thread(s)")


def rows_from(results: Dict[str, Tuple[Optional[float], str]]) -> List[Row]:
    return [(name, t, note) for name, (t, note) in results.items()]
