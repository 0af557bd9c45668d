"""torchmetrics' task-level constructors (``Accuracy(task="multiclass", num_classes=3)``): thin factories that
return the task's own class, as torchmetrics does (``isinstance(m, MulticlassAccuracy)`` holds).

This is the only place that reads a task string: the metrics themselves are separate Binary*, Multiclass* and
Multilabel* classes. One table, :data:`TASKS`, says for each factory its arguments (torchmetrics' names, order and
defaults) and, per task, the class it builds and which arguments it passes on, as torchmetrics does (an argument
the task does not use, such as ``num_classes`` for ``task="binary"``, is ignored there as in torchmetrics).
An argument the task class does not take (``thresholds=``, ``multidim_average=``, ``ignore_index=`` on rank
metrics) is passed on only when it differs from torchmetrics' default; the task class then raises the
``TypeError`` that says what to write instead. Any other keyword goes to the task class unchanged
(``from_logits=True``, ``weighted=True``...). :mod:`torchmetrics_lite.functional.tasks` builds the functional
forms (``accuracy(preds, target, task="binary")``) from the same table.

Examples:
    >>> m = Accuracy(task="multiclass", num_classes=3)
    >>> type(m).__name__, m.average  # torchmetrics' task-level default is "micro" (its MulticlassAccuracy's "macro")
    ('MulticlassAccuracy', 'micro')
"""
from __future__ import annotations

import difflib
import importlib
import inspect
from typing import Any, Callable, Dict, NamedTuple, Tuple

from torchmetrics_lite._compat import init_info

__all__ = [
    "AUROC", "Accuracy", "AveragePrecision", "CalibrationError", "CohenKappa", "ConfusionMatrix", "EER", "ExactMatch",
    "F1Score", "FBetaScore", "HammingDistance", "HingeLoss", "JaccardIndex", "LogAUC", "MatthewsCorrCoef",
    "NegativePredictiveValue", "Precision", "PrecisionAtFixedRecall", "PrecisionRecallCurve", "ROC", "Recall",
    "RecallAtFixedPrecision", "SensitivityAtSpecificity", "Specificity", "SpecificityAtSensitivity", "StatScores",
]

REQUIRED = inspect.Parameter.empty


class Task(NamedTuple):
    """One task of a factory: the class (and function) it builds and the factory arguments it passes on."""

    cls: str  # the class name, exported by torchmetrics_lite (the function is its snake_case name)
    args: Tuple[str, ...]


class Spec(NamedTuple):
    """A factory: its arguments after ``task`` (name, default; REQUIRED for none) and its tasks."""

    params: Tuple[Tuple[str, Any], ...]
    tasks: Dict[str, Task]
    function_params: Tuple[Tuple[str, Any], ...] = ()  # the functional form's, when they differ


def _stat_scores(extra: Tuple[Tuple[str, Any], ...] = (), first: Tuple[Tuple[str, Any], ...] = (),
                 average: str = "micro", multidim: bool = True, top_k: bool = True) -> Spec:
    """The stat-score family's factories (their arguments and tasks follow one pattern in torchmetrics)."""
    lead = tuple(name for name, _ in first)
    common = (*(("multidim_average",) if multidim else ()), "ignore_index", "validate_args", *(n for n, _ in extra))
    params = (*first, ("threshold", 0.5), ("num_classes", None), ("num_labels", None), ("average", average),
              *((("multidim_average", "global"),) if multidim else ()), *((("top_k", 1),) if top_k else ()),
              ("ignore_index", None), ("validate_args", True), *extra)
    return Spec(params, {
        "binary": Task("Binary", (*lead, "threshold", *common)),
        "multiclass": Task("Multiclass", (*lead, "num_classes", *(("top_k",) if top_k else ()), "average", *common)),
        "multilabel": Task("Multilabel", (*lead, "num_labels", "threshold", "average", *common)),
    })


def _rank(average: bool = True, max_fpr: bool = False, function_average: Any = "macro") -> Spec:
    """AUROC, average precision and the curves: ``thresholds=`` first, ``average`` for multiclass/multilabel."""
    avg = (("average", "macro"),) if average else ()
    fpr = (("max_fpr", None),) if max_fpr else ()
    params = (("thresholds", None), ("num_classes", None), ("num_labels", None), *avg, *fpr,
              ("ignore_index", None), ("validate_args", True))
    function_params = (("thresholds", None), ("num_classes", None), ("num_labels", None),
                       *((("average", function_average),) if function_average != "macro" or average else ()),
                       *fpr, ("ignore_index", None), ("validate_args", True))
    rest = ("thresholds", "ignore_index", "validate_args")
    averaged = ("average",) if average or function_average != "macro" else ()  # the curves' functional forms
    return Spec(params, {
        "binary": Task("Binary", (*(n for n, _ in fpr), *rest)),
        "multiclass": Task("Multiclass", ("num_classes", *averaged, *rest)),
        "multilabel": Task("Multilabel", ("num_labels", *averaged, *rest)),
    }, function_params)


def _operating_point(minimum: str) -> Spec:
    params = ((minimum, REQUIRED), ("thresholds", None), ("num_classes", None), ("num_labels", None),
              ("ignore_index", None), ("validate_args", True))
    rest = (minimum, "thresholds", "ignore_index", "validate_args")
    return Spec(params, {"binary": Task("Binary", rest), "multiclass": Task("Multiclass", ("num_classes", *rest)),
                         "multilabel": Task("Multilabel", ("num_labels", *rest))})


def _function_zero_division(spec: Spec, default: float) -> Spec:
    """torchmetrics' functional form also takes ``zero_division`` (last); its class takes it through ``**kwargs``."""
    tasks = {t: task._replace(args=(*task.args, "zero_division")) for t, task in spec.tasks.items()}
    return spec._replace(tasks=tasks, function_params=(*spec.params, ("zero_division", default)))


def _first(spec: Spec, task: str) -> Spec:
    """The spec with ``task`` listed first (the docstring's example uses the first task)."""
    return spec._replace(tasks={task: spec.tasks[task], **spec.tasks})


def _named(spec: Spec, name: str) -> Spec:
    """The spec with each task's class named ``<Task prefix><name>``."""
    return spec._replace(tasks={t: task._replace(cls=task.cls + name) for t, task in spec.tasks.items()})


_ZERO_DIVISION = (("zero_division", 0),)
_AGREEMENT = (("threshold", 0.5), ("num_classes", None))

#: factory name -> Spec. The order of ``params`` is torchmetrics' (positional calls bind the same way).
TASKS: Dict[str, Spec] = {
    "Accuracy": _named(_stat_scores(), "Accuracy"),
    "Precision": _named(_function_zero_division(_stat_scores(), 0), "Precision"),
    "Recall": _named(_function_zero_division(_stat_scores(), 0), "Recall"),
    "Specificity": _named(_stat_scores(), "Specificity"),
    "StatScores": _named(_stat_scores(), "StatScores"),
    "HammingDistance": _named(_first(_stat_scores(), "multilabel"), "HammingDistance"),
    "F1Score": _named(_stat_scores(_ZERO_DIVISION), "F1Score"),
    "FBetaScore": _named(_stat_scores(_ZERO_DIVISION, first=(("beta", 1.0),)), "FBetaScore"),
    "JaccardIndex": _named(_function_zero_division(_stat_scores(average="macro", multidim=False, top_k=False), 0.0),
                           "JaccardIndex"),
    "ExactMatch": Spec(
        (("threshold", 0.5), ("num_classes", None), ("num_labels", None), ("multidim_average", "global"),
         ("ignore_index", None), ("validate_args", True)),
        {"multilabel": Task("MultilabelExactMatch", ("num_labels", "threshold", "multidim_average", "ignore_index",
                                                     "validate_args")),
         "multiclass": Task("MulticlassExactMatch", ("num_classes", "multidim_average", "ignore_index",
                                                     "validate_args"))},
        (("num_classes", None), ("num_labels", None), ("threshold", 0.5), ("multidim_average", "global"),
         ("ignore_index", None), ("validate_args", True))),
    "ConfusionMatrix": Spec(
        (("threshold", 0.5), ("num_classes", None), ("num_labels", None), ("normalize", None),
         ("ignore_index", None), ("validate_args", True)),
        {"binary": Task("BinaryConfusionMatrix", ("threshold", "normalize", "ignore_index", "validate_args")),
         "multiclass": Task("MulticlassConfusionMatrix", ("num_classes", "normalize", "ignore_index",
                                                          "validate_args")),
         "multilabel": Task("MultilabelConfusionMatrix", ("num_labels", "threshold", "normalize", "ignore_index",
                                                          "validate_args"))}),
    "MatthewsCorrCoef": Spec(
        (*_AGREEMENT, ("num_labels", None), ("ignore_index", None), ("validate_args", True)),
        {"binary": Task("BinaryMatthewsCorrCoef", ("threshold", "ignore_index", "validate_args")),
         "multiclass": Task("MulticlassMatthewsCorrCoef", ("num_classes", "ignore_index", "validate_args")),
         "multilabel": Task("MultilabelMatthewsCorrCoef", ("num_labels", "threshold", "ignore_index",
                                                           "validate_args"))}),
    "CohenKappa": Spec(
        (*_AGREEMENT, ("weights", None), ("ignore_index", None), ("validate_args", True)),
        {"binary": Task("BinaryCohenKappa", ("threshold", "weights", "ignore_index", "validate_args")),
         "multiclass": Task("MulticlassCohenKappa", ("num_classes", "weights", "ignore_index", "validate_args"))}),
    "CalibrationError": Spec(
        (("n_bins", 15), ("norm", "l1"), ("num_classes", None), ("ignore_index", None), ("validate_args", True)),
        {"binary": Task("BinaryCalibrationError", ("n_bins", "norm", "ignore_index", "validate_args")),
         "multiclass": Task("MulticlassCalibrationError", ("num_classes", "n_bins", "norm", "ignore_index",
                                                           "validate_args"))}),
    "AUROC": _named(_rank(max_fpr=True), "AUROC"),
    "AveragePrecision": _named(_rank(), "AveragePrecision"),
    "ROC": _named(_rank(average=False, function_average=None), "ROC"),
    "PrecisionRecallCurve": _named(_rank(average=False, function_average=None), "PrecisionRecallCurve"),
    "RecallAtFixedPrecision": _named(_operating_point("min_precision"), "RecallAtFixedPrecision"),
    "PrecisionAtFixedRecall": _named(_operating_point("min_recall"), "PrecisionAtFixedRecall"),
    "SensitivityAtSpecificity": _named(_operating_point("min_specificity"), "SensitivityAtSpecificity"),
    "SpecificityAtSensitivity": _named(_operating_point("min_sensitivity"), "SpecificityAtSensitivity"),
    "NegativePredictiveValue": _named(_function_zero_division(_stat_scores(), 0), "NegativePredictiveValue"),
    "HingeLoss": Spec(
        (("num_classes", None), ("squared", False), ("multiclass_mode", "crammer-singer"), ("ignore_index", None),
         ("validate_args", True), ("from_logits", False), ("margins", False)),
        {"binary": Task("BinaryHingeLoss", ("squared", "ignore_index", "validate_args", "from_logits", "margins")),
         "multiclass": Task("MulticlassHingeLoss", ("num_classes", "squared", "multiclass_mode", "ignore_index",
                                                    "validate_args", "from_logits", "margins"))}),
    "EER": Spec(
        (("thresholds", None), ("num_classes", None), ("num_labels", None), ("average", None), ("ignore_index", None),
         ("validate_args", True)),
        {"binary": Task("BinaryEER", ("thresholds", "ignore_index", "validate_args")),
         "multiclass": Task("MulticlassEER", ("num_classes", "average", "thresholds", "ignore_index", "validate_args")),
         "multilabel": Task("MultilabelEER", ("num_labels", "thresholds", "ignore_index", "validate_args"))}),
    "LogAUC": Spec(
        (("thresholds", None), ("fpr_range", (0.001, 0.1)), ("num_classes", None), ("num_labels", None),
         ("ignore_index", None), ("validate_args", True)),
        {"binary": Task("BinaryLogAUC", ("thresholds", "fpr_range", "ignore_index", "validate_args")),
         "multiclass": Task("MulticlassLogAUC", ("num_classes", "thresholds", "fpr_range", "average",
                                                 "ignore_index", "validate_args")),  # average: the function's only
         "multilabel": Task("MultilabelLogAUC", ("num_labels", "thresholds", "fpr_range", "average", "ignore_index",
                                                 "validate_args"))},
        (("thresholds", None), ("num_classes", None), ("num_labels", None), ("fpr_range", (0.001, 0.1)),
         ("average", None), ("ignore_index", None), ("validate_args", True))),
}


def _exported(name: str) -> Any:
    """A public name of torchmetrics_lite (class) or torchmetrics_lite.functional (function), or None."""
    package = importlib.import_module("torchmetrics_lite.functional" if name[:1].islower() else "torchmetrics_lite")
    return getattr(package, name, None) if name in package.__all__ else None


def snake_case(name: str) -> str:
    """``MulticlassAUROC`` -> ``multiclass_auroc`` (torchmetrics' functional names).

    Examples:
        >>> snake_case("MultilabelFBetaScore"), snake_case("BinaryROC"), snake_case("MulticlassAUROC")
        ('multilabel_fbeta_score', 'binary_roc', 'multiclass_auroc')
        >>> snake_case("BinaryLogAUC"), snake_case("MulticlassEER")
        ('binary_logauc', 'multiclass_eer')
    """
    special = {"LogAUC": "Logauc", "EER": "Eer", "AUROC": "Auroc", "ROC": "Roc", "FBeta": "Fbeta", "F1": "F1",
               "CorrCoef": "Corrcoef"}
    for word, replacement in special.items():
        name = name.replace(word, replacement)
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")


def resolve(factory: str, spec: Spec, task: Any, bound: Dict[str, Any], function: bool = False
            ) -> Tuple[Callable[..., Any], Dict[str, Any]]:
    """The task class (or function) and the keyword arguments to call it with.

    Raises:
        ValueError: an unknown ``task``, a task this library has no class for, or a missing ``num_classes`` /
            ``num_labels`` (or a value that is not an int).
    """
    shown = factory if not function else snake_case(factory)
    if not isinstance(task, str) or task not in spec.tasks:
        close = difflib.get_close_matches(str(task), list(spec.tasks), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise ValueError(f"Expected `task` of {shown}() to be one of {tuple(spec.tasks)}, got {task!r}{hint}")
    entry = spec.tasks[task]
    name = snake_case(entry.cls) if function else entry.cls
    target = _exported(name)
    if target is None:
        have = [t for t, e in spec.tasks.items() if _exported(snake_case(e.cls) if function else e.cls) is not None]
        raise ValueError(f"{shown}(task={task!r}) builds torchmetrics' {name}, which torchmetrics_lite does not "
                         f"have; the tasks it has for {shown}: {tuple(have)}")
    for size in ("num_classes", "num_labels"):
        if size in entry.args and (not isinstance(bound.get(size), int) or isinstance(bound.get(size), bool)):
            raise ValueError(f"Expected `{size}` to be an int for {shown}(task={task!r}), got {bound.get(size)!r}")
    accepted = _accepted(target, function)
    defaults = dict(spec.function_params or spec.params if function else spec.params)
    kwargs = {}
    for arg in entry.args:
        if arg not in bound:
            continue  # the functional form's argument (the curves' `average`), not the class's
        value = bound[arg]
        if arg not in accepted and _is_default(value, defaults[arg]):
            continue  # torchmetrics' default of an argument that does not exist here: nothing to pass
        kwargs[arg] = value
    return target, kwargs


def _is_default(value: Any, default: Any) -> bool:
    return value is default or (isinstance(value, (str, int, float)) and type(value) is type(default)
                                and value == default)


def _accepted(target: Callable[..., Any], function: bool) -> frozenset:
    if function:
        return frozenset(inspect.signature(target).parameters)
    # the walk up the classes' __init__ signatures ends at the first one that forwards no **kwargs (Metric's):
    # no need to name Metric here, which sits floors above this table
    return init_info(target, object).accepted  # type: ignore[arg-type]


def signature(spec: Spec, function: bool = False) -> inspect.Signature:
    """The factory's signature: torchmetrics' (``preds, target, task, ...`` for the functional form)."""
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    params = [inspect.Parameter("task", kind)]
    if function:
        params = [inspect.Parameter("preds", kind), inspect.Parameter("target", kind), *params]
    params += [inspect.Parameter(name, kind, default=default)
               for name, default in (spec.function_params or spec.params if function else spec.params)]
    if not function:
        params.append(inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD))
    return inspect.Signature(params)


def _doc(factory: str, spec: Spec, function: bool) -> str:
    shown = snake_case(factory) if function else factory
    targets = ", ".join(f"``{t}``: :{'func' if function else 'class'}:`"
                        f"{snake_case(e.cls) if function else e.cls}`" for t, e in spec.tasks.items())
    args = ", ".join(n for n, _ in (spec.function_params or spec.params if function else spec.params))
    task, cls = next(iter(spec.tasks.items()))
    required = "".join(f", {n}=0.5" if d is REQUIRED else f", {n}={d}"
                       for n, d in spec.params if d is REQUIRED or n == "beta")
    size = {"multiclass": ", num_classes=3", "multilabel": ", num_labels=2"}.get(task, "")
    if function:
        fn = snake_case(cls.cls)
        data = (f"torch.tensor([[0.9, 0.2], [0.6, 0.7]]), torch.tensor([[1, 0], [0, 1]]){required}"
                if task == "multilabel" else f"torch.tensor([0.9, 0.2, 0.6]), torch.tensor([1, 0, 0]){required}")
        example = (f"\n        >>> import torch\n        >>> from torchmetrics_lite.functional import {fn}"
                   f"\n        >>> str({shown}({data}, task={task!r}{size})) == str({fn}({data}{size}))\n        True")
    else:
        example = f"\n        >>> type({shown}(task={task!r}{size}{required})).__name__\n        {cls.cls!r}"
    return (f"torchmetrics' task-level ``{shown}``: builds the task's {'function call' if function else 'class'}.\n\n"
            f"    Tasks: {targets}.\n\n"
            f"    Args:\n"
            f"{'        preds, target: the inputs of the task function.' + chr(10) if function else ''}"
            f"        task: one of {tuple(spec.tasks)}.\n"
            f"        {args}: torchmetrics' arguments, passed on as torchmetrics passes them (see\n"
            f"            :mod:`torchmetrics_lite.tasks`).\n\n"
            f"    Returns:\n"
            f"        {'The value of the task function.' if function else 'An instance of the task class.'}\n\n"
            f"    Raises:\n"
            f"        ValueError: an unknown ``task``, or ``num_classes`` / ``num_labels`` missing for the task.\n"
            f"        TypeError: an argument neither the factory nor the task's class takes.\n"
            f"\n    Examples:{example}\n")


def _bind(shown: str, sig: inspect.Signature, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Dict[str, Any]:
    if "kwargs" not in sig.parameters:  # a functional form: torchmetrics' arguments get the classes' advice
        from torchmetrics_lite._compat import is_noop, raise_unknown_argument

        for name in list(kwargs):
            if name not in sig.parameters:
                if not is_noop(name, kwargs[name]):
                    raise_unknown_argument(shown, name, list(sig.parameters))
                del kwargs[name]
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError as err:
        raise TypeError(f"{shown}(): {err}") from None
    bound.apply_defaults()
    return dict(bound.arguments)


def _factory(name: str) -> Any:
    spec = TASKS[name]
    sig = signature(spec)

    def __new__(cls: type, *args: Any, **kwargs: Any) -> Any:
        bound = _bind(name, sig, args, kwargs)
        extra = bound.pop("kwargs")
        target, forwarded = resolve(name, spec, bound["task"], bound)
        return target(**forwarded, **extra)

    __new__.__signature__ = sig  # type: ignore[attr-defined]
    return type(name, (), {"__new__": __new__, "__doc__": _doc(name, spec, False), "__module__": __name__,
                           "__signature__": sig, "_spec": spec})


AUROC = _factory("AUROC")
Accuracy = _factory("Accuracy")
AveragePrecision = _factory("AveragePrecision")
CalibrationError = _factory("CalibrationError")
CohenKappa = _factory("CohenKappa")
ConfusionMatrix = _factory("ConfusionMatrix")
EER = _factory("EER")
ExactMatch = _factory("ExactMatch")
F1Score = _factory("F1Score")
FBetaScore = _factory("FBetaScore")
HammingDistance = _factory("HammingDistance")
HingeLoss = _factory("HingeLoss")
JaccardIndex = _factory("JaccardIndex")
LogAUC = _factory("LogAUC")
MatthewsCorrCoef = _factory("MatthewsCorrCoef")
NegativePredictiveValue = _factory("NegativePredictiveValue")
Precision = _factory("Precision")
PrecisionAtFixedRecall = _factory("PrecisionAtFixedRecall")
PrecisionRecallCurve = _factory("PrecisionRecallCurve")
ROC = _factory("ROC")
Recall = _factory("Recall")
RecallAtFixedPrecision = _factory("RecallAtFixedPrecision")
SensitivityAtSpecificity = _factory("SensitivityAtSpecificity")
Specificity = _factory("Specificity")
SpecificityAtSensitivity = _factory("SpecificityAtSensitivity")
StatScores = _factory("StatScores")
