"""Stateful retrieval metrics: the modules of :mod:`torchmetrics_lite.functional.retrieval`.

Dense updates are reduced at once to three sum states (sum of per-query values, queries counted, queries
skipped); flat updates keep their rows in growable ``cat`` buffers, grouped by query id at ``compute`` (rows that
``mask`` or ``ignore_index`` drop stay in place with a NaN grade and are removed at ``compute``, so that ``update``
needs no host sync). Both may be mixed (dense rows are queries of their own). With ``validate_args=False`` and
``empty`` other than ``"error"``, ``update`` makes no device-to-host sync. Values are float64, or float32 on a
device without float64 (Apple MPS). :meth:`~_RetrievalMetric.skipped` is the number of queries that
``empty="skip"`` left out of the mean.
"""
from torchmetrics_lite import _lazy
from torchmetrics_lite.retrieval.curves import RetrievalPrecisionRecallCurve, RetrievalRecallAtFixedPrecision
from torchmetrics_lite.retrieval.measures import (
    RetrievalAUROC,
    RetrievalDCG,
    RetrievalFallOut,
    RetrievalHitRate,
    RetrievalMAP,
    RetrievalMRR,
    RetrievalNormalizedDCG,
    RetrievalPrecision,
    RetrievalRecall,
    RetrievalRPrecision,
)

__all__ = [
    "RetrievalNormalizedDCG",
    "RetrievalMAP",
    "RetrievalMRR",
    "RetrievalPrecision",
    "RetrievalRecall",
    "RetrievalHitRate",
    "RetrievalRPrecision",
    "RetrievalDCG",
    "RetrievalFallOut",
    "RetrievalAUROC",
    "RetrievalPrecisionRecallCurve",
    "RetrievalRecallAtFixedPrecision",
]
__getattr__ = _lazy.missing(__name__, globals())  # a name this library lacks: the error names the nearest
