"""The refactor guard guards: its module cases build every class with the arguments it takes.

A variant option the class does not take must be the only thing a case varies (its error is then part of the
behaviour); the ``default`` case of every module must build and run. Before this test, ``threshold`` and ``p``
(required by a few modules) were passed to every module, and 24,992 of 28,876 cases recorded the same TypeError.
"""
from __future__ import annotations

from tests.helpers import value_hashes as vh

#: default cases whose family inputs do not fit the class (a wrapper or group metric needs more arguments, the
#: (N, m) regression names other rows): the guard records their error, which still changes if the message does
INPUT_GAPS = {"CatMetric", "RunningSum", "BinaryFairness", "BinaryGroupStatRates", "MeanSquaredLogError",
              "ContinuousRankedProbabilityScore", "CosineSimilarity", "KLDivergence", "JensenShannonDivergence",
              "RetrievalPrecisionRecallCurve", "RetrievalRecallAtFixedPrecision", "MinMaxMetric", "MultioutputWrapper"}


def test_every_default_module_case_builds_and_runs():
    cases = [(label[: -len("[default]")], run) for label, run in vh._module_cases() if label.endswith("[default]")]
    assert len(cases) > 120  # every public metric class (131 today)
    failing = {name: h for name, run in cases if (h := vh._guard(run)).startswith("error")}
    assert not [h for h in failing.values() if "() got an unexpected keyword argument" in h]  # built as it takes
    assert set(failing) == INPUT_GAPS


def test_a_variant_the_class_rejects_varies_alone():
    cases = dict(vh._module_cases())
    assert vh._guard(cases["MeanSquaredError[default]"]).startswith("error") is False
    assert vh._guard(cases["MeanSquaredError[threshold=0.3]"]).startswith("error TypeError")
