"""Class headers show the real constructor parameters: ``inspect.signature(cls)`` (what IDEs and Sphinx's class
headers read) gives ``__init__``'s parameters for every public class, not ``Metric.__new__``'s
``(*args, **kwargs)``; an instance's signature is still that of calling it."""
import inspect

import pytest
import torch

import losses
import torchmetrics_lite
import torchmetrics_lite.functional
from torchmetrics_lite.metric import Metric

CLASSES = sorted({(f"{package.__name__}.{name}", getattr(package, name))
                  for package in (torchmetrics_lite, torchmetrics_lite.functional, losses)
                  for name in package.__all__ if isinstance(getattr(package, name), type)}, key=lambda kv: kv[0])


def _init_parameters(cls):
    return [p for name, p in inspect.signature(cls.__init__).parameters.items() if name != "self"]


def test_the_public_classes_are_found():
    names = {name for name, _ in CLASSES}
    assert {"torchmetrics_lite.MulticlassAUROC", "torchmetrics_lite.MetricCollection", "losses.LambdaRankLoss"} <= names
    assert sum(issubclass(cls, Metric) for _, cls in CLASSES) > 100


@pytest.mark.parametrize("name,cls", CLASSES, ids=[name for name, _ in CLASSES])
def test_the_class_signature_is_the_constructors(name, cls):
    shown = list(inspect.signature(cls).parameters.values())
    if issubclass(cls, Metric) or "__new__" not in vars(cls):
        assert shown == _init_parameters(cls), f"{name}: {inspect.signature(cls)}"
    if issubclass(cls, Metric):
        # what documentation tools read before __new__ (Sphinx's class headers; the docs build also fails on a
        # class header of (*args, **kwargs), see docs/conf.py)
        assert list(cls.__signature__.parameters.values()) == _init_parameters(cls), name
    assert [p.kind for p in shown] != [inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD] or \
        [p.kind for p in _init_parameters(cls)] == [p.kind for p in shown], f"{name}: {inspect.signature(cls)}"


def test_multiclass_auroc_shows_its_parameters_and_an_instance_its_call():
    parameters = inspect.signature(torchmetrics_lite.MulticlassAUROC).parameters
    assert list(parameters)[:3] == ["num_classes", "average", "from_logits"]
    assert parameters["average"].default == "macro"
    metric = torchmetrics_lite.MulticlassAUROC(num_classes=3)
    assert "num_classes" not in inspect.signature(metric).parameters  # calling an instance is forward
    assert not hasattr(metric, "__signature__")
    assert torch.isfinite(metric(torch.eye(3), torch.arange(3)))
