"""``update`` of every public module makes no device-to-host sync with ``validate_args=False`` (a training step
never stalls on a metric on CUDA).

No GPU here: the torch path (the one CUDA runs, ``_backend.force("torch")``) runs on the CPU under
``tests.helpers.host_sync.no_host_sync``, which raises on every aten op that syncs on CUDA (``item``,
``nonzero``, ``bincount``, boolean-mask indexing...). Each module takes two realistic batches there, and its
``compute()`` must equal that of the same batches on the default path (numpy on CPU). The retrieval family's
options and input forms have their own test (``retrieval/test_retrieval_host_sync.py``).
"""
import warnings

import pytest
import torch

import torchmetrics_lite as tml
from tests.helpers.host_sync import no_host_sync
from tests.helpers.metric_tester import assert_close
from torchmetrics_lite import _backend

C, L, N = 4, 3, 48
G = torch.Generator().manual_seed(33)
REQUIRED = {"min_recall": 0.5, "min_precision": 0.5, "min_specificity": 0.5, "min_sensitivity": 0.5, "beta": 2.0,
            "num_classes": C, "num_labels": L, "num_groups": 3, "window": 3, "max_k": 4,
            "threshold": 0.5, "p": 2}
WRAPPERS = {
    "BootStrapper": lambda: tml.BootStrapper(tml.BinaryAccuracy(validate_args=False), num_bootstraps=3, seed=0),
    "Running": lambda: tml.Running(tml.MeanSquaredError(validate_args=False), window=3),
    "ClasswiseWrapper": lambda: tml.ClasswiseWrapper(tml.MulticlassAccuracy(C, average=None, validate_args=False)),
    "MinMaxMetric": lambda: tml.MinMaxMetric(tml.MeanSquaredError(validate_args=False)),
    # remove_nans=False: dropping NaN rows is a boolean mask (a host sync by nature)
    "MultioutputWrapper": lambda: tml.MultioutputWrapper(tml.MeanSquaredError(validate_args=False), 2,
                                                         remove_nans=False),
}


def _modules():
    names = [n for names in tml._EXPORTS.values() for n in names]
    return sorted(n for n in names if isinstance(getattr(tml, n), type) and issubclass(getattr(tml, n), tml.Metric)
                  and n != "Metric" and n not in tml.tasks.__all__)


def _make(name):
    if name in WRAPPERS:
        return WRAPPERS[name]()
    import inspect

    cls = getattr(tml, name)
    params = inspect.signature(cls.__init__).parameters
    return cls(validate_args=False, **{k: v for k, v in REQUIRED.items() if k in params})


def _batch(name):
    probs, target = torch.rand(N, generator=G), None
    target = (torch.rand(N, generator=G) < probs).long()
    if name.startswith("Retrieval"):
        return probs, target, torch.randint(0, 5, (N,), generator=G)
    if name in ("BinaryFairness", "BinaryGroupStatRates"):
        return probs, target, torch.randint(0, 3, (N,), generator=G)
    if name == "PairedAUROCTest":
        return probs, torch.rand(N, generator=G), target
    if name == "MultipleChoiceAccuracy":
        return torch.randn(N, C, generator=G), torch.randint(0, C, (N,), generator=G)
    if name.startswith("Binary") or name == "BootStrapper":
        return probs, target
    if name.startswith("Multiclass") or name == "ClasswiseWrapper":
        scores = torch.softmax(2 * torch.randn(N, C, generator=G), 1)
        return scores, torch.randint(0, C, (N,), generator=G)
    if name.startswith("Multilabel"):
        scores = torch.rand(N, L, generator=G)
        return scores, (torch.rand(N, L, generator=G) < scores).long()
    if name in ("CatMetric", "MaxMetric", "MeanMetric", "MinMetric", "SumMetric", "RunningMean", "RunningSum"):
        return (torch.randn(N, generator=G),)
    if name in ("CosineSimilarity", "KLDivergence", "JensenShannonDivergence"):  # (N, d) rows
        return torch.rand(N, 3, generator=G) + 0.1, torch.rand(N, 3, generator=G) + 0.1
    if name == "MultioutputWrapper":  # two outputs
        return torch.randn(N, 2, generator=G), torch.randn(N, 2, generator=G)
    if name == "ContinuousRankedProbabilityScore":  # an (N, m) ensemble
        return torch.randn(N, 4, generator=G), torch.randn(N, generator=G)
    return probs + 0.3 * torch.randn(N, generator=G), probs  # regression and correlation


@pytest.mark.parametrize("name", _modules())
def test_update_needs_no_host_sync(name):
    batches = [_batch(name), _batch(name)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. a multiclass batch without some class: not the point here
        metric, reference = _make(name), _make(name)
        with _backend.force("torch"), no_host_sync():
            for batch in batches:
                metric.update(*batch)
        for batch in batches:
            reference.update(*batch)
        assert metric.update_count == 2
        assert_close(metric.compute(), reference.compute(), atol=1e-12)


def test_every_public_module_is_checked():
    assert len(_modules()) > 100
    assert {"BinaryAUROC", "RetrievalNormalizedDCG", "SpearmanCorrCoef", "BootStrapper", "CatMetric"} <= set(_modules())


@pytest.mark.parametrize("reduction", ["sum", "none"])
def test_settling_pending_rows_needs_no_host_sync(reduction):
    """A settle at every update, a batch of another row length (which settles the rows held), and a wrapper
    (which settles every batch): no sync either."""
    batches = [(torch.rand(n, d, generator=G), torch.rand(n, d, generator=G)) for n, d in ((5, 3), (4, 3), (6, 5))]
    settling = tml.CosineSimilarity(reduction=reduction, validate_args=False)
    settling.settle_numel = 1
    window, reference = tml.Running(tml.CosineSimilarity(reduction=reduction, validate_args=False), window=5), \
        tml.CosineSimilarity(reduction=reduction)
    with _backend.force("torch"), no_host_sync():
        for batch in batches:
            settling.update(*batch)
            window.update(*batch)
    assert settling.__dict__["_cat_len"]["preds"] == 0  # every update settled
    for batch in batches:
        reference.update(*batch)
    assert_close(settling.compute(), reference.compute(), atol=1e-12)
    assert_close(window.compute(), reference.compute(), atol=1e-12)
