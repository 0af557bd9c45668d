"""``python -m torchmetrics_lite`` and ``tml-eval``: the command line of :mod:`torchmetrics_lite.cli`."""
import os


def run() -> int:
    """Run the command line on ``sys.argv`` (the ``tml-eval`` entry point); returns the exit code.

    The command line never calls BLAS: it asks OpenBLAS for one thread (unless the user chose a count), so
    NumPy's import starts no worker threads that spin on the other cores for the first tenth of a second.
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # read when NumPy is first imported, just below
    from torchmetrics_lite.cli import main

    return main()


if __name__ == "__main__":  # not on import (pytest's doctest collection imports every module)
    raise SystemExit(run())
