"""A constructor call that does not fit the signature names the public class the user called and the argument,
never the private base whose ``__init__`` runs (``_MulticlassScore.__init__()``), for every public class of both
packages; a check raised inside a constructor keeps its own message."""
import inspect
import re
import warnings

import pytest

import losses
import torchmetrics_lite
from torchmetrics_lite import calibrators

PUBLIC = sorted({(name, obj) for mod, names in [(torchmetrics_lite, torchmetrics_lite.__all__),
                                                (losses, losses.__all__), (calibrators, calibrators.__all__)]
                 for name in names if inspect.isclass(obj := getattr(mod, name))}, key=lambda item: item[0])


def test_the_f1_score_without_num_classes_names_the_class_and_the_argument():
    with pytest.raises(TypeError, match=r"^MulticlassF1Score\(\): missing a required argument: 'num_classes' "
                                        r"\(its arguments: MulticlassF1Score\(num_classes, average='macro', \*,"):
        torchmetrics_lite.MulticlassF1Score()
    with pytest.raises(TypeError, match=r"^MultilabelAUROC\(\): missing a required argument: 'num_labels'"):
        torchmetrics_lite.MultilabelAUROC()
    with pytest.raises(TypeError, match=r"^BinaryF1Score\(\): too many positional arguments"):
        torchmetrics_lite.BinaryF1Score(0.5, 0.0)
    with pytest.raises(TypeError, match=r"^MulticlassAccuracy\(\): multiple values for argument 'num_classes'"):
        torchmetrics_lite.MulticlassAccuracy(3, num_classes=3)
    with pytest.raises(TypeError, match=r"^LambdaRankLoss\.__init__\(\) takes 1 positional argument but 2"):
        losses.LambdaRankLoss(10)


def test_a_check_inside_the_constructor_keeps_its_message():
    with pytest.raises(ValueError, match=r"Expected `average` to be one of"):
        torchmetrics_lite.MulticlassF1Score(3, average="x")
    with pytest.raises(TypeError, match=r"^Expected `from_logits` to be a bool, got str$"):
        torchmetrics_lite.BinaryF1Score(from_logits="yes")  # a TypeError from a check: not rewritten


def test_every_public_class_names_itself_in_a_signature_error():
    assert len(PUBLIC) > 150
    named = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, cls in PUBLIC:
            for args in [(), tuple(range(40))]:  # a required argument missing; too many positional arguments
                try:
                    cls(*args)
                except TypeError as err:
                    reported = re.match(r"([\w.<>]+)\(\)", str(err))
                    if reported:
                        assert reported.group(1).split(".")[0] == name, (name, str(err))
                        named += 1
                except Exception:  # a value check that ran first (e.g. on range(40)'s first number)
                    pass
    assert named > 150  # nearly every class reports one of the two calls
