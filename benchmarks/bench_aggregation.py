"""Per-call overhead of SumMetric.update / forward on a 1,024-element batch, single thread.

Floor: the bare tensor op ``state += x.sum()``. Peer: torchmetrics' SumMetric (same run).
Run: python benchmarks/bench_aggregation.py
"""
import torch

from benchmarks._runner import header, median_time, optional, print_tables, table
from torchmetrics_lite import SumMetric

N_CALLS = 2000


def per_call(fn) -> float:
    return median_time(fn, repeat=7, number=N_CALLS, warmup=200)


def main() -> None:
    torch.set_num_threads(1)
    x = torch.randn(1024)
    state = torch.zeros(())

    def bare():
        state.add_(x.sum())

    ours = SumMetric()
    rows_update = [("bare op (floor)", per_call(bare), "state += x.sum()"),
                   ("torchmetrics_lite", per_call(lambda: ours.update(x)), "")]
    rows_forward = [("bare op (floor)", per_call(bare), "state += x.sum()"),
                    ("torchmetrics_lite", per_call(lambda: ours(x)), "")]
    tm = optional("torchmetrics")
    if tm is not None:
        peer = tm.SumMetric()
        rows_update.append(("torchmetrics", per_call(lambda: peer.update(x)), tm.__version__))
        rows_forward.append(("torchmetrics", per_call(lambda: peer(x)), tm.__version__))
    print(header())
    print_tables([
        table("SumMetric.update, 1,024 floats, per call", rows_update, ours="torchmetrics_lite"),
        table("SumMetric.forward, 1,024 floats, per call", rows_forward, ours="torchmetrics_lite"),
    ])


if __name__ == "__main__":
    main()
