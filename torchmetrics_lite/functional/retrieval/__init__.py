"""Retrieval metrics, vectorised over queries: NDCG@k, AP@k (MAP), RR@k (MRR), P@k, R@k, hit rate, R-precision.

Inputs (every function):

* dense: ``preds`` and ``target`` of shape ``(queries, items)`` (a 1-D pair is one query), with an optional
  bool ``mask`` of the same shape marking real items (padding is ``False``);
* flat: 1-D ``preds``, ``target`` and ``indexes`` (integer query ids, any values, any order).

Both forms give identical results on the same data. ``preds`` are scores used by their order only (any real
values, negative included; float64 stays float64). ``target`` holds non-negative relevance grades (bool, int
or float); an item is *relevant* when ``target > 0``. ``ignore_index`` drops the items with that target. A query
with no item left (a fully masked row) does not exist: it is neither counted nor skipped.

``k=None`` means the whole list. ``ties="average"`` (default) gives the expectation over uniformly random
orderings of tied scores, so the value never depends on input order (McSherry and Najork, "Computing
Information Retrieval Performance Measures Efficiently in the Presence of Tied Scores", ECIR 2008; for NDCG
this is scikit-learn's ``ndcg_score`` rule); ``ties="order"`` ranks tied items in input order. A query with no
relevant item follows ``empty``: ``"skip"`` (default, left out of the mean), ``"zero"``, ``"one"`` (its value),
or ``"error"`` (``ValueError``). ``reduction="mean"`` (default) returns the mean over counted queries as a
float64 scalar (``nan`` when none is counted); ``"none"`` returns the per-query values: one per dense row, or
one per flat query id in ascending id order, ``nan`` for a skipped query. ``validate_args=False`` skips the
value checks (NaN scores, NaN or negative targets) that need a device-to-host sync.

Everything runs without a Python loop over queries. On CPU each query's items are sorted as one row of a padded
``(queries, items)`` block (flat input is grouped into one first, when the query sizes allow) and every measure
is a few row-wise array operations; on CUDA, one segmented sort by (query, -score) and segment sums (see
:mod:`torchmetrics_lite.functional.retrieval._torch_kernels`).
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
]

__getattr__, __dir__ = _lazy.attach(__name__, globals(), {"torchmetrics_lite.functional.retrieval.measures": __all__})
