"""Quickstart: functional and module use, streaming, forward, and a MetricCollection.

Run: python examples/quickstart.py
"""
import torch

import torchmetrics_lite as tml


def main() -> None:
    torch.manual_seed(0)
    batches = [torch.randn(256) for _ in range(10)]

    # A stateful metric accumulates sufficient statistics over batches.
    mean = tml.MeanMetric()
    for x in batches:
        batch_value = mean(x)  # forward: this batch's value, and the batch is merged into the state
    print(f"last batch mean {batch_value.item():+.4f}, running mean {mean.compute().item():+.4f}")

    # A collection updates, syncs and computes several metrics together.
    collection = tml.MetricCollection(
        {"mean": tml.MeanMetric(), "sum": tml.SumMetric(), "max": tml.MaxMetric(), "min": tml.MinMetric()},
        prefix="val/",
    )
    for x in batches:
        collection.update(x)
    for name, value in collection.compute().items():
        print(f"{name:10s} {value.item():+.4f}")


if __name__ == "__main__":
    main()
