"""Per-call overhead of SumMetric.update / forward on a 1,024-element batch, single thread.

Floor: the bare tensor op ``state += x.sum()``. Peer: torchmetrics' SumMetric (same run).
Run: python -m benchmarks.bench_aggregation
"""
import torch

from benchmarks._runner import header, interleaved_medians, optional, print_tables, table
from torchmetrics_lite import SumMetric


def main() -> None:
    torch.set_num_threads(1)
    x = torch.randn(1024)
    state = torch.zeros(())

    def bare():
        state.add_(x.sum())

    ours_u, ours_f = SumMetric(), SumMetric()
    fns = {"bare": bare, "ours_update": lambda: ours_u.update(x), "ours_forward": lambda: ours_f(x)}
    tm = optional("torchmetrics")
    if tm is not None:
        peer_u, peer_f = tm.SumMetric(), tm.SumMetric()
        fns.update(tm_update=lambda: peer_u.update(x), tm_forward=lambda: peer_f(x))
    t = interleaved_medians(fns, rounds=15, number=1000, warmup=200)
    tables = []
    for kind in ("update", "forward"):
        rows = [("bare op (floor)", t["bare"], "state += x.sum()"), ("torchmetrics_lite", t[f"ours_{kind}"], "")]
        if tm is not None:
            rows.append(("torchmetrics", t[f"tm_{kind}"], tm.__version__))
        tables.append(table(f"SumMetric.{kind}, 1,024 floats, per call", rows, ours="torchmetrics_lite"))
    print(header())
    print_tables(tables)


if __name__ == "__main__":
    main()
