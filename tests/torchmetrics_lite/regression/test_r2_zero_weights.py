"""R² with zero weights (issue 23 item 7): all-zero weights give nan, as every other weighted metric (scikit-learn
raises), and a stream in which only some batches have all-zero weights equals scikit-learn on the whole stream."""
import numpy as np
import pytest
import torch
from sklearn.metrics import r2_score as sk_r2_score

from torchmetrics_lite import ExplainedVariance, R2Score
from torchmetrics_lite.functional import explained_variance, r2_score

GEN = torch.Generator().manual_seed(23)
PREDS = torch.randn(15, 2, generator=GEN, dtype=torch.float64)
TARGET = PREDS + 0.7 * torch.randn(15, 2, generator=GEN, dtype=torch.float64)
WEIGHT = torch.rand(15, generator=GEN, dtype=torch.float64)
WEIGHT[5:10] = 0  # the middle batch weighs nothing
BATCHES = [slice(0, 5), slice(5, 10), slice(10, 15)]


@pytest.mark.parametrize("multioutput", ["uniform_average", "raw_values", "variance_weighted"])
def test_all_zero_weights_give_nan_where_scikit_learn_raises(multioutput):
    zeros = torch.zeros(15, dtype=torch.float64)
    with pytest.raises(ValueError, match="Sample weights must contain at least one non-zero number"):
        sk_r2_score(TARGET.numpy(), PREDS.numpy(), sample_weight=zeros.numpy(), multioutput=multioutput)
    got = r2_score(PREDS, TARGET, weight=zeros, multioutput=multioutput)
    assert torch.isnan(got).all()
    assert torch.isnan(explained_variance(PREDS, TARGET, weight=zeros, multioutput=multioutput)).all()  # same rule
    m = R2Score(num_outputs=2, multioutput=multioutput)
    m.update(PREDS, TARGET, weight=zeros)
    assert torch.isnan(m.compute()).all()
    assert torch.isnan(r2_score(PREDS, TARGET, weight=zeros, multioutput=multioutput, adjusted=1)).all()


@pytest.mark.parametrize("multioutput", ["uniform_average", "raw_values", "variance_weighted"])
def test_a_stream_with_some_all_zero_weight_batches_equals_scikit_learn(multioutput):
    expected = sk_r2_score(TARGET.numpy(), PREDS.numpy(), sample_weight=WEIGHT.numpy(), multioutput=multioutput)
    m = R2Score(num_outputs=2, multioutput=multioutput)
    for s in BATCHES:
        m.update(PREDS[s], TARGET[s], weight=WEIGHT[s])
    np.testing.assert_allclose(m.compute().numpy(), expected, rtol=1e-12, atol=1e-12)
    alone = R2Score(num_outputs=2, multioutput=multioutput)  # the zero-weight batch alone: nan, not 1.0
    alone.update(PREDS[BATCHES[1]], TARGET[BATCHES[1]], weight=WEIGHT[BATCHES[1]])
    assert torch.isnan(alone.compute()).all()
    ev = ExplainedVariance(num_outputs=2, multioutput=multioutput)
    for s in BATCHES:
        ev.update(PREDS[s], TARGET[s], weight=WEIGHT[s])
    from sklearn.metrics import explained_variance_score

    ev_expected = explained_variance_score(TARGET.numpy(), PREDS.numpy(), sample_weight=WEIGHT.numpy(),
                                           multioutput=multioutput)
    np.testing.assert_allclose(ev.compute().numpy(), ev_expected, rtol=1e-12, atol=1e-12)
