"""Tied retrieval scores in small queries (every order enumerable) for the precision-recall curves
(``test_retrieval_curves.py``), and their batches, which the retrieval distributed test (``test_retrieval_modules.py``)
streams too."""
import torch

G = torch.Generator().manual_seed(24)


def _flat(n, n_queries, ties, gen=G):
    preds = torch.randint(0, 4, (n,), generator=gen).double() if ties else torch.rand(n, generator=gen).double()
    target = (torch.rand(n, generator=gen) < 0.4).long()
    return preds, target, torch.randint(0, n_queries, (n,), generator=gen)


TIED = _flat(28, 5, ties=True)  # queries of at most ~9 items: every order enumerable
BATCHES = [tuple(x[i:j] for x in TIED) for i, j in ((0, 9), (9, 9), (9, 20), (20, 28))]
