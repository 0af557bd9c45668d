"""The AUROC family's kernel chooser (:mod:`torchmetrics_lite.functional.auroc._kernels`): which kernel it picks in
each situation (backend, weights, rows, need, ``torch.compile``), that every kernel gives scikit-learn's numbers
on tied, weighted input (and so the same numbers as each other), and that the readers ask the chooser and
nothing else."""
import math
import pathlib
import re
import warnings

import numpy as np
import pytest
import torch
from sklearn.metrics import average_precision_score, roc_auc_score, roc_curve

import torchmetrics_lite.functional as F
from torchmetrics_lite import _backend
from torchmetrics_lite._xp import NUMPY, namespace, torch_namespace
from torchmetrics_lite.functional.auroc import _kernels as K
from torchmetrics_lite.functional.auroc._kernels import packed as pk
from torchmetrics_lite.functional.auroc._kernels import ranks as rk
from torchmetrics_lite.functional.auroc._kernels import result_segments as rr
from torchmetrics_lite.functional.auroc._kernels import result_swept as sw

ONE, ROWS = torch.rand(8), torch.rand(3, 8)
PER_SAMPLE, PER_ELEMENT = torch.ones(8), torch.ones(3, 8)

# (backend, scores, weight, need) -> kernel: the table of the module docstring, written out
CHOICES = [
    ("numpy", ONE, None, "value", K.RANK_NUMPY), ("torch", ONE, None, "value", K.RANK_TORCH),
    ("numpy", ROWS, None, "value", K.RANK_NUMPY), ("torch", ROWS, None, "value", K.RANK_TORCH),
    ("numpy", ONE, None, "sweep", K.COUNTS_NUMPY), ("torch", ONE, None, "sweep", K.COUNTS_TORCH),
    ("numpy", ROWS, None, "sweep", K.SWEEP), ("torch", ROWS, None, "sweep", K.SWEEP),
    ("numpy", ONE, None, "reads", K.PACKED), ("numpy", ROWS, None, "reads", K.PACKED),
    ("torch", ONE, None, "reads", K.COUNTS_TORCH), ("torch", ROWS, None, "reads", K.SWEEP),
    ("numpy", ONE, PER_SAMPLE, "value", K.GROUPS), ("numpy", ONE, PER_SAMPLE, "sweep", K.GROUPS),
    ("torch", ONE, PER_SAMPLE, "value", K.GATHER_TORCH), ("torch", ONE, PER_SAMPLE, "sweep", K.GATHER_TORCH),
    ("numpy", ROWS, PER_SAMPLE, "value", K.BUCKETS), ("numpy", ROWS, PER_SAMPLE, "sweep", K.BUCKETS),
    ("numpy", ROWS, PER_ELEMENT, "value", K.SWEEP), ("torch", ROWS, PER_SAMPLE, "value", K.SWEEP),
    ("torch", ROWS, PER_ELEMENT, "sweep", K.SWEEP),
]


@pytest.mark.parametrize("backend, scores, weight, need, kernel", CHOICES,
                         ids=[f"{b}-{s.dim()}d-{'w' + str(w.dim()) if w is not None else 'unweighted'}-{n}"
                              for b, s, w, n, _ in CHOICES])
def test_choose_picks_each_kernel(backend, scores, weight, need, kernel):
    with _backend.force(backend):
        assert K.choose(scores, weight, need) == kernel


def test_a_device_tensor_takes_the_torch_kernels_even_when_numpy_is_forced():
    meta = torch.zeros(8, device="meta")
    with _backend.force("numpy"):
        assert K.choose(meta) == K.RANK_TORCH and K.choose(meta, torch.ones(8, device="meta")) == K.GATHER_TORCH


def test_choose_under_compile_is_the_static_sweep():
    def marked(x):  # the choice is a trace-time constant: it shows in the traced value
        return x.sum() + float(K.choose(x, None, "value") == K.SWEEP) + 2 * float(K.choose(x, x, "sweep") == K.SWEEP)

    assert marked(ONE).item() == pytest.approx(ONE.sum().item())  # eager: rank / groups
    assert torch.compile(marked, backend="eager", fullgraph=True)(ONE).item() == pytest.approx(ONE.sum().item() + 3)


# ------------------------------------------------------------------ every kernel against scikit-learn
def tied_weighted(seed=0, n=400, rows=None):
    g = np.random.default_rng(seed)
    shape = (n,) if rows is None else (rows, n)
    scores = np.round(g.normal(size=shape), 1).astype(np.float32)  # about 60 distinct values per row: ties
    labels = g.random(shape) < 0.4
    weight = (g.random(n) * 3).astype(np.float32)
    weight[g.random(n) < 0.1] = 0.0  # zero-weight samples: no threshold of their own (scikit-learn drops them)
    return scores, labels, weight


ONE_ROW_WEIGHTED = [K.GROUPS, K.GATHER_NUMPY, K.GATHER_TORCH, K.SWEEP]


def _swept(kernel, scores, labels, weight):
    """The sweep ``kernel`` builds, in the namespace its name says (the chooser decides both at once)."""
    numpy = kernel.endswith("-numpy") or kernel in (K.GROUPS, K.BUCKETS)
    xp = NUMPY if numpy else torch_namespace() if kernel.endswith("-torch") else namespace(scores)
    return K._swept(xp, kernel, scores, labels, weight)


@pytest.mark.parametrize("kernel", ONE_ROW_WEIGHTED)
def test_each_weighted_one_row_kernel_matches_sklearn(kernel):
    x, y, w = tied_weighted()
    scores, labels, weight = torch.from_numpy(x), torch.from_numpy(y), torch.from_numpy(w)
    s = _swept(kernel, scores, labels, weight)
    xd, wd = x.astype(np.float64), w.astype(np.float64)
    assert sw.auroc_from_swept(s).item() == pytest.approx(roc_auc_score(y, xd, sample_weight=wd), abs=1e-12)
    assert sw.ap_from_swept(s).item() == pytest.approx(average_precision_score(y, xd, sample_weight=wd), abs=1e-12)
    for got, want in zip(sw.roc_points(s), roc_curve(y, xd, sample_weight=wd, drop_intermediate=False)):
        np.testing.assert_allclose(got[0].double().numpy(), want, rtol=0, atol=1e-12)


def test_the_groups_kernel_really_ran_and_its_fallback_is_the_numpy_gather(monkeypatch):
    x, y, w = tied_weighted()
    scores, labels, weight = torch.from_numpy(x), torch.from_numpy(y), torch.from_numpy(w)
    ran, gather = [], K.ga.gather_groups
    monkeypatch.setattr(K.ga, "gather_groups", lambda *a: ran.append(a[0] is NUMPY) or gather(*a))
    K.auroc(scores, labels, weight)
    assert ran == []  # 32-bit scores: the tie-group sums applied
    wide, inexact = scores.double() + 1e-9 * torch.arange(400, dtype=torch.float64), weight.double() / 3
    got = K.auroc(wide, labels, inexact)[0].item()
    assert ran == [True]  # wide scores, inexact weights: the numpy gather (on_host=True) ran instead
    assert got == pytest.approx(roc_auc_score(y, wide.numpy(), sample_weight=inexact.numpy()), abs=1e-12)


@pytest.mark.parametrize("kernel", [K.BUCKETS, K.SWEEP])
def test_each_weighted_rows_kernel_matches_sklearn(kernel):
    x, y, w = tied_weighted(seed=1, n=200, rows=3)
    s = _swept(kernel, torch.from_numpy(x), torch.from_numpy(y), torch.from_numpy(w))
    wd = w.astype(np.float64)
    want_auroc = [roc_auc_score(y[r], x[r].astype(np.float64), sample_weight=wd) for r in range(3)]
    want_ap = [average_precision_score(y[r], x[r].astype(np.float64), sample_weight=wd) for r in range(3)]
    np.testing.assert_allclose(sw.auroc_from_swept(s).numpy(), want_auroc, rtol=0, atol=1e-12)
    np.testing.assert_allclose(sw.ap_from_swept(s).numpy(), want_ap, rtol=0, atol=1e-12)
    for r, curve in enumerate(zip(*sw.roc_points(s))):
        for got, want in zip(curve, roc_curve(y[r], x[r].astype(np.float64), sample_weight=wd,
                                              drop_intermediate=False)):
            np.testing.assert_allclose(got.double().numpy(), want, rtol=0, atol=1e-12)


@pytest.mark.parametrize("rows", [None, 3])
def test_unweighted_kernels_agree_with_each_other_and_sklearn(rows):
    x, y, _ = tied_weighted(seed=2, n=300, rows=rows)
    scores, labels = torch.from_numpy(x), torch.from_numpy(y)
    xs, ys = (x, y) if rows else (x[None], y[None])
    want_auroc = [roc_auc_score(ys[r], xs[r]) for r in range(len(xs))]
    want_ap = [average_precision_score(ys[r], xs[r]) for r in range(len(xs))]
    for backend in ("numpy", "torch"):
        with _backend.force(backend):
            got_auroc, got_ap = K.auroc(scores, labels)[0], K.average_precision(scores, labels)[0]
        np.testing.assert_allclose(got_auroc.reshape(-1).numpy(), want_auroc, rtol=0, atol=1e-12)
        np.testing.assert_allclose(got_ap.reshape(-1).numpy(), want_ap, rtol=0, atol=1e-12)
    kernels = [K.SWEEP] + ([] if rows else [K.COUNTS_NUMPY, K.COUNTS_TORCH])
    for kernel in kernels:
        s = _swept(kernel, scores, labels, None)
        np.testing.assert_allclose(sw.auroc_from_swept(s).numpy(), want_auroc, rtol=0, atol=1e-12)
        np.testing.assert_allclose(sw.ap_from_swept(s).numpy(), want_ap, rtol=0, atol=1e-12)
        for r, curve in enumerate(zip(*sw.roc_points(s))):
            for got, want in zip(curve, roc_curve(ys[r], xs[r], drop_intermediate=False)):
                np.testing.assert_allclose(got.double().numpy(), want, rtol=0, atol=1e-12)


def test_the_packed_reads_equal_the_sweeps():
    """EER, segments (LogAUC) and the operating points' sweep: the packed kernel against the static sweep."""
    x, y, _ = tied_weighted(seed=3, n=300, rows=3)
    scores, labels = torch.from_numpy(x), torch.from_numpy(y)
    assert K.choose(scores, None, "reads") == K.PACKED
    with _backend.force("torch"):
        want_eer, want_segments, want_sweep = K.eer(scores, labels), K.segments(scores, labels), K.reads(scores,
                                                                                                       labels)
    for got, want in zip(K.eer(scores, labels), want_eer):
        torch.testing.assert_close(got, want, rtol=0, atol=1e-12)
    got_segments = K.segments(scores, labels)
    valid, want_valid = got_segments.valid, want_segments.valid
    for field in ("fpr", "fnr", "fpr_prev", "fnr_prev", "thresholds"):
        torch.testing.assert_close(getattr(got_segments, field)[valid].double(),
                                   getattr(want_segments, field)[want_valid].double(), rtol=0, atol=1e-12)
    got_points, want_points = sw.roc_points(K.reads(scores, labels)), sw.roc_points(want_sweep)
    for got, want in zip(got_points, want_points):
        for g, w in zip(got, want):
            torch.testing.assert_close(g.double(), w.double(), rtol=0, atol=1e-12)


def _float64_probabilities(seed, rows=3, n=400):
    g = torch.Generator().manual_seed(seed)
    scores = torch.randn(n, rows, generator=g, dtype=torch.float64).softmax(1).t().contiguous()
    scores[:, ::3] = (scores[:, ::3] * 8).round() / 8  # ties, 0.0 and 1.0 among them
    scores[0, :5], scores[1, 5:7] = 0.0, 1.0
    scores[2, 7:9] = 5e-324  # a subnormal
    return scores, torch.rand(rows, n, generator=g) < 0.4


def _same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    assert torch.equal(torch.isnan(got), torch.isnan(want)) and torch.equal(got.nan_to_num(), want.nan_to_num())


@pytest.mark.parametrize("rows", [True, False])
def test_float64_probabilities_take_the_wide_packed_key_and_read_the_sweeps_bits(monkeypatch, rows):
    """Float64 scores in [0, 2) that are not float32 (softmax output) run the packed kernel with the 62-bit key:
    EER, thresholds, the ROC segments' points and the operating points' curve equal the static sweep's bits."""
    scores, labels = _float64_probabilities(seed=5)
    if not rows:
        scores, labels = scores.reshape(-1), labels.reshape(-1)
    wide = []
    packed_rows = pk._packed_rows
    monkeypatch.setattr(pk, "_packed_rows", lambda *a: wide.append(packed_rows(*a)[1]) or packed_rows(*a))
    got_eer, got_segments, got_points = K.eer(scores, labels), K.segments(scores, labels), \
        sw.roc_points(K.reads(scores, labels))
    assert wide == [True, True, True]
    with _backend.force("torch"):
        want_eer, want_segments = K.eer(scores, labels), K.segments(scores, labels)
        want_points = sw.roc_points(K.reads(scores, labels))
    for got, want in zip(got_eer, want_eer):
        _same(got, want)
    for field in ("fpr", "fnr", "fpr_prev", "fnr_prev", "thresholds"):
        _same(getattr(got_segments, field)[got_segments.valid], getattr(want_segments, field)[want_segments.valid])
    for got, want in zip(got_points, want_points):
        for g, w in zip(got, want):
            _same(g, w)


@pytest.mark.parametrize("bad", [-0.0, 2.0, 2.5, math.nan])
def test_float64_scores_the_wide_key_refuses_fall_back_to_the_sweep(bad):
    """-0.0, a score >= 2 or NaN among float64 scores that are not float32: the packed kernel declines (``None``)
    and the chooser's fallback gives the static sweep's values."""
    scores, labels = _float64_probabilities(seed=6)
    scores[1, 10] = bad
    assert pk.eer(NUMPY, scores, labels) is None and pk.segments(NUMPY, scores, labels) is None
    assert pk.curve_sweep(NUMPY, scores, labels) is None
    got = K.eer(scores, labels)
    want = rr.eer_rows(rr.segments(K.sweep(scores, labels, None)))
    for g, w in zip(got, want):
        _same(g, w)
    _same(sw.roc_points(K.reads(scores, labels))[0][1], sw.roc_points(K.sweep(scores, labels, None))[0][1])


def test_float64_holding_float32_values_keep_the_wide_key_where_it_applies_and_the_32_bit_one_else():
    """Float64 probabilities holding float32 values take the 62-bit key (no float32 round trip); negative ones
    (float64 logits that are exact float32) still take the 32-bit key, and both read the sweep's EER."""
    scores, labels = _float64_probabilities(seed=7)
    for s, wide in ((scores.float().double(), True), (-scores.float().double(), False)):
        assert pk._packed_rows(NUMPY, s, labels)[1] is wide
        with _backend.force("torch"):
            want = K.eer(s, labels)
        for g, w in zip(K.eer(s, labels), want):
            _same(g, w)


# ------------------------------------------------------------------ the readers ask the chooser
READERS = ["binary.py", "multiclass.py", "multilabel.py", "curves.py", "eer.py", "logauc.py", "operating_points.py",
           "_common.py"]
KERNEL_NAMES = re.compile(r"\b(_groups|_packed|rank_binary_\w+|rank_rows|curve_counts_\w+|sw\.sweep\(|use_numpy|"
                          r"tie_groups|row_buckets|gather_groups)\b")


@pytest.mark.parametrize("reader", READERS)
def test_no_reader_calls_a_kernel_or_reads_the_backend(reader):
    source = (pathlib.Path(K.__file__).parent.parent / reader).read_text()  # the readers stand beside the room
    assert KERNEL_NAMES.findall(source) == []


def test_every_family_function_asks_the_chooser(monkeypatch):
    asked = []
    choose = K._choose  # the door's functions decide the namespace, then ask the chooser in it
    monkeypatch.setattr(K, "_choose", lambda *a, **kw: asked.append(a[1].dim()) or choose(*a, **kw))
    p, t, w = torch.rand(50), torch.randint(0, 2, (50,)), torch.rand(50)
    mc, mt = torch.softmax(torch.randn(50, 3), 1), torch.randint(0, 3, (50,))
    calls = [lambda: F.binary_auroc(p, t), lambda: F.binary_auroc(p, t, weight=w, max_fpr=0.5),
             lambda: F.binary_average_precision(p, t), lambda: F.binary_roc(p, t, weight=w),
             lambda: F.binary_precision_recall_curve(p, t), lambda: F.binary_eer(p, t), lambda: F.binary_logauc(p, t),
             lambda: F.binary_recall_at_fixed_precision(p, t, min_precision=0.5),
             lambda: F.multiclass_auroc(mc, mt, 3), lambda: F.multiclass_average_precision(mc, mt, 3, weight=w),
             lambda: F.multiclass_roc(mc, mt, 3), lambda: F.multiclass_eer(mc, mt, 3),
             lambda: F.multiclass_logauc(mc, mt, 3), lambda: F.multiclass_precision_at_fixed_recall(mc, mt, 3, 0.5),
             lambda: F.multilabel_auroc(mc, mt[:, None].expand(50, 3) % 2, 3, average="micro"),
             lambda: F.multilabel_specificity_at_sensitivity(mc, mt[:, None].expand(50, 3) % 2, 3, 0.5)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for call in calls:
            asked.clear()
            call()
            assert asked, call


# ------------------------------------------------------------------ the one-frame input check of the binary path
def test_the_clean_case_check_hands_every_suspect_batch_to_the_primitive_checks():
    # +inf and -inf sum to nan: the primitive check then counts the NaN values (none) and accepts the batch
    assert F.binary_auroc(torch.tensor([float("inf"), float("-inf")]), torch.tensor([1, 0])).item() == 1.0
    with pytest.raises(ValueError, match=r"`target` to hold only 0 and 1 .*got value -1"):
        F.binary_auroc(torch.tensor([0.1, 0.2]), torch.tensor([-1, 1]))
    with pytest.raises(ValueError, match=r"`preds` to contain no NaN, got 1"):
        F.binary_auroc(torch.tensor([0.1, float("nan")], dtype=torch.float64), torch.tensor([True, False]))
    preds, target = torch.tensor([0.1, 0.9]), torch.tensor([0, 2])  # not checked without validate_args
    assert F.binary_auroc(preds, target, validate_args=False).item() == 1.0


def _pair_count_two_u(x, y):
    """2U of one row by brute force: every positive/negative pair, 2 when the positive is above, 1 when tied."""
    p, q = x[y], x[~y]
    return int(2 * (p[:, None] > q[None]).sum() + (p[:, None] == q[None]).sum())


@pytest.mark.parametrize("seed", range(40))
def test_rank_rows_tie_group_counts_are_the_pair_counts_in_both_namespaces(seed):
    g = np.random.default_rng(seed)
    rows, n = int(g.integers(1, 5)), int(g.integers(0, 40))
    x = (g.integers(0, int(g.integers(1, 8)), (rows, n)) / 4).astype(np.float32) if seed % 2 else \
        g.random((rows, n), dtype=np.float32)
    if n and seed % 5 == 0:
        x[:, : n // 2] = np.inf  # a real +inf score ties with others of its row only
    y = g.random((rows, n)) < [[0.0], [0.4], [1.0], [0.7]][:rows]  # a row without positives, one without negatives
    for xp in (NUMPY, torch_namespace(torch.float64)):
        r = rk.rank_rows(xp, torch.from_numpy(x), torch.from_numpy(y))
        assert r.n_pos.tolist() == y.sum(1).tolist() and r.n == n
        for i in range(rows):
            assert int(rk.two_u(r)[i]) == _pair_count_two_u(x[i], y[i])  # exact int64
            positives = np.sort(x[i][y[i]])
            ap_terms = [((x[i][y[i]] >= v).sum() / (x[i] >= v).sum()) for v in positives]
            want_ap = float(np.mean(ap_terms)) if positives.size else math.nan
            np.testing.assert_allclose(rk.ap_from_ranked(r)[i].item(), want_ap, rtol=0, atol=1e-12)
