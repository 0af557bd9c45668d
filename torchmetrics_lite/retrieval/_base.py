"""The shared base of the retrieval modules: states, update, compute and per-query values (see
:mod:`torchmetrics_lite.retrieval`; the docstring text the modules share is in
:mod:`torchmetrics_lite.functional.retrieval._doc_args`)."""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_retrieval_aggregation, check_retrieval_options
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.retrieval._streaming import (
    Aggregation,
    Summary,
    _retrieval_batch_stats,
    _retrieval_summary,
    _retrieval_value,
)
from torchmetrics_lite.functional.retrieval._torch_kernels import RELEVANT, Measure
from torchmetrics_lite.metric import Metric

__all__: list = []  # private: the shared base of the modules in this package


class _RetrievalMetric(Metric):
    """Shared states and options; a subclass declares its per-query ``measure`` and the keywords it takes
    (``measure_options()``, default ``{"k": self.k}``), and ``need`` (what a query must hold not to be empty,
    named by ``empty="error"``)."""

    higher_is_better = True
    is_differentiable = False
    stats_fn = staticmethod(_retrieval_batch_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"measure": self.measure, "measure_options": self.measure_options(), "ties": self.ties,
                "empty": self.empty, "ignore_index": self.ignore_index, "validate_args": self.validate_args,
                "keep": self.keep, "need": self.need, "require_indexes": self.require_indexes}

    value_fn = staticmethod(_retrieval_value)

    def value_options(self) -> Dict[str, Any]:
        return {"measure": self.measure, "measure_options": self.measure_options(), "ties": self.ties,
                "empty": self.empty, "keep": self.keep, "need": self.need, "aggregation": self.aggregation}

    measure: Measure
    need = RELEVANT
    require_indexes = True  # a 1-D update needs indexes (the functions read a 1-D input as one query)

    def __init__(self, *, k: Optional[int] = None, ties: str = "average", empty: str = "zero",
                 ignore_index: Optional[int] = None, aggregation: Aggregation = "mean",
                 keep_per_query: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_retrieval_options(k=k, ties=ties, empty=empty, ignore_index=ignore_index)
        check_retrieval_aggregation(aggregation)
        self.k, self.ties, self.empty, self.ignore_index = k, ties, empty, ignore_index
        self.aggregation, self.keep_per_query = aggregation, bool(keep_per_query)
        self.keep = self.keep_per_query or callable(aggregation) or aggregation != "mean"  # dense updates too
        self.add_state("value_sum", torch.zeros((), dtype=torch.float64), reduce="sum")
        self.add_state("n_queries", torch.zeros((), dtype=torch.int64), reduce="sum")
        self.add_state("n_skipped", torch.zeros((), dtype=torch.int64), reduce="sum")
        self.add_state("preds", torch.zeros(0, dtype=torch.float32), reduce="cat")
        self.add_state("target", torch.zeros(0, dtype=torch.float64), reduce="cat")  # nan: a dropped row
        self.add_state("indexes", torch.zeros(0, dtype=torch.int64), reduce="cat")
        self.add_state("query_values", torch.zeros(0, dtype=torch.float64), reduce="cat")  # when kept
        self._summary: Optional[Summary] = None  # of the state behind the cached compute() value

    def measure_options(self) -> Dict[str, Any]:
        """The keyword arguments of ``measure`` (a measure with other options returns its own)."""
        return {"k": self.k}

    def compute_from_synced(self, state: Dict[str, Tensor]) -> Tensor:
        """As :meth:`Metric.compute_from_synced`, from one evaluation of ``state`` (``_retrieval_summary``, the
        value ``_retrieval_value`` reads) that also keeps the per-query values and the skip count for
        :meth:`per_query` and :meth:`skipped` (one call of a callable ``aggregation`` serves all three)."""
        summary = _retrieval_summary(state, **self.value_options())
        value = self._keep_computed(summary.value)
        values = summary.values
        if values is not None and self._float32:  # the float32 policy, as the value's (any aggregation's)
            values = values.to(torch.float32)
        self._summary = summary._replace(values=values)
        return value

    def _computed_summary(self) -> Summary:
        self.compute()  # cached until the state changes; a new evaluation refreshes the summary
        assert self._summary is not None
        return self._summary

    def per_query(self) -> Tensor:
        """The per-query values behind :meth:`compute` (float64; float32 on a device without float64): one per
        dense row in update order (``nan`` for a row without items or a query ``empty="skip"`` leaves out), then
        one per flat query id in ascending id order, as the functional ``reduction="none"``; synced across ranks
        like ``compute`` (rank order). Flat updates (``indexes=``) keep them; dense updates need
        ``keep_per_query=True`` or an ``aggregation`` other than ``"mean"`` (a callable included; dense updates
        otherwise keep only sums).

        Raises:
            ValueError: The metric does not keep per-query values (dense updates without ``keep_per_query``).
        """
        values = self._computed_summary().values
        if not self.keep and (values is None or not self.update_called):
            raise ValueError(f"{type(self).__name__}.per_query() needs per-query values: flat updates (indexes=) "
                             "keep them; for dense (queries, items) updates construct it with keep_per_query=True "
                             "(or an aggregation other than 'mean')")
        return values.clone() if values is not None else torch.zeros(0, dtype=float_dtype(self.device),
                                                                         device=self.device)

    def skipped(self) -> int:
        """Number of queries without a relevant item left out of :meth:`compute` by ``empty="skip"`` (over
        everything merged so far, synced across ranks like ``compute``; 0 for the other ``empty`` rules)."""
        return int(self._computed_summary().skipped)
