"""Public sorts of 1-D tensors for people who extend the library (custom metrics and the ``losses`` package).

On the CPU they run numpy's sorts (several times faster than torch's for 1-D float and integer keys), on other
devices and under ``torch.compile`` torch's; the result is a tensor on the input's device either way.

Examples:
    >>> import torch
    >>> sort(torch.tensor([3.0, 1.0, 2.0]))
    tensor([1., 2., 3.])
    >>> searchsorted(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([2.0]), right=True)
    tensor([2])
"""
from torchmetrics_lite._sort import argsort, searchsorted, sort

__all__ = ["argsort", "searchsorted", "sort"]
