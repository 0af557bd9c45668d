"""Multiple-choice accuracy as a streaming module, and the causal-LM scorer that feeds it (:func:`score_choices`)."""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence, Tuple, Union

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    check_choice,
    check_zero_division,
)
from torchmetrics_lite._checks.multiple_choice import _check_multiple_choice
from torchmetrics_lite.functional.multiple_choice import _multiple_choice_from_stats, _multiple_choice_stats
from torchmetrics_lite.metric import Metric

__all__ = ["MultipleChoiceAccuracy", "score_choices"]



class MultipleChoiceAccuracy(Metric):
    """Accuracy of picking the most likely choice: ``mean_i [argmax_c s_ic == target_i]``.

    ``update(loglik, target, lengths=None)``:

    * ``loglik``: (N, C) floating, the summed log-likelihood of each of C candidate continuations
      (:func:`score_choices` gives one row); ``-inf`` is allowed, NaN is not.
    * ``target``: (N,) integer, the index of the correct choice, in ``[0, C)``.
    * ``lengths``: (N, C) positive numbers, each candidate's length (tokens, or characters as lm-eval's
      ``acc_norm`` uses); required when ``normalize="length"``, checked and ignored when ``"none"`` (so that both
      conventions can share one :class:`MetricCollection` update).

    Args:
        normalize: ``"none"`` scores a choice by ``s = loglik`` (``acc``); ``"length"`` by ``s = loglik / lengths``
            (``acc_norm``), computed in float64.
        zero_division: the value with no example seen (default 0.0; ``float('nan')`` allowed).

    Ties: among equal scores the lowest choice index wins (a row of all ``-inf`` picks choice 0), on every
    device. States: ``correct`` and ``total`` (int64 sums). Reference: Zellers et al., "HellaSwag", ACL 2019;
    EleutherAI lm-evaluation-harness (``acc``, ``acc_norm``).

    >>> acc, acc_norm = MultipleChoiceAccuracy(), MultipleChoiceAccuracy(normalize="length")
    >>> loglik = torch.tensor([[-3.0, -4.0], [-6.0, -5.0]])
    >>> target, lengths = torch.tensor([1, 0]), torch.tensor([[3, 2], [6, 2]])
    >>> acc.update(loglik, target, lengths); acc_norm.update(loglik, target, lengths)
    >>> acc.compute().item(), acc_norm.compute().item()
    (0.0, 0.5)
    """

    def __init__(self, normalize: str = "none", *, zero_division: float = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_choice("normalize", normalize, ("none", "length"))
        self.normalize = normalize
        self.zero_division = check_zero_division(zero_division)
        self.stats_key = ("multiple_choice_accuracy", normalize, self.validate_args)
        self.add_state("correct", torch.zeros((), dtype=torch.int64), reduce="sum")
        self.add_state("total", torch.zeros((), dtype=torch.int64), reduce="sum")

    def batch_stats(self, loglik: Tensor, target: Tensor, lengths: Optional[Tensor] = None) -> Dict[str, Tensor]:
        loglik, target, lengths = _check_multiple_choice(loglik, target, lengths, self.normalize, self.validate_args)
        return _multiple_choice_stats(loglik, target, lengths, self.normalize)

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _multiple_choice_from_stats(state, self.zero_division)

    def _config(self) -> Dict[str, Any]:
        return {"normalize": self.normalize}



def score_choices(logits_fn: Callable[[Tensor], Tensor], context: Union[Tensor, Sequence[int]],
                  choices: Sequence[Union[Tensor, Sequence[int]]]) -> Tuple[Tensor, Tensor]:
    """Summed log-likelihood of each candidate continuation under a causal language model.

    For choice ``c`` with tokens ``y_1..y_m`` after the context ``x_1..x_n``:
    ``loglik_c = sum_j log softmax(logits[n + j - 1])[y_j]`` (position ``t``'s logits predict token ``t + 1``),
    computed with ``log_softmax`` in float64 (numerically stable).

    Args:
        logits_fn: called once with a ``(C, L)`` int64 tensor of token ids (context + choice ``c`` in row ``c``,
            right-padded with 0, ``L`` the longest), returns ``(C, L, V)`` logits. The model must be causal
            (position ``t`` sees tokens ``<= t``), so padding never affects the positions that are read.
        context: 1-D token ids (tensor or list), at least one token.
        choices: C >= 1 candidate continuations, each 1-D token ids with at least one token.

    Returns:
        ``(loglik, lengths)``: float64 ``(C,)`` log-likelihoods and int64 ``(C,)`` lengths in tokens, on the
        context's device; stack rows into :class:`MultipleChoiceAccuracy`'s ``(N, C)`` inputs.

    >>> _ = torch.manual_seed(0)
    >>> logits = torch.randn(10, 5)  # a bigram model: the next token depends on the current one only
    >>> loglik, lengths = score_choices(lambda ids: logits[ids], [1, 2], [[3], [4, 0]])
    >>> lengths.tolist()
    [1, 2]
    >>> expected = torch.log_softmax(logits.double(), -1)[2, 4] + torch.log_softmax(logits.double(), -1)[4, 0]
    >>> bool(torch.isclose(loglik[1], expected))
    True
    """
    ctx = _token_ids("context", context, None)
    conts = [_token_ids(f"choices[{i}]", c, ctx.device) for i, c in enumerate(choices)]
    if not conts:
        raise ValueError("Expected `choices` to hold at least one candidate, got 0")
    n = ctx.shape[0]
    lengths = torch.tensor([c.shape[0] for c in conts], dtype=torch.int64, device=ctx.device)
    width = n + int(lengths.max())
    ids = ctx.new_zeros((len(conts), width))
    ids[:, :n] = ctx
    for i, c in enumerate(conts):  # C is small (a handful of candidates); the heavy work is one batched call
        ids[i, n : n + c.shape[0]] = c
    logits = logits_fn(ids)
    if not isinstance(logits, Tensor) or logits.dim() != 3 or logits.shape[:2] != ids.shape:
        got = tuple(logits.shape) if isinstance(logits, Tensor) else type(logits).__name__
        raise ValueError(f"Expected `logits_fn` to return logits of shape ({ids.shape[0]}, {width}, V), got {got}")
    m = width - n
    steps = logits[:, n - 1 : width - 1].to(torch.float64).log_softmax(dim=-1)  # (C, m, V) rows that predict
    token_lp = steps.gather(-1, ids[:, n:].unsqueeze(-1).to(steps.device)).squeeze(-1)
    mask = torch.arange(m, device=steps.device) < lengths.to(steps.device).unsqueeze(1)
    loglik = torch.where(mask, token_lp, torch.zeros((), dtype=torch.float64, device=steps.device)).sum(dim=1)
    return loglik.to(ctx.device), lengths



def _token_ids(name: str, ids: Any, device: Optional[torch.device]) -> Tensor:
    t = ids if isinstance(ids, Tensor) else torch.as_tensor(list(ids))
    if t.dim() != 1 or t.shape[0] == 0:
        raise ValueError(f"Expected `{name}` to be a non-empty 1-D sequence of token ids, got shape {tuple(t.shape)}")
    if t.is_floating_point() or t.is_complex() or t.dtype == torch.bool:
        raise TypeError(f"Expected `{name}` to hold integer token ids, got {t.dtype}")
    return t.to(dtype=torch.int64, device=device if device is not None else t.device)

