"""The macro EER where the mean curve's crossing sits next to a class's vertex (issue 34's surviving mutant of
``result_segments._mean_d``): a class curve is read at its own point only where ``fpr`` equals the grid value exactly,
and interpolated between its points everywhere else. Inputs from a scan of 300 small random ones, the ones where
reading a point at ``fpr >= f`` instead changes the value, against the oracle that builds the mean curve by hand."""
import pytest

import torchmetrics_lite.functional as F
from tests.torchmetrics_lite.auroc.test_breadth import C, make
from tests.torchmetrics_lite.auroc.test_eer_macro import macro_eer_oracle


@pytest.mark.parametrize("n, seed", [(12, 33), (20, 150), (40, 15), (40, 279)])
def test_macro_eer_interpolates_between_a_class_points(n, seed):
    _, probs, y, _, _ = make(n, seed=seed, decimals=0)
    assert F.multiclass_eer(probs, y, C, average="macro").item() == pytest.approx(
        macro_eer_oracle(y.numpy(), probs.numpy()), abs=1e-12)
