"""Ranking losses against brute-force O(n^2) oracles: values, LambdaRank's lambdas, gradcheck, padding, numerics."""
from functools import partial

import pytest
import torch

import losses
from tests.helpers import loss_oracles as O

GEN = torch.Generator().manual_seed(7)


def _lists(batch, n, *, grades=4, dtype=torch.float64):
    scores = torch.randn(batch, n, generator=GEN, dtype=dtype)
    rel = torch.randint(0, grades + 1, (batch, n), generator=GEN).to(dtype)
    return scores, rel


def _per_list(fn, scores, rel, mask=None):
    out = []
    for b in range(scores.shape[0]):
        keep = slice(None) if mask is None else mask[b]
        out.append(fn(scores[b][keep].tolist(), rel[b][keep].tolist()))
    return torch.tensor(out, dtype=torch.float64)


# name -> (loss function with options, brute-force oracle of one list with the same options)
CASES = {
    "ranknet": (partial(losses.ranknet_loss, sigma=1.5), partial(O.ranknet, sigma=1.5)),
    "lambdarank": (losses.lambdarank_loss, lambda s, r: O.lambdas(s, r, k=None, sigma=1.0, kind="linear")[0]),
    "lambdarank@3": (partial(losses.lambdarank_loss, k=3, sigma=2.0, gain="linear"),
                     lambda s, r: O.lambdas(s, r, k=3, sigma=2.0, kind="linear")[0]),
    "ndcgloss2pp": (partial(losses.lambdarank_loss, weighting="ndcgloss2pp", mu=3.0),
                    partial(O.ndcgloss2pp, k=None, sigma=1.0, kind="linear", mu=3.0)),
    "ndcgloss2pp@4": (partial(losses.lambdarank_loss, weighting="ndcgloss2pp", mu=10.0, k=4),
                      partial(O.ndcgloss2pp, k=4, sigma=1.0, kind="linear", mu=10.0)),
    "approx_ndcg": (partial(losses.approx_ndcg_loss, temperature=0.7),
                    partial(O.approx_ndcg, temperature=0.7, k=None, kind="linear")),
    "approx_ndcg@5": (partial(losses.approx_ndcg_loss, temperature=0.3, k=5, gain="linear"),
                      partial(O.approx_ndcg, temperature=0.3, k=5, kind="linear")),
    "listnet": (losses.listnet_loss, O.listnet),
    "neural_ndcg": (partial(losses.neural_ndcg_loss, temperature=0.7, sinkhorn_iters=4),
                    partial(O.neural_ndcg, temperature=0.7, k=None, kind="linear", iters=4, transposed=False)),
    "neural_ndcg@4_transposed": (partial(losses.neural_ndcg_loss, temperature=0.4, k=4, gain="linear",
                                         transposed=True, sinkhorn_iters=3),
                                 partial(O.neural_ndcg, temperature=0.4, k=4, kind="linear", iters=3, transposed=True)),
    "listmle": (losses.listmle_loss, O.listmle),
    "softmax": (losses.softmax_loss, O.softmax_ce),
    "smooth_ap": (lambda s, r, **kw: losses.smooth_ap_loss(s, r > 1, temperature=0.3, **kw),
                  lambda s, r: O.smooth_ap(s, [v > 1 for v in r], temperature=0.3)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_against_brute_force(name):
    fn, oracle = CASES[name]
    scores, rel = _lists(6, 9)
    expected = _per_list(oracle, scores, rel)
    torch.testing.assert_close(fn(scores, rel, reduction="none"), expected, rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(fn(scores, rel), expected.mean(), rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(fn(scores, rel, reduction="sum"), expected.sum(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("k", [None, 1, 3, 8])
@pytest.mark.parametrize("gain", ["exponential", "linear"])
def test_lambdarank_gradient_is_the_brute_force_lambdas(k, gain):
    scores, rel = _lists(5, 8)
    scores.requires_grad_(True)
    losses.lambdarank_loss(scores, rel, k=k, sigma=1.3, gain=gain, reduction="sum").backward()
    expected = torch.tensor([O.lambdas(scores[b].tolist(), rel[b].tolist(), k=k, sigma=1.3, kind=gain)[1]
                             for b in range(5)], dtype=torch.float64)
    torch.testing.assert_close(scores.grad, expected, rtol=1e-10, atol=1e-12)


def test_lambdarank_pushes_an_item_just_below_the_cutoff():
    # the relevant item is ranked 3rd with k=2: swapping it with either top item changes NDCG@2
    scores = torch.tensor([[3.0, 2.0, 1.0, 0.0]], requires_grad=True)
    losses.lambdarank_loss(scores, torch.tensor([[0.0, 0.0, 2.0, 0.0]]), k=2).backward()
    assert scores.grad[0, 2] < 0 and scores.grad[0, 0] > 0 and scores.grad[0, 1] > 0
    assert scores.grad[0, 3] == 0  # both outside the top 2 and equally irrelevant: no pair counts


LOSSES = {
    "ranknet": losses.ranknet_loss,
    "lambdarank": partial(losses.lambdarank_loss, k=4),
    "ndcgloss2pp": partial(losses.lambdarank_loss, weighting="ndcgloss2pp", k=4),
    "approx_ndcg": partial(losses.approx_ndcg_loss, k=4),
    "approx_ndcg_chunked": partial(losses.approx_ndcg_loss, chunk_size=2),
    "listnet": losses.listnet_loss,
    "neural_ndcg": partial(losses.neural_ndcg_loss, k=4, temperature=0.5, sinkhorn_iters=6),
    "neural_ndcg_transposed": partial(losses.neural_ndcg_loss, transposed=True, sinkhorn_iters=6),
    "neural_ndcg_chunked": partial(losses.neural_ndcg_loss, chunk_size=1, sinkhorn_iters=6),
    "listmle": losses.listmle_loss,
    "softmax": losses.softmax_loss,
    "smooth_ap": lambda s, r, **kw: losses.smooth_ap_loss(s, r > 1, temperature=0.5, **kw),
    "smooth_ap_chunked": lambda s, r, **kw: losses.smooth_ap_loss(s, r > 1, temperature=0.5, chunk_size=1, **kw),
    "pairwise_hinge": partial(losses.pairwise_hinge_loss, margin=0.7),
    "pairwise_soft_zero_one": partial(losses.pairwise_soft_zero_one_loss, sigma=0.8),
    "pairwise_callable": partial(losses.pairwise_loss, pair_loss=lambda d: torch.nn.functional.softplus(1 - d) ** 2,
                                 weighting="ndcgloss2pp", chunk_size=2),
    "ndcgloss1": partial(losses.lambdarank_loss, weighting="ndcgloss1", k=4),
    "ndcgloss2": partial(losses.lambdarank_loss, weighting="ndcgloss2"),
    "arp1": partial(losses.lambdarank_loss, weighting="arp1"),
    "arp2": partial(losses.pairwise_loss, weighting="arp2", pair_loss="sigmoid"),
    "unique_softmax": losses.unique_softmax_loss,
    "poly1_softmax": partial(losses.poly1_softmax_loss, epsilon=0.5),
    "neural_sort_ce": partial(losses.neural_sort_cross_entropy_loss, temperature=0.5),
    "neural_sort_ce_chunked": partial(losses.neural_sort_cross_entropy_loss, chunk_size=1),
}
RELEVANCE_LOSSES = sorted(name for name in LOSSES if not name.startswith("smooth_ap"))  # graded relevance


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_gradcheck_float64_with_padding(name):
    scores, rel = _lists(3, 6)
    mask = torch.rand(3, 6, generator=GEN) > 0.25
    mask[:, 0] = True
    scores.requires_grad_(True)
    assert torch.autograd.gradcheck(lambda s: LOSSES[name](s, rel, mask=mask, reduction="none"), (scores,))


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_padding_is_invisible_and_gets_exactly_zero_gradient(name):
    fn = LOSSES[name]
    scores, rel = _lists(4, 7)
    mask = torch.rand(4, 7, generator=GEN) > 0.3
    mask[:, :2] = True
    padded = scores.clone()
    junk = torch.tensor([float("nan"), float("inf"), -float("inf")], dtype=torch.float64).repeat(7 * 4)
    padded[~mask] = junk[: int((~mask).sum())]
    padded.requires_grad_(True)
    out = fn(padded, rel, mask=mask, reduction="none")
    out.sum().backward()
    expected = torch.stack([fn(scores[b][mask[b]], rel[b][mask[b]], reduction="none") for b in range(4)])
    torch.testing.assert_close(out, expected, rtol=1e-10, atol=1e-12)
    assert torch.isfinite(padded.grad).all() and (padded.grad[~mask] == 0).all()


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_degenerate_lists_give_zero_without_nan(name):
    fn = LOSSES[name]
    scores = torch.tensor([[0.3, -1.0, 2.0], [0.5, 0.1, 0.2], [1.0, 4.0, 2.0], [0.0, 0.0, 0.0]], requires_grad=True)
    rel = torch.tensor([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    mask = torch.tensor([[False] * 3, [True, False, False], [True] * 3, [False] * 3])  # padding / 1 item / none
    out = fn(scores, rel, mask=mask, reduction="none")
    out.sum().backward()
    assert out.tolist() == [0.0] * 4 and (scores.grad == 0).all()
    empty = torch.zeros(2, 0, requires_grad=True)
    assert fn(empty, torch.zeros(2, 0)).item() == 0.0


@pytest.mark.parametrize("name", ["ranknet", "lambdarank", "ndcgloss2pp", "listnet", "listmle", "softmax",
                                  "pairwise_hinge", "ndcgloss1", "arp1", "unique_softmax", "poly1_softmax"])
@pytest.mark.parametrize("gap", [100.0, 1e4])
def test_huge_score_gaps_in_float32_keep_finite_nonzero_gradients(name, gap):
    scores = torch.tensor([[0.0, gap, 0.5 * gap]], requires_grad=True)  # the relevant item is ranked last
    out = LOSSES[name](scores, torch.tensor([[2, 0, 0]]))
    out.backward()
    assert torch.isfinite(out) and torch.isfinite(scores.grad).all()
    assert scores.grad[0, 0] < 0 and scores.grad[0, 1] > 0


def test_approx_ndcg_huge_gaps_stay_finite():
    scores = torch.tensor([[0.0, 1e4, -1e4, 5.0]], requires_grad=True)
    out = losses.approx_ndcg_loss(scores, torch.tensor([[1, 0, 3, 2]]), temperature=1e-3)
    out.backward()
    assert torch.isfinite(out) and torch.isfinite(scores.grad).all()


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_relevance_dtypes_batch_shapes_and_half_scores(name):
    fn = LOSSES[name]
    scores = torch.randn(2, 3, 5, generator=GEN)
    rel = torch.randint(0, 3, (2, 3, 5), generator=GEN)
    ref = fn(scores, rel.float(), reduction="none")
    assert ref.shape == (2, 3)
    for r in (rel, rel.to(torch.int32), rel.double(), rel.half()):
        torch.testing.assert_close(fn(scores, r, reduction="none"), ref)
    torch.testing.assert_close(fn(scores, rel > 0, reduction="none"), fn(scores, (rel > 0).float(), reduction="none"))
    half = scores.bfloat16().requires_grad_(True)
    fn(half, rel).backward()
    assert half.grad.dtype == torch.bfloat16 and torch.isfinite(half.grad.float()).all()


@pytest.mark.parametrize("fn", [losses.lambdarank_loss, losses.ranknet_loss, losses.approx_ndcg_loss])
def test_chunking_over_lists_changes_nothing(fn):
    scores, rel = _lists(7, 10)
    a = scores.clone().requires_grad_(True)
    b = scores.clone().requires_grad_(True)
    fn(a, rel, reduction="sum").backward()
    fn(b, rel, reduction="sum", chunk_size=3).backward()
    torch.testing.assert_close(a.grad, b.grad, rtol=1e-12, atol=1e-14)


def test_modules_equal_functions():
    scores, rel = _lists(3, 6)
    mask = torch.rand(3, 6, generator=GEN) > 0.2
    pairs = [
        (losses.RankNetLoss(sigma=2.0), partial(losses.ranknet_loss, sigma=2.0)),
        (losses.LambdaRankLoss(k=3, gain="linear", weighting="ndcgloss2pp", mu=2.0),
         partial(losses.lambdarank_loss, k=3, gain="linear", weighting="ndcgloss2pp", mu=2.0)),
        (losses.ApproxNDCGLoss(temperature=0.5, k=4), partial(losses.approx_ndcg_loss, temperature=0.5, k=4)),
        (losses.ListNetLoss(reduction="sum"), partial(losses.listnet_loss, reduction="sum")),
        (losses.NeuralNDCGLoss(k=3, temperature=0.5, transposed=True, sinkhorn_iters=7, gain="linear"),
         partial(losses.neural_ndcg_loss, k=3, temperature=0.5, transposed=True, sinkhorn_iters=7, gain="linear")),
        (losses.ListMLELoss(reduction="sum"), partial(losses.listmle_loss, reduction="sum")),
        (losses.SoftmaxLoss(reduction="sum"), partial(losses.softmax_loss, reduction="sum")),
        (losses.SmoothAPLoss(temperature=0.2), lambda s, r, mask: losses.smooth_ap_loss(s, r, mask=mask,
                                                                                          temperature=0.2)),
    ]
    rel = (rel > 2).double()  # binary, so that Smooth-AP takes it too
    for module, fn in pairs:
        assert module(scores, rel, mask).item() == fn(scores, rel, mask=mask).item()
        assert repr(module)


BAD = [
    (lambda: losses.lambdarank_loss([1.0], torch.ones(1)), TypeError, r"`scores` to be a torch.Tensor, got list"),
    (lambda: losses.ranknet_loss(torch.ones(2, dtype=torch.int64), torch.ones(2)), TypeError,
     r"`scores` to have a floating dtype, got torch.int64"),
    (lambda: losses.listnet_loss(torch.tensor(1.0), torch.tensor(1.0)), ValueError,
     r"`scores` to have at least 1 dimension"),
    (lambda: losses.lambdarank_loss(torch.ones(2, 3), torch.ones(3)), ValueError,
     r"`scores` and `relevance` to have the same shape, got \(2, 3\) and \(3,\)"),
    (lambda: losses.lambdarank_loss(torch.ones(3), torch.ones(3, dtype=torch.complex64)), TypeError,
     r"`relevance` to have a real dtype"),
    (lambda: losses.approx_ndcg_loss(torch.ones(3), torch.ones(3), mask=torch.ones(3)), TypeError,
     r"`mask` to have dtype torch.bool, got torch.float32"),
    (lambda: losses.approx_ndcg_loss(torch.ones(3), torch.ones(3), mask=torch.ones(2, dtype=torch.bool)), ValueError,
     r"`scores` and `mask` to have the same shape"),
    (lambda: losses.listnet_loss(torch.ones(3), torch.ones(3), reduction="avg"), ValueError,
     r"`reduction` to be one of \('mean', 'sum', 'none'\), got 'avg'"),
    (lambda: losses.lambdarank_loss(torch.ones(3), torch.ones(3), gain="log"), ValueError, r"`gain` to be one of"),
    (lambda: losses.LambdaRankLoss(k=0), ValueError, r"`k` to be a positive int or None, got 0"),
    (lambda: losses.RankNetLoss(chunk_size=1.5), ValueError, r"`chunk_size` to be a positive int or None, got 1.5"),
    (lambda: losses.ranknet_loss(torch.ones(3), torch.ones(3), sigma=0), ValueError, r"`sigma` to be a number in \(0"),
    (lambda: losses.lambdarank_loss(torch.ones(3), torch.ones(3), weighting="lambdaloss"), ValueError,
     r"`weighting` to be one of \('lambdarank', 'ndcgloss1', 'ndcgloss2', 'ndcgloss2pp', 'arp1', 'arp2'\)"),
    (lambda: losses.LambdaRankLoss(mu=-1.0), ValueError, r"`mu` to be a number in \[0"),
    (lambda: losses.ApproxNDCGLoss(temperature=-1.0), ValueError, r"`temperature` to be a number in \(0"),
    (lambda: losses.NeuralNDCGLoss(sinkhorn_iters=0), ValueError, r"`sinkhorn_iters` to be a positive int, got 0"),
    (lambda: losses.NeuralNDCGLoss(transposed="yes"), TypeError, r"`transposed` to be a bool, got str"),
    (lambda: losses.NeuralNDCGLoss(temperature=0), ValueError, r"`temperature` to be a number in \(0"),
    (lambda: losses.neural_ndcg_loss(torch.ones(3), torch.ones(3), k=-2), ValueError, r"`k` to be a positive int"),
    (lambda: losses.ListMLELoss(reduction="max"), ValueError, r"`reduction` to be one of \('mean', 'sum', 'none'\)"),
    (lambda: losses.softmax_loss(torch.ones(3), torch.ones(3), validate_args=1), TypeError,
     r"`validate_args` to be a bool, got int"),
    (lambda: losses.smooth_ap_loss(torch.ones(3), torch.tensor([0, 2, 1])), ValueError,
     r"`target` to hold only 0 and 1, got value 2"),
    (lambda: losses.smooth_ap_loss(torch.ones(3), torch.ones(2)), ValueError,
     r"`scores` and `target` to have the same shape, got \(3,\) and \(2,\)"),
    (lambda: losses.SmoothAPLoss(temperature=-0.1), ValueError, r"`temperature` to be a number in \(0"),
    (lambda: losses.smooth_ap_loss(torch.ones(3, dtype=torch.int64), torch.ones(3)), TypeError,
     r"`scores` to have a floating dtype, got torch.int64"),
]


@pytest.mark.parametrize("call,exc,match", BAD)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# ------------------------------------------------------------------ relevance on real items (issue 13, part 3)


@pytest.mark.parametrize("name", RELEVANCE_LOSSES)
@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf")])
def test_negative_or_nan_relevance_on_a_real_item_raises_and_names_mask(name, bad):
    """A -1 padding sentinel (another library's convention) was taken as a real item: with exponential gain it
    has gain -0.5 and the gradient pushes it the wrong way."""
    scores, rel = _lists(2, 5)
    rel[1, 3] = bad
    with pytest.raises(ValueError, match=r"`relevance` to be finite and >= 0 on real items, got .*`mask=`"):
        LOSSES[name](scores, rel)


@pytest.mark.parametrize("name", RELEVANCE_LOSSES)
def test_bad_relevance_on_padded_items_is_harmless_and_the_check_can_be_skipped(name):
    scores, rel = _lists(2, 5)
    mask = torch.ones(2, 5, dtype=torch.bool)
    mask[1, 3] = False
    padded = rel.clone()
    padded[1, 3] = float("nan")
    torch.testing.assert_close(LOSSES[name](scores, padded, mask=mask, reduction="none"),
                               LOSSES[name](scores, rel, mask=mask, reduction="none"))
    rel[0, 1] = -1.0
    out = LOSSES[name](scores, rel, validate_args=False, reduction="none")  # no check, no host sync
    assert out.shape == (2,)


def test_integer_relevance_is_checked_too():
    with pytest.raises(ValueError, match=r"got -1\.0"):
        losses.lambdarank_loss(torch.zeros(1, 3), torch.tensor([[2, -1, 0]]))


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_lists_with_one_relevance_grade_have_nothing_to_learn(name):
    """Every order of a list whose items share one grade is ideal: the loss is 0 with a zero gradient. ApproxNDCG,
    NeuralNDCG^T, ListNet, ListMLE and Softmax pushed such lists (towards equal scores or the input order)."""
    fn = LOSSES[name]
    grade = 0.0 if name.startswith("smooth_ap") else 3.0  # Smooth-AP: no positive (all positive is tested below)
    scores = torch.tensor([[0.3, -1.0, 2.0, 0.7], [1.5, 0.2, 0.1, 4.0]], requires_grad=True)
    rel = torch.full((2, 4), grade)
    mask = torch.tensor([[True] * 4, [True, True, True, False]])
    out = fn(scores, rel, mask=mask, reduction="none")
    out.sum().backward()
    assert torch.isfinite(out).all() and out.tolist() == [0.0, 0.0] and (scores.grad == 0).all()


def test_smooth_ap_list_without_negatives_has_nothing_to_learn():
    scores = torch.tensor([[0.3, -1.0, 2.0]], requires_grad=True)
    out = losses.smooth_ap_loss(scores, torch.ones(1, 3), temperature=0.1)
    out.backward()
    assert out.item() == 0.0 and (scores.grad == 0).all()


def test_neural_ndcg_tiny_temperature_and_huge_gaps_stay_finite():
    scores = torch.tensor([[0.0, 1e4, -1e4, 5.0]], requires_grad=True)
    out = losses.neural_ndcg_loss(scores, torch.tensor([[1, 0, 3, 2]]), temperature=1e-3, transposed=True)
    out.backward()
    assert torch.isfinite(out) and torch.isfinite(scores.grad).all()


def test_listmle_breaks_ties_in_input_order():
    """Items 0 and 2 share grade 1: the ideal order is (1, 0, 2), so swapping their scores changes the loss."""
    rel = torch.tensor([[1.0, 2.0, 1.0]])
    a = losses.listmle_loss(torch.tensor([[0.5, 1.0, 0.0]]), rel)
    b = losses.listmle_loss(torch.tensor([[0.0, 1.0, 0.5]]), rel)
    expected = O.listmle([0.5, 1.0, 0.0], [1.0, 2.0, 1.0])
    assert abs(a.item() - expected) < 1e-6 and b.item() > a.item()


def test_neural_ndcg_frees_every_block_after_backward():
    """Memory stays one block's: once backward has run, no (block, n, n) buffer of any checkpointed block is alive.
    (Sinkhorn's scaling vectors used to sit on ``ctx`` beside the outputs they produced: a cycle through the
    autograd node that kept each block's recomputed matrices until the end, O(lists * n^2) at n = 1000, 2.9 GiB.)"""
    import gc

    n = 23  # a shape no other tensor here has
    scores = torch.randn(6, n, requires_grad=True)
    loss = losses.neural_ndcg_loss(scores, torch.randint(0, 4, (6, n)).float(), chunk_size=1, sinkhorn_iters=3)
    loss.backward()
    del loss
    gc.collect()
    alive = [t for t in gc.get_objects() if type(t) is torch.Tensor and t.shape[-2:] == (n, n)]
    assert alive == [] and torch.isfinite(scores.grad).all()
