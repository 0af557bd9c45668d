"""Group fairness (issue 24 item 8): the per-group stat rates and the demographic-parity / equal-opportunity ratios
of ``binary_groups_stat_rates`` / ``binary_fairness`` against counts by hand, with ties, group ids, weights, a
group without a sample and empty input, a property test against brute force, and the modules through the harness
and against the counts by hand. Hostile inputs: test_group_fairness_inputs.py; torchmetrics' ``demographic_parity``
/ ``equal_opportunity``: test_fairness_functions.py; errors: test_classification_errors.py; torchmetrics on the
same inputs: test_classification_port.py; ``torch.compile``: test_classification_compile.py."""
import math
from functools import partial

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import torchmetrics_lite.classification as tmc
import torchmetrics_lite.functional as F
from tests.helpers.classification.counts import BIN_PREDS, BIN_TARGET, GROUPS, GRP_B, MODULES, G, with_ignored
from tests.helpers.metric_tester import assert_close, check_metric, concat


def _np(t):
    return t.numpy()


def _group_counts(p, y, g, groups):
    return np.array([[((p == 1) & (y == 1) & (g == k)).sum(), ((p == 1) & (y == 0) & (g == k)).sum(),
                      ((p == 0) & (y == 0) & (g == k)).sum(), ((p == 0) & (y == 1) & (g == k)).sum()]
                     for k in range(groups)], dtype=float)


def _ratio_by_hand(rates, ok, name):
    idx = [k for k in range(len(rates)) if ok[k]]
    low = min(idx, key=lambda k: (rates[k], k))
    high = min(idx, key=lambda k: (-rates[k], k))
    return {f"{name}_{low}_{high}": 0.0 if rates[high] == 0 else rates[low] / rates[high]}


def test_group_rates_and_fairness_by_hand():
    p, y, g = _np(BIN_PREDS > 0.5).astype(int), _np(BIN_TARGET), _np(GROUPS)
    counts = _group_counts(p, y, g, G)
    with np.errstate(invalid="ignore"):
        rates = counts / counts.sum(1, keepdims=True)
    got = F.binary_groups_stat_rates(BIN_PREDS, BIN_TARGET, GROUPS, G)
    assert list(got) == [f"group_{k}" for k in range(G)]
    assert_close(got, {f"group_{k}": rates[k] for k in range(G)}, atol=1e-12)  # group 3: nan
    tp, fp, tn, fn = counts.T
    n = counts.sum(1)
    pr, tpr = np.divide(tp + fp, n, out=np.zeros(G), where=n > 0), np.divide(tp, tp + fn, out=np.zeros(G),
                                                                               where=tp + fn > 0)
    present = n > 0
    want = {**_ratio_by_hand(pr, present, "DP"), **_ratio_by_hand(tpr, present, "EO")}
    assert_close(F.binary_fairness(BIN_PREDS, BIN_TARGET, GROUPS), want, atol=1e-12)  # the groups present
    # num_groups=4: the empty group 3 has rate 0/0 = zero_division = 0, so both ratios are 0 and name it
    every = F.binary_fairness(BIN_PREDS, BIN_TARGET, GROUPS, num_groups=G)
    assert {k: v.item() for k, v in every.items()} == {f"DP_3_{list(want)[0][-1]}": 0.0,
                                                       f"EO_3_{list(want)[1][-1]}": 0.0}
    assert_close(F.binary_fairness(BIN_PREDS, BIN_TARGET, GROUPS, num_groups=G, zero_division=float("nan")), want)
    dp = F.binary_fairness(BIN_PREDS, None, GROUPS, "demographic_parity")
    assert_close(dp, _ratio_by_hand(pr, present, "DP"), atol=1e-12)
    assert list(F.binary_fairness(BIN_PREDS, BIN_TARGET, GROUPS, "equal_opportunity")) == [list(want)[1]]


def test_fairness_ties_ids_weights_and_empty():
    # tied rates: the first group with the lowest / highest rate (torch.argmin / argmax)
    preds, target = torch.tensor([1, 0, 1, 0, 1, 1]), torch.ones(6, dtype=torch.long)
    got = F.binary_fairness(preds, target, torch.tensor([0, 0, 1, 1, 2, 2]))
    assert {k: v.item() for k, v in got.items()} == {"DP_0_2": 0.5, "EO_0_2": 0.5}
    # groups {0, 2} present: keyed by their own ids (group 1 has no sample and is not reported)
    got = F.binary_fairness(preds[:4], target[:4], torch.tensor([0, 0, 2, 2]))
    assert set(got) == {"DP_0_0", "EO_0_0"} and all(v.item() == 1.0 for v in got.values())
    # weights count as copies
    w = torch.tensor([2, 1, 1, 1, 1, 1])
    rep = torch.repeat_interleave(torch.arange(6), w)
    grp = torch.tensor([0, 0, 1, 1, 2, 2])
    assert_close(F.binary_groups_stat_rates(preds, target, grp, 3, weight=w),
                 F.binary_groups_stat_rates(preds[rep], target[rep], grp[rep], 3))
    # ignore_index leaves samples out of every group count
    ign = with_ignored(BIN_TARGET)
    keep = ign != -1
    assert_close(F.binary_fairness(BIN_PREDS, ign, GROUPS, ignore_index=-1, num_groups=G),
                 F.binary_fairness(BIN_PREDS[keep], BIN_TARGET[keep], GROUPS[keep], num_groups=G))
    empty = torch.zeros(0, dtype=torch.long)
    assert {k: v.item() for k, v in F.binary_fairness(empty, empty, empty).items()} == {"DP_0_0": 0.0,
                                                                                        "EO_0_0": 0.0}


@settings(max_examples=15, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(0, 2), st.integers(0, 3)), max_size=30))
def test_fairness_property_against_brute_force(rows):
    """Random small inputs (ties everywhere, empty groups, empty input): every rate and ratio by brute force."""
    p, y, g, w = (torch.tensor([r[i] for r in rows], dtype=torch.long) for i in range(4))
    for zd in (0.0, float("nan")):
        got = F.binary_fairness(p, y, g, num_groups=3, zero_division=zd, weight=w)
        want = {}
        for name, num, den in (("DP", lambda k: p[(g == k)] @ w[g == k], lambda k: w[g == k].sum()),
                               ("EO", lambda k: (p * y)[g == k] @ w[g == k], lambda k: (y * w)[g == k].sum())):
            rates = [float(num(k)) / float(den(k)) if den(k) else zd for k in range(3)]
            ok = [k for k in range(3) if not math.isnan(rates[k])]
            if not ok:
                want[f"{name}_0_0"] = zd
                continue
            low, high = min(ok, key=lambda k: (rates[k], k)), min(ok, key=lambda k: (-rates[k], k))
            want[f"{name}_{low}_{high}"] = rates[low] / rates[high] if rates[high] else zd
        assert_close(got, want, atol=1e-12)


# ---------------------------------------------------------------------------------------------- modules, the harness
FAIRNESS_MODULES = [m for m in MODULES if m[0].startswith(("BinaryGroupStatRates", "BinaryFairness"))]


@pytest.mark.parametrize("name,factory,functional,batches", FAIRNESS_MODULES, ids=[m[0] for m in FAIRNESS_MODULES])
def test_module_harness(name, factory, functional, batches):
    expected = functional(*concat(batches))
    check_metric(factory, batches, expected, batch_value=functional, max_examples=5, atol=1e-12)


def test_group_module_against_the_counts_by_hand():
    p, y, g = _np(BIN_PREDS > 0.5).astype(int), _np(BIN_TARGET), _np(GROUPS)
    counts = _group_counts(p, y, g, G)
    with np.errstate(invalid="ignore"):
        rates = counts / counts.sum(1, keepdims=True)
    check_metric(partial(tmc.BinaryGroupStatRates, G), GRP_B, {f"group_{k}": rates[k] for k in range(G)},
                 max_examples=3)
