"""allRank 1.4.3's loss files loaded by path (shared by the ranking benchmarks).

allRank cannot be imported whole on a current torch (``allrank.models.losses`` pulls its data loader, which needs
an old torchvision, and its model utilities need gcsfs), but each loss file needs only torch. So allRank is
installed without dependencies (``pip install --no-deps allRank==1.4.3``) and its loss files are loaded by path,
with the two constants they read (``PADDED_Y_VALUE = -1``, ``DEFAULT_EPS = 1e-10``) and ``get_torch_device``
(CPU) stood in. Nothing of allRank is vendored.
"""
from __future__ import annotations

import importlib.util
import os
import sys
import types

import torch


def load_allrank() -> dict[str, types.ModuleType] | None:
    """allRank's loss modules loaded by path (see the module docstring), or None when it is not installed."""
    spec = importlib.util.find_spec("allrank")
    if spec is None or not spec.submodule_search_locations:
        return None
    root = next(iter(spec.submodule_search_locations))
    stubs = {"allrank": {}, "allrank.data": {}, "allrank.data.dataset_loading": {"PADDED_Y_VALUE": -1},
             "allrank.models": {}, "allrank.models.losses": {"DEFAULT_EPS": 1e-10},
             "allrank.models.model_utils": {"get_torch_device": lambda: torch.device("cpu")}}
    saved = {name: sys.modules.get(name) for name in stubs}
    try:
        for name, attrs in stubs.items():
            module = types.ModuleType(name)
            module.__path__ = []  # a package, so that submodules resolve through sys.modules
            module.__dict__.update(attrs)
            sys.modules[name] = module

        def load(name: str, rel: str) -> types.ModuleType:
            s = importlib.util.spec_from_file_location(name, os.path.join(root, rel))
            module = importlib.util.module_from_spec(s)
            sys.modules[name] = module
            s.loader.exec_module(module)
            return module

        load("allrank.models.metrics", "models/metrics.py")
        load("allrank.models.losses.loss_utils", "models/losses/loss_utils.py")
        files = ("neuralNDCG", "listMLE", "listNet", "lambdaLoss", "approxNDCG", "rankNet", "ordinal", "bce",
                 "pointwise")
        return {f: load(f"allrank.models.losses.{f}", f"models/losses/{f}.py") for f in files}
    finally:
        for name, module in saved.items():  # leave sys.modules as it was (the loaded modules keep their refs)
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
