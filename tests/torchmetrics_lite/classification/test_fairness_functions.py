"""torchmetrics' ``demographic_parity`` / ``equal_opportunity`` (issue 35 item 6): the rates by hand, the same
dicts as torchmetrics 1.9 on random inputs, and the errors of ``binary_fairness``."""
import pytest
import torch

from tests.helpers.metric_tester import assert_close
from torchmetrics_lite import functional as F

G = torch.Generator().manual_seed(352)
PREDS, TARGET = torch.rand(200, generator=G), torch.randint(0, 2, (200,), generator=G)
GROUPS = torch.randint(0, 4, (200,), generator=G)


def _ratio(rates):
    low, high = int(torch.argmin(rates)), int(torch.argmax(rates))
    return low, high, (rates[low] / rates[high]).item()


def test_the_ratios_by_hand():
    hard = PREDS >= 0.3
    pr = torch.stack([hard[GROUPS == g].double().mean() for g in range(4)])
    low, high, value = _ratio(pr)
    out = F.demographic_parity(PREDS, GROUPS, threshold=0.3)
    assert list(out) == [f"DP_{low}_{high}"] and out[f"DP_{low}_{high}"].item() == pytest.approx(value, rel=1e-12)
    tpr = torch.stack([hard[(GROUPS == g) & (TARGET == 1)].double().mean() for g in range(4)])
    low, high, value = _ratio(tpr)
    out = F.equal_opportunity(PREDS, TARGET, GROUPS, 0.3)
    assert list(out) == [f"EO_{low}_{high}"] and out[f"EO_{low}_{high}"].item() == pytest.approx(value, rel=1e-12)
    with pytest.raises(ValueError, match=r"`groups`"):
        F.demographic_parity(PREDS, GROUPS[:10])


tm = pytest.importorskip("torchmetrics")


@pytest.mark.parametrize("threshold", [0.5, 0.2])
def test_the_same_dicts_as_torchmetrics(threshold):
    from torchmetrics.functional.classification import demographic_parity, equal_opportunity

    assert_close(F.demographic_parity(PREDS, GROUPS, threshold), demographic_parity(PREDS, GROUPS, threshold),
                 rtol=1e-6)
    assert_close(F.equal_opportunity(PREDS, TARGET, GROUPS, threshold),
                 equal_opportunity(PREDS, TARGET, GROUPS, threshold), rtol=1e-6)
    target = TARGET.clone()
    target[::7] = -1  # ignored samples
    assert_close(F.equal_opportunity(PREDS, target, GROUPS, threshold, ignore_index=-1),
                 equal_opportunity(PREDS, target, GROUPS, threshold, ignore_index=-1), rtol=1e-6)
