"""torchmetrics' other regression names (``test_regression_measures.py``): seeded batches of each input kind and
the table of (factory, function, batches, oracle value), the oracles from scipy, scikit-learn or numpy; the
float64-less test and the regression distributed test stream the same table."""
from functools import partial

import numpy as np
import torch
from scipy import spatial, stats
from sklearn import metrics as sk

import torchmetrics_lite as tl
import torchmetrics_lite.functional as F
from tests.helpers.metric_tester import concat

G = torch.Generator().manual_seed(35)
SIZES = (9, 0, 14, 1, 6)


def settling_cosine(reduction="sum"):
    """A cosine similarity whose pending rows settle every 8 row elements (the default is 2**20): every update
    after the first settles, so the table checks the settled path as the default one checks the pending one."""
    metric = tl.CosineSimilarity(reduction=reduction)
    metric.settle_numel = 8
    return metric


def _batches(make):
    return [make(n) for n in SIZES]


POS = _batches(lambda n: (torch.rand(n, generator=G, dtype=torch.float64) * 4 + 0.1,
                          torch.rand(n, generator=G, dtype=torch.float64) * 4 + 0.1))
REAL = _batches(lambda n: (torch.randn(n, generator=G, dtype=torch.float64) * 3,
                           torch.randn(n, generator=G, dtype=torch.float64) * 3))
REAL2 = _batches(lambda n: (torch.randn(n, 2, generator=G, dtype=torch.float64) + 5,
                            torch.randn(n, 2, generator=G, dtype=torch.float64) + 5))
ROWS = _batches(lambda n: (torch.rand(n, 4, generator=G, dtype=torch.float64) + 0.01,
                           torch.rand(n, 4, generator=G, dtype=torch.float64) + 0.01))
ENSEMBLE = _batches(lambda n: (torch.randn(n, 5, generator=G, dtype=torch.float64),
                               torch.randn(n, generator=G, dtype=torch.float64)))
EVENTS = _batches(lambda n: (torch.rand(n, 3, generator=G, dtype=torch.float64),
                             torch.rand(n, 3, generator=G, dtype=torch.float64)))


def _np(batches):
    return [t.numpy() for t in concat(batches)]


def _hand_crps(x, y):
    pairs = np.abs(x[:, :, None] - x[:, None, :]).mean((1, 2)) / 2
    return (np.abs(x - y[:, None]).mean(1) - pairs).mean()


def _oracles():
    """(factory, function, batches, oracle value) of every name; oracles from scipy, scikit-learn or numpy."""
    p, t = _np(POS)
    r, s = _np(REAL)
    r2, s2 = _np(REAL2)
    a, b = _np(ROWS)
    x, y = _np(ENSEMBLE)
    ep, et = _np(EVENTS)
    an, bn = a / a.sum(1, keepdims=True), b / b.sum(1, keepdims=True)
    hits, miss, fa = ((ep >= .5) & (et >= .5)).sum(), ((ep < .5) & (et >= .5)).sum(), ((ep >= .5) & (et < .5)).sum()
    rse = 1 - sk.r2_score(s2, r2, multioutput="raw_values")
    nrmse = sk.root_mean_squared_error(s2, r2, multioutput="raw_values")
    return [
        (tl.MeanSquaredLogError, F.mean_squared_log_error, POS, sk.mean_squared_log_error(t, p)),
        (partial(tl.TweedieDevianceScore, power=0), F.tweedie_deviance_score, REAL,
         sk.mean_tweedie_deviance(s, r, power=0)),
        *[(partial(tl.TweedieDevianceScore, power=k), partial(F.tweedie_deviance_score, power=k), POS,
           sk.mean_tweedie_deviance(t, p, power=k)) for k in (-0.5, 1, 1.5, 2, 3)],
        (partial(tl.MinkowskiDistance, p=3), partial(F.minkowski_distance, p=3), REAL,
         spatial.distance.minkowski(r, s, 3)),
        (partial(tl.MinkowskiDistance, 1), partial(F.minkowski_distance, p=1), REAL2,
         np.abs(r2 - s2).sum()),
        (partial(tl.LogCoshError, num_outputs=2), F.log_cosh_error, REAL2, np.log(np.cosh(r2 - s2)).mean(0)),
        (tl.LogCoshError, F.log_cosh_error, REAL, np.log(np.cosh(r - s)).mean()),
        (tl.WeightedMeanAbsolutePercentageError, F.weighted_mean_absolute_percentage_error, REAL,
         np.abs(r - s).sum() / np.abs(s).sum()),
        (tl.SymmetricMeanAbsolutePercentageError, F.symmetric_mean_absolute_percentage_error, REAL,
         (2 * np.abs(r - s) / (np.abs(r) + np.abs(s))).mean()),
        (partial(tl.CriticalSuccessIndex, 0.5), partial(F.critical_success_index, threshold=0.5), EVENTS,
         hits / (hits + miss + fa)),
        (tl.ContinuousRankedProbabilityScore, F.continuous_ranked_probability_score, ENSEMBLE, _hand_crps(x, y)),
        (partial(tl.CosineSimilarity, reduction="sum"), F.cosine_similarity, ROWS,
         np.diag(sk.pairwise.cosine_similarity(a, b)).sum()),
        (partial(tl.CosineSimilarity, reduction="none"), partial(F.cosine_similarity, reduction="none"), ROWS,
         np.diag(sk.pairwise.cosine_similarity(a, b))),
        *[(partial(settling_cosine, reduction=k), partial(F.cosine_similarity, reduction=k), ROWS, value)
          for k, value in (("sum", np.diag(sk.pairwise.cosine_similarity(a, b)).sum()),
                           ("mean", np.diag(sk.pairwise.cosine_similarity(a, b)).mean()),
                           ("none", np.diag(sk.pairwise.cosine_similarity(a, b))))],
        (tl.KLDivergence, F.kl_divergence, ROWS, stats.entropy(a, b, axis=1).mean()),
        (partial(tl.KLDivergence, log_prob=True, reduction="sum"),
         lambda u, v: F.kl_divergence(u, v, log_prob=True, reduction="sum"), [
             (u.div(u.sum(1, keepdim=True)).log(), v.div(v.sum(1, keepdim=True)).log()) for u, v in ROWS],
         stats.entropy(a, b, axis=1).sum()),
        (tl.JensenShannonDivergence, F.jensen_shannon_divergence, ROWS,
         (spatial.distance.jensenshannon(an, bn, axis=1) ** 2).mean()),
        (partial(tl.JensenShannonDivergence, reduction=None), partial(F.jensen_shannon_divergence, reduction=None),
         ROWS, spatial.distance.jensenshannon(an, bn, axis=1) ** 2),
        (partial(tl.RelativeSquaredError, num_outputs=2), F.relative_squared_error, REAL2, rse.mean()),
        (partial(tl.RelativeSquaredError, num_outputs=2, squared=False),
         partial(F.relative_squared_error, squared=False), REAL2, np.sqrt(rse).mean()),
        *[(partial(tl.NormalizedRootMeanSquaredError, normalization=k, num_outputs=2),
           partial(F.normalized_root_mean_squared_error, normalization=k, num_outputs=2), REAL2, nrmse / scale)
          for k, scale in (("mean", s2.mean(0)), ("range", np.ptp(s2, 0)), ("std", s2.std(0)),
                           ("l2", np.linalg.norm(s2, axis=0)))],
    ]


CASES = _oracles()
