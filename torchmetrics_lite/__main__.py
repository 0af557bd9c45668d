"""``python -m torchmetrics_lite``: the command line of :mod:`torchmetrics_lite.cli` (also ``tml-eval``)."""
from torchmetrics_lite.cli import main

if __name__ == "__main__":  # not on import (pytest's doctest collection imports every module)
    raise SystemExit(main())
