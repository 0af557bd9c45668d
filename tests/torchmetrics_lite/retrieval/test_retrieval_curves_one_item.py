"""A query of one item counts in the retrieval precision-recall curve (issue 34's surviving mutant of
``curves._curve_from_values``: ``n_items > 0`` is the rule for a present query), against torchmetrics' curve of
each query averaged and the numbers by hand, in the function and the module."""
import pytest
import torch

import torchmetrics_lite as ours
from torchmetrics_lite import functional as F

tmr = pytest.importorskip("torchmetrics.functional.retrieval")

PREDS = torch.tensor([0.9, 0.8, 0.5, 0.3, 0.6])
TARGET = torch.tensor([1, 0, 1, 1, 0])
INDEXES = torch.tensor([0, 1, 1, 1, 2])  # query 0: one relevant item; query 2: one item, none relevant


@pytest.mark.parametrize("adaptive_k", [False, True])
def test_one_item_queries_count_in_the_mean_curve(adaptive_k):
    per_query = [tmr.retrieval_precision_recall_curve(PREDS[INDEXES == q], TARGET[INDEXES == q], max_k=3,
                                                      adaptive_k=adaptive_k) for q in range(3)]
    precision = torch.stack([p for p, _, _ in per_query]).double().mean(0)
    recall = torch.stack([r for _, r, _ in per_query]).double().mean(0)
    # by hand: query 0 hits 1 at every k, query 1 hits 0, 1, 2 of its 2, query 2 hits nothing (empty="zero")
    by_hand = ([1 / 3, 1 / 3, 1 / 3], [1 / 3, 1 / 3 + 1 / 6, 2 / 3]) if not adaptive_k else \
        ([1 / 3, 1 / 3 + 1 / 6, 1 / 3 + 2 / 9], [1 / 3, 1 / 3 + 1 / 6, 2 / 3])
    torch.testing.assert_close(precision, torch.tensor(by_hand[0], dtype=torch.float64))
    torch.testing.assert_close(recall, torch.tensor(by_hand[1], dtype=torch.float64))
    got = F.retrieval_precision_recall_curve(PREDS, TARGET, 3, adaptive_k, indexes=INDEXES)
    torch.testing.assert_close(got[0], precision)
    torch.testing.assert_close(got[1], recall)
    m = ours.RetrievalPrecisionRecallCurve(max_k=3, adaptive_k=adaptive_k)
    m.update(PREDS[:2], TARGET[:2], indexes=INDEXES[:2])
    m.update(PREDS[2:], TARGET[2:], indexes=INDEXES[2:])
    mine = m.compute()
    torch.testing.assert_close(mine[0], precision)
    torch.testing.assert_close(mine[1], recall)
