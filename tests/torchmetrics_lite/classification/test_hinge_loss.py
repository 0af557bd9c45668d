"""Binary and multiclass hinge loss (issue 24 item 8; crammer-singer and one-vs-all, squared or not, margins,
logits) against scikit-learn's ``hinge_loss``, its edges (ties, empty input, a class with no sample) and its
modules through the harness. Errors: test_classification_errors.py; torchmetrics: test_classification_port.py;
``torch.compile``: test_classification_compile.py."""
import math

import numpy as np
import pytest
import sklearn.metrics as skm
import torch

import torchmetrics_lite.functional as F
from tests.helpers.classification.counts import (
    BIN_PREDS,
    BIN_TARGET,
    BIN_W,
    MC_SCORES,
    MC_TARGET,
    MC_W,
    MODULES,
    C,
    with_ignored,
)
from tests.helpers.metric_tester import assert_close, check_metric, concat


def _np(t):
    return t.numpy()



@pytest.mark.parametrize("squared", [False, True])
def test_binary_hinge_against_sklearn(squared):
    y = _np(BIN_TARGET)
    for preds, opts in ((BIN_PREDS, {}), (BIN_PREDS * 6 - 3, {"margins": True}),
                        (BIN_PREDS * 6 - 3, {"from_logits": True})):
        p = _np(torch.sigmoid(preds.double())) if opts.get("from_logits") else _np(preds.double())
        if squared:  # scikit-learn has no squared hinge: by hand
            want = np.mean(np.maximum(0, 1 - (2 * y - 1) * p) ** 2)
        else:
            want = skm.hinge_loss(2 * y - 1, p)
        assert_close(F.binary_hinge_loss(preds, BIN_TARGET, squared, **opts), want, atol=1e-12)
    assert_close(F.binary_hinge_loss(BIN_PREDS, BIN_TARGET, weight=BIN_W),
                 skm.hinge_loss(2 * y - 1, _np(BIN_PREDS.double()), sample_weight=_np(BIN_W)), atol=1e-12)


@pytest.mark.parametrize("squared", [False, True])
def test_multiclass_hinge_against_sklearn(squared):
    y, p = _np(MC_TARGET), _np(MC_SCORES.double())
    own = np.eye(C, dtype=bool)[y]
    rival = np.where(own, -np.inf, p).max(1)
    cs = np.maximum(0, 1 - p[own] + rival)
    ova = np.maximum(0, 1 - np.where(own, p, -p))
    if squared:
        want_cs, want_ova = (cs ** 2).mean(), (ova ** 2).mean(0)
    else:
        want_cs, want_ova = skm.hinge_loss(y, p, labels=range(C)), ova.mean(0)
        assert_close(F.multiclass_hinge_loss(MC_SCORES, MC_TARGET, C, weight=MC_W),
                     skm.hinge_loss(y, p, labels=range(C), sample_weight=_np(MC_W)), atol=1e-12)
    assert_close(F.multiclass_hinge_loss(MC_SCORES, MC_TARGET, C, squared), want_cs, atol=1e-12)
    assert_close(F.multiclass_hinge_loss(MC_SCORES, MC_TARGET, C, squared, "one-vs-all"), want_ova, atol=1e-12)
    logits = torch.log(MC_SCORES.double()) + 2.0  # softmax(logits) = the scores
    assert_close(F.multiclass_hinge_loss(logits, MC_TARGET, C, squared, from_logits=True), want_cs, atol=1e-12)
    assert_close(F.multiclass_hinge_loss(logits, MC_TARGET, C, margins=True),
                 skm.hinge_loss(y, _np(logits), labels=range(C)), atol=1e-12)


def test_hinge_edges():
    # tied rival scores: Crammer-Singer's max is the tied value; (N, C, S) inputs flatten to samples
    tied = torch.tensor([[0.4, 0.3, 0.3]])
    assert_close(F.multiclass_hinge_loss(tied, torch.tensor([0]), 3), 1 - 0.4 + 0.3, atol=1e-7)
    seq = MC_SCORES[:30].reshape(10, 3, C).movedim(-1, 1)
    assert_close(F.multiclass_hinge_loss(seq, MC_TARGET[:30].reshape(10, 3), C),
                 F.multiclass_hinge_loss(MC_SCORES[:30], MC_TARGET[:30], C))
    # ignore_index drops samples; empty input is nan (0/0, torchmetrics too)
    ign = with_ignored(MC_TARGET)
    keep = ign != -1
    for mode in ("crammer-singer", "one-vs-all"):
        assert_close(F.multiclass_hinge_loss(MC_SCORES, ign, C, multiclass_mode=mode, ignore_index=-1),
                     F.multiclass_hinge_loss(MC_SCORES[keep], MC_TARGET[keep], C, multiclass_mode=mode))
    assert math.isnan(F.binary_hinge_loss(torch.zeros(0), torch.zeros(0, dtype=torch.long)).item())
    assert torch.isnan(F.multiclass_hinge_loss(torch.zeros(0, 3), torch.zeros(0, dtype=torch.long), 3,
                                               multiclass_mode="one-vs-all")).all()


# ---------------------------------------------------------------------------------------------- modules, the harness
HINGE_MODULES = [m for m in MODULES if "HingeLoss" in m[0]]


@pytest.mark.parametrize("name,factory,functional,batches", HINGE_MODULES, ids=[m[0] for m in HINGE_MODULES])
def test_module_harness(name, factory, functional, batches):
    expected = functional(*concat(batches))
    check_metric(factory, batches, expected, batch_value=functional, max_examples=5, atol=1e-12)
