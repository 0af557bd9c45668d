"""Wrappers that change what a metric reports: per class (:class:`ClasswiseWrapper`), per epoch
(:class:`MetricTracker`), with a bootstrap spread (:class:`BootStrapper`) or over a sliding window
(:class:`Running`)."""
from torchmetrics_lite import _lazy
from torchmetrics_lite.wrappers.bootstrap import BootStrapper
from torchmetrics_lite.wrappers.classwise import ClasswiseWrapper
from torchmetrics_lite.wrappers.running import Running
from torchmetrics_lite.wrappers.tracker import MetricTracker

__all__ = ["BootStrapper", "ClasswiseWrapper", "MetricTracker", "Running"]
__getattr__ = _lazy.missing(__name__, globals())  # a name this library lacks: the error names the nearest
