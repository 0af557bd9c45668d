"""The float32 policy of the aggregation metrics on an emulated float64-less device (``tests/helpers/no_float64``):
float32, integer, empty and Python-number inputs, with and without weights; no float64 tensor made, float32
states and values close to the float64 ones."""
import pytest
import torch

import torchmetrics_lite.aggregation as agg
from tests.helpers.no_float64 import check_float32_policy

G = torch.Generator().manual_seed(5)
FLOATS = [(torch.randn(7, 3, generator=G),), (torch.zeros(0),), (torch.randn(11, generator=G) * 100,)]
INTS = [(torch.randint(-50, 50, (9,), generator=G),), (torch.randint(-5, 5, (2, 2), dtype=torch.int32, generator=G),)]
NUMBERS = [(2.5,), (torch.tensor([1.0, -4.0]),), (-7,)]
WEIGHTED = [(torch.randn(8, generator=G), torch.rand(8, generator=G)), (torch.zeros(0), torch.zeros(0)),
            (torch.randn(5, 2, generator=G), torch.rand(1, 2, generator=G))]  # a weight that broadcasts
INT_WEIGHTED = [(torch.randint(0, 9, (6,), generator=G), torch.randint(1, 4, (6,), generator=G))]
CASES = [(cls, name, batches) for cls in (agg.SumMetric, agg.MeanMetric, agg.MaxMetric, agg.MinMetric)
         for name, batches in (("float32", FLOATS), ("int", INTS), ("numbers", NUMBERS))]
CASES += [(agg.MeanMetric, "weighted", WEIGHTED), (agg.MeanMetric, "int weighted", INT_WEIGHTED)]
FLAT = [(torch.randn(7, generator=G),), (torch.zeros(0),), (2.5,), (torch.randint(-5, 5, (4,), generator=G),)]
CASES += [(agg.CatMetric, "flat", FLAT), (agg.RunningMean, "float32", FLOATS), (agg.RunningSum, "int", INTS)]


@pytest.mark.parametrize("cls, name, batches", CASES, ids=[f"{c.__name__}-{n}" for c, n, _ in CASES])
def test_aggregation_float32_policy(monkeypatch, cls, name, batches):
    check_float32_policy(monkeypatch, cls, batches)


def test_every_public_name_is_covered():
    assert {cls.__name__ for cls, _, _ in CASES} == set(agg.__all__)
