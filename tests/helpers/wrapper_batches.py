"""Batches shared by the wrapper tests: binary scores (with ties), multiclass probabilities, regression pairs.

Each call draws from its own generator (``seed``), so a module's data never depends on which modules were
imported before it (spawned ranks import a test module alone)."""
import torch


def _gen(seed):
    return seed if isinstance(seed, torch.Generator) else torch.Generator().manual_seed(seed)


def binary_batches(sizes, seed=7):
    gen, out = _gen(seed), []
    for n in sizes:
        preds = torch.randint(0, 20, (n,), generator=gen).float() / 19  # ties on purpose
        out.append((preds, torch.randint(0, 2, (n,), generator=gen)))
    return out


def multiclass_batches(sizes, c=4, seed=8):
    gen = _gen(seed)
    return [(torch.rand(n, c, generator=gen).softmax(-1), torch.randint(0, c, (n,), generator=gen)) for n in sizes]


def regression_batches(sizes, seed=9):
    gen, out = _gen(seed), []
    for n in sizes:
        target = torch.randn(n, generator=gen, dtype=torch.float64)
        out.append((target + 0.5 * torch.randn(n, generator=gen, dtype=torch.float64), target))
    return out


def cat(batches):
    return tuple(torch.cat(parts) for parts in zip(*batches))
