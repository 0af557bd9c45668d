"""torchmetrics 1.9's own docstring examples, for every name we export, run with only the imports swapped
(extracted from the installed package at test time: ``tests/helpers/tm_docstrings.py``; the comparison tolerates
a float64 dtype suffix and the last printed digit).

Each docstring must end in one of:

* the same output throughout;
* a documented difference: ``DOCUMENTED[name]`` lists, in order, the row of the porting page
  (``docs/torchmetrics_examples.md``) of each statement whose output differs; a row with a check pins what the
  difference is (ROC thresholds start at ``inf``: the output is torchmetrics' with ``1.0`` in place of ``inf``);
* one of the three port edits (``PORT_EDITS``): the first error names the fix (``k=`` for ``top_k``,
  ``from_logits=True`` for logits, ``num_outputs=`` / ``multioutput=`` for ``(N, d)`` regression), and the
  docstring with that edit gives torchmetrics' output (or its documented rows);
* a documented refusal (``REFUSED``, now empty: the binned multiclass EER, refused before, is built).

A new difference, a documented row that no longer differs, or any other error fails. Run with ``-s`` for the
counts.
"""
import collections
import re
import warnings
from typing import Callable, Dict, List, Optional, Tuple

import pytest

from tests.helpers import tm_docstrings as tmd

pytest.importorskip("torchmetrics")

COUNTS: Dict[str, int] = collections.Counter()


def _inf_is_one(want: str, got: str) -> bool:
    return tmd.same_output(want, got.replace("inf", "1.0000"))


def _same_numbers(want: str, got: str) -> bool:
    """The same numbers in another form (shape, key order)."""
    numbers = [sorted(float(x) for x in re.findall(r"-?\d+\.\d*|-?\d+", tmd._normal(s))) for s in (want, got)]
    return len(numbers[0]) == len(numbers[1]) and all(abs(a - b) <= 1e-4 for a, b in zip(*numbers))


# porting-page row -> (what it says, a check of the difference or None)
ROWS: Dict[str, Tuple[str, Optional[Callable[[str, str], bool]]]] = {
    "roc_inf": ("ROC curves (and an operating point at their start) begin at threshold inf, torchmetrics' at 1.0",
                _inf_is_one),
    "scores_as_given": ("binary scores outside [0, 1] are used as given (thresholds on their scale); torchmetrics "
                        "applies a sigmoid", None),
    "absent_class": ("a class absent from the target has AUROC / AP / EER / LogAUC / ROC rates nan with a warning, "
                     "left out of the macro mean; torchmetrics counts it as 0 (EER 1)", lambda w, g: "nan" in g
                     or "nan" not in w),
    "pr_no_positive": ("the PR curve of a class without positives has recall 1 (scikit-learn); torchmetrics nan",
                       lambda w, g: tmd.same_output(w.replace("nan", "1."), g)),
    "eer_interpolated": ("EER: the crossing of fpr and 1 - tpr, interpolated on the curve's segment; torchmetrics "
                         "the nearest curve point", None),
    "logauc_exact": ("LogAUC: the exact integral of the piecewise-linear curve; torchmetrics the trapezoid in "
                     "log10 fpr (a tie group is a diagonal segment)", None),
    "kendall_p": ("Kendall's p-value is scipy's asymptotic one; torchmetrics nan for 2 samples",
                  lambda w, g: "nan" in w and "nan" not in g),
    "another_form": ("the same values in another form: a one-point curve's threshold as a 1-element tensor, "
                     "Lin's concordance of one output as a scalar, a collection's keys in insertion order "
                     "(torchmetrics sorts a dict's keys)", _same_numbers),
}

_ROC = ("roc_inf",)
DOCUMENTED: Dict[str, Tuple[str, ...]] = {
    "BinaryROC": _ROC, "binary_roc": _ROC, "MultilabelROC": _ROC, "multilabel_roc": _ROC,
    "ROC": ("scores_as_given", "roc_inf", "roc_inf"), "roc": ("scores_as_given", "roc_inf", "roc_inf"),
    "MulticlassROC": ("absent_class", "roc_inf", "absent_class"),
    "multiclass_roc": ("absent_class", "roc_inf", "absent_class"),
    "MulticlassSensitivityAtSpecificity": _ROC, "multiclass_sensitivity_at_specificity": _ROC,
    "MulticlassAUROC": ("absent_class",) * 4, "multiclass_auroc": ("absent_class",) * 4,
    "MulticlassAveragePrecision": ("absent_class",) * 2, "multiclass_average_precision": ("absent_class",) * 2,
    "MulticlassEER": ("absent_class",) * 2, "multiclass_eer": ("absent_class",) * 4,  # binned too
    "MulticlassLogAUC": ("absent_class",) * 2, "multiclass_logauc": ("absent_class",) * 2,
    "MulticlassPrecisionRecallCurve": ("pr_no_positive", "another_form"),
    "PrecisionRecallCurve": ("pr_no_positive", "another_form"),
    "multiclass_precision_recall_curve": ("pr_no_positive",), "precision_recall_curve": ("pr_no_positive",),
    "EER": ("eer_interpolated",) * 2, "eer": ("eer_interpolated",) * 2,
    "MultilabelEER": ("eer_interpolated",), "multilabel_eer": ("eer_interpolated",),
    "MultilabelLogAUC": ("logauc_exact",) * 2, "multilabel_logauc": ("logauc_exact",) * 2,
    "KendallRankCorrCoef": ("kendall_p",), "kendall_rank_corrcoef": ("kendall_p",),
    "concordance_corrcoef": ("another_form",), "Running": ("another_form",),
}

# the three port edits: name -> (what the first error names, [(torchmetrics' text, ours)])
_TOP_K = ("`k=`", [("top_k=", "k=")])
_LOGITS = ("from_logits=True", [("num_classes=3)", "num_classes=3, from_logits=True)"),
                                ("num_classes=3, multiclass_mode", "num_classes=3, from_logits=True, multiclass_mode")])
_OUTPUTS_3 = ("multioutput=", [("(num_outputs=3)", "(num_outputs=3, multioutput='raw_values')")])
_OUTPUTS_2 = ("num_outputs=2", [("(multioutput='raw_values')", "(num_outputs=2, multioutput='raw_values')")])
PORT_EDITS: Dict[str, Tuple[str, List[Tuple[str, str]]]] = {
    "RetrievalFallOut": _TOP_K, "RetrievalHitRate": _TOP_K, "RetrievalPrecision": _TOP_K, "RetrievalRecall": _TOP_K,
    "retrieval_hit_rate": _TOP_K, "retrieval_precision": _TOP_K,
    "HingeLoss": _LOGITS, "hinge_loss": _LOGITS,
    "MeanAbsoluteError": _OUTPUTS_3, "MeanSquaredError": _OUTPUTS_3,
    "ExplainedVariance": _OUTPUTS_2, "R2Score": _OUTPUTS_2,
}

# torchmetrics' arguments we refuse with a clear error: name -> what the message says
REFUSED: Dict[str, str] = {}  # none left (the binned multiclass EER and LogAUC are built)

DOCSTRINGS = list(tmd.docstrings())


def _run(doc: tmd.Docstring, source: Optional[str] = None) -> List[tmd.Event]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the documented undefined values warn
        return tmd.run(doc, source)


def _check_differences(name: str, events: List[tmd.Event]) -> None:
    diffs = [e for e in events if e.kind == "diff"]
    rows = DOCUMENTED.get(name, ())
    assert len(diffs) == len(rows), (f"{name}: {len(diffs)} statements differ, {len(rows)} documented:\n"
                                     + "\n".join(f"{e.source}\n  torchmetrics: {e.want}\n  ours: {e.got}"
                                                 for e in diffs))
    for event, row in zip(diffs, rows):
        check = ROWS[row][1]
        assert check is None or check(event.want, event.got), (name, row, event)


@pytest.mark.parametrize("doc", DOCSTRINGS, ids=[d.name for d in DOCSTRINGS])
def test_torchmetrics_docstring_runs_with_the_import_swapped(doc):
    events = _run(doc)
    errors = [e for e in events if e.kind == "error"]
    if doc.name in PORT_EDITS:
        fix, edits = PORT_EDITS[doc.name]
        assert errors and errors[0].want in ("TypeError", "ValueError") and fix in errors[0].got, (doc.name, errors)
        source = doc.source
        for old, new in edits:
            assert old in source, (doc.name, old)
            source = source.replace(old, new)
        events = _run(doc, source)
        errors = [e for e in events if e.kind == "error"]
        COUNTS["port edit"] += 1
    elif doc.name in REFUSED:  # the statements before the refusal are compared as the others
        assert errors and errors[0].want == "TypeError" and re.search(REFUSED[doc.name], errors[0].got), errors
        _check_differences(doc.name, events[:events.index(errors[0])])
        COUNTS["documented refusal"] += 1
        return
    assert not errors, f"{doc.name}: " + "\n".join(f"{e.source} -> {e.want}: {e.got}" for e in errors)
    _check_differences(doc.name, events)
    if doc.name not in PORT_EDITS:
        COUNTS["documented difference" if doc.name in DOCUMENTED else "same"] += 1


def test_the_extraction_finds_torchmetrics_docstrings_and_the_tables_name_only_them():
    names = {d.name for d in DOCSTRINGS}
    assert len(DOCSTRINGS) >= 240 and sum(d.statements for d in DOCSTRINGS) >= 2400
    assert set(DOCUMENTED) | set(PORT_EDITS) | set(REFUSED) <= names
    assert set(sum(DOCUMENTED.values(), ())) == set(ROWS)  # every row is used
    assert not set(PORT_EDITS) & set(REFUSED)


def test_zz_counts(capsys):
    with capsys.disabled():
        print(f"\ntorchmetrics docstrings, imports swapped: {len(DOCSTRINGS)} docstrings, "
              f"{sum(d.statements for d in DOCSTRINGS)} statements; {dict(COUNTS)}")
