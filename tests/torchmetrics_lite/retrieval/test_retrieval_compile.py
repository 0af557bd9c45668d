"""``torch.compile(fullgraph=True)`` of the retrieval functions and of the modules' update (issue: a compiled
update path). Under ``torch.compiler.is_compiling()`` the torch kernels run: one row per item, so every shape
follows the input's. Dense input compiles (masks included), and so does the modules' update on flat input;
the flat functions cannot, since their number of queries depends on the values of ``indexes`` (see
``test_flat_functions_do_not_compile``)."""
import pytest
import torch

import torchmetrics_lite as T
from tests.helpers.compile import check_compiles, graph_breaks
from tests.helpers.metric_tester import assert_close
from torchmetrics_lite import RetrievalMAP, RetrievalNormalizedDCG
from torchmetrics_lite.functional import (
    retrieval_auroc,
    retrieval_average_precision,
    retrieval_dcg,
    retrieval_fall_out,
    retrieval_hit_rate,
    retrieval_normalized_dcg,
    retrieval_precision,
    retrieval_r_precision,
    retrieval_recall,
    retrieval_reciprocal_rank,
)

G = torch.Generator().manual_seed(21)
PREDS = torch.randint(0, 4, (6, 9), generator=G).float()  # ties
TARGET = torch.randint(0, 3, (6, 9), generator=G)
MASK = torch.rand(6, 9, generator=G) < 0.8
FNS = {
    "ndcg": (retrieval_normalized_dcg, {"k": 4}), "ap": (retrieval_average_precision, {}),
    "rr": (retrieval_reciprocal_rank, {"k": 3}), "precision": (retrieval_precision, {"k": 4}),
    "recall": (retrieval_recall, {"k": 4}), "hit_rate": (retrieval_hit_rate, {"k": 2}),
    "r_precision": (retrieval_r_precision, {}), "auroc": (retrieval_auroc, {"k": 5, "max_fpr": 0.5}),
    "dcg": (retrieval_dcg, {"k": 4, "gain": "exponential"}), "fall_out": (retrieval_fall_out, {"k": 4}),
}


CASES = [(name, "average") for name in sorted(FNS)] + [("ap", "order"), ("rr", "order")]


@pytest.mark.parametrize("name, ties", CASES)
def test_functions_compile_without_graph_break(name, ties):
    fn, options = FNS[name]

    def value(preds, target, mask):
        return fn(preds, target, mask=mask, ties=ties, validate_args=False, reduction="none", **options)

    got = check_compiles(value, PREDS, TARGET, MASK)
    assert_close(got, fn(PREDS, TARGET, mask=MASK, ties=ties, reduction="none", **options), atol=1e-12)  # numpy


def test_ndcg_compiles_with_inductor():
    def value(preds, target):
        return retrieval_normalized_dcg(preds, target, k=5, gain="exponential", validate_args=False)

    check_compiles(value, PREDS, TARGET, backends=("inductor",))


CURVES = ("RetrievalPrecisionRecallCurve", "RetrievalRecallAtFixedPrecision")  # flat input only, as torchmetrics'
EVERY_MODULE = [getattr(T, name) for name in T.retrieval.__all__ if name not in CURVES]


@pytest.mark.parametrize("cls", EVERY_MODULE, ids=[c.__name__ for c in EVERY_MODULE])
def test_module_update_compiles(cls):
    """The dense update (three sum states from one batch) traces as one graph and accumulates the eager state."""
    eager, compiled = cls(k=5, validate_args=False), cls(k=5, validate_args=False)
    assert graph_breaks(compiled.update, PREDS, TARGET, None, MASK) == 0
    torch._dynamo.reset()
    step = torch.compile(compiled.update, backend="eager", fullgraph=True)
    for _ in range(2):
        eager.update(PREDS, TARGET, mask=MASK)
        step(PREDS, TARGET, None, MASK)
    assert_close(compiled.compute(), eager.compute(), atol=1e-12)


@pytest.mark.parametrize("cls", [RetrievalMAP, RetrievalNormalizedDCG])
def test_module_update_on_flat_input_compiles(cls):
    """The flat update only appends rows (those ``ignore_index`` drops stay, marked, until ``compute``), so it
    traces as one graph too; the grouping by query id happens at ``compute``, eagerly."""
    ids = torch.arange(6)[:, None].expand(6, 9).reshape(-1).flip(0)
    preds, target = PREDS.reshape(-1), TARGET.reshape(-1).clone()
    target[::7] = -1  # dropped by ignore_index
    eager, compiled, probe = (cls(k=5, ignore_index=-1, keep_per_query=True, validate_args=False) for _ in range(3))
    assert graph_breaks(probe.update, preds, target, ids) == 0  # explain() runs the update: a third metric
    torch._dynamo.reset()
    step = torch.compile(compiled.update, backend="eager", fullgraph=True)
    for shift in range(2):
        eager.update(preds, target, indexes=ids + 6 * shift)
        step(preds, target, ids + 6 * shift)
    assert_close(compiled.compute(), eager.compute(), atol=1e-12)
    assert_close(compiled.per_query(), eager.per_query(), atol=1e-12)


def test_flat_functions_do_not_compile():
    """The flat functions' number of queries is the number of distinct ids, known only from the values: a graph
    break (the documented limit; the modules group at ``compute`` instead, so their ``update`` compiles)."""
    ids = torch.arange(6)[:, None].expand(6, 9).reshape(-1)
    assert graph_breaks(lambda p, t, i: retrieval_average_precision(p, t, i, validate_args=False),
                        PREDS.reshape(-1), TARGET.reshape(-1), ids) > 0
