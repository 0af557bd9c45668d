"""The AUROC family's breadth metrics against torchmetrics (and scikit-learn where it has the metric), one process:
EER and LogAUC (binary at 1e6 scores, multiclass at 1e6 x 10 on probabilities and on logits with
``from_logits=True``, multilabel at 1e5 x 50), the multilabel ranking metrics and the multilabel operating points at
1e5 x 50. Binary and multilabel scores are float32 uniforms (distinct: the regime where torchmetrics and we compute
the same curves), 10% positives per label; multiclass scores are float32 standard normal logits and their softmax
(torchmetrics takes logits as they are: it applies the softmax itself when a score is outside [0, 1]). Each row is
one functional call on the whole data (torchmetrics with ``thresholds=None``, its exact mode); a peer that raises
is marked so in its row, with the error and the size. scikit-learn's label-ranking average precision
and loss, and torchmetrics' label-ranking average precision, loop over samples in Python; they are timed on a
tenth of the samples and scaled by 10 (linear in the samples), which the note says; so is torchmetrics'
multilabel precision at fixed recall (minutes at full size; its cost grows faster than linearly, so the scaled
figure is a lower bound).

Run: python -m benchmarks._breadth_ranking        (or every breadth group: python -m benchmarks.bench_breadth)
     BENCH_BREADTH_SCALE=0.1 for a tenth of every size
"""
import os
import warnings
from typing import Callable, Dict, List, Optional, Tuple

import torch

from benchmarks._runner import header, median_time, optional, print_tables, table

OURS = "torchmetrics_lite"


def _data(seed: int, scale: float):
    g = torch.Generator().manual_seed(seed)
    n, rows, labels, mc_rows, classes = (int(1_000_000 * scale), int(100_000 * scale), 50, int(1_000_000 * scale), 10)
    binary = (torch.rand(n, generator=g), (torch.rand(n, generator=g) < 0.1).long())
    ml = (torch.rand(rows, labels, generator=g), (torch.rand(rows, labels, generator=g) < 0.1).long())
    logits = torch.randn(mc_rows, classes, generator=g)
    mc = (torch.softmax(logits, 1), logits, torch.randint(0, classes, (mc_rows,), generator=g))
    return binary, ml, mc, labels, classes


def _time(fn: Optional[Callable[[], object]], repeat: int) -> Optional[float]:
    return None if fn is None else median_time(fn, repeat=repeat, warmup=0)


def _peer(fn: Optional[Callable[[], object]], repeat: int, size: str) -> Tuple[Optional[float], str]:
    """The peer's median time, or ``None`` with a note: not installed, or the error it raised (at ``size``)."""
    if fn is None:
        return None, "not installed"
    try:
        fn()
    except Exception as err:  # a peer's failure is a result: the row says it
        return None, f"fails at {size}: {type(err).__name__}: {str(err).splitlines()[0][:160]}"
    return _time(fn, repeat), ""


def _rows(ours: Callable[[], object], tm: Optional[Callable[[], object]], sk: Optional[Callable[[], object]] = None,
          sk_scale: float = 1.0, repeat: int = 3, size: str = "") -> List[Tuple[str, Optional[float], str]]:
    rows = [(OURS, _time(ours, repeat), ""), ("torchmetrics 1.9", *_peer(tm, max(1, repeat - 1), size))]
    if sk is not None:
        t = _time(sk, 1)
        rows.append(("scikit-learn", None if t is None else t * sk_scale,
                     f"timed on 1/{sk_scale:.0f} of the samples, scaled" if sk_scale != 1 else ""))
    return rows


def _cases(scale: float) -> Dict[str, List[Tuple[str, Optional[float], str]]]:
    import torchmetrics_lite.functional as F

    tmf = optional("torchmetrics.functional.classification")
    skm = optional("sklearn.metrics")
    (bp, bt), (mp, mt), (cp, cl, ct), labels, classes = _data(0, scale)
    mc_size = f"{cp.shape[0]:.0e} x {classes}".replace("e+0", "e")
    tenth = max(1, mp.shape[0] // 10)
    mpn, mtn, mpt, mtt = mp.numpy(), mt.numpy(), mp[:tenth].numpy(), mt[:tenth].numpy()
    tm = (lambda name, *a, **k: (lambda: getattr(tmf.functional.classification, name)(*a, **k))) if tmf else \
        (lambda *a, **k: None)
    sk = (lambda name, *a: (lambda: getattr(skm.metrics, name)(*a))) if skm else (lambda *a: None)
    out = {
        "binary EER (1e6)": _rows(lambda: F.binary_eer(bp, bt), tm("binary_eer", bp, bt)),
        **{f"multiclass EER{av} ({mc_size}, {kind})": _rows(
            lambda p=p, k=k: F.multiclass_eer(p, ct, classes, average=k["average"], from_logits=k["logits"]),
            tm("multiclass_eer", p, ct, classes, average=k["average"]), size=mc_size, repeat=1 if av else 3)
           for av, average in (("", None), (" macro", "macro"))
           for kind, p, k in (("probabilities", cp, {"average": average, "logits": False}),
                              ("logits", cl, {"average": average, "logits": True}))},
        "multilabel EER (1e5 x 50)": _rows(lambda: F.multilabel_eer(mp, mt, labels),
                                           tm("multilabel_eer", mp, mt, labels), repeat=1),
        "binary LogAUC (1e6)": _rows(lambda: F.binary_logauc(bp, bt), tm("binary_logauc", bp, bt)),
        **{f"multiclass LogAUC ({mc_size}, {kind})": _rows(
            lambda p=p, lg=lg: F.multiclass_logauc(p, ct, classes, from_logits=lg),
            tm("multiclass_logauc", p, ct, classes), size=mc_size)
           for kind, p, lg in (("probabilities", cp, False), ("logits", cl, True))},
        "multilabel LogAUC (1e5 x 50)": _rows(lambda: F.multilabel_logauc(mp, mt, labels),
                                              tm("multilabel_logauc", mp, mt, labels), repeat=1),
        "coverage error (1e5 x 50)": _rows(lambda: F.multilabel_coverage_error(mp, mt, labels),
                                           tm("multilabel_coverage_error", mp, mt, labels),
                                           sk("coverage_error", mtn, mpn)),
        "label ranking AP (1e5 x 50)": _rows(lambda: F.multilabel_ranking_average_precision(mp, mt, labels),
                                             tm("multilabel_ranking_average_precision", mp[:tenth], mt[:tenth],
                                                labels), sk("label_ranking_average_precision_score", mtt, mpt),
                                             sk_scale=mp.shape[0] / tenth),
        "label ranking loss (1e5 x 50)": _rows(lambda: F.multilabel_ranking_loss(mp, mt, labels),
                                               tm("multilabel_ranking_loss", mp, mt, labels),
                                               sk("label_ranking_loss", mtt, mpt), sk_scale=mp.shape[0] / tenth),
    }
    # torchmetrics' label-ranking AP loops over samples in Python: timed on a tenth, scaled like scikit-learn's
    name, t, note = out["label ranking AP (1e5 x 50)"][1]
    out["label ranking AP (1e5 x 50)"][1] = (name, None if t is None else t * mp.shape[0] / tenth,
                                            "timed on 1/10 of the samples, scaled")
    for point, minimum in (("recall_at_fixed_precision", 0.5), ("precision_at_fixed_recall", 0.5),
                           ("sensitivity_at_specificity", 0.5), ("specificity_at_sensitivity", 0.5)):
        slow = point == "precision_at_fixed_recall"  # torchmetrics' takes minutes at this size: a tenth, scaled
        peer = tm(f"multilabel_{point}", mp[:tenth], mt[:tenth], labels, minimum) if slow else \
            tm(f"multilabel_{point}", mp, mt, labels, minimum)
        title = f"multilabel {point} (1e5 x 50)"
        out[title] = _rows(lambda p=point, m=minimum: getattr(F, f"multilabel_{p}")(mp, mt, labels, m), peer,
                           repeat=1)
        if slow and out[title][1][1] is not None:
            out[title][1] = (out[title][1][0], out[title][1][1] * mp.shape[0] / tenth,
                             "timed on 1/10 of the samples, scaled linearly (a lower bound)")
    return out


def main() -> None:
    torch.set_num_threads(1)
    scale = float(os.environ.get("BENCH_BREADTH_SCALE", "1"))
    print(f"## AUROC-family breadth ({header()}, sizes x{scale:g})\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = _cases(scale)
    print_tables([table(title, rows, ours=OURS) for title, rows in cases.items()])
    ratios = []
    for title, rows in cases.items():
        ours = rows[0][1]
        peers = [t for _, t, _ in rows[1:] if t is not None]
        if ours and peers:
            ratios.append(f"| {title} | {min(peers) / ours:.2f}x |")
        elif any(note.startswith("fails") for _, _, note in rows[1:]):
            ratios.append(f"| {title} | every peer fails |")
    print("| metric | the faster peer's time / ours |\n|---|---:|\n" + "\n".join(ratios))


if __name__ == "__main__":
    main()
