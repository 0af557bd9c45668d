"""IsotonicCalibrator on scores closer than float64's resolution: pooled as scikit-learn's IsotonicRegression
(``_make_unique``'s tolerance), so that no slope overflows, and clipped outside the fitted range
(``out_of_bounds="clip"``, as scikit-learn's CalibratedClassifierCV)."""
import numpy as np
import torch
from sklearn.isotonic import IsotonicRegression

from torchmetrics_lite.calibrators import IsotonicCalibrator

STEPS = [0.0, 1e-308, 5e-324, 1e-16, 4e-16, 9e-16, 1e-15, 2e-15, 0.1]


def test_close_scores_pool_as_sklearn():
    rng = np.random.default_rng(35)
    for _ in range(120):
        n = int(rng.integers(2, 40))
        x = rng.choice([0.0, 0.3, 1.0, 1e-300]) + np.cumsum(rng.choice(STEPS, n))
        rng.shuffle(x)
        y = rng.random(n)
        want = IsotonicRegression(out_of_bounds="clip").fit(x, y)
        got = IsotonicCalibrator().fit(torch.from_numpy(x), torch.from_numpy(y))
        np.testing.assert_array_equal(got.X_thresholds_.numpy(), want.X_thresholds_)
        np.testing.assert_allclose(got.y_thresholds_.numpy(), want.y_thresholds_, rtol=0, atol=1e-12)
        q = np.concatenate([x, [x.min() - 1.0, x.min() - 1e-300, x.max() + 1.0], rng.uniform(x.min(), x.max(), 9)])
        pred = got.predict_proba(torch.from_numpy(q)).numpy()
        assert np.isfinite(pred).all()
        np.testing.assert_allclose(pred, want.predict(q), rtol=0, atol=1e-9)


def test_subnormal_gap_gives_no_inf():
    x = torch.tensor([0.0, 1e-308, 1.0], dtype=torch.float64)
    iso = IsotonicCalibrator().fit(x, torch.tensor([0.0, 1.0, 1.0], dtype=torch.float64))
    assert iso.X_thresholds_.tolist() == [0.0, 1.0]  # 0 and 1e-308 pooled at 0, target 0.5
    assert iso.y_thresholds_.tolist() == [0.5, 1.0]
    out = iso.predict_proba(torch.tensor([-1.0, 5e-309, 0.5, 2.0], dtype=torch.float64))
    assert out.tolist() == [0.5, 0.5 + 0.5 * 5e-309, 0.75, 1.0]
