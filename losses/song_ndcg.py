"""NDCG by SONG / K-SONG (Qiu et al., ICML 2022): compositional NDCG with per-(query, item) rank estimators."""
from __future__ import annotations

import math

import torch
from torch import Tensor, nn

from losses._utils import check_lists, check_positive, check_validate_args
from losses._xrisk import check_index, check_rate, check_size, write_rows
from torchmetrics_lite.checks import check_number, check_positive_int, check_tensor

__all__ = ["SONGNDCGLoss"]


def _check_query_vector(name: str, value: Tensor, queries: int) -> Tensor:
    check_tensor(name, value)
    if tuple(value.shape) != (queries,):
        raise ValueError(f"Expected `{name}` to have shape ({queries},) (one per list), got {tuple(value.shape)}")
    return value


class SONGNDCGLoss(nn.Module):
    r"""NDCG loss by SONG, and its top-``k`` form K-SONG, with moving-average estimators of every relevant item's
    rank.

    For a query ``q`` with ``M`` candidate items, the NDCG of a relevant item ``i`` is
    ``G_i / log2(1 + r_i)`` with ``G_i = 2**rel_i - 1`` and its rank ``r_i``, and the surrogate rank is
    ``M g_i`` with ``g_i = mean_j max(0, m - (s_i - s_j))**2`` over the items ``j`` of the batch's list (``i``
    included). SONG tracks ``u_i ~ g_i`` per (query, item) and follows the gradient of
    ``f(g) = -G / log2(1 + M g)``:

    .. math:: u_i \leftarrow (1-\gamma) u_i + \gamma g_i, \qquad
       L = \operatorname{mean}_q \frac{n^+_q}{Z_q} \operatorname{mean}_{i \in P_q}
       \nabla f(u_i)\, g_i, \quad \nabla f(u) = \frac{G M}{\ln 2\,(1 + M u) \log_2^2(1 + M u)}

    (``nabla f`` constant; ``n^+_q`` the number of relevant items of the query, ``Z_q`` its ideal DCG, both of the
    whole query and given by the caller). With ``k`` (K-SONG, LibAUC's ``topk_version="prac"``), a threshold
    ``lambda_q`` per query estimates the ``k``-th score: ``lambda_q <- lambda_q - eta (k / M + tau_2 lambda_q -
    mean_j sigmoid((s_j - lambda_q) / tau_1))``, and each item's weight is multiplied by
    ``sigmoid(alpha (s_i - lambda_q))`` (``lambda_q`` before the step). LibAUC's ``NDCGLoss``; its ``"theo"``
    top-k form (a second-order correction) is not provided.

    State: buffers ``u`` of shape ``(num_pairs,)`` (one per relevant (query, item), ids given as ``index``) and
    ``threshold`` of shape ``(num_queries,)`` (ids given as ``query_index``), float32; training mode only; follow
    ``.to()`` and ``state_dict()``; synced over the ranks (see ``losses._xrisk``).

    Args:
        num_pairs: the number of relevant (query, item) pairs of the training set (the range of ``index``).
        num_queries: the number of queries (the range of ``query_index``).
        num_items: ``M``, the number of candidate items per query.
        margin: ``m`` (>= 0) of the squared hinge.
        gamma: weight of the new batch in ``u``, in (0, 1] (LibAUC's ``gamma0``).
        k: the cut-off of K-SONG; ``None``: SONG (all ranks).
        eta: step of the thresholds (K-SONG), > 0.
        tau_1: temperature (> 0) of the sigmoid that counts the items above the threshold (K-SONG).
        tau_2: ridge (>= 0) on the thresholds (K-SONG).
        sigmoid_alpha: slope (> 0) of the top-k weight (K-SONG).
        validate_args: check that ``relevance`` is finite and >= 0 (a host sync).

    Shapes: ``forward(scores, relevance, index, query_index, num_relevant, ideal_dcg)``: ``scores``,
    ``relevance`` and ``index`` of shape ``(Q, L)`` (``Q`` lists of ``L`` sampled items each; items with
    ``relevance > 0`` are the relevant ones, only their ``index`` is read), ``query_index``, ``num_relevant``
    and ``ideal_dcg`` of shape ``(Q,)``. A list without a relevant item gives 0.

    References:
        Z.-H. Qiu, Q. Hu, Y. Zhong, L. Zhang and T. Yang, "Large-scale Stochastic Optimization of NDCG Surrogates
        for Deep Learning with Provable Convergence", ICML 2022.

    Examples:
        >>> loss_fn = SONGNDCGLoss(num_pairs=2, num_queries=1, num_items=3)
        >>> s = torch.tensor([[0.9, 0.2, 0.5]], requires_grad=True)
        >>> rel = torch.tensor([[1, 0, 2]])
        >>> loss = loss_fn(s, rel, torch.tensor([[0, 0, 1]]), torch.tensor([0]), torch.tensor([2]),
        ...                torch.tensor([3.6309]))
        >>> [round(v, 4) for v in loss_fn.u.tolist()]  # 0.9 mean_j max(0, 1 - s_i + s_j)**2
        [0.435, 1.035]
    """

    u: Tensor
    threshold: Tensor

    def __init__(self, num_pairs: int, num_queries: int, *, num_items: int, margin: float = 1.0,
                 gamma: float = 0.9, k: int | None = None, eta: float = 0.01, tau_1: float = 0.01,
                 tau_2: float = 1e-4, sigmoid_alpha: float = 2.0, validate_args: bool = True) -> None:
        super().__init__()
        check_size("num_pairs", num_pairs)
        check_size("num_queries", num_queries)
        check_size("num_items", num_items)
        check_number("margin", margin, low=0.0)
        check_rate("gamma", gamma)
        check_positive_int("k", k, allow_none=True)
        for name, value in (("eta", eta), ("tau_1", tau_1), ("sigmoid_alpha", sigmoid_alpha)):
            check_positive(name, value)
        check_number("tau_2", tau_2, low=0.0)
        check_validate_args(validate_args)
        self.num_pairs, self.num_queries, self.num_items = num_pairs, num_queries, num_items
        self.margin, self.gamma, self.k, self.eta = margin, gamma, k, eta
        self.tau_1, self.tau_2, self.sigmoid_alpha, self.validate_args = tau_1, tau_2, sigmoid_alpha, validate_args
        self.register_buffer("u", torch.zeros(num_pairs))
        self.register_buffer("threshold", torch.zeros(num_queries))

    def forward(self, scores: Tensor, relevance: Tensor, index: Tensor, query_index: Tensor,
                num_relevant: Tensor, ideal_dcg: Tensor) -> Tensor:
        scores, relevance, _ = check_lists(scores, relevance, None, self.validate_args)
        if scores.dim() != 2:
            raise ValueError(f"Expected `scores` to have shape (Q, L), got {tuple(scores.shape)}")
        queries = scores.shape[0]
        pos = relevance > 0
        check_tensor("index", index)
        if index.shape != scores.shape:
            raise ValueError(f"Expected `index` to have the shape {tuple(scores.shape)} of the scores, "
                             f"got {tuple(index.shape)}")
        ids = check_index(index[pos], index[pos].shape, self.num_pairs)  # only the relevant items' ids are read
        qids = check_index(_check_query_vector("query_index", query_index, queries), torch.Size([queries]),
                           self.num_queries)
        n_rel = _check_query_vector("num_relevant", num_relevant, queries).to(scores.dtype)
        idcg = _check_query_vector("ideal_dcg", ideal_dcg, queries).to(scores.dtype)
        hinge = (self.margin - scores[:, :, None] + scores[:, None, :]).clamp_min(0.0)
        g = (hinge * hinge).mean(-1)  # (Q, L)
        u = (1.0 - self.gamma) * self.u[ids].to(scores.dtype) + self.gamma * g[pos].detach()
        m = float(self.num_items)
        mu = 1.0 + m * u
        gain = torch.expm1(relevance[pos] * math.log(2.0))
        weight = torch.zeros_like(scores)
        weight[pos] = gain * m / (math.log(2.0) * mu * torch.log2(mu) ** 2)
        if self.k is not None:
            lam = self.threshold[qids].to(scores.dtype)
            s = scores.detach()
            weight = weight * torch.sigmoid(self.sigmoid_alpha * (s - lam[:, None]))
            step = self.k / m + self.tau_2 * lam - torch.sigmoid((s - lam[:, None]) / self.tau_1).mean(-1)
            new_lam = lam - self.eta * step
        if self.training:
            write_rows([self.u], ids, [u])
            if self.k is not None:
                write_rows([self.threshold], qids, [new_lam])
        count = pos.sum(-1)
        per_list = (weight * g).sum(-1) / count.clamp_min(1).to(scores.dtype)
        scale = torch.where(idcg > 0, n_rel / torch.where(idcg > 0, idcg, torch.ones_like(idcg)),
                            torch.zeros_like(idcg))
        return (torch.where(count > 0, per_list * scale, torch.zeros_like(per_list))).mean()

    def extra_repr(self) -> str:
        return f"num_pairs={self.num_pairs}, num_queries={self.num_queries}, num_items={self.num_items}, k={self.k}"
