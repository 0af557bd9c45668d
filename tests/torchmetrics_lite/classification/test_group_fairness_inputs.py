"""Group fairness on hostile inputs (issue 34): a missing ``target`` where the rates need it raises naming it (in
functions and modules, a rejected update leaving the state as it was), and sparse group ids (``10**12``,
``2**31 - 1``) with ``num_groups=None`` cost memory for the groups present only, keyed by their own ids."""
from functools import partial

import pytest
import torch

import torchmetrics_lite as ours
from tests.helpers.metric_tester import check_rejects
from torchmetrics_lite import functional as F

tmf = pytest.importorskip("torchmetrics.functional.classification")

G = torch.Generator().manual_seed(34)
N = 200
PREDS = torch.rand(N, generator=G)
TARGET = (torch.rand(N, generator=G) < 0.5).long()
DENSE = torch.randint(0, 4, (N,), generator=G)
MISSING = r"Expected `target` \(0/1 labels of `preds`' shape\) for the true positive rates.*got None"


@pytest.mark.parametrize("task", ["equal_opportunity", "all"])
def test_a_missing_target_raises_where_the_rates_read_it(task):
    with pytest.raises(TypeError, match=MISSING):
        F.binary_fairness(PREDS, None, DENSE, task=task)
    check_rejects(partial(ours.BinaryFairness, 4, task=task), [(PREDS, TARGET, DENSE)], (PREDS, None, DENSE),
                  TypeError, MISSING)


def test_a_missing_target_raises_for_the_stat_rates():
    with pytest.raises(TypeError, match=MISSING):
        F.binary_groups_stat_rates(PREDS, None, DENSE, 4)
    check_rejects(partial(ours.BinaryGroupStatRates, 4), [(PREDS, TARGET, DENSE)], (PREDS, None, DENSE), TypeError,
                  MISSING)


def test_demographic_parity_needs_no_target():
    expected = tmf.binary_fairness(PREDS, TARGET, DENSE, task="demographic_parity")
    got = F.binary_fairness(PREDS, None, DENSE, task="demographic_parity")
    assert list(got) == list(expected)
    torch.testing.assert_close(got[next(iter(got))].float(), expected[next(iter(expected))])


@pytest.mark.parametrize("ids", [(10**12, 7, 2**31 - 1, 3), (2**62, 2**40, 0, 1), (10**6, 999_999, 5, 2**31 - 1)])
@pytest.mark.parametrize("task", ["demographic_parity", "equal_opportunity", "all"])
def test_sparse_group_ids_equal_their_dense_codes_keyed_by_the_ids(ids, task):
    table = torch.tensor(ids)
    sparse = table[DENSE]  # the four groups under sparse ids (the 32 TB table of 10**12 ids is never made)
    dense = torch.unique(sparse, return_inverse=True)[1]  # the same groups as 0..3, in the ids' order
    expected = tmf.binary_fairness(PREDS, TARGET, dense, task=task)
    got = F.binary_fairness(PREDS, TARGET, sparse, task=task)
    ordered = torch.unique(table)
    renamed = {}
    for key, value in expected.items():
        name, low, high = key.split("_")
        renamed[f"{name}_{int(ordered[int(low)])}_{int(ordered[int(high)])}"] = value
    assert list(got) == list(renamed)
    for key in got:
        torch.testing.assert_close(got[key].float(), renamed[key])
    weighted = F.binary_fairness(PREDS, TARGET, sparse, task=task, weight=torch.ones(N))
    assert {k: v.item() for k, v in weighted.items()} == {k: v.item() for k, v in got.items()}
