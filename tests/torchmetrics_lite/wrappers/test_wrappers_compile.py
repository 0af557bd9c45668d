"""``torch.compile(fullgraph=True)`` of the wrappers' ``update`` with ``validate_args=False``: ``Running`` and
``ClasswiseWrapper`` trace with no graph break and accumulate the eager state; ``BootStrapper`` does not (its
resampling draws from a ``torch.Generator``, which dynamo cannot trace: the documented limit)."""
import pytest
import torch

import torchmetrics_lite as T
from tests.helpers.compile import check_update_compiles, graph_breaks

G = torch.Generator().manual_seed(14)
LOGITS, LABELS = torch.randn(40, 3, generator=G), torch.randint(0, 3, (40,), generator=G)
VALUES = torch.randn(40, generator=G, dtype=torch.float64)

UPDATES = {
    "Running": (lambda: T.Running(T.MeanMetric(validate_args=False), window=2), (VALUES,)),
    "ClasswiseWrapper": (lambda: T.ClasswiseWrapper(T.MulticlassF1Score(3, average=None, validate_args=False)),
                         (LOGITS, LABELS)),
}


@pytest.mark.parametrize("name", sorted(UPDATES))
def test_wrapper_update_compiles(name):
    factory, args = UPDATES[name]
    check_update_compiles(factory, [tuple(a[part::3] for a in args) for part in range(3)])  # Running drops one


def test_bootstrapper_update_does_not_compile():
    metric = T.BootStrapper(T.BinaryF1Score(validate_args=False), num_bootstraps=4)
    assert graph_breaks(lambda *a: metric.update(*a), VALUES.sigmoid(), (VALUES > 0).long()) > 0
