"""losses: differentiable surrogates of the exact metrics in ``torchmetrics_lite.functional``.

Each loss is a pure function (data first, options keyword-only) and a thin ``nn.Module`` with the same options.
Ranking losses take lists on the last dimension with an optional boolean ``mask`` of real items.

Ranking (lists): ranknet_loss, lambdarank_loss (LambdaRank, NDCG-Loss2++), approx_ndcg_loss, neural_ndcg_loss,
listnet_loss, listmle_loss, softmax_loss, smooth_ap_loss (average precision). Binary / multilabel
classification: soft_auc_loss, partial_auc_loss, aucm_loss (AUROC), soft_fbeta_loss (F-beta).
"""
from losses.approx_ndcg import ApproxNDCGLoss, approx_ndcg_loss
from losses.aucm import AUCMLoss, aucm_loss
from losses.lambdarank import LambdaRankLoss, lambdarank_loss
from losses.listmle import ListMLELoss, listmle_loss
from losses.listwise import ListNetLoss, SoftmaxLoss, listnet_loss, softmax_loss
from losses.neural_ndcg import NeuralNDCGLoss, neural_ndcg_loss
from losses.pairwise import (
    PairwiseHingeLoss,
    PairwiseLoss,
    PairwiseSoftZeroOneLoss,
    pairwise_hinge_loss,
    pairwise_loss,
    pairwise_soft_zero_one_loss,
)
from losses.partial_auc import PartialAUCLoss, partial_auc_loss
from losses.ranknet import RankNetLoss, ranknet_loss
from losses.smooth_ap import SmoothAPLoss, smooth_ap_loss
from losses.soft_auc import SoftAUCLoss, soft_auc_loss
from losses.soft_fbeta import SoftFBetaLoss, soft_fbeta_loss
from torchmetrics_lite import __version__

__all__ = [
    "AUCMLoss",
    "ApproxNDCGLoss",
    "LambdaRankLoss",
    "ListMLELoss",
    "ListNetLoss",
    "NeuralNDCGLoss",
    "PairwiseHingeLoss",
    "PairwiseLoss",
    "PairwiseSoftZeroOneLoss",
    "PartialAUCLoss",
    "RankNetLoss",
    "SmoothAPLoss",
    "SoftAUCLoss",
    "SoftFBetaLoss",
    "SoftmaxLoss",
    "__version__",
    "approx_ndcg_loss",
    "aucm_loss",
    "lambdarank_loss",
    "listmle_loss",
    "listnet_loss",
    "neural_ndcg_loss",
    "pairwise_hinge_loss",
    "pairwise_loss",
    "pairwise_soft_zero_one_loss",
    "partial_auc_loss",
    "ranknet_loss",
    "smooth_ap_loss",
    "soft_auc_loss",
    "soft_fbeta_loss",
    "softmax_loss",
]
