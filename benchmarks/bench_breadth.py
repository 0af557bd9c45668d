"""The metrics added for torchmetrics' breadth, each against torchmetrics (and scikit-learn / scipy where they have
it) in one run, at 1e6 samples (multilabel at 1e5 x 50).

Each group of metrics lives in its own module (``benchmarks/_breadth_<group>.py``) exposing ``main()``, which
prints its table; this script runs every group in one process.
Run: python -m benchmarks.bench_breadth
"""
import importlib

GROUPS = ("classification", "ranking", "correlation", "retrieval")


def main() -> None:
    for group in GROUPS:
        try:
            module = importlib.import_module(f"benchmarks._breadth_{group}")
        except ModuleNotFoundError as err:  # a group not written yet
            if err.name != f"benchmarks._breadth_{group}":
                raise
            continue
        module.main()


if __name__ == "__main__":
    main()
