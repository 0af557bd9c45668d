"""``update`` with ``validate_args=False`` makes no device-to-host sync (issue: CUDA's sync debug mode "error").

There is no GPU here, so the torch path of ``update`` (the one CUDA runs) runs on the CPU under
``tests.helpers.host_sync.no_host_sync``, which raises on every aten op that syncs on CUDA (``nonzero``, ``item``,
``_local_scalar_dense``, ``masked_select``, boolean-mask indexing, ``unique``...). Every module, dense and flat
input, with ``mask`` and ``ignore_index``, every option that changes the update path (AUROC's ``k`` and
``max_fpr``, a callable ``aggregation``). ``empty="error"`` is the one exception by design: it must read on the
host whether a query is empty to raise in ``update``.
"""
from functools import partial

import pytest
import torch

from tests.helpers.host_sync import HostSyncOp, no_host_sync
from tests.helpers.metric_tester import assert_close
from torchmetrics_lite import (
    RetrievalAUROC,
    RetrievalNormalizedDCG,
    _backend,
)
from torchmetrics_lite import retrieval as module_retrieval
from torchmetrics_lite.functional import retrieval_normalized_dcg

G = torch.Generator().manual_seed(5)
CURVES = [module_retrieval.RetrievalPrecisionRecallCurve, module_retrieval.RetrievalRecallAtFixedPrecision]
# every other public module (the per-query measures), read from the exports: a new one is checked without joining
CLASSES = [getattr(module_retrieval, n) for n in module_retrieval.__all__ if getattr(module_retrieval, n) not in CURVES]
OPTIONS = [{"ignore_index": -1}, {"ties": "order", "empty": "skip", "keep_per_query": True},  # -1: a grade < 0
           {"aggregation": "median", "empty": "one", "ignore_index": -1}]


def _batches(form):
    preds = torch.randint(0, 4, (6, 7), generator=G).float()
    target = torch.randint(0, 3, (6, 7), generator=G)
    mask = torch.rand(6, 7, generator=G) < 0.7
    marked = torch.where(mask, target, -1)
    ids = torch.randint(0, 4, (42,), generator=G) * 3
    forms = {
        "dense": (preds, target),
        "dense_one_query": (preds[:1], target[:1]),  # (1, items): a 1-D update needs indexes
        "dense_mask": (preds, target, None, mask),
        "dense_ignore_index": (preds, marked),
        "dense_int_scores_bool_target": (preds.long(), target > 0),
        "flat": (preds.reshape(-1), target.reshape(-1), ids),
        "flat_ignore_index": (preds.reshape(-1).double(), marked.reshape(-1), ids),
        "flat_mask": (preds.reshape(-1).half(), target.reshape(-1), ids, mask.reshape(-1)),
    }
    return forms[form]


FORMS = ["dense", "dense_one_query", "dense_mask", "dense_ignore_index", "dense_int_scores_bool_target", "flat",
         "flat_ignore_index", "flat_mask"]


@pytest.mark.parametrize("options", range(len(OPTIONS)))
@pytest.mark.parametrize("form", FORMS)
def test_update_needs_no_host_sync(form, options):
    batch = _batches(form)
    for cls in CLASSES:
        make = partial(cls, validate_args=False, **OPTIONS[options])
        metric = make()
        with _backend.force("torch"), no_host_sync():
            metric.update(*batch)
            metric.update(*batch)
        reference = make()  # the same updates on the default path (numpy on CPU, with syncs) give the same value
        reference.update(*batch)
        reference.update(*batch)
        assert_close(metric.compute(), reference.compute(), atol=1e-12)


def quantile90(values, dim=None):
    return values.quantile(0.9)


@pytest.mark.parametrize("options", [{"k": 3, "max_fpr": 0.5, "aggregation": quantile90, "ignore_index": -1},
                                     {"max_fpr": 0.25, "ties": "order", "empty": "skip", "keep_per_query": True}])
@pytest.mark.parametrize("form", FORMS)
def test_auroc_cut_off_partial_area_and_callable_aggregation_update_needs_no_host_sync(form, options):
    batch = _batches(form)
    metric, reference = RetrievalAUROC(validate_args=False, **options), RetrievalAUROC(validate_args=False, **options)
    with _backend.force("torch"), no_host_sync():
        metric.update(*batch)
        metric.update(*batch)
    reference.update(*batch)
    reference.update(*batch)
    assert_close(metric.compute(), reference.compute(), atol=1e-12)


def test_flat_rows_dropped_in_update_are_left_out_at_compute():
    preds, target, ids = _batches("flat")
    mask = torch.rand(preds.shape, generator=G) < 0.6
    metric = RetrievalNormalizedDCG(validate_args=False, ignore_index=-1, keep_per_query=True)
    with _backend.force("torch"), no_host_sync():
        metric.update(preds, torch.where(mask, target, -1), ids)
    assert metric.target.numel() == preds.numel()  # kept in place and marked, no boolean-mask copy
    want = retrieval_normalized_dcg(preds[mask], target[mask], ids[mask], reduction="none")
    assert_close(metric.per_query(), want, atol=1e-12)
    assert_close(metric.compute(), want.mean(), atol=1e-12)


def test_the_detector_catches_each_kind_of_sync():
    x, mask, idx = torch.arange(6.0), torch.tensor([True, False] * 3), torch.tensor([0, 2])
    syncing = [lambda: x[mask], lambda: x.item() if x.numel() == 1 else x[0].item(), lambda: torch.nonzero(mask),
               lambda: bool(mask.any()), lambda: int(x.sum()), lambda: torch.unique(x),
               lambda: torch.masked_select(x, mask), lambda: x.clone().__setitem__(mask, 0.0),
               lambda: torch.repeat_interleave(idx), lambda: torch.bincount(idx), lambda: torch.where(mask)]
    for op in syncing:
        with no_host_sync(), pytest.raises(HostSyncOp, match="needs a device-to-host sync on CUDA"):
            op()
    with no_host_sync():  # gathers, scatters, sorts and static-shape ops are fine
        x[idx], torch.sort(x), torch.where(mask, x, 0.0), torch.repeat_interleave(idx, idx, output_size=2)
        torch.zeros(3).index_add_(0, idx, x[idx]), torch.cumsum(x, 0), torch.cummax(x, 0)



@pytest.mark.parametrize("form", ["flat", "flat_ignore_index"])
def test_curve_update_needs_no_host_sync(form):
    """The curve modules take flat input only (``indexes``, no ``mask``, as torchmetrics'); update appends rows."""
    batch = _batches(form)
    for cls in CURVES:
        make = partial(cls, validate_args=False, max_k=4, ignore_index=-1)
        metric, reference = make(), make()
        with _backend.force("torch"), no_host_sync():
            metric.update(*batch)
            metric.update(*batch)
        reference.update(*batch)
        reference.update(*batch)
        assert_close(metric.compute(), reference.compute(), atol=1e-12)


def test_every_module_is_checked():
    assert {cls.__name__ for cls in CLASSES + CURVES} == set(module_retrieval.__all__)
