"""InfoNCE with in-batch negatives (van den Oord et al., 2018; the dense-retrieval form of Karpukhin et al., 2020):
the listwise softmax cross-entropy of each query over the batch's documents, its own document the positive."""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from losses._module import module_of
from losses._utils import check_options, check_positive, check_validate_args, reduce
from torchmetrics_lite.checks import check_tensor

__all__ = ["InfoNCELoss", "info_nce_loss"]


def _similarity(queries: Tensor, documents: Tensor | None, normalize: bool) -> Tensor:
    check_tensor("queries", queries)
    if not queries.is_floating_point():
        raise TypeError(f"Expected `queries` to have a floating dtype, got {queries.dtype}")
    if documents is None:
        if queries.dim() != 2 or queries.shape[1] < queries.shape[0]:
            raise ValueError(f"Expected a similarity matrix `queries` of shape (B, D) with D >= B (documents "
                             f"0..B-1 the positives), got {tuple(queries.shape)}")
        return queries
    check_tensor("documents", documents)
    if not documents.is_floating_point():
        raise TypeError(f"Expected `documents` to have a floating dtype, got {documents.dtype}")
    if queries.dim() != 2 or documents.dim() != 2 or queries.shape[1] != documents.shape[1] \
            or documents.shape[0] < queries.shape[0]:
        raise ValueError(f"Expected `queries` (B, d) and `documents` (D, d) with D >= B (document i the positive of "
                         f"query i, the others its negatives), got {tuple(queries.shape)} and "
                         f"{tuple(documents.shape)}")
    if normalize:
        queries, documents = F.normalize(queries, dim=-1), F.normalize(documents, dim=-1)
    return queries @ documents.T


def info_nce_loss(queries: Tensor, documents: Tensor | None = None, *, mask: Tensor | None = None,
                  temperature: float = 0.05, normalize: bool = True, symmetric: bool = False,
                  reduction: str = "mean", validate_args: bool = True) -> Tensor:
    r"""InfoNCE with in-batch negatives: query ``i``'s positive is document ``i``, every other document of the batch
    (and any extra hard negative, documents ``B..D-1``) a negative,

    .. math:: L_i = -\log \frac{e^{S_{ii} / T}}{\sum_{j} e^{S_{ij} / T}},\qquad S = \hat q\, \hat d^{\top}

    with ``hat q``, ``hat d`` the L2-normalised embeddings (cosine similarity; ``normalize=False``: dot products),
    i.e. the softmax cross-entropy over the rows of ``S / T`` with targets ``0 .. B-1``
    (``F.cross_entropy(S / T, arange(B))``). Pass a precomputed ``(B, D)`` similarity matrix as ``queries`` (no
    ``documents``) to use any scorer. ``symmetric=True`` adds the documents-to-queries direction over the first
    ``B`` columns (CLIP's form) and averages the two.

    Args:
        queries: ``(B, d)`` query embeddings, or a ``(B, D)`` similarity matrix when ``documents`` is None.
        documents: ``(D, d)`` document embeddings, ``D >= B``: row ``i < B`` is query ``i``'s positive.
        mask: optional ``(B, D)`` bool, ``False`` on the candidates to leave out of a query's softmax (known false
            negatives, padding); the positives must stay ``True``. Left-out entries get a gradient of exactly 0.
        temperature: ``T`` (> 0; 0.05 by default, a common value for cosine similarities).
        normalize: L2-normalise the embeddings first (ignored for a similarity matrix).
        symmetric: also the documents-to-queries cross-entropy (needs no ``mask``).
        reduction: ``"mean"`` over queries, ``"sum"``, or ``"none"`` (shape ``(B,)``).
        validate_args: with a ``mask``, check that every positive is kept (one host sync).

    Returns:
        The loss. An empty batch (``B = 0``) gives 0.

    Raises:
        TypeError: inputs not floating tensors, ``mask`` not bool.
        ValueError: shapes that do not fit (see above), an option out of range, ``symmetric`` with a ``mask``, or
            (``validate_args``) a positive left out by the mask.

    References:
        A. van den Oord, Y. Li and O. Vinyals, "Representation Learning with Contrastive Predictive Coding", 2018;
        V. Karpukhin et al., "Dense Passage Retrieval for Open-Domain Question Answering", EMNLP 2020.

    Examples:
        >>> q = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
        >>> round(info_nce_loss(q, q, temperature=1.0).item(), 4)  # -log(e / (e + 1))
        0.3133
    """
    sim = _similarity(queries, documents, normalize)
    _check(temperature=temperature, normalize=normalize, symmetric=symmetric, reduction=reduction,
           validate_args=validate_args)
    b = sim.shape[0]
    logits = sim / temperature
    if mask is not None:
        check_tensor("mask", mask)
        if mask.dtype != torch.bool or tuple(mask.shape) != tuple(sim.shape):
            raise ValueError(f"Expected `mask` to be a bool tensor of shape {tuple(sim.shape)}, got {mask.dtype} "
                             f"{tuple(mask.shape)}")
        if symmetric:
            raise ValueError("Expected no `mask` with symmetric=True (the documents' direction has no mask)")
        if validate_args and b > 0 and not bool(mask.diagonal()[:b].all()):
            raise ValueError("Expected `mask` to keep every positive (mask[i, i] True for i < B)")
        lowest = torch.tensor(torch.finfo(logits.dtype).min, dtype=logits.dtype, device=logits.device)
        logits = torch.where(mask, logits, lowest)
    target = torch.arange(b, device=sim.device)
    per_query = F.cross_entropy(logits, target, reduction="none")
    if symmetric:
        per_query = 0.5 * (per_query + F.cross_entropy(logits[:, :b].T, target, reduction="none"))
    return reduce(per_query, reduction, torch.Size([b]))


def _check(*, temperature, normalize, symmetric, reduction, validate_args, **_) -> None:
    check_options(reduction=reduction)
    check_positive("temperature", temperature)
    for name, value in (("normalize", normalize), ("symmetric", symmetric)):
        if not isinstance(value, bool):
            raise TypeError(f"Expected `{name}` to be a bool, got {type(value).__name__}")
    check_validate_args(validate_args)


@module_of(info_nce_loss, _check)
class InfoNCELoss(nn.Module):
    """Module form of :func:`info_nce_loss` (``forward(queries, documents=None, mask=None)``).

    Examples:
        >>> loss = InfoNCELoss(temperature=1.0, normalize=False)
        >>> round(loss(torch.zeros(3, 3)).item(), 4)  # a uniform similarity matrix: log 3
        1.0986
    """
