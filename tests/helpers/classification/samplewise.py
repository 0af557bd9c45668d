"""``(N, ...)`` binary, multiclass and multilabel inputs (``test_samplewise.py``), and the samplewise distributed
cases."""
from functools import partial

import torch

import torchmetrics_lite as ours
from tests.helpers.distributed import Case

G = torch.Generator().manual_seed(7)
N, C, H = 8, 3, 5
PB, YB = torch.rand(N, H, generator=G), torch.randint(0, 2, (N, H), generator=G)
PM, YM = torch.rand(N, C, H, generator=G), torch.randint(0, C, (N, H), generator=G)
PL, YL = torch.rand(N, C, H, generator=G), torch.randint(0, 2, (N, C, H), generator=G)
CASES = [
    Case("samplewise_mc_f1", partial(ours.MulticlassF1Score, C, multidim_average="samplewise"),
         [(PM[:3], YM[:3]), (PM[3:], YM[3:])]),
    Case("samplewise_binary_stats", partial(ours.BinaryStatScores, multidim_average="samplewise"),
         [(PB[:5], YB[:5]), (PB[5:], YB[5:])]),
]
