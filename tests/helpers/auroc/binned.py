"""Binary, multiclass and multilabel scores, some on the thresholds, with ignored targets
(``test_binned_ignore.py``), and the distributed cases of the binned mode and of ``ignore_index``."""
from functools import partial

import torch

import torchmetrics_lite as ours
from tests.helpers.distributed import Case

G = torch.Generator().manual_seed(21)  # the test module draws from it too
N, C = 48, 3
PB = torch.rand(N, generator=G)
PB[::5] = (PB[::5] * 4).round() / 4  # some scores on the thresholds
YB = (torch.rand(N, generator=G) < PB).long()
PM = torch.rand(N, C, generator=G).softmax(1)
YM = torch.randint(0, C, (N,), generator=G)
YL = (torch.rand(N, C, generator=G) < 0.5).long()
YLI = torch.where(torch.rand(N, C, generator=G) < 0.2, -1, YL)

CASES = [
    Case("binned_auroc", partial(ours.BinaryAUROC, thresholds=9), [(PB[:20], YB[:20]), (PB[20:], YB[20:])]),
    Case("binned_mc_ap", partial(ours.MulticlassAveragePrecision, C, thresholds=[0.2, 0.5, 0.8], ignore_index=1),
         [(PM[:30], YM[:30]), (PM[30:], YM[30:])]),
    Case("binned_ml_roc", partial(ours.MultilabelROC, C, thresholds=5), [(PM[:10], YL[:10]), (PM[10:], YL[10:])]),
    Case("ml_ignore_exact", partial(ours.MultilabelAUROC, C, average="none", ignore_index=-1),
         [(PM[:25], YLI[:25]), (PM[25:], YLI[25:])]),
]
