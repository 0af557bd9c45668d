"""Regression against torchmetrics 1.9 and scikit-learn (issue 21 item 4): the RMSE of ``(N, d)`` input is the same
number as the library the call names, or an error naming ``multioutput``; R² of a near-constant target follows
scikit-learn (README row), pinned with both libraries' values."""
import numpy as np
import pytest
import torch
from sklearn import metrics as sk

import torchmetrics_lite as ours
from torchmetrics_lite.functional import mean_absolute_error, mean_squared_error, r2_score, root_mean_squared_error

tm = pytest.importorskip("torchmetrics")
import torchmetrics.functional as tmf  # noqa: E402

G = torch.Generator().manual_seed(4)
P, T = torch.randn(30, 3, generator=G), torch.randn(30, 3, generator=G)


def test_rmse_of_several_outputs_asks_for_multioutput_and_each_choice_is_a_library_number():
    with pytest.raises(ValueError, match=r"Expected `multioutput` to be given for mean_squared_error\(squared=False\) "
                                         r"of 3 outputs.*torchmetrics' pooled number"):
        mean_squared_error(P, T, squared=False)
    y, p = T.double().numpy(), P.double().numpy()
    assert mean_squared_error(P, T, squared=False, multioutput="uniform_average").item() == pytest.approx(
        sk.root_mean_squared_error(y, p))
    np.testing.assert_allclose(mean_squared_error(P, T, squared=False, multioutput="raw_values").numpy(),
                               sk.root_mean_squared_error(y, p, multioutput="raw_values"))
    np.testing.assert_allclose(mean_squared_error(P, T, squared=False, multioutput="raw_values").numpy(),
                               tmf.mean_squared_error(P, T, squared=False, num_outputs=3).numpy(), rtol=1e-5)
    pooled = tmf.mean_squared_error(P, T, squared=False).item()  # torchmetrics: one RMSE over all columns
    assert mean_squared_error(P.reshape(-1), T.reshape(-1), squared=False).item() == pytest.approx(pooled, rel=1e-6)
    assert root_mean_squared_error(P, T).item() == pytest.approx(sk.root_mean_squared_error(y, p))  # sklearn's name


@pytest.mark.parametrize("fn,name", [(mean_squared_error, "mean_squared_error"),
                                     (mean_absolute_error, "mean_absolute_error")])
def test_mse_and_mae_of_several_outputs_are_torchmetrics_pooled_number(fn, name):
    # pooled == mean over outputs for MSE and MAE (every output has N samples), so no choice is needed
    assert fn(P, T).item() == pytest.approx(getattr(tmf, name)(P, T).item(), rel=1e-6)
    assert fn(P[:, :1], T[:, :1], **({"squared": False} if name == "mean_squared_error" else {})).item() == \
        pytest.approx(getattr(tmf, name)(P[:, :1], T[:, :1], **({"squared": False} if "squared" in name else {}))
                      .item(), rel=1e-6)


def test_module_rmse_of_several_columns_without_num_outputs_names_the_fix():
    tm_value = tm.MeanSquaredError(squared=False)(P, T).item()  # torchmetrics pools the columns
    with pytest.raises(ValueError, match=r"got shape \(30, 3\); pass num_outputs=3 .*torchmetrics' RMSE of it pools "
                                         r"the columns \(preds.reshape\(-1\), target.reshape\(-1\)\)"):
        ours.MeanSquaredError(squared=False)(P, T)
    assert ours.MeanSquaredError(squared=False)(P.reshape(-1), T.reshape(-1)).item() == pytest.approx(tm_value,
                                                                                                       rel=1e-6)


@pytest.mark.parametrize("target,preds", [
    ([1.0, 1.001, 0.999, 1.0], [1.002, 1.0, 1.0, 0.998]),  # residuals below 1e-4: torchmetrics says 1.0
    ([2.0, 2.0, 2.0, 2.001], [1.0, 3.0, 2.0, 2.5]),  # total variation below 1e-4: torchmetrics says 0.0
])
def test_r2_of_a_near_constant_target_is_scikit_learns(target, preds):
    y, p = torch.tensor(target, dtype=torch.float64), torch.tensor(preds, dtype=torch.float64)
    theirs = tmf.r2_score(p.float(), y.float()).item()
    expected = sk.r2_score(y.numpy(), p.numpy())
    assert r2_score(p, y).item() == pytest.approx(expected, rel=1e-9)
    assert theirs in (0.0, 1.0) and abs(theirs - expected) > 0.5  # the documented difference


@pytest.mark.parametrize("name", ["R2Score", "ExplainedVariance", "MeanSquaredError", "MeanAbsoluteError"])
def test_the_n_by_d_advice_gives_torchmetrics_number(name):
    """torchmetrics' default ``num_outputs=1`` reads the columns of ``(N, d)`` input anyway; the error names the
    call that gives its number (``reshape(-1)`` would not for R²: -0.661 against -0.922 in the issue)."""
    theirs = getattr(tm, name)()(P, T).item()
    with pytest.raises(ValueError, match=r"got shape \(30, 3\); pass num_outputs=3 with multioutput='uniform_average'"
                                         r" \(torchmetrics' number for R², explained variance, MSE and MAE"):
        getattr(ours, name)()(P, T)
    advised = getattr(ours, name)(num_outputs=3, multioutput="uniform_average")(P, T).item()
    assert advised == pytest.approx(theirs, rel=1e-5)
    raw = getattr(ours, name)(num_outputs=3, multioutput="raw_values")(P, T)
    # torchmetrics' per-output values: num_outputs=3 (MSE, MAE), multioutput="raw_values" (R², explained variance)
    tm_raw = {"num_outputs": 3} if name.startswith("Mean") else {"multioutput": "raw_values"}
    np.testing.assert_allclose(raw.numpy(), getattr(tm, name)(**tm_raw)(P, T).numpy(), rtol=1e-5)
    if name == "R2Score":
        assert ours.R2Score()(P.reshape(-1), T.reshape(-1)).item() != pytest.approx(theirs, rel=1e-3)  # not that
