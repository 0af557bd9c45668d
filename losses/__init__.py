"""losses: differentiable surrogates of the exact metrics in ``torchmetrics_lite.functional``.

Each loss is a pure function (data first, options keyword-only) and a thin ``nn.Module`` with the same options.
Ranking losses take lists on the last dimension with an optional boolean ``mask`` of real items.

Ranking (lists): ranknet_loss, lambdarank_loss (LambdaRank, NDCG-Loss1/2/2++, ARP-1/2), pairwise_loss (any pair loss
and weighting), pairwise_hinge_loss, pairwise_soft_zero_one_loss, approx_ndcg_loss, gumbel_approx_ndcg_loss,
neural_ndcg_loss, neural_sort_cross_entropy_loss, listnet_loss, listmle_loss, softmax_loss, poly1_softmax_loss,
unique_softmax_loss, smooth_ap_loss (average precision); pointwise baselines: sigmoid_cross_entropy_loss,
mean_squared_loss, ordinal_loss. Dense retrieval: info_nce_loss (in-batch negatives). Binary / multilabel
classification: soft_auc_loss, partial_auc_loss, aucm_loss (AUROC), soft_fbeta_loss (F-beta).

Differentiable metrics and sorting: smooth (the differentiable twin of an exact ranking metric, from the metric's one
rank form), soft_sort, soft_rank, soft_top_k (permutahedron projections), neural_sort_permutation,
softsort_permutation (relaxed permutation matrices), soft_spearman_corrcoef.

Stateful X-risk estimators (per-sample state, ``index=``; ``losses._xrisk``): SOAPLoss (AP), PartialAUCDROLoss,
PartialAUCCVaRLoss, TwoWayPartialAUCLoss (partial AUC), SONGNDCGLoss (NDCG), CompositionalAUCLoss,
MultiLabelAUCMLoss; their optimizers PESG and PDSCA in ``losses.optim``.
"""
from losses.approx_ndcg import ApproxNDCGLoss, approx_ndcg_loss
from losses.aucm import AUCMLoss, aucm_loss
from losses.compositional_auc import CompositionalAUCLoss
from losses.gumbel_approx_ndcg import GumbelApproxNDCGLoss, gumbel_approx_ndcg_loss
from losses.info_nce import InfoNCELoss, info_nce_loss
from losses.lambdarank import LambdaRankLoss, lambdarank_loss
from losses.listmle import ListMLELoss, listmle_loss
from losses.listwise import (
    ListNetLoss,
    Poly1SoftmaxLoss,
    SoftmaxLoss,
    UniqueSoftmaxLoss,
    listnet_loss,
    poly1_softmax_loss,
    softmax_loss,
    unique_softmax_loss,
)
from losses.multilabel_aucm import MultiLabelAUCMLoss, multilabel_aucm_loss
from losses.neural_ndcg import NeuralNDCGLoss, neural_ndcg_loss
from losses.neural_sort_ce import NeuralSortCrossEntropyLoss, neural_sort_cross_entropy_loss
from losses.pairwise import (
    PairwiseHingeLoss,
    PairwiseLoss,
    PairwiseSoftZeroOneLoss,
    pairwise_hinge_loss,
    pairwise_loss,
    pairwise_soft_zero_one_loss,
)
from losses.partial_auc import PartialAUCLoss, partial_auc_loss
from losses.partial_auc_dro import PartialAUCCVaRLoss, PartialAUCDROLoss
from losses.permutahedron import soft_rank, soft_sort, soft_top_k
from losses.pointwise import (
    MeanSquaredLoss,
    OrdinalLoss,
    SigmoidCrossEntropyLoss,
    mean_squared_loss,
    ordinal_loss,
    sigmoid_cross_entropy_loss,
)
from losses.ranknet import RankNetLoss, ranknet_loss
from losses.relaxed_sort import neural_sort_permutation, softsort_permutation
from losses.smooth_ap import SmoothAPLoss, smooth_ap_loss
from losses.smooth_metrics import smooth
from losses.soap import SOAPLoss
from losses.soft_auc import SoftAUCLoss, soft_auc_loss
from losses.soft_fbeta import SoftFBetaLoss, soft_fbeta_loss
from losses.soft_spearman import soft_spearman_corrcoef
from losses.song_ndcg import SONGNDCGLoss
from losses.two_way_partial_auc import TwoWayPartialAUCLoss
from torchmetrics_lite import __version__

__all__ = [
    "AUCMLoss",
    "ApproxNDCGLoss",
    "CompositionalAUCLoss",
    "LambdaRankLoss",
    "ListMLELoss",
    "ListNetLoss",
    "MultiLabelAUCMLoss",
    "NeuralNDCGLoss",
    "PartialAUCCVaRLoss",
    "PartialAUCDROLoss",
    "GumbelApproxNDCGLoss",
    "InfoNCELoss",
    "MeanSquaredLoss",
    "NeuralSortCrossEntropyLoss",
    "OrdinalLoss",
    "PairwiseHingeLoss",
    "PairwiseLoss",
    "PairwiseSoftZeroOneLoss",
    "PartialAUCLoss",
    "Poly1SoftmaxLoss",
    "RankNetLoss",
    "SOAPLoss",
    "SONGNDCGLoss",
    "SigmoidCrossEntropyLoss",
    "SmoothAPLoss",
    "SoftAUCLoss",
    "SoftFBetaLoss",
    "SoftmaxLoss",
    "TwoWayPartialAUCLoss",
    "UniqueSoftmaxLoss",
    "__version__",
    "approx_ndcg_loss",
    "aucm_loss",
    "gumbel_approx_ndcg_loss",
    "info_nce_loss",
    "lambdarank_loss",
    "listmle_loss",
    "listnet_loss",
    "multilabel_aucm_loss",
    "neural_ndcg_loss",
    "neural_sort_permutation",
    "mean_squared_loss",
    "neural_sort_cross_entropy_loss",
    "ordinal_loss",
    "pairwise_hinge_loss",
    "pairwise_loss",
    "pairwise_soft_zero_one_loss",
    "partial_auc_loss",
    "poly1_softmax_loss",
    "ranknet_loss",
    "smooth",
    "sigmoid_cross_entropy_loss",
    "smooth_ap_loss",
    "soft_auc_loss",
    "soft_fbeta_loss",
    "soft_rank",
    "soft_sort",
    "soft_spearman_corrcoef",
    "soft_top_k",
    "softmax_loss",
    "softsort_permutation",
    "unique_softmax_loss",
]
