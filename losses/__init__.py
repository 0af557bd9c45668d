"""losses: differentiable surrogates of the exact metrics in ``torchmetrics_lite.functional``.

Each loss is a pure function (data first, options keyword-only) and a thin ``nn.Module`` with the same options.
Ranking losses take lists on the last dimension with an optional boolean ``mask`` of real items.

Ranking (lists): ranknet_loss, lambdarank_loss (LambdaRank, NDCG-Loss2++), approx_ndcg_loss, neural_ndcg_loss,
listnet_loss, listmle_loss, softmax_loss, smooth_ap_loss (average precision). Binary / multilabel
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
from losses.lambdarank import LambdaRankLoss, lambdarank_loss
from losses.listmle import ListMLELoss, listmle_loss
from losses.listwise import ListNetLoss, SoftmaxLoss, listnet_loss, softmax_loss
from losses.multilabel_aucm import MultiLabelAUCMLoss, multilabel_aucm_loss
from losses.neural_ndcg import NeuralNDCGLoss, neural_ndcg_loss
from losses.partial_auc import PartialAUCLoss, partial_auc_loss
from losses.partial_auc_dro import PartialAUCCVaRLoss, PartialAUCDROLoss
from losses.permutahedron import soft_rank, soft_sort, soft_top_k
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
    "PartialAUCLoss",
    "RankNetLoss",
    "SOAPLoss",
    "SONGNDCGLoss",
    "SmoothAPLoss",
    "SoftAUCLoss",
    "SoftFBetaLoss",
    "SoftmaxLoss",
    "TwoWayPartialAUCLoss",
    "__version__",
    "approx_ndcg_loss",
    "aucm_loss",
    "lambdarank_loss",
    "listmle_loss",
    "listnet_loss",
    "multilabel_aucm_loss",
    "neural_ndcg_loss",
    "neural_sort_permutation",
    "partial_auc_loss",
    "ranknet_loss",
    "smooth",
    "smooth_ap_loss",
    "soft_auc_loss",
    "soft_fbeta_loss",
    "soft_rank",
    "soft_sort",
    "soft_spearman_corrcoef",
    "soft_top_k",
    "softmax_loss",
    "softsort_permutation",
]
