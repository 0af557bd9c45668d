"""losses: differentiable surrogates of the exact metrics in ``torchmetrics_lite.functional``."""
from torchmetrics_lite._version import __version__

__all__ = ["__version__"]
