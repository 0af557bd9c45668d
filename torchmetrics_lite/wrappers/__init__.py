"""Wrappers that change what a metric reports: per class (:class:`ClasswiseWrapper`), per epoch
(:class:`MetricTracker`), with a bootstrap spread (:class:`BootStrapper`), over a sliding window
(:class:`Running`), with its extremes over time (:class:`MinMaxMetric`), per output
(:class:`MultioutputWrapper`), or one per task (:class:`MultitaskWrapper`)."""
from torchmetrics_lite import _lazy
from torchmetrics_lite.wrappers.bootstrap import BootStrapper
from torchmetrics_lite.wrappers.classwise import ClasswiseWrapper
from torchmetrics_lite.wrappers.minmax import MinMaxMetric
from torchmetrics_lite.wrappers.multioutput import MultioutputWrapper
from torchmetrics_lite.wrappers.multitask import MultitaskWrapper
from torchmetrics_lite.wrappers.running import Running
from torchmetrics_lite.wrappers.tracker import MetricTracker

__all__ = ["BootStrapper", "ClasswiseWrapper", "MetricTracker", "Running", "MinMaxMetric", "MultioutputWrapper",
           "MultitaskWrapper"]
__getattr__ = _lazy.missing(__name__, globals())  # a name this library lacks: the error names the nearest
