"""The module form of every loss follows from its function (``losses._module.module_of``), and ``losses`` checks
its inputs through the public ``torchmetrics_lite.checks`` only."""
import ast
import inspect
import pathlib

import pytest
import torch

import losses
from losses._module import PER_CALL

MODULES = [getattr(losses, n) for n in losses.__all__ if inspect.isclass(getattr(losses, n))]
HAND_WRITTEN = {losses.AUCMLoss,  # owns learnable a, b, alpha and a running positive ratio: not a function's twin
                losses.MultiLabelAUCMLoss, losses.CompositionalAUCLoss,  # learnable a, b, alpha (and a step count)
                losses.SOAPLoss, losses.PartialAUCDROLoss, losses.PartialAUCCVaRLoss,  # per-sample estimators
                losses.TwoWayPartialAUCLoss, losses.SONGNDCGLoss}


def _function_of(cls):
    return getattr(losses, next(n for n in losses.__all__ if n.replace("_", "") == cls.__name__.lower()))


@pytest.mark.parametrize("cls", [c for c in MODULES if c not in HAND_WRITTEN], ids=lambda c: c.__name__)
def test_every_module_is_declared_from_its_function(cls):
    function = _function_of(cls)
    kw_only = [p for p in inspect.signature(function).parameters.values() if p.kind is p.KEYWORD_ONLY]
    options = [p for p in kw_only if p.name not in PER_CALL]
    assert cls.options == tuple(p.name for p in options)
    init = inspect.signature(cls)
    assert [(p.name, p.default) for p in init.parameters.values()] == [(p.name, p.default) for p in options]
    doc = inspect.getdoc(cls)
    assert "Args:" in doc and all(f"    {p.name}: " in doc for p in options if f"    {p.name}: " in function.__doc__)


def test_module_rejects_bad_options_at_construction_with_the_functions_message():
    with pytest.raises(ValueError, match=r"Expected `reduction` to be one of \('mean', 'sum', 'none'\), got 'max'"):
        losses.LambdaRankLoss(reduction="max")
    with pytest.raises(ValueError, match="`sigma`"):
        losses.RankNetLoss(sigma=0.0)
    with pytest.raises(TypeError, match=r"LambdaRankLoss\(\) got unexpected option\(s\) \['top_k'\]; it takes k, "):
        losses.LambdaRankLoss(top_k=3)
    with pytest.raises(TypeError, match=r"PartialAUCLoss\(\) missing required option\(s\) \['max_fpr'\]"):
        losses.PartialAUCLoss()
    with pytest.raises(TypeError, match=r"Expected `validate_args` to be a bool, got str"):
        losses.ListNetLoss(validate_args="yes")
    with pytest.raises(TypeError, match=r"SoftAUCLoss.forward\(\) takes at most 3 inputs, got 4"):
        losses.SoftAUCLoss()(torch.zeros(2), torch.zeros(2), None, None)


def test_module_forward_takes_per_call_inputs_by_position_or_name_and_repr_shows_changed_options():
    scores, rel = torch.tensor([[0.3, 1.0, -0.5]]), torch.tensor([[2.0, 0.0, 1.0]])
    mask = torch.tensor([[True, True, False]])
    loss = losses.LambdaRankLoss(k=2, sigma=0.5)
    expected = losses.lambdarank_loss(scores, rel, mask=mask, k=2, sigma=0.5)
    assert loss(scores, rel, mask) == expected and loss(scores, rel, mask=mask) == expected
    assert repr(loss) == "LambdaRankLoss(k=2, sigma=0.5)" and loss.k == 2 and loss.gain == "linear"
    gen = torch.Generator().manual_seed(0)
    sampled = losses.SoftAUCLoss(num_pairs=5)(torch.tensor([0.2, 0.9, 0.1]), torch.tensor([0, 1, 1]), gen)
    expected = losses.soft_auc_loss(torch.tensor([0.2, 0.9, 0.1]), torch.tensor([0, 1, 1]), num_pairs=5,
                                    generator=torch.Generator().manual_seed(0))
    assert sampled == expected


def test_ndcg_losses_and_the_metric_share_one_default_gain():
    from torchmetrics_lite import RetrievalNormalizedDCG
    from torchmetrics_lite.functional import retrieval_normalized_dcg

    metric_default = inspect.signature(retrieval_normalized_dcg).parameters["gain"].default
    assert metric_default == inspect.signature(RetrievalNormalizedDCG).parameters["gain"].default == "linear"
    for fn in (losses.lambdarank_loss, losses.approx_ndcg_loss, losses.neural_ndcg_loss):
        assert inspect.signature(fn).parameters["gain"].default == metric_default


def _private(name):
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_losses_import_no_private_name_of_torchmetrics_lite():
    private = []
    for path in sorted(pathlib.Path(losses.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            private += [f"{path.name}: {n}" for n in names
                        if n.startswith("torchmetrics_lite") and any(_private(p) for p in n.split(".")[1:])]
    assert private == []
