"""losses: differentiable surrogates of the exact metrics in ``torchmetrics_lite.functional``.

Each loss is a pure function (data first, options keyword-only) and a thin ``nn.Module`` with the same options.
Ranking losses take lists on the last dimension with an optional boolean ``mask`` of real items.
"""
from losses.approx_ndcg import ApproxNDCGLoss, approx_ndcg_loss
from losses.aucm import AUCMLoss, aucm_loss
from losses.lambdarank import LambdaRankLoss, lambdarank_loss
from losses.listwise import ListNetLoss, listnet_loss
from losses.ranknet import RankNetLoss, ranknet_loss
from losses.soft_auc import SoftAUCLoss, soft_auc_loss
from torchmetrics_lite._version import __version__

__all__ = [
    "__version__",
    "ranknet_loss", "RankNetLoss",
    "lambdarank_loss", "LambdaRankLoss",
    "approx_ndcg_loss", "ApproxNDCGLoss",
    "listnet_loss", "ListNetLoss",
    "soft_auc_loss", "SoftAUCLoss",
    "aucm_loss", "AUCMLoss",
]
