"""``python -m torchmetrics_lite``: the command line of :mod:`torchmetrics_lite.cli` (also ``tml-eval``)."""
import os

if __name__ == "__main__":  # not on import (pytest's doctest collection imports every module)
    # The command line never calls BLAS: one OpenBLAS thread, so NumPy's import starts no worker threads that
    # would spin on the other cores for the first tenth of a second (unless the user chose a count).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from torchmetrics_lite.cli import main

    raise SystemExit(main())
