"""Retrieval metrics, vectorised over queries: NDCG@k, AP@k (MAP), RR@k (MRR), P@k, R@k, hit rate, R-precision;
and the precision-recall curve over the cut-offs ``k = 1 .. max_k`` with the recall at a fixed precision
(:mod:`~torchmetrics_lite.functional.retrieval.curves`).

Each function documents its arguments; the conventions they share:

* Inputs: dense ``(queries, items)`` ``preds``/``target`` (a 1-D pair is one query) with an optional bool
  ``mask`` marking real items, or flat 1-D ``preds``/``target``/``indexes`` (integer query ids, any values, any
  order). Both give identical results on the same data. ``preds`` are used by their order only; ``target``
  holds non-negative grades and an item is relevant when ``target > 0``.
* Ties (McSherry and Najork, ECIR 2008): ``ties="average"`` (default) is the expectation over uniformly random
  orders of tied scores (for NDCG: scikit-learn's ``ndcg_score``), so a value never depends on input order;
  ``ties="order"`` ranks tied items in input order.
* A query with no relevant item follows ``empty``: ``"zero"`` (default; torchmetrics' ``empty_target_action=
  "neg"``, scikit-learn and trec_eval), ``"skip"`` (left out of the mean), ``"one"`` or ``"error"``.

Everything runs without a Python loop over queries and without padding to the longest query: one sort of
packed (query, score) keys cuts each query into tie groups, and every measure is a few operations per group
plus one segment sum per query (:mod:`torchmetrics_lite.functional.retrieval._kernels`, written once for numpy
on CPU and torch on other devices and under ``torch.compile``).
"""
from torchmetrics_lite import _lazy

__all__ = [
    "retrieval_normalized_dcg",
    "retrieval_average_precision",
    "retrieval_reciprocal_rank",
    "retrieval_precision",
    "retrieval_recall",
    "retrieval_hit_rate",
    "retrieval_r_precision",
    "retrieval_dcg",
    "retrieval_fall_out",
    "retrieval_auroc",
]
_CURVES = ["retrieval_precision_recall_curve", "retrieval_recall_at_fixed_precision"]
__all__ += _CURVES

__getattr__, __dir__ = _lazy.attach(__name__, globals(), {
    "torchmetrics_lite.functional.retrieval.measures": [n for n in __all__ if n not in _CURVES],
    "torchmetrics_lite.functional.retrieval.curves": _CURVES,
})
