"""Multiple-choice accuracy as a streaming module, and the causal-LM scorer that feeds it (:func:`score_choices`)."""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence, Tuple, Union

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    check_choice,
    check_zero_division,
)
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.multiple_choice import _multiple_choice_accuracy_stats, _multiple_choice_from_stats
from torchmetrics_lite.metric import Metric

__all__ = ["MultipleChoiceAccuracy", "score_choices"]


class MultipleChoiceAccuracy(Metric):
    r"""Accuracy of picking the most likely of ``C`` candidate answers, streamed: lm-eval's ``acc``/``acc_norm``.

    .. math:: \mathrm{acc} = \frac{1}{N} \sum_i [\arg\max_c s_{ic} = y_i], \qquad
       s_{ic} = \ell_{ic} \ \text{(normalize="none")} \quad\text{or}\quad s_{ic} = \ell_{ic} / L_{ic}
       \ \text{(normalize="length")},

    with :math:`\ell_{ic}` the summed log-likelihood of candidate ``c`` of question ``i`` (:func:`score_choices`
    gives one row) and :math:`L_{ic}` its length.

    ``update(loglik, target, lengths=None)`` shapes: ``loglik`` (N, C) floating (``-inf`` allowed, NaN not);
    ``target`` (N,) integer in ``[0, C)``; ``lengths`` (N, C) positive numbers (tokens, or characters as lm-eval's
    ``acc_norm`` uses), required when ``normalize="length"``, checked and ignored when ``"none"`` (so that both
    conventions can share one :class:`MetricCollection` update).

    Ties: among equal scores the lowest choice index wins (a row of all ``-inf`` picks choice 0), on every
    device. Empty input (no question seen): ``zero_division``. States: ``correct`` and ``total`` (int64 sums).

    Args:
        normalize: ``"none"`` scores a choice by its log-likelihood (``acc``); ``"length"`` divides it by
            ``lengths`` (``acc_norm``), in float64 (float32 on a device without float64).
        zero_division: the value with no example seen (default 0.0; ``float('nan')`` allowed).
        kwargs: ``validate_args``, ``process_group``, ``sync_on_compute`` of :class:`Metric`.

    Returns:
        ``compute()``: a float64 0-dim tensor in [0, 1] (float32 on a device without float64).

    Raises:
        ValueError: an unknown ``normalize``; in ``update``: a shape that is not as above, no choice column,
            ``target`` outside ``[0, C)``, NaN log-likelihoods, missing or non-positive ``lengths`` when
            ``normalize="length"`` (value checks are skipped with ``validate_args=False``).
        TypeError: a non-tensor input, floating ``target``, integer ``loglik``, bool ``lengths``.

    References:
        Zellers et al., "HellaSwag: Can a Machine Really Finish Your Sentence?", ACL 2019; EleutherAI
        lm-evaluation-harness (``acc``, ``acc_norm``).

    Examples:
        >>> acc, acc_norm = MultipleChoiceAccuracy(), MultipleChoiceAccuracy(normalize="length")
        >>> loglik = torch.tensor([[-3.0, -4.0], [-6.0, -5.0]])
        >>> target, lengths = torch.tensor([1, 0]), torch.tensor([[3, 2], [6, 2]])
        >>> acc.update(loglik, target, lengths); acc_norm.update(loglik, target, lengths)
        >>> acc.compute().item(), acc_norm.compute().item()
        (0.0, 0.5)
    """

    stats_fn = staticmethod(_multiple_choice_accuracy_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"normalize": self.normalize, "validate_args": self.validate_args}

    value_fn = staticmethod(_multiple_choice_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"zero_division": self.zero_division}

    def __init__(self, normalize: str = "none", *, zero_division: float = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_choice("normalize", normalize, ("none", "length"))
        self.normalize = normalize
        self.zero_division = check_zero_division(zero_division)
        self.stats_key = ("multiple_choice_accuracy", normalize, self.validate_args)
        self.add_state("correct", torch.zeros((), dtype=torch.int64), reduce="sum")
        self.add_state("total", torch.zeros((), dtype=torch.int64), reduce="sum")



def score_choices(logits_fn: Callable[[Tensor], Tensor], context: Union[Tensor, Sequence[int]],
                  choices: Sequence[Union[Tensor, Sequence[int]]]) -> Tuple[Tensor, Tensor]:
    r"""Summed log-likelihood of each candidate continuation under a causal language model, in one model call.

    For choice ``c`` with tokens :math:`y_1..y_m` after the context :math:`x_1..x_n`:

    .. math:: \ell_c = \sum_{j=1}^{m} \log \operatorname{softmax}(z_{n+j-1})[y_j],

    where :math:`z_t` are the logits at position ``t`` (0-based; position ``t`` predicts token ``t + 1``),
    computed with ``log_softmax`` in float64 (numerically stable; float32 on a device without float64, such as
    Apple MPS). Empty contexts and empty choices are
    rejected (there would be no logits to read the first token from).

    Args:
        logits_fn: called once with a ``(C, L)`` int64 tensor of token ids (context + choice ``c`` in row ``c``,
            right-padded with 0, ``L`` the longest), returns ``(C, L, V)`` logits. The model must be causal
            (position ``t`` sees tokens ``<= t``), so padding never affects the positions that are read.
        context: 1-D token ids (tensor or list), at least one token.
        choices: C >= 1 candidate continuations, each 1-D token ids with at least one token.

    Returns:
        ``(loglik, lengths)``: float64 ``(C,)`` log-likelihoods (float32 where the logits' or the context's
        device has no float64) and int64 ``(C,)`` lengths in tokens, on the context's device; stack rows into
        :class:`MultipleChoiceAccuracy`'s ``(N, C)`` inputs.

    Raises:
        ValueError: an empty or non-1-D context or choice, no choices, or logits not of shape ``(C, L, V)``.
        TypeError: token ids that are not integers.

    References:
        EleutherAI lm-evaluation-harness, ``loglikelihood`` requests (the same per-token sum).

    Examples:
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
    # float64, unless the model's or the context's device has none: then float32 (results move to the context's)
    dtype = min(float_dtype(logits.device), float_dtype(ctx.device), key=lambda d: d.itemsize)
    steps = logits[:, n - 1 : width - 1].to(dtype).log_softmax(dim=-1)  # (C, m, V) rows that predict
    token_lp = steps.gather(-1, ids[:, n:].unsqueeze(-1).to(steps.device)).squeeze(-1)
    mask = torch.arange(m, device=steps.device) < lengths.to(steps.device).unsqueeze(1)
    loglik = torch.where(mask, token_lp, torch.zeros((), dtype=steps.dtype, device=steps.device)).sum(dim=1)
    return loglik.to(ctx.device), lengths


def _token_ids(name: str, ids: Any, device: Optional[torch.device]) -> Tensor:
    t = ids if isinstance(ids, Tensor) else torch.as_tensor(list(ids))
    if t.dim() != 1 or t.shape[0] == 0:
        raise ValueError(f"Expected `{name}` to be a non-empty 1-D sequence of token ids, got shape {tuple(t.shape)}")
    if t.is_floating_point() or t.is_complex() or t.dtype == torch.bool:
        raise TypeError(f"Expected `{name}` to hold integer token ids, got {t.dtype}")
    return t.to(dtype=torch.int64, device=device if device is not None else t.device)

