"""The walk of one parameter through the code (issue 25): the package's function frames entered with the parameter,
or an array derived from it (any array a counted frame returned), among their arguments ("stays"), and the counted
frames that return arrays back up ("returns"); an array counts as derived when it is one of those or shares its
memory (a zero-copy numpy view), from the public call until its value returns; ``-v`` lists them.

Run: python -m benchmarks.walk_counts [-v]   (for another checkout: cd there; PYTHONPATH=. python <this file>)
"""
import os
import sys

import numpy as np
import torch

torch.set_num_threads(1)
import torchmetrics_lite.functional as F  # noqa: E402

root = os.path.dirname(__import__("torchmetrics_lite").__file__)


def _arrays(value, depth=0):
    if isinstance(value, (torch.Tensor, np.ndarray)):
        yield value
    elif depth < 3 and isinstance(value, (tuple, list)):
        for v in value:
            yield from _arrays(v, depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for v in value.values():
            yield from _arrays(v, depth + 1)


def _address(a):
    """Where an array's memory starts: a zero-copy numpy view of a tracked tensor is the same data."""
    if isinstance(a, torch.Tensor):
        return a.data_ptr() if a.numel() else None
    return a.__array_interface__["data"][0] if a.size else None


def walk(fn, tracked_arg, *args, **kwargs):
    fn(*args, **kwargs)
    tracked = {id(tracked_arg)}
    addresses = {_address(tracked_arg)} - {None}
    keep = []  # keep derived arrays alive so that ids stay unique
    stays, returns, files, marked = [], [], set(), set()

    def tracer(frame, event, arg):
        code = frame.f_code
        if not code.co_filename.startswith(root):
            return None
        if event == "call":
            names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount
                                     + bool(code.co_flags & 4) + bool(code.co_flags & 8)]
            values = [frame.f_locals.get(n) for n in names]
            if any(id(a) in tracked or _address(a) in addresses for v in values for a in _arrays(v)):
                marked.add(id(frame))
                stays.append(f"{os.path.relpath(code.co_filename, root)}:{code.co_name}:{code.co_firstlineno}")
                files.add(code.co_filename)
            return tracer
        if event == "return" and id(frame) in marked:
            out = list(_arrays(arg))
            if out:
                returns.append(code.co_name)
                keep.extend(out)
                tracked.update(id(a) for a in out)
                addresses.update(_address(a) for a in out)
                addresses.discard(None)
        return tracer

    sys.settrace(tracer)
    try:
        fn(*args, **kwargs)
    finally:
        sys.settrace(None)
    return stays, returns, files


g = torch.Generator().manual_seed(0)
p, t = torch.rand(1000, generator=g), torch.randint(0, 2, (1000,), generator=g)
rp, rt = torch.rand(20, 10, generator=g), torch.randint(0, 3, (20, 10), generator=g)
for name, fn, tracked, args, kw in [("binary_auroc:preds", F.binary_auroc, p, (p, t), {}),
                                    ("retrieval_normalized_dcg:preds", F.retrieval_normalized_dcg, rp, (rp, rt),
                                     {"k": 5})]:
    stays, returns, files = walk(fn, tracked, *args, **kw)
    print(f"{name}: {len(stays)} stays, {len(returns)} returns, {len(files)} files")
    if "-v" in sys.argv:
        print("  " + "\n  ".join(stays))
