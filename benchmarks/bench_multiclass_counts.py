"""Multiclass function calls against torchmetrics, with each library's default checks and with validate_args=False:
the counting metrics (one row argmax, one bincount: accuracy, F1, confusion matrix, NPV, Hamming, exact match) and
the other multiclass breadth metrics (hinge, EER, LogAUC), at the breadth benchmark's shape (1e6 x 10
probabilities, rows summing to 1), on logits of that shape, and at a per-step shape (256 x 10: dispatch overhead).

One thread; the four calls of a row (ours and torchmetrics, checks on and off) are timed in alternation, rounds of
calls of each, and the median of the rounds is reported, so the load of a shared machine hits every column alike.
Run: python -m benchmarks.bench_multiclass_counts [--rounds 7] [--only NAME_PART] [--shapes large logits small]
[--number 200]
"""
from __future__ import annotations

import argparse
import warnings
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import torch

from benchmarks._runner import fmt_time, header, interleaved_medians, optional

C = 10
SHAPES = {"large": (1_000_000, "1e6 x 10"), "logits": (1_000_000, "1e6 x 10 logits"), "small": (256, "256 x 10")}
Call = Callable[[bool], object]  # validate_args -> value


def _inputs(n: int, logits: bool) -> Dict[str, torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    scores = torch.rand(n, C, generator=g)
    scores = torch.randn(n, C, generator=g) * 3 if logits else scores / scores.sum(1, keepdim=True)
    per = 10  # exact match: n / 10 sequences of 10 positions, the same number of scores
    seq = scores[: n - n % per].reshape(-1, per, C).transpose(1, 2).contiguous()
    return {"s": scores, "t": torch.randint(0, C, (n,), generator=g), "seq_s": seq,
            "seq_t": torch.randint(0, C, (seq.shape[0], per), generator=g)}


def _cases(d: Dict[str, torch.Tensor], logits: bool) -> List[Tuple[str, Call, Optional[Call]]]:
    from torchmetrics_lite import functional as ours

    tm = optional("torchmetrics")
    if tm is not None:
        import torchmetrics.functional.classification  # noqa: F401  (binds the submodule)
    tf = tm.functional.classification if tm is not None else None
    s, t, ss, st = d["s"], d["t"], d["seq_s"], d["seq_t"]
    raw = {"from_logits": True} if logits else {}  # scores outside [0, 1]: ours raises unless told (softmax first)

    def pair(name: str, kwargs: Optional[dict] = None, data: Tuple[torch.Tensor, torch.Tensor] = (s, t),
             ours_kwargs: Optional[dict] = None) -> Tuple[str, Call, Optional[Call]]:
        kw, okw = kwargs or {}, {**(kwargs or {}), **(ours_kwargs or {})}
        mine = getattr(ours, name)
        peer = getattr(tf, name, None) if tf is not None else None
        return (name + "".join(f" {v}" for v in kw.values()),
                lambda v: mine(*data, C, validate_args=v, **okw),
                None if peer is None else lambda v: peer(*data, C, validate_args=v, **kw))

    return [
        pair("multiclass_accuracy", {"average": "macro"}), pair("multiclass_accuracy", {"average": "micro"}),
        pair("multiclass_f1_score", {"average": "macro"}), pair("multiclass_confusion_matrix"),
        pair("multiclass_negative_predictive_value", {"average": "macro"}),
        pair("multiclass_hamming_distance", {"average": "micro"}),
        pair("multiclass_exact_match", data=(ss, st)),
        pair("multiclass_hinge_loss", {"multiclass_mode": "crammer-singer"}, ours_kwargs=raw),
        pair("multiclass_eer", {"average": "macro"}, ours_kwargs=raw),
        pair("multiclass_logauc", {"average": "macro"}, ours_kwargs=raw),
    ]


def _ratio(peer: Optional[float], mine: Optional[float]) -> str:
    return f"{peer / mine:.2f}x" if peer and mine else "n/a"


def _row(name: str, label: str, mine: Call, peer: Optional[Call], rounds: int, number: int) -> str:
    fns = {"ours": lambda: mine(True), "ours_nv": lambda: mine(False)}
    failed = ""
    if peer is not None:
        try:
            peer(False)
            fns.update(tm=lambda: peer(True), tm_nv=lambda: peer(False))
        except (RuntimeError, MemoryError) as err:  # torchmetrics' EER interpolates with an (n, n) comparison
            failed = f"fails: {type(err).__name__}"
    t = interleaved_medians(fns, rounds=rounds, number=number, warmup=min(number, 20))
    cells = [fmt_time(t.get(k)) if k in t else failed or "n/a" for k in ("ours", "tm")]
    cells += [_ratio(t.get("tm"), t["ours"])]
    cells += [fmt_time(t.get(k)) if k in t else failed or "n/a" for k in ("ours_nv", "tm_nv")]
    cells += [_ratio(t.get("tm_nv"), t["ours_nv"])]
    return f"| `{name}` | {label} | " + " | ".join(cells) + " |"


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--only", default="", help="run the rows whose name contains this")
    parser.add_argument("--shapes", nargs="+", choices=tuple(SHAPES), default=list(SHAPES))
    parser.add_argument("--number", type=int, default=200, help="calls per round at the small shape")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    warnings.simplefilter("ignore")
    print(f"### Multiclass calls against torchmetrics, checks on (default) and off\n\n{header()}\n\n"
          "| metric | shape | ours | torchmetrics | speed-up | ours, no checks | torchmetrics, no checks | speed-up |\n"
          "|---|---|---:|---:|---:|---:|---:|---:|")
    for shape in args.shapes:
        n, label = SHAPES[shape]
        for name, mine, peer in _cases(_inputs(n, shape == "logits"), shape == "logits"):
            if args.only in name:
                print(_row(name, label, mine, peer, args.rounds, 1 if n > 10_000 else args.number), flush=True)


if __name__ == "__main__":
    main()
