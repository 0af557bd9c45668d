"""``python -m torchmetrics_lite`` and ``tml-eval``: the command line of :mod:`torchmetrics_lite.cli`."""
import os
import sys


def run() -> int:
    """Run the command line on ``sys.argv``; returns the exit code.

    The command line never calls BLAS: it asks OpenBLAS for one thread (unless the user chose a count), so
    NumPy's import starts no worker threads that spin on the other cores for the first tenth of a second.
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # read when NumPy is first imported, just below
    from torchmetrics_lite.cli import main

    return main()


def script() -> None:
    """The ``tml-eval`` program: :func:`run`, then exit at once. The output is flushed and the process ends
    without the interpreter's teardown (freeing every module and array one by one, about 20 ms after a large
    run); the command line holds no file, thread or other resource that needs it."""
    code = run()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":  # not on import (pytest's doctest collection imports every module)
    script()
