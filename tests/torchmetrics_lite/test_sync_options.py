"""What the sync handshake compares besides the states, in one process: each metric's options (the constructor
arguments that can change its value, read generically from how it was built) and its identity."""
import copy
import pickle

import pytest
import torch

import torchmetrics_lite as tml
from torchmetrics_lite._identity import NOT_OPTIONS, describe_value

# one value-changing option per pair, across the families the issue names
DIFFERENT = [
    (tml.BinaryF1Score, {}, {"threshold": 0.3}),
    (tml.BinaryF1Score, {}, {"from_logits": True}),
    (tml.BinaryAUROC, {}, {"max_fpr": 0.5}),
    (tml.MulticlassF1Score, {"num_classes": 3}, {"num_classes": 3, "average": "micro"}),
    (tml.MulticlassAccuracy, {"num_classes": 3}, {"num_classes": 3, "ignore_index": 0}),
    (tml.MulticlassAccuracy, {"num_classes": 3}, {"num_classes": 4}),
    (tml.RetrievalNormalizedDCG, {}, {"k": 10}),
    (tml.RetrievalMAP, {"empty": "skip"}, {"empty": "zero"}),
    (tml.MeanSquaredError, {}, {"squared": False}),
    (tml.R2Score, {}, {"adjusted": 2}),
]


@pytest.mark.parametrize("cls, a, b", DIFFERENT, ids=lambda v: getattr(v, "__name__", None))
def test_a_value_changing_option_changes_the_compared_options(cls, a, b):
    assert cls(**a).sync_options != cls(**b).sync_options


def test_wrapped_metrics_are_compared_by_their_own_options():
    plain, other = tml.BinaryF1Score(), tml.BinaryF1Score(threshold=0.3)
    assert tml.BootStrapper(plain, seed=1).sync_options == "metric=BinaryF1Score(), seed=1"
    assert tml.BootStrapper(other, seed=1).sync_options == "metric=BinaryF1Score(threshold=0.3), seed=1"
    assert tml.Running(other, window=3).sync_options != tml.Running(plain, window=3).sync_options


def test_arguments_that_never_change_the_value_and_defaults_are_not_compared():
    base = tml.BinaryAUROC(max_fpr=0.5).sync_options
    assert base == "max_fpr=0.5"
    for name, value in [("validate_args", False), ("sync_timeout", 5.0), ("sync_on_compute", True),
                        ("persistent", True), ("process_group", object())]:
        assert name in NOT_OPTIONS
        assert tml.BinaryAUROC(max_fpr=0.5, **{name: value}).sync_options == base, name
    assert tml.BinaryAUROC(max_fpr=0.5, strict=False).sync_options == base  # a default, given explicitly
    assert tml.MulticlassAccuracy(3).sync_options == tml.MulticlassAccuracy(num_classes=3).sync_options


def test_option_values_are_described_without_rank_dependent_parts():
    a, b = torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.5])
    assert describe_value(a) == describe_value(a.clone()) != describe_value(b)  # tensors by their bytes
    assert describe_value(torch.device("cuda", 0)) == describe_value(torch.device("cuda", 1)) == "device cuda"
    assert describe_value(torch.Generator().manual_seed(0)) == describe_value(torch.Generator().manual_seed(1))
    assert describe_value(object()) == "object"  # a memory address never enters the comparison
    assert describe_value({"b": 1, "a": [0.5, None]}) == "{'a': [0.5, None], 'b': 1}"


def test_identities_number_the_metrics_of_a_class_built_at_one_place():
    first, second = [tml.BinaryF1Score() for _ in range(2)]
    site_1, n_1 = first.sync_identity.rsplit(" #", 1)
    site_2, n_2 = second.sync_identity.rsplit(" #", 1)
    assert site_1 == site_2 and site_1.startswith("BinaryF1Score built at tests.torchmetrics_lite.test_sync_options.")
    assert int(n_2) == int(n_1) + 1
    elsewhere = tml.BinaryF1Score()
    assert elsewhere.sync_identity.rsplit(" #", 1)[0] != site_1  # another line: another place


def test_copies_get_their_own_identity_and_local_metrics_none():
    m = tml.BinaryF1Score(threshold=0.3)
    copies = [m.clone(), copy.deepcopy(m), pickle.loads(pickle.dumps(m))]
    identities = {m.sync_identity, *(c.sync_identity for c in copies)}
    assert len(identities) == 4 and None not in identities
    assert all(c.sync_options == m.sync_options for c in copies)
    assert tml.BinaryF1Score(sync_on_compute=False).sync_identity is None  # a local reference takes no number
