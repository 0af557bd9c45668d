"""The port surface (issue 21 items 5-7, 9-14): what a torchmetrics user's code touches besides the numbers.
Every test runs the same snippet through torchmetrics 1.9 and through us, and pins the same value or the
documented difference."""

import pytest
import torch

import torchmetrics_lite as ours

tm = pytest.importorskip("torchmetrics")
import torchmetrics.classification as tm_classification  # noqa: E402  (after the importorskip)

GEN = torch.Generator().manual_seed(21)
PREDS = torch.rand(50, generator=GEN)
TARGET = (torch.rand(50, generator=GEN) < PREDS).long()
MC_PROBS = torch.rand(60, 4, generator=GEN).softmax(1)
MC_TARGET = torch.randint(0, 4, (60,), generator=GEN)


# ---------------------------------------------------------------------------------------------- 5: result dtype
@pytest.mark.parametrize("name, args, kwargs", [
    ("BinaryAccuracy", (PREDS, TARGET), {}),
    ("BinaryF1Score", (PREDS, TARGET), {}),
    ("MulticlassPrecision", (MC_PROBS, MC_TARGET), {"num_classes": 4}),
    ("BinaryAUROC", (PREDS, TARGET), {}),
    ("MeanMetric", (PREDS,), {}),
])
def test_set_dtype_float32_gives_the_correctly_rounded_float32_of_the_exact_value(name, args, kwargs):
    theirs = getattr(tm_classification, name, None) or getattr(tm, name)
    t = theirs(**kwargs)
    t.update(*args)
    expected_tm = t.compute()
    m = getattr(ours, name)(**kwargs)
    assert m.dtype == torch.float64  # our default: exact
    assert m.set_dtype(torch.float32) is m and m.dtype == torch.float32
    m.update(*args)
    value = m.compute()
    exact = getattr(ours, name)(**kwargs)
    exact.update(*args)
    exact_value = exact.compute()
    assert exact_value.dtype == torch.float64 and value.dtype == torch.float32 == expected_tm.dtype
    assert value.item() == exact_value.float().item()  # float64 -> float32 casts round to nearest
    assert torch.isclose(value, expected_tm)  # torchmetrics' own float32 arithmetic: within a few ulp
    assert m.state_defaults and all(m.local_state()[k].dtype == exact.local_state()[k].dtype
                                    for k in m.state_reductions)  # states keep their exact types
    assert m(*args).dtype == torch.float32  # forward too


def test_set_dtype_makes_torchmetrics_comparisons_work():
    m = ours.BinaryAccuracy()
    m.update(torch.tensor([0.9, 0.8, 0.1]), torch.tensor([1, 1, 1]))
    with pytest.raises(RuntimeError, match="Double did not match Float"):  # the crash, by default
        torch.isclose(m.compute(), torch.tensor(2 / 3))
    assert torch.isclose(m.set_dtype(torch.float32).compute(), torch.tensor(2 / 3))
    assert m.set_dtype("float64").compute().dtype == torch.float64  # by name too; back to exact


def test_set_dtype_on_a_collection_and_integer_results():
    def run(lib, dtype):
        mc = lib.MetricCollection({"acc": lib.MulticlassAccuracy(num_classes=4),
                                   "cm": lib.MulticlassConfusionMatrix(num_classes=4)}).set_dtype(dtype)
        batch = mc(MC_PROBS, MC_TARGET)
        return batch, mc.compute()

    tm_lib = type("L", (), {"MetricCollection": tm.MetricCollection,
                            "MulticlassAccuracy": tm_classification.MulticlassAccuracy,
                            "MulticlassConfusionMatrix": tm_classification.MulticlassConfusionMatrix})
    (_tm_batch, tm_total), (batch, total) = run(tm_lib, torch.float32), run(ours, torch.float32)
    assert batch["acc"].dtype == total["acc"].dtype == tm_total["acc"].dtype == torch.float32
    torch.testing.assert_close(total["acc"], tm_total["acc"])
    assert total["cm"].dtype == torch.int64  # counts stay integers (torchmetrics: float32 here)
    assert torch.equal(total["cm"], tm_total["cm"].long())


def test_set_dtype_half_precision_is_correctly_rounded():
    m = ours.MeanMetric().set_dtype(torch.float16)
    x = torch.tensor(1 + 2**-11 + 2**-40, dtype=torch.float64)  # just above a float16 tie: a float32 cast lands on it
    m.update(x)
    assert m.compute().dtype == torch.float16 and m.compute().item() == 1 + 2**-10


def test_set_dtype_rejects_a_non_floating_dtype():
    with pytest.raises(ValueError, match=r"Expected `dst_type` to be a floating torch.dtype .* got torch.int64"):
        ours.MeanMetric().set_dtype(torch.int64)
    with pytest.raises(ValueError, match=r"Expected `dst_type` .* got 'floaty'"):
        ours.MetricCollection({"m": ours.MeanMetric()}).set_dtype("floaty")


# ---------------------------------------------------------------------------------------------- 6: overridden hooks
def _subclasses(lib_accuracy):
    class DropExtra(lib_accuracy):
        def update(self, preds, target, extra):  # torchmetrics' pattern: a wrapper that drops an argument
            super().update(preds, target)

    class Doubled(lib_accuracy):
        def compute(self):
            return super().compute() * 2

    return DropExtra, Doubled


def test_forward_honours_an_overridden_update_and_compute():
    batches = [(PREDS[:20], TARGET[:20]), (PREDS[20:], TARGET[20:])]
    results = {}
    for lib, cls in (("tm", tm_classification.BinaryAccuracy), ("ours", ours.BinaryAccuracy)):
        drop, doubled = _subclasses(cls)
        a, d = drop(), doubled()
        steps = [v for p, t in batches for v in (a(p, t, "unused").item(), d(p, t).item())]
        results[lib] = steps, a.compute().item(), d.compute().item(), a.update_count if lib == "ours" else None
    tm_steps, tm_a, tm_d, _ = results["tm"]
    steps, a, d, count = results["ours"]
    assert steps == pytest.approx(tm_steps) and a == pytest.approx(tm_a) and d == pytest.approx(tm_d)
    assert count == 2
    exact = ours.functional.binary_accuracy(PREDS, TARGET).item()
    assert a == pytest.approx(exact, abs=1e-15) and d == pytest.approx(2 * exact, abs=1e-15)


def test_an_overridden_update_in_a_collection_and_a_rejected_batch():
    drop, _ = _subclasses(ours.BinaryAccuracy)
    mc = ours.MetricCollection({"drop": drop(), "plain": ours.BinaryAccuracy()})
    values = mc(PREDS, TARGET, extra=None)
    assert values["drop"].item() == values["plain"].item()
    m = drop()
    m.update(PREDS, TARGET, None)
    before = m.compute().item()
    with pytest.raises(ValueError, match="target"):
        m(PREDS[:3], torch.tensor([0, 1, 5]), None)
    assert m.compute().item() == before and m.update_count == 1  # the state is as it was
