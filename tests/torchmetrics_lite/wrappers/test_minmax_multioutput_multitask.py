"""MinMaxMetric, MultioutputWrapper and MultitaskWrapper (issue 35 item 6): oracles (scikit-learn per output, the
extremes by hand), streaming and merge (the shared harness), clear errors before any state change, and the same
values as torchmetrics 1.9's wrappers."""
from functools import partial

import numpy as np
import pytest
import torch
from sklearn import metrics as sk

import torchmetrics_lite as tl
from tests.helpers.metric_tester import assert_close, check_metric, check_rejects, concat

G = torch.Generator().manual_seed(351)
SIZES = (8, 0, 13, 1, 6)
REG2 = [(torch.randn(n, 2, generator=G, dtype=torch.float64), torch.randn(n, 2, generator=G, dtype=torch.float64))
        for n in SIZES]
BIN = [(torch.rand(n, generator=G, dtype=torch.float64), torch.randint(0, 2, (n,), generator=G)) for n in SIZES]


def test_multioutput_is_the_metric_of_each_output_streamed_and_merged():
    p, t = concat(REG2)
    expected = torch.tensor(sk.r2_score(t.numpy(), p.numpy(), multioutput="raw_values"))
    check_metric(partial(tl.MultioutputWrapper, tl.R2Score(), 2), REG2, expected, max_examples=3)
    mae = torch.tensor(sk.mean_absolute_error(t.numpy(), p.numpy(), multioutput="raw_values"))
    check_metric(partial(tl.MultioutputWrapper, tl.MeanAbsoluteError(), num_outputs=2), REG2, mae, max_examples=3)
    first = [(a.T, b.T) for a, b in REG2]  # the outputs along dim 0
    m = tl.MultioutputWrapper(tl.MeanAbsoluteError(), 2, output_dim=0)
    for a, b in first:
        m.update(a, b)
    assert_close(m.compute(), mae)


def test_multioutput_drops_the_nan_rows_of_each_output():
    p, t = concat(REG2)
    p = p.clone()
    p[[1, 4], 0] = float("nan")
    p[7, 1] = float("nan")
    m = tl.MultioutputWrapper(tl.MeanSquaredError(), 2)
    m.update(p, t)
    keep0, keep1 = ~torch.isnan(p[:, 0]), ~torch.isnan(p[:, 1])
    expected = [sk.mean_squared_error(t[keep0, 0], p[keep0, 0]), sk.mean_squared_error(t[keep1, 1], p[keep1, 1])]
    assert_close(m.compute(), torch.tensor(expected))
    with pytest.raises(ValueError, match=r"Expected `preds` to contain no NaN"):
        tl.MultioutputWrapper(tl.MeanSquaredError(), 2, remove_nans=False).update(p, t)


def test_multioutput_errors():
    check_rejects(partial(tl.MultioutputWrapper, tl.R2Score(), 2), REG2, (torch.ones(4, 3), torch.ones(4, 3)),
                  ValueError, r"Expected tensor argument 0 of MultioutputWrapper.update to have 2 entries "
                              r"\(`num_outputs`\) along dim -1 \(`output_dim`\), got shape \(4, 3\)")
    with pytest.raises(TypeError, match=r"Expected `base_metric` to be a torchmetrics_lite Metric, got str"):
        tl.MultioutputWrapper("mse", 2)
    with pytest.raises(ValueError, match=r"Expected `num_outputs` to be a positive int, got 0"):
        tl.MultioutputWrapper(tl.R2Score(), 0)


def test_minmax_tracks_the_extremes_of_the_computed_values_over_resets():
    m = tl.MinMaxMetric(tl.BinaryAccuracy())
    seen = []
    for p, t in BIN:
        if not t.numel():
            continue
        m.reset()
        m.update(p, t)
        out = m.compute()
        seen.append(((p >= 0.5).long() == t).double().mean().item())
        assert out["raw"].item() == pytest.approx(seen[-1])
        assert (out["min"].item(), out["max"].item()) == pytest.approx((min(seen), max(seen)))
    with pytest.raises(ValueError, match=r"Expected MulticlassAccuracy's value to be a single number for "
                                         r"MinMaxMetric, got \(3,\)"):
        bad = tl.MinMaxMetric(tl.MulticlassAccuracy(num_classes=3, average=None))
        bad.update(torch.tensor([0, 1, 2]), torch.tensor([0, 1, 1]))
        bad.compute()
    with pytest.raises(TypeError, match=r"Expected `base_metric` to be a torchmetrics_lite Metric"):
        tl.MinMaxMetric(3)


def test_multitask_routes_each_task_and_checks_the_keys():
    p, t = concat(BIN)
    rp, rt = concat(REG2)
    tasks = tl.MultitaskWrapper({"cls": tl.BinaryAccuracy(),
                                 "reg": tl.MetricCollection([tl.MeanSquaredError(), tl.MeanAbsoluteError()])},
                                prefix="val_")
    assert list(tasks.keys()) == ["val_cls", "val_reg_MeanSquaredError", "val_reg_MeanAbsoluteError"]
    tasks.update({"cls": p, "reg": rp[:, 0]}, {"cls": t, "reg": rt[:, 0]})
    out = tasks.compute()
    assert out["val_cls"].item() == pytest.approx(sk.accuracy_score(t.numpy(), (p >= 0.5).numpy()))
    assert out["val_reg"]["MeanSquaredError"].item() == pytest.approx(sk.mean_squared_error(rt[:, 0], rp[:, 0]))
    before = {k: v.clone() for k, v in tasks.task_metrics["cls"].local_state().items()}
    with pytest.raises(ValueError, match=r"Expected `task_targets` to be a dict with the keys \['cls', 'reg'\] "
                                         r"\(one per task\), got \['cls'\]"):
        tasks.update({"cls": p, "reg": rp[:, 0]}, {"cls": t})
    assert all(torch.equal(before[k], v) for k, v in tasks.task_metrics["cls"].local_state().items())
    assert list(tasks.clone(prefix="test_").compute()) == ["test_cls", "test_reg"]
    with pytest.raises(TypeError, match=r"Expected `task_metrics` to map str to a Metric or MetricCollection"):
        tl.MultitaskWrapper({"a": 1})


tm = pytest.importorskip("torchmetrics")


def test_the_same_values_as_torchmetrics_wrappers():
    p, t = concat(REG2)
    for ours, theirs in ((tl.MultioutputWrapper(tl.R2Score(), 2), tm.wrappers.MultioutputWrapper(tm.R2Score(), 2)),
                         (tl.MultioutputWrapper(tl.MeanSquaredError(), 2),
                          tm.wrappers.MultioutputWrapper(tm.MeanSquaredError(), 2))):
        for a, b in REG2:
            if a.numel():
                ours.update(a, b)
                theirs.update(a, b)
        assert_close(ours.compute(), theirs.compute(), rtol=1e-6)
    ours_mm = tl.MinMaxMetric(tl.BinaryAccuracy())
    theirs_mm = tm.wrappers.MinMaxMetric(tm.classification.BinaryAccuracy())
    for a, b in BIN:
        if a.numel():
            for m in (ours_mm, theirs_mm):
                m.reset()
                m.update(a, b)
            assert_close(ours_mm.compute(), theirs_mm.compute(), rtol=1e-6)
    ours_mt = tl.MultitaskWrapper({"c": tl.BinaryAccuracy(), "r": tl.MeanSquaredError()}, postfix="/v")
    theirs_mt = tm.wrappers.MultitaskWrapper({"c": tm.classification.BinaryAccuracy(), "r": tm.MeanSquaredError()},
                                             postfix="/v")
    bp, bt = concat(BIN)
    for m in (ours_mt, theirs_mt):
        m.update({"c": bp, "r": p[:, 0]}, {"c": bt, "r": t[:, 0]})
    assert_close(ours_mt.compute(), theirs_mt.compute(), rtol=1e-6)
    assert np.isfinite(ours_mt.compute()["r/v"].item())
