"""``weight=`` (scikit-learn's ``sample_weight``) on the calibrators (issue 35 item 8). Oracles: scikit-learn's
``IsotonicRegression.fit(sample_weight=)`` (ties, zero weights, both directions) and its sigmoid calibration
(``sklearn.calibration._sigmoid_calibration``, an L-BFGS fit: to its tolerance); integer weights against the
fit on copies of the samples (exact up to rounding); unit weights bit-identical to no weight; bad weights raise
through the one validation layer."""
import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.isotonic import IsotonicRegression

from torchmetrics_lite import IsotonicCalibrator, PlattScaler


@st.composite
def _fit_case(draw):
    n = draw(st.integers(1, 40))
    decimals = draw(st.sampled_from([1, 2, 6]))  # few decimals: many exact ties
    scores = np.round(np.array(draw(st.lists(st.floats(-3.0, 3.0), min_size=n, max_size=n))), decimals)
    target = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)), dtype=np.float64)
    kind = draw(st.sampled_from(["int", "float"]))
    if kind == "int":
        weight = np.array(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)), dtype=np.float64)
    else:
        weight = np.array(draw(st.lists(st.floats(0.0, 5.0), min_size=n, max_size=n)))
    weight[draw(st.integers(0, n - 1))] = draw(st.floats(0.5, 3.0))  # a positive sum
    return scores, target, weight


@settings(max_examples=80, deadline=None, derandomize=True)
@given(_fit_case(), st.booleans())
def test_isotonic_weights_equal_scikit_learn(case, increasing):
    scores, target, weight = case
    ours = IsotonicCalibrator(increasing=increasing).fit(torch.as_tensor(scores), torch.as_tensor(target),
                                                          torch.as_tensor(weight))
    ref = IsotonicRegression(out_of_bounds="clip", increasing=increasing).fit(scores, target, sample_weight=weight)
    np.testing.assert_array_equal(ours.X_thresholds_.numpy(), ref.X_thresholds_)
    np.testing.assert_allclose(ours.y_thresholds_.numpy(), ref.y_thresholds_, rtol=1e-12, atol=1e-12)
    assert ours.X_min_.item() == ref.X_min_ and ours.X_max_.item() == ref.X_max_
    queries = np.linspace(scores.min() - 1, scores.max() + 1, 41)
    np.testing.assert_allclose(ours.predict_proba(torch.as_tensor(queries)).numpy(), ref.predict(queries),
                               rtol=1e-12, atol=1e-12)


def test_isotonic_zero_weights_are_absent_samples_even_at_the_ends():
    scores = torch.tensor([0.0, 0.1, 0.2, 0.3, 0.4, 0.5], dtype=torch.float64)
    target = torch.tensor([1.0, 0.0, 0.0, 1.0, 1.0, 0.0], dtype=torch.float64)
    weight = torch.tensor([0.0, 1.0, 2.0, 1.0, 1.0, 0.0], dtype=torch.float64)
    ours = IsotonicCalibrator().fit(scores, target, weight)
    keep = weight > 0
    bare = IsotonicCalibrator().fit(scores[keep], target[keep])
    assert torch.equal(ours.X_thresholds_, bare.X_thresholds_) and torch.equal(ours.y_thresholds_, bare.y_thresholds_)
    assert ours.X_min_.item() == 0.1 and ours.X_max_.item() == 0.4  # the fitted range, as scikit-learn's


def test_isotonic_tied_scores_pool_into_their_weighted_mean():
    scores = torch.tensor([0.2, 0.2, 0.2, 0.7], dtype=torch.float64)
    target = torch.tensor([1.0, 0.0, 0.0, 1.0], dtype=torch.float64)
    ours = IsotonicCalibrator().fit(scores, target, torch.tensor([3.0, 1.0, 0.5, 1.0]))
    assert ours.y_thresholds_.tolist() == pytest.approx([3.0 / 4.5, 1.0], rel=1e-15)


@pytest.mark.parametrize("smoothing", [True, False])
def test_integer_weights_are_copies_and_unit_weights_change_nothing(smoothing):
    g = torch.Generator().manual_seed(4)
    scores = torch.randn(60, generator=g, dtype=torch.float64)
    target = (torch.rand(60, generator=g, dtype=torch.float64) < torch.sigmoid(2 * scores)).long()
    weight = torch.randint(0, 4, (60,), generator=g)
    copies = torch.repeat_interleave(torch.arange(60), weight)
    for cls in (PlattScaler(target_smoothing=smoothing), IsotonicCalibrator()):
        a = type(cls)(**({"target_smoothing": smoothing} if isinstance(cls, PlattScaler) else {}))
        b = type(cls)(**({"target_smoothing": smoothing} if isinstance(cls, PlattScaler) else {}))
        a.fit(scores, target, weight)
        b.fit(scores[copies], target[copies])
        q = torch.linspace(-3, 3, 25, dtype=torch.float64)
        # Platt: both stop at the gradient tolerance (tol=1e-10 per unit of weight), not at one iterate
        tol = {"rtol": 1e-7, "atol": 1e-9} if isinstance(a, PlattScaler) else {"rtol": 1e-12, "atol": 1e-12}
        torch.testing.assert_close(a.predict_proba(q), b.predict_proba(q), **tol)
        unit, bare = type(a)(), type(a)()
        unit.fit(scores, target, torch.ones(60, dtype=torch.float64))
        bare.fit(scores, target)
        assert torch.equal(unit.predict_proba(q), bare.predict_proba(q))


def test_platt_weights_equal_scikit_learn_sigmoid_calibration():
    calibration = pytest.importorskip("sklearn.calibration")
    g = torch.Generator().manual_seed(9)
    scores = torch.randn(300, generator=g, dtype=torch.float64)
    target = (torch.rand(300, generator=g, dtype=torch.float64) < torch.sigmoid(1.5 * scores - 0.3)).long()
    weight = torch.rand(300, generator=g, dtype=torch.float64) * 3
    weight[:40] = 0.0
    ours = PlattScaler().fit(scores, target, weight)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a, b = calibration._sigmoid_calibration(scores.numpy(), target.numpy(), weight.numpy())
    # scikit-learn's p = 1 / (1 + exp(a s + b)); its L-BFGS stops at gtol=1e-6
    assert ours.coef_.item() == pytest.approx(-a, rel=1e-5)
    assert ours.intercept_.item() == pytest.approx(-b, rel=1e-5, abs=1e-6)
    # the weighted optimum: the gradient of the weighted smoothed likelihood vanishes (to where a Newton step no
    # longer changes the float64 loss: about 1e-8 per unit of weight)
    n_pos = float((weight * target).sum())
    n_neg = float(weight.sum()) - n_pos
    t = torch.where(target > 0.5, (n_pos + 1) / (n_pos + 2), 1 / (n_neg + 2))
    p = torch.sigmoid(ours.coef_ * scores + ours.intercept_)
    bound = 1e-7 * float(weight.sum())
    assert float((weight * (p - t)).sum().abs()) < bound
    assert float((weight * (p - t) * scores).sum().abs()) < bound


@pytest.mark.parametrize("cls", [PlattScaler, IsotonicCalibrator])
def test_bad_weights_name_the_argument_what_was_expected_and_what_was_received(cls):
    scores, target = torch.tensor([0.1, 0.4, 0.8]), torch.tensor([0, 1, 1])
    with pytest.raises(ValueError, match=r"Expected `weight` to hold one value per sample, shape \(3,\), got shape "
                                         r"\(2,\)"):
        cls().fit(scores, target, torch.ones(2))
    with pytest.raises(ValueError, match=r"Expected `weight` to be non-negative and finite, got value -1.0"):
        cls().fit(scores, target, torch.tensor([1.0, -1.0, 1.0]))
    with pytest.raises(ValueError, match=r"Expected `weight` to be non-negative and finite, got value nan"):
        cls().fit(scores, target, torch.tensor([1.0, float("nan"), 1.0]))
    with pytest.raises(ValueError, match=r"Expected `weight` to be non-negative and finite, got value inf"):
        cls().fit(scores, target, torch.tensor([1.0, float("inf"), 1.0]))
    with pytest.raises(TypeError, match=r"Expected `weight` to have a real \(integer or floating\), non-bool dtype, "
                                        r"got torch.bool"):
        cls().fit(scores, target, torch.ones(3, dtype=torch.bool))
    with pytest.raises(TypeError, match=r"weight"):
        cls().fit(scores, target, [1.0, 1.0, 1.0])
    for validate_args in (True, False):
        with pytest.raises(ValueError, match=r"Expected `weight` to have a positive sum \(at least one sample of "
                                             r"positive weight to fit\), got sum 0.0"):
            cls().fit(scores, target, torch.zeros(3), validate_args=validate_args)
