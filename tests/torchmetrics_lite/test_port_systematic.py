"""The systematic port test (issue 21, "Done when"): every public name we share with torchmetrics 1.9
(classification, the AUROC family, retrieval, regression, calibration, aggregation; functions and classes) is run
on the input kinds torchmetrics' own tests use (binary / multiclass / multilabel; probabilities, logits, labels;
1-D and ``(N, ...)`` multidim; ``ignore_index``; every ``average``; streamed batches for the classes) through the
installed torchmetrics and through us. Each case must end in one of:

* ``equal``: the same value (and shape) within 1e-5;
* ``port edit``: we raise a ``ValueError`` / ``TypeError`` whose message is one of the three documented port edits
  (``from_logits=True`` for logits, ``num_outputs=``/``multioutput=`` for ``(N, d)`` regression, ``k=`` for
  ``top_k``: ``PORT_EDITS``);
* ``documented``: a difference (a value, or a clear error) listed in ``DOCUMENTED`` / ``DOCUMENTED_ERRORS`` below,
  each naming its row of the porting page (``docs/torchmetrics.md``, "Every difference"; a test checks the rows are
  there).

A different number that is not documented, any other error, or any other exception, fails. Every function name
both libraries export must be covered here or name the test file that ports it (``ELSEWHERE``): a new shared name
fails ``test_every_shared_name_is_covered`` with its name. Cases torchmetrics itself rejects are
not comparisons and are not counted. Run with ``-s`` to print the counts. (DDP is covered by the families'
distributed tests; this module stays single-process and small.)
"""
import collections
import math
import pathlib
import warnings
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest
import torch

import torchmetrics_lite as ours
import torchmetrics_lite.functional as ours_f

tm = pytest.importorskip("torchmetrics")
import torchmetrics.functional as tm_f  # noqa: E402
import torchmetrics.functional.classification as tm_fc  # noqa: E402

G = torch.Generator().manual_seed(2021)
N, C, H = 24, 3, 4
COUNTS: Dict[str, int] = collections.Counter()

# README rows ("Coming from torchmetrics") that explain a documented difference, by key
DOCUMENTED = {
    "roc_first_threshold": "ROC starts at threshold 1.0; a missing class has rate 0",
    "retrieval_non_positive": "retrieval (MAP, MRR, P@k, R@k...) makes every item scored `<= 0` non-relevant",
    "retrieval_2d": "retrieval functions given 2-D `preds`/`target` without `indexes` flatten them into ONE query",
    "retrieval_ties": "MAP/MRR/P@k on tied scores depend on the sort order",
    "float32_sigmoid": "binary/multilabel rank metrics and `RetrievalAUROC` take a float32 sigmoid",
    "missing_class_rank": "a class without positives (AUROC: or without negatives) is `nan` with a warning and left "
                          "out of the average, where torchmetrics counts it as 0 (and: ROC starts at threshold 1.0; "
                          "a missing class has rate 0)",
    "missing_class_mcc": "binary/multilabel MCC with one class in targets or predictions",
}
DOCUMENTED.update({
    "eer_interpolated": "`BinaryEER` and friends: `(fpr + fnr) / 2` at the curve point where they are closest",
    "eer_macro": "`multiclass_eer(average=\"macro\")`: the EER of the classes' mean ROC curve",
    "logauc_trapezoid": "`BinaryLogAUC` and friends: the trapezoid in `(log10 fpr, tpr)`",
    "eer_micro_binned_module": "`MulticlassEER(average=\"micro\", thresholds=...)` adds each batch's pooled",
})
# a clear error that is a documented row (not a port edit): a fragment of the message -> the row
DOCUMENTED_ERRORS: Dict[str, str] = {}
# the three port edits: a fragment of the message
PORT_EDITS = ("from_logits=True", "num_outputs=", "`multioutput`", "`k=`")
RANK = ("auroc", "average_precision", "roc", "precision_recall_curve", "at_fixed", "at_specificity",
        "at_sensitivity", "calibration", "eer", "logauc")


# ------------------------------------------------------------------------------------------------ inputs
def _binary_inputs() -> Dict[str, Tuple[torch.Tensor, torch.Tensor]]:
    target = torch.randint(0, 2, (N,), generator=G)
    target[:2] = torch.tensor([0, 1])
    probs = torch.rand(N, generator=G)
    md_target = torch.randint(0, 2, (N, H), generator=G)
    ignored = target.clone()
    ignored[::5] = -1
    return {"probs": (probs, target), "logits": (torch.randn(N, generator=G) * 3, target),
            "labels": (torch.randint(0, 2, (N,), generator=G), target),
            "multidim": (torch.rand(N, H, generator=G), md_target), "ignore_index": (probs, ignored),
            "missing_class": (probs, torch.zeros_like(target))}


def _multiclass_inputs() -> Dict[str, Tuple[torch.Tensor, torch.Tensor]]:
    target = torch.arange(N) % C
    target = target[torch.randperm(N, generator=G)]
    logits = torch.randn(N, C, generator=G) * 2
    ignored = target.clone()
    ignored[::5] = -1
    md_target = torch.randint(0, C, (N, H), generator=G)
    return {"probs": (logits.softmax(1), target), "logits": (logits, target),
            "labels": (torch.randint(0, C, (N,), generator=G), target),
            "multidim": (torch.randn(N, C, H, generator=G).softmax(1), md_target),
            "ignore_index": (logits.softmax(1), ignored), "missing_class": (logits.softmax(1), target % (C - 1))}


def _multilabel_inputs() -> Dict[str, Tuple[torch.Tensor, torch.Tensor]]:
    target = torch.randint(0, 2, (N, C), generator=G)
    target[:2] = torch.tensor([[0] * C, [1] * C])
    probs = torch.rand(N, C, generator=G)
    ignored = target.clone()
    ignored[torch.rand(N, C, generator=G) < 0.2] = -1
    return {"probs": (probs, target), "logits": (torch.randn(N, C, generator=G) * 3, target),
            "labels": (torch.randint(0, 2, (N, C), generator=G), target),
            "multidim": (torch.rand(N, C, H, generator=G), torch.randint(0, 2, (N, C, H), generator=G)),
            "ignore_index": (probs, ignored),
            "missing_class": (probs, torch.cat([target[:, :-1], torch.zeros_like(target[:, -1:])], 1))}


INPUTS = {"binary": _binary_inputs(), "multiclass": _multiclass_inputs(), "multilabel": _multilabel_inputs()}


# --------------------------------------------------------------------------------------------- the specs
class Spec:
    """One shared name: its task, the arguments both take (by name), and the option grid."""

    def __init__(self, name: str, task: str, args: Dict[str, Any], grid: List[Dict[str, Any]],
                 kinds: Tuple[str, ...] = ("probs", "logits", "labels", "multidim", "ignore_index"),
                 documented: Optional[str] = None, ours_kwargs: Optional[Callable[[Dict[str, Any]],
                                                                                  Dict[str, Any]]] = None) -> None:
        self.name, self.task, self.args, self.grid, self.kinds = name, task, args, grid, kinds
        self.documented, self.ours_kwargs = documented, ours_kwargs or (lambda kw: kw)


def _averages(task: str) -> List[Dict[str, Any]]:
    return [{"average": a} for a in ("micro", "macro", "weighted", "none")] if task != "binary" else [{}]


def _classification_specs() -> List[Spec]:
    specs = []
    scores = ["accuracy", "precision", "recall", "f1_score", "specificity", "stat_scores", "jaccard_index"]
    for task in ("binary", "multiclass", "multilabel"):
        size = {} if task == "binary" else {"num_classes" if task == "multiclass" else "num_labels": C}
        for score in scores:
            grid = _averages(task)
            if score == "jaccard_index" and task == "binary":
                grid = [{}]
            grid = grid + [dict(g, ignore_index=-1) for g in grid[:1]]
            if task == "multiclass" and score != "jaccard_index":
                grid = grid + [{"average": "micro", "top_k": 2}]
            specs.append(Spec(f"{task}_{score}", task, size, grid))
        specs.append(Spec(f"{task}_fbeta_score", task, dict(size, beta=2.0), [{}]))
        specs.append(Spec(f"{task}_confusion_matrix", task, size, [{}, {"normalize": "true"}]))
        specs.append(Spec(f"{task}_matthews_corrcoef", task, size, [{}], kinds=("probs", "labels")))
    for task in ("binary", "multiclass", "multilabel"):
        size = {} if task == "binary" else {"num_classes" if task == "multiclass" else "num_labels": C}
        grid = _averages(task)[:2] if task != "binary" else [{}]
        specs.append(Spec(f"{task}_negative_predictive_value", task, size, grid + [dict(grid[0], ignore_index=-1)]))
        if task != "multilabel":
            specs.append(Spec(f"{task}_hamming_distance", task, size, grid))
        samplewise = [dict(g, multidim_average="samplewise") for g in grid]  # (N, ...) input only
        for score in ("accuracy", "precision", "recall", "f1_score", "specificity", "stat_scores",
                      "negative_predictive_value", "hamming_distance", "exact_match"):
            if score == "exact_match" and task == "binary":
                continue
            specs.append(Spec(f"{task}_{score}", task, size, samplewise if score != "exact_match" else
                              [{"multidim_average": "samplewise"}], kinds=("multidim",)))
    specs.append(Spec("multiclass_exact_match", "multiclass", {"num_classes": C}, [{}, {"ignore_index": -1}],
                      kinds=("multidim",)))
    specs += [Spec(f"{t}_cohen_kappa", t, s, [{}, {"weights": "linear"}], kinds=("probs", "labels"))
              for t, s in (("binary", {}), ("multiclass", {"num_classes": C}))]
    specs.append(Spec("multilabel_hamming_distance", "multilabel", {"num_labels": C}, _averages("multilabel")))
    specs.append(Spec("multilabel_exact_match", "multilabel", {"num_labels": C}, [{}]))
    return specs


EER_KINDS = ("probs", "logits", "multidim", "ignore_index")


def _rank_specs() -> List[Spec]:
    specs = []
    for task in ("binary", "multiclass", "multilabel"):
        size = {} if task == "binary" else {"num_classes" if task == "multiclass" else "num_labels": C}
        averages = [{}] if task == "binary" else [{"average": a} for a in ("macro", "weighted", "none")] + \
            ([{"average": "micro"}] if task == "multilabel" else [])
        for name in ("auroc", "average_precision"):
            grid = averages + [{"thresholds": 7}, {"thresholds": [0.1, 0.4, 0.8]}, {"ignore_index": -1},
                               {"thresholds": torch.linspace(0, 1, 6)}, {"thresholds": None}]
            if task == "binary" and name == "auroc":
                grid.append({"max_fpr": 0.5})
            specs.append(Spec(f"{task}_{name}", task, size, grid,
                              kinds=("probs", "logits", "labels", "multidim", "ignore_index")))
        for name in ("roc", "precision_recall_curve"):
            specs.append(Spec(f"{task}_{name}", task, size, [{}, {"thresholds": 5}, {"thresholds": [0.2, 0.5, 0.7]},
                                                              {"thresholds": torch.tensor([0.0, 0.5, 1.0])}],
                              kinds=("probs", "multidim", "ignore_index"),
                              documented="roc_first_threshold" if name == "roc" else None))
    for task in ("binary", "multiclass", "multilabel"):
        size = {} if task == "binary" else {"num_classes" if task == "multiclass" else "num_labels": C}
        for name, arg in (("recall_at_fixed_precision", "min_precision"),
                          ("precision_at_fixed_recall", "min_recall"),
                          ("sensitivity_at_specificity", "min_specificity"),
                          ("specificity_at_sensitivity", "min_sensitivity")):
            specs.append(Spec(f"{task}_{name}", task, dict(size, **{arg: 0.5}),
                              [{}, {"thresholds": 5}, {"thresholds": [0.2, 0.5, 0.7]}],
                              kinds=EER_KINDS))
        binned = [{"thresholds": 5}, {"thresholds": [0.1, 0.4, 0.8]}, {"thresholds": torch.linspace(0, 1, 6)}]
        eer_avg = [{"average": a} for a in (None, "micro")] if task == "multiclass" else [{}]
        specs.append(Spec(f"{task}_eer", task, size, [dict(a, **b) for a in eer_avg for b in binned],
                          kinds=EER_KINDS))
        specs.append(Spec(f"{task}_eer", task, size, eer_avg + [{"thresholds": None}],
                          kinds=EER_KINDS, documented="eer_interpolated"))
        if task == "multiclass":
            specs.append(Spec("multiclass_eer", task, size, [dict(average="macro", **b) for b in binned],
                              kinds=EER_KINDS))
            specs.append(Spec("multiclass_eer", task, size, [{"average": "macro"}], kinds=("probs",),
                              documented="eer_macro"))
        log_avg = [{}] if task == "binary" else [{"average": "macro"}, {"average": None}]
        specs.append(Spec(f"{task}_logauc", task, size, [dict(a, **b) for a in log_avg for b in [{}] + binned],
                          kinds=EER_KINDS, documented="logauc_trapezoid"))
    specs.append(Spec("binary_calibration_error", "binary", {}, [{}, {"norm": "max"}, {"n_bins": 5}],
                      kinds=("probs", "logits")))
    specs.append(Spec("multiclass_calibration_error", "multiclass", {"num_classes": C}, [{}, {"norm": "l2"}],
                      kinds=("probs", "logits")))
    return specs


CLASS_NAMES = {"accuracy": "Accuracy", "precision": "Precision", "recall": "Recall", "f1_score": "F1Score",
               "specificity": "Specificity", "stat_scores": "StatScores", "jaccard_index": "JaccardIndex",
               "fbeta_score": "FBetaScore", "confusion_matrix": "ConfusionMatrix",
               "matthews_corrcoef": "MatthewsCorrCoef", "cohen_kappa": "CohenKappa",
               "hamming_distance": "HammingDistance", "exact_match": "ExactMatch", "auroc": "AUROC",
               "average_precision": "AveragePrecision", "roc": "ROC",
               "precision_recall_curve": "PrecisionRecallCurve",
               "recall_at_fixed_precision": "RecallAtFixedPrecision",
               "precision_at_fixed_recall": "PrecisionAtFixedRecall",
               "sensitivity_at_specificity": "SensitivityAtSpecificity",
               "specificity_at_sensitivity": "SpecificityAtSensitivity", "calibration_error": "CalibrationError",
               "negative_predictive_value": "NegativePredictiveValue", "eer": "EER", "logauc": "LogAUC"}


def _class_name(fn_name: str) -> str:
    task, rest = fn_name.split("_", 1)
    return task.capitalize() + CLASS_NAMES[rest]


def _tm_class(name: str) -> Any:
    import torchmetrics.classification as tmc

    return getattr(tmc, name)


# ------------------------------------------------------------------------------------------- comparing
def _flatten(value: Any) -> List[torch.Tensor]:
    if isinstance(value, dict):
        return [t for k in sorted(value) for t in _flatten(value[k])]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _flatten(v)]
    return [torch.as_tensor(value)]


def _same(a: Any, b: Any) -> bool:
    fa, fb = _flatten(a), _flatten(b)
    if len(fa) != len(fb):
        return False
    for x, y in zip(fa, fb):
        if x.shape != y.shape:
            return False
        if not torch.allclose(x.double(), y.double(), atol=1e-5, rtol=1e-5, equal_nan=True):
            return False
    return True


def _roc_same_but_first_threshold(theirs: Any, mine: Any) -> bool:
    """Our ROC's first threshold is inf where torchmetrics' is 1.0; everything else equal."""
    t_fpr, t_tpr, t_thr = theirs
    m_fpr, m_tpr, m_thr = mine
    if isinstance(t_fpr, list):
        return all(_roc_same_but_first_threshold(x, y) for x, y in zip(zip(t_fpr, t_tpr, t_thr),
                                                                        zip(m_fpr, m_tpr, m_thr)))
    return _same((t_fpr, t_tpr), (m_fpr, m_tpr)) and _same(t_thr[1:], m_thr[1:])


def _error_outcome(spec: Spec, message: str) -> str:
    if any(edit in message for edit in PORT_EDITS):
        return "port edit"
    if any(fragment in message for fragment in DOCUMENTED_ERRORS):
        return "documented"
    raise AssertionError(f"{spec.name}: an error that is neither a port edit nor a documented row: {message}")


def _outcome(spec: Spec, theirs_call: Callable[[], Any], ours_call: Callable[[], Any],
             edited: Optional[Callable[[], Any]] = None) -> str:
    """``edited``: our call with the ``from_logits=True`` port edit applied; when the error names that edit, the
    edited call must then give torchmetrics' number (or a documented row)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            theirs = theirs_call()
        except Exception:  # noqa: BLE001 - torchmetrics rejects the case: no comparison
            return "torchmetrics rejects"
        try:
            mine = ours_call()
        except (ValueError, TypeError) as err:
            outcome = _error_outcome(spec, str(err))
            if outcome != "port edit" or edited is None or "from_logits=True" not in str(err):
                return outcome
            try:
                mine = edited()
            except (ValueError, TypeError) as again:
                assert _error_outcome(spec, str(again)) == "documented", (spec.name, str(again))
                return outcome
            COUNTS["port edit, then compared"] += 1
            return outcome if _compared(spec, theirs, mine) else "unreachable"
    return "equal" if _same(theirs, mine) else "documented" if _compared(spec, theirs, mine) else "unreachable"


def _compared(spec: Spec, theirs: Any, mine: Any) -> bool:
    """True when equal or a documented difference; a silent difference fails."""
    if _same(theirs, mine):
        return True
    if spec.documented == "roc_first_threshold" and _roc_same_but_first_threshold(theirs, mine):
        return True
    if spec.documented is not None and spec.documented != "roc_first_threshold":
        return True
    raise AssertionError(f"{spec.name}: a silently different number:\n torchmetrics {theirs}\n ours {mine}")


def _for_kind(spec: Spec, kind: str) -> Spec:
    """A class absent from the targets: rank metrics and MCC differ there on purpose (README rows); binary and
    multilabel logits: torchmetrics' operating points report thresholds of its float32 sigmoid (a README row)."""
    if kind == "logits" and spec.task != "multiclass" and any(r in spec.name for r in ("at_", "eer")):
        return Spec(spec.name, spec.task, spec.args, spec.grid, spec.kinds, "float32_sigmoid", spec.ours_kwargs)
    if kind != "missing_class":
        return spec
    key = "missing_class_rank" if any(r in spec.name for r in RANK) else \
        "missing_class_mcc" if "matthews" in spec.name else None
    return spec if key is None else Spec(spec.name, spec.task, spec.args, spec.grid, spec.kinds, key,
                                         spec.ours_kwargs)


def _run_spec(spec: Spec) -> None:
    for kind in spec.kinds + ("missing_class",):
        spec_kind = _for_kind(spec, kind)
        preds, target = INPUTS[spec.task][kind]
        for options in spec.grid:
            if kind == "ignore_index" and "ignore_index" not in options:
                options = dict(options, ignore_index=-1)
            kwargs = dict(spec.args, **options)
            fn_t, fn_o = getattr(tm_fc, spec.name), getattr(ours_f, spec.name)
            logits = kind == "logits"
            edited = dict(spec.ours_kwargs(kwargs), from_logits=True)
            COUNTS[_outcome(spec_kind, lambda: fn_t(preds, target, **kwargs),
                            lambda: fn_o(preds, target, **spec.ours_kwargs(kwargs)),
                            (lambda: fn_o(preds, target, **edited)) if logits else None)] += 1
            cls = _class_name(spec.name)
            half = preds.shape[0] // 2

            def streamed(make: Callable[..., Any], kw: Dict[str, Any]) -> Any:
                metric = make(**kw)
                metric.update(preds[:half], target[:half])
                metric.update(preds[half:], target[half:])
                return metric.compute()

            spec_module = spec_kind
            if spec.name == "multiclass_eer" and kwargs.get("average") == "micro" and \
                    kwargs.get("thresholds") is not None:  # torchmetrics' module adds (T, 2, 2) to (T, C, 2, 2)
                spec_module = Spec(spec.name, spec.task, spec.args, spec.grid, spec.kinds, "eer_micro_binned_module")
            COUNTS[_outcome(spec_module, lambda: streamed(_tm_class(cls), kwargs),
                            lambda: streamed(getattr(ours, cls), spec.ours_kwargs(kwargs)),
                            (lambda: streamed(getattr(ours, cls), edited)) if logits else None)] += 1


SPECS = _classification_specs() + _rank_specs()
SPEC_IDS = [f"{s.name}-{i}" for i, s in enumerate(SPECS)]


@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_classification_and_rank_names(spec):
    _run_spec(spec)


# --------------------------------------------------------------------------------------------- retrieval
RETRIEVAL = {"retrieval_average_precision": "RetrievalMAP", "retrieval_reciprocal_rank": "RetrievalMRR",
             "retrieval_precision": "RetrievalPrecision", "retrieval_recall": "RetrievalRecall",
             "retrieval_hit_rate": "RetrievalHitRate", "retrieval_normalized_dcg": "RetrievalNormalizedDCG",
             "retrieval_r_precision": "RetrievalRPrecision", "retrieval_fall_out": "RetrievalFallOut",
             "retrieval_auroc": "RetrievalAUROC"}


def _retrieval_ours(name: str, kw: Dict[str, Any]) -> Dict[str, Any]:
    """torchmetrics' arguments as ours: ``top_k`` is ``k`` (AP@k with torchmetrics' divisor), the empty rule."""
    out = dict(kw)
    if "top_k" in out:
        out["k"] = out.pop("top_k")
        if name in ("retrieval_average_precision", "RetrievalMAP"):
            out["normalize"] = "retrieved"
    if "empty_target_action" in out:
        out["empty"] = {"neg": "zero", "pos": "one", "skip": "skip"}[out.pop("empty_target_action")]
    return out


def _retrieval_data(kind: str) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    idx = torch.arange(30) // 6
    target = (torch.rand(30, generator=G) < 0.4).long()
    target[idx == 4] = 0  # one query without a relevant item
    preds = (torch.randperm(30, generator=G).double() + 1) / 31
    if kind == "ties":
        preds = (preds * 3).round() / 3 + 0.1
    if kind == "non_positive":
        preds = preds - 0.5
    return preds, target, idx


@pytest.mark.parametrize("name", list(RETRIEVAL))
def test_retrieval_names(name):
    grids = [{}, {"top_k": 2}, {"top_k": 10}]
    if name == "retrieval_precision":
        grids += [{"top_k": 10, "adaptive_k": True}]
    for kind in ("distinct", "ties", "non_positive"):
        preds, target, idx = _retrieval_data(kind)
        documented = {"ties": "retrieval_ties", "non_positive": "retrieval_non_positive"}.get(kind)
        if name == "retrieval_auroc" and kind == "non_positive":
            documented = "float32_sigmoid"
        spec = Spec(name, "retrieval", {}, [], documented=documented)
        for kw in grids:
            if name in ("retrieval_r_precision",) and kw:
                continue
            one = idx == 0
            COUNTS[_outcome(spec, lambda: getattr(tm_f, name)(preds[one], target[one], **kw),
                            lambda: getattr(ours_f, name)(preds[one], target[one], **_retrieval_ours(name, kw)))] += 1
            cls = RETRIEVAL[name]
            for empty in ("neg", "skip"):
                full = dict(kw, empty_target_action=empty)

                def streamed(make: Callable[..., Any], k: Dict[str, Any]) -> Any:
                    m = make(**k)
                    m.update(preds[:12], target[:12], indexes=idx[:12])
                    m.update(preds[12:], target[12:], indexes=idx[12:])
                    return m.compute()

                import torchmetrics.retrieval as tmr

                COUNTS[_outcome(spec, lambda: streamed(getattr(tmr, cls), full),
                                lambda: streamed(getattr(ours, cls), _retrieval_ours(cls, full)))] += 1
    two_d = Spec(name, "retrieval", {}, [], documented="retrieval_2d")
    preds, target, _ = _retrieval_data("distinct")
    COUNTS[_outcome(two_d, lambda: getattr(tm_f, name)(preds.view(5, 6), target.view(5, 6)),
                    lambda: getattr(ours_f, name)(preds.view(5, 6), target.view(5, 6)))] += 1


# ---------------------------------------------------------------------------------- regression, aggregation
REGRESSION = {"mean_squared_error": "MeanSquaredError", "mean_absolute_error": "MeanAbsoluteError",
              "mean_absolute_percentage_error": "MeanAbsolutePercentageError", "r2_score": "R2Score",
              "explained_variance": "ExplainedVariance"}


@pytest.mark.parametrize("name", list(REGRESSION))
def test_regression_names(name):
    spec = Spec(name, "regression", {}, [])
    one = (torch.randn(N, generator=G), torch.randn(N, generator=G))
    multi = (torch.randn(N, 3, generator=G), torch.randn(N, 3, generator=G))
    fn_grid = [({}, one), ({}, multi)]
    if name == "mean_squared_error":
        fn_grid += [({"squared": False}, one), ({"squared": False}, multi)]
    if name in ("r2_score", "explained_variance"):
        fn_grid += [({"multioutput": "raw_values"}, multi), ({"multioutput": "variance_weighted"}, multi)]
    for kw, (p, t) in fn_grid:
        COUNTS[_outcome(spec, lambda: getattr(tm_f, name)(p, t, **kw), lambda: getattr(ours_f, name)(p, t, **kw))] += 1
    cls = REGRESSION[name]
    mod_grid = [({}, one), ({}, multi)]
    if name in ("mean_squared_error", "mean_absolute_error"):
        mod_grid += [({"num_outputs": 3}, multi)]
    if name in ("r2_score",):
        mod_grid += [({"multioutput": "raw_values"}, multi)]
    for kw, (p, t) in mod_grid:
        def streamed(make: Callable[..., Any]) -> Any:
            m = make(**kw)
            m.update(p[:10], t[:10])
            m.update(p[10:], t[10:])
            return m.compute()

        import torchmetrics.regression as tmreg

        COUNTS[_outcome(spec, lambda: streamed(getattr(tmreg, cls)), lambda: streamed(getattr(ours, cls)))] += 1


@pytest.mark.parametrize("name", ["SumMetric", "MeanMetric", "MaxMetric", "MinMetric"])
def test_aggregation_names(name):
    spec = Spec(name, "aggregation", {}, [])
    values = [torch.randn(5, generator=G), torch.tensor(2.5), torch.randn(2, 3, generator=G)]
    for batches in (values[:1], values):
        def streamed(lib: Any) -> Any:
            m = getattr(lib, name)()
            for v in batches:
                m.update(v)
            return m.compute()

        COUNTS[_outcome(spec, lambda: streamed(tm), lambda: streamed(ours))] += 1
    if name == "MeanMetric":
        def weighted(lib: Any) -> Any:
            m = lib.MeanMetric()
            m.update(torch.tensor([1.0, 2.0, 4.0]), torch.tensor([1.0, 0.5, 2.0]))
            return m.compute()

        COUNTS[_outcome(spec, lambda: weighted(tm), lambda: weighted(ours))] += 1


# shared function names ported by another test file (not by the option grids above), with that file
ELSEWHERE = {
    **{name: "test_port_surface.py (the task-level dispatch to the names above)"
       for name in ("accuracy", "auroc", "average_precision", "calibration_error", "cohen_kappa", "confusion_matrix",
                    "eer", "exact_match", "f1_score", "fbeta_score", "hamming_distance", "hinge_loss",
                    "jaccard_index", "logauc", "matthews_corrcoef", "negative_predictive_value", "precision",
                    "precision_at_fixed_recall", "precision_recall_curve", "recall", "recall_at_fixed_precision",
                    "roc", "sensitivity_at_specificity", "specificity", "specificity_at_sensitivity",
                    "stat_scores")},
    "binary_fairness": "classification/test_classification_port.py", "binary_groups_stat_rates":
        "classification/test_classification_port.py",
    "binary_hinge_loss": "classification/test_classification_port.py",
    "multiclass_hinge_loss": "classification/test_classification_port.py",
    "multilabel_coverage_error": "auroc/test_multilabel_ranking.py",
    "multilabel_ranking_average_precision": "auroc/test_multilabel_ranking.py",
    "multilabel_ranking_loss": "auroc/test_multilabel_ranking.py",
    "retrieval_precision_recall_curve": "retrieval/test_retrieval_curves.py",
    **{name: "regression/test_correlation.py" for name in ("pearson_corrcoef", "spearman_corrcoef",
                                                            "kendall_rank_corrcoef", "concordance_corrcoef")},
    **{name: "regression/test_regression_measures.py" for name in (
        "cosine_similarity", "critical_success_index", "kl_divergence", "log_cosh_error", "mean_squared_log_error",
        "minkowski_distance", "normalized_root_mean_squared_error", "relative_squared_error",
        "symmetric_mean_absolute_percentage_error", "tweedie_deviance_score",
        "weighted_mean_absolute_percentage_error", "jensen_shannon_divergence", "continuous_ranked_probability_score")},
    **{name: "classification/test_fairness_functions.py" for name in ("demographic_parity", "equal_opportunity")},
}


def _shared_function_names() -> List[str]:
    names = set(getattr(tm_f, "__all__", [])) | set(getattr(tm_fc, "__all__", []))
    return sorted(n for n in names if hasattr(ours_f, n))


def test_every_shared_name_is_covered():
    """Every function both libraries export is run here or names the file that ports it: a name added to either
    library fails here with its name until its inputs are known (no silent skip)."""
    covered = {s.name for s in SPECS} | set(RETRIEVAL) | set(REGRESSION) | set(ELSEWHERE)
    missing = [n for n in _shared_function_names() if n not in covered]
    assert not missing, f"shared with torchmetrics but not in the systematic port test (add a Spec, or an ELSEWHERE " \
                        f"entry naming the test that ports it): {missing}"
    assert len(_shared_function_names()) >= 120
    here = pathlib.Path(__file__).parent  # the files ELSEWHERE names exist (a renamed test file renames its rows)
    assert [f for f in set(ELSEWHERE.values()) if not (here / f.split(" ")[0]).is_file()] == []


def test_every_documented_key_is_a_row_of_the_porting_page():
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "torchmetrics.md").read_text()
    for row in [*DOCUMENTED.values(), *DOCUMENTED_ERRORS.values()]:
        assert row.split(" (and")[0] in page, f"not a row of docs/torchmetrics.md: {row}"


def test_zz_counts(capsys):
    """Runs last (file order): prints the counts of the whole module; every comparison above ended in one of the
    three allowed outcomes."""
    with capsys.disabled():
        print("\nport-systematic outcomes:", dict(COUNTS))
    if COUNTS:  # the module ran as a whole
        assert COUNTS["equal"] > 0
        assert set(COUNTS) <= {"equal", "port edit", "documented", "torchmetrics rejects", "port edit, then compared"}
        assert not math.isnan(COUNTS["equal"])
