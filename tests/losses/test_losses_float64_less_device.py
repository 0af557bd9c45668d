"""Every loss on a device without float64 (MPS), emulated on the CPU: forward and backward make no float64 tensor.

Inside ``float64_less_cpu`` any op that makes a float64 tensor raises. Each public loss (function and module, the
option variants whose code paths differ) runs forward and backward there on float32 scores with integer, float
or bool targets; the value and the gradient stay float32 (the input's dtype, as on every device) and match the
same call on the CPU outside the block, within float32 rounding.
"""
from functools import partial

import pytest
import torch

import losses
from tests.helpers.no_float64 import float64_less_cpu
from torchmetrics_lite.functional import binary_auroc, retrieval_normalized_dcg

G = torch.Generator().manual_seed(17)
LISTS = (torch.randn(5, 9, generator=G), torch.randint(0, 4, (5, 9), generator=G))  # scores, integer grades
MASK = torch.rand(5, 9, generator=G) < 0.8
HITS = (torch.randn(5, 9, generator=G), (torch.rand(5, 9, generator=G) < 0.4).long())  # binary lists
BINARY = (torch.randn(40, generator=G), (torch.rand(40, generator=G) < 0.3).long())
PROBS = (torch.rand(40, 3, generator=G), (torch.rand(40, 3, generator=G) < 0.4).float())
ORDINAL = (torch.randn(5, 9, 3, generator=G), LISTS[1])  # one logit per grade threshold
EMBEDDINGS = (torch.randn(5, 4, generator=G), torch.randn(7, 4, generator=G))  # queries, documents
GUMBEL = (losses.gumbel_approx_ndcg_loss, losses.GumbelApproxNDCGLoss)


def _params():
    return [torch.tensor(v, requires_grad=True) for v in (0.6, 0.2, 0.3)]  # a, b, alpha of aucm_loss


# name: (loss of (scores, target, **extra), inputs, extra keyword arguments)
CASES = {
    "ranknet": (losses.ranknet_loss, LISTS, {"mask": MASK, "chunk_size": 2}),
    "lambdarank": (losses.lambdarank_loss, LISTS, {"k": 4}),
    "lambdarank_ndcgloss2pp_linear": (partial(losses.lambdarank_loss, weighting="ndcgloss2pp", gain="linear"),
                                      LISTS, {"mask": MASK}),
    "approx_ndcg": (partial(losses.approx_ndcg_loss, k=5), LISTS, {"mask": MASK, "chunk_size": 2}),
    "neural_ndcg": (partial(losses.neural_ndcg_loss, k=5, sinkhorn_iters=10), LISTS, {"mask": MASK}),
    "neural_ndcg_transposed": (partial(losses.neural_ndcg_loss, transposed=True, gain="linear"), LISTS, {}),
    "listnet": (losses.listnet_loss, LISTS, {"mask": MASK}),
    "listmle": (partial(losses.listmle_loss, reduction="none"), LISTS, {"mask": MASK}),
    "softmax": (partial(losses.softmax_loss, reduction="sum"), LISTS, {}),
    "smooth_ap": (partial(losses.smooth_ap_loss, temperature=0.1), HITS, {"mask": MASK}),
    "soft_auc_sigmoid": (losses.soft_auc_loss, BINARY, {}),
    "soft_auc_logistic": (partial(losses.soft_auc_loss, surrogate="logistic", chunk_size=3), BINARY, {}),
    "soft_auc_hinge": (partial(losses.soft_auc_loss, surrogate="hinge"), BINARY, {}),
    "soft_auc_squared_hinge": (partial(losses.soft_auc_loss, surrogate="squared_hinge"), BINARY, {}),
    "soft_auc_sampled": (partial(losses.soft_auc_loss, num_pairs=50), BINARY, {}),
    "partial_auc": (partial(losses.partial_auc_loss, max_fpr=0.3), BINARY, {}),
    "partial_auc_sigmoid": (partial(losses.partial_auc_loss, max_fpr=0.5, surrogate="sigmoid"), BINARY, {}),
    "soft_fbeta": (partial(losses.soft_fbeta_loss, beta=2.0), PROBS, {}),
    "aucm": (losses.aucm_loss, PROBS, {"imratio": 0.3}),
    "aucm_batch_ratio": (losses.aucm_loss, PROBS, {}),
    # the smooth metrics (one per method) and the soft sorting operators
    **{f"smooth_{method}": (losses.smooth(retrieval_normalized_dcg, method=method, temperature=0.5), LISTS,
                            {"mask": MASK, "k": 4}) for method in ("approx", "bound", "soft_rank", "neural_sort",
                                                                   "softsort")},
    "smooth_auroc_kl": (losses.smooth(binary_auroc, method="soft_rank", regularization="kl"), BINARY, {}),
    "soft_spearman_corrcoef": (losses.soft_spearman_corrcoef, LISTS, {"mask": MASK}),
    "pairwise_hinge": (losses.pairwise_hinge_loss, LISTS, {"mask": MASK}),
    "pairwise_soft_zero_one": (losses.pairwise_soft_zero_one_loss, LISTS, {}),
    "pairwise_ndcgloss1": (partial(losses.pairwise_loss, weighting="ndcgloss1", pair_loss="sigmoid"), LISTS,
                           {"mask": MASK}),
    "lambdarank_arp1": (partial(losses.lambdarank_loss, weighting="arp1"), LISTS, {}),
    "unique_softmax": (losses.unique_softmax_loss, LISTS, {"mask": MASK}),
    "poly1_softmax": (losses.poly1_softmax_loss, LISTS, {}),
    "neural_sort_ce": (partial(losses.neural_sort_cross_entropy_loss, chunk_size=2), LISTS, {"mask": MASK}),
    "mean_squared": (losses.mean_squared_loss, LISTS, {"mask": MASK}),
    "sigmoid_ce": (losses.sigmoid_cross_entropy_loss, HITS, {"mask": MASK}),
    "ordinal": (losses.ordinal_loss, ORDINAL, {"mask": MASK}),
    "info_nce": (partial(losses.info_nce_loss, symmetric=False), EMBEDDINGS, {}),
    "gumbel_approx_ndcg": (partial(losses.gumbel_approx_ndcg_loss, sample_size=3), LISTS, {"mask": MASK}),
    # modules
    "UniqueSoftmaxLoss": (losses.UniqueSoftmaxLoss(), LISTS, {}),
    "Poly1SoftmaxLoss": (losses.Poly1SoftmaxLoss(), LISTS, {}),
    "NeuralSortCrossEntropyLoss": (losses.NeuralSortCrossEntropyLoss(), LISTS, {}),
    "MeanSquaredLoss": (losses.MeanSquaredLoss(), LISTS, {}),
    "SigmoidCrossEntropyLoss": (losses.SigmoidCrossEntropyLoss(), HITS, {}),
    "OrdinalLoss": (losses.OrdinalLoss(), ORDINAL, {}),
    "InfoNCELoss": (losses.InfoNCELoss(normalize=False), EMBEDDINGS, {}),
    "GumbelApproxNDCGLoss": (losses.GumbelApproxNDCGLoss(sample_size=2), LISTS, {}),
    "PairwiseLoss": (losses.PairwiseLoss(weighting="ndcgloss2", pair_loss="hinge"), LISTS, {"mask": MASK}),
    "PairwiseHingeLoss": (losses.PairwiseHingeLoss(), LISTS, {}),
    "PairwiseSoftZeroOneLoss": (losses.PairwiseSoftZeroOneLoss(), LISTS, {}),
    "RankNetLoss": (losses.RankNetLoss(), LISTS, {"mask": MASK}),
    "LambdaRankLoss": (losses.LambdaRankLoss(k=3), LISTS, {}),
    "ApproxNDCGLoss": (losses.ApproxNDCGLoss(), LISTS, {"mask": MASK}),
    "NeuralNDCGLoss": (losses.NeuralNDCGLoss(sinkhorn_iters=10), LISTS, {}),
    "ListNetLoss": (losses.ListNetLoss(), LISTS, {}),
    "ListMLELoss": (losses.ListMLELoss(), LISTS, {}),
    "SoftmaxLoss": (losses.SoftmaxLoss(), LISTS, {"mask": MASK}),
    "SmoothAPLoss": (losses.SmoothAPLoss(temperature=0.1), HITS, {}),
    "SoftAUCLoss": (losses.SoftAUCLoss(surrogate="squared_hinge"), BINARY, {}),
    "PartialAUCLoss": (losses.PartialAUCLoss(max_fpr=0.5), BINARY, {}),
    "SoftFBetaLoss": (losses.SoftFBetaLoss(reduction="none"), PROBS, {}),
    "AUCMLoss": (losses.AUCMLoss(), PROBS, {}),  # imratio=None: the running positive ratio (int64 buffers)
    "AUCMLoss_imratio": (losses.AUCMLoss(imratio=0.2), PROBS, {}),
    "multilabel_aucm": (partial(losses.multilabel_aucm_loss, a=torch.zeros(3), b=torch.zeros(3),
                                alpha=torch.full((3,), 0.3)), PROBS, {}),
    "MultiLabelAUCMLoss": (losses.MultiLabelAUCMLoss(3), PROBS, {}),
    "CompositionalAUCLoss": (losses.CompositionalAUCLoss().eval(), (PROBS[0][:, 0], PROBS[1][:, 0]), {}),
    # the stateful estimators in eval mode: both runs read the same (initial) state
    "SOAPLoss": (losses.SOAPLoss(40).eval(), BINARY, {"index": torch.arange(40)}),
    "PartialAUCDROLoss": (losses.PartialAUCDROLoss(40).eval(), BINARY, {"index": torch.arange(40)}),
    "PartialAUCCVaRLoss": (losses.PartialAUCCVaRLoss(40, max_fpr=0.3).eval(), BINARY, {"index": torch.arange(40)}),
    "TwoWayPartialAUCLoss": (losses.TwoWayPartialAUCLoss(40).eval(), BINARY, {"index": torch.arange(40)}),
    "SONGNDCGLoss": (losses.SONGNDCGLoss(45, 5, num_items=9, k=3).eval(), LISTS,
                     {"index": torch.arange(45).reshape(5, 9), "query_index": torch.arange(5),
                      "num_relevant": torch.full((5,), 4), "ideal_dcg": torch.full((5,), 3.0)}),
}


def _run(loss, inputs, extra):
    """Forward and backward; the value and every gradient (scores, and a/b/alpha where there are any)."""
    scores = inputs[0].clone().requires_grad_()
    if loss is losses.aucm_loss:
        params = _params()
        value = loss(scores, inputs[1], *params, **extra)
    else:
        params = list(loss.parameters()) if isinstance(loss, torch.nn.Module) else []
        for p in params:
            p.grad = None
        if "num_pairs" in getattr(loss, "keywords", {}) or getattr(loss, "func", type(loss)) in GUMBEL:
            extra = {**extra, "generator": torch.Generator().manual_seed(3)}  # the same pairs in both runs
        value = loss(scores, inputs[1], **extra)
    value.sum().backward()
    return [value.detach(), scores.grad] + [p.grad for p in params]


# targets as given (integer grades or labels; PROBS: float), as float, and as bool (not for graded lists)
TARGETS = [(name, target) for name in sorted(CASES) for target in ("as_given", "float", "bool")
           if not (target == "bool" and any(CASES[name][1] is x for x in (LISTS, ORDINAL, EMBEDDINGS)))]


@pytest.mark.parametrize("name, target", TARGETS)
def test_forward_and_backward_make_no_float64(monkeypatch, name, target):
    loss, inputs, extra = CASES[name]
    if target != "as_given":
        inputs = (inputs[0], inputs[1].float() if target == "float" else inputs[1] > 0)
    if isinstance(loss, losses.AUCMLoss):  # the same running counts in both runs
        loss = type(loss)(imratio=loss.imratio)
        state = {k: v.clone() for k, v in loss.state_dict().items()}
    want = _run(loss, inputs, extra)
    if isinstance(loss, losses.AUCMLoss):
        loss.load_state_dict(state)
    with float64_less_cpu(monkeypatch):
        got = _run(loss, inputs, extra)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == torch.float32 == w.dtype  # the input's dtype, as on every device
        torch.testing.assert_close(g, w, rtol=1e-5, atol=1e-6)


# the operators without a target: (function of the scores, keyword arguments)
TARGET_FREE = {
    "soft_rank": {"mask": MASK}, "soft_rank_kl": {"regularization": "kl", "descending": True},
    "soft_sort": {"mask": MASK}, "soft_sort_kl": {"regularization": "kl"}, "soft_top_k": {"k": 3, "mask": MASK},
    "neural_sort_permutation": {"mask": MASK}, "softsort_permutation": {"mask": MASK},
}


@pytest.mark.parametrize("name", sorted(TARGET_FREE))
def test_target_free_operators_make_no_float64(monkeypatch, name):
    fn = getattr(losses, name.replace("_kl", ""))

    def run():
        scores = LISTS[0].clone().requires_grad_()
        out = fn(scores, **TARGET_FREE[name])
        (out * torch.linspace(-1, 1, out.shape[-1])).sum().backward()
        return out.detach(), scores.grad

    want = run()
    with float64_less_cpu(monkeypatch):
        got = run()
    for g, w in zip(got, want):
        assert g.dtype == torch.float32 == w.dtype
        torch.testing.assert_close(g, w, rtol=1e-5, atol=1e-6)


def test_every_public_loss_is_covered():
    covered = {name.replace("_kl", "") for name in TARGET_FREE}
    for loss, _, _ in CASES.values():
        fn = loss.func if isinstance(loss, partial) else loss
        name = type(fn).__name__ if isinstance(fn, torch.nn.Module) else fn.__name__
        covered.add("smooth" if name.startswith("smooth_retrieval") or name.startswith("smooth_binary") else name)
    assert set(losses.__all__) - {"__version__"} <= covered, set(losses.__all__) - covered
