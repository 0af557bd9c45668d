"""Batches shared by the wrapper tests: binary scores (with ties), multiclass probabilities, regression pairs."""
import torch

GEN = torch.Generator().manual_seed(7)


def binary_batches(sizes, gen=GEN):
    out = []
    for n in sizes:
        preds = torch.randint(0, 20, (n,), generator=gen).float() / 19  # ties on purpose
        out.append((preds, torch.randint(0, 2, (n,), generator=gen)))
    return out


def multiclass_batches(sizes, c=4, gen=GEN):
    return [(torch.rand(n, c, generator=gen).softmax(-1), torch.randint(0, c, (n,), generator=gen)) for n in sizes]


def regression_batches(sizes, gen=GEN):
    out = []
    for n in sizes:
        target = torch.randn(n, generator=gen, dtype=torch.float64)
        out.append((target + 0.5 * torch.randn(n, generator=gen, dtype=torch.float64), target))
    return out


def cat(batches):
    return tuple(torch.cat(parts) for parts in zip(*batches))
