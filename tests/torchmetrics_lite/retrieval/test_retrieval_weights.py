"""Per-query ``weight`` of ``retrieval_normalized_dcg`` / ``retrieval_dcg`` (scikit-learn's ``sample_weight`` of
``ndcg_score`` / ``dcg_score``): the weighted mean over counted queries, exact against scikit-learn on tied,
graded input at every ``k``, on both kernels; its rules (ones, scaling, zero weights, ``empty``, ``mask``) and
every error it raises."""
from functools import partial

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import dcg_score, ndcg_score

from tests.helpers.compile import check_compiles
from tests.helpers.metric_tester import assert_close
from tests.helpers.no_float64 import assert_float32_close, float64_less_cpu
from torchmetrics_lite import RetrievalNormalizedDCG, _backend
from torchmetrics_lite.functional import retrieval_dcg, retrieval_normalized_dcg

FNS = {"ndcg": (retrieval_normalized_dcg, ndcg_score), "dcg": (retrieval_dcg, dcg_score)}
G = torch.Generator().manual_seed(35)
Q, N = 12, 7
PREDS = torch.randint(0, 4, (Q, N), generator=G).double()  # many ties
GRADES = torch.randint(0, 4, (Q, N), generator=G)
GRADES[2] = 0  # a query without a relevant item
WEIGHT = torch.rand(Q, generator=G, dtype=torch.float64) * 3


def _f64(value):
    """scikit-learn's Python float as a float64 tensor (``torch.as_tensor`` would round it to float32)."""
    return torch.tensor(value, dtype=torch.float64)


@pytest.fixture(params=["numpy", "torch"])
def backend(request):
    """Both kernels (numpy's packed sorts on CPU; torch's, as on CUDA and under compile)."""
    with _backend.force(request.param):
        yield request.param


# ------------------------------------------------------------------------------------------------ sklearn
@st.composite
def _queries(draw):
    q, n = draw(st.integers(2, 8)), draw(st.integers(2, 9))
    tied = draw(st.booleans())
    seed = draw(st.integers(0, 2**31 - 1))
    g = torch.Generator().manual_seed(seed)
    preds = torch.randint(0, 3, (q, n), generator=g).double() if tied else torch.randn(q, n, generator=g).double()
    graded = draw(st.sampled_from(["binary", "graded", "fractional"]))
    target = torch.randint(0, 2 if graded == "binary" else 5, (q, n), generator=g).double()
    if graded == "fractional":
        target = target * torch.rand(q, n, generator=g, dtype=torch.float64)
    weight = torch.rand(q, generator=g, dtype=torch.float64) * 4
    weight[torch.rand(q, generator=g) < 0.25] = 0.0  # some queries weigh nothing
    weight[draw(st.integers(0, q - 1))] = draw(st.floats(0.1, 10.0))  # at least one query weighs something
    k = draw(st.sampled_from([None, 1, 2, 3, n, n + 2]))
    return preds, target, weight, k


@pytest.mark.parametrize("name", sorted(FNS))
@pytest.mark.parametrize("force", ["numpy", "torch"])
@settings(deadline=None, max_examples=40)
@given(case=_queries())
def test_weighted_value_is_scikit_learns(name, force, case):
    preds, target, weight, k = case
    ours, oracle = FNS[name]
    want = oracle(target.numpy(), preds.numpy(), k=k, sample_weight=weight.numpy())
    with _backend.force(force):
        got = ours(preds, target, weight=weight, k=k)
    assert got.dtype == torch.float64 and got.shape == ()
    assert_close(got, _f64(want), atol=1e-12, rtol=1e-12)


@pytest.mark.parametrize("name", sorted(FNS))
@pytest.mark.parametrize("k", [None, 1, 3, N])
def test_fixed_tied_graded_input_matches_scikit_learn_with_integer_and_float_weights(name, k, backend):
    ours, oracle = FNS[name]
    for w in (WEIGHT, torch.arange(Q) % 3, WEIGHT.float()):  # float64, int64 (zeros among them), float32
        want = oracle(GRADES.numpy(), PREDS.numpy(), k=k, sample_weight=w.double().numpy())
        assert_close(ours(PREDS, GRADES, weight=w, k=k), _f64(want), atol=1e-12, rtol=1e-12)
    # the exponential gain is scikit-learn's on the transformed grades
    want = oracle(2.0 ** GRADES.numpy() - 1, PREDS.numpy(), k=k, sample_weight=WEIGHT.numpy())
    assert_close(ours(PREDS, GRADES, weight=WEIGHT, k=k, gain="exponential"), _f64(want), atol=1e-12, rtol=1e-12)


# ------------------------------------------------------------------------------------------------ rules
@pytest.mark.parametrize("name", sorted(FNS))
@pytest.mark.parametrize("empty", ["zero", "skip", "one"])
def test_ones_give_the_unweighted_mean_and_scaling_changes_nothing(name, empty, backend):
    fn = FNS[name][0]
    plain = fn(PREDS, GRADES, empty=empty, k=4)
    assert_close(fn(PREDS, GRADES, weight=torch.ones(Q), empty=empty, k=4), plain, atol=1e-14, rtol=1e-14)
    assert_close(fn(PREDS, GRADES, weight=torch.ones(Q, dtype=torch.int64), empty=empty, k=4), plain,
                 atol=1e-14, rtol=1e-14)
    weighted = fn(PREDS, GRADES, weight=WEIGHT, empty=empty, k=4)
    for scale in (1e-3, 7.0, 1e6):
        assert_close(fn(PREDS, GRADES, weight=WEIGHT * scale, empty=empty, k=4), weighted, atol=1e-13, rtol=1e-13)


@pytest.mark.parametrize("name", sorted(FNS))
def test_the_weighted_mean_of_the_per_query_values(name, backend):
    fn = FNS[name][0]
    for empty in ("zero", "skip", "one"):
        values = fn(PREDS, GRADES, empty=empty, reduction="none")
        counted = ~torch.isnan(values)  # empty="skip": query 2 counts in neither sum
        want = (values[counted] * WEIGHT[counted]).sum() / WEIGHT[counted].sum()
        assert_close(fn(PREDS, GRADES, weight=WEIGHT, empty=empty), want, atol=1e-14, rtol=1e-13)


@pytest.mark.parametrize("name", sorted(FNS))
def test_a_zero_weight_drops_its_query(name, backend):
    fn = FNS[name][0]
    weight = WEIGHT.clone()
    weight[[0, 5]] = 0.0
    keep = weight > 0
    want = fn(PREDS[keep], GRADES[keep], weight=weight[keep], k=3)
    assert_close(fn(PREDS, GRADES, weight=weight, k=3), want, atol=1e-14, rtol=1e-13)
    garbage = PREDS.clone()
    garbage[[0, 5]] = torch.randn(2, N, generator=G, dtype=torch.float64)  # what a dropped query holds: no matter
    assert_close(fn(garbage, GRADES, weight=weight, k=3), want, atol=1e-14, rtol=1e-13)
    one = torch.zeros(Q)
    one[7] = 2.5
    assert_close(fn(PREDS, GRADES, weight=one), fn(PREDS[7], GRADES[7]), atol=1e-14, rtol=1e-14)


@pytest.mark.parametrize("name", sorted(FNS))
def test_all_zero_weights_give_nan_where_scikit_learn_raises(name, backend):
    ours, oracle = FNS[name]
    with pytest.raises(ZeroDivisionError):
        oracle(GRADES.numpy(), PREDS.numpy(), sample_weight=np.zeros(Q))
    assert torch.isnan(ours(PREDS, GRADES, weight=torch.zeros(Q)))
    # the weight left only on a skipped query (no relevant item): nothing counted, nan
    only_empty = torch.zeros(Q)
    only_empty[2] = 1.0
    assert torch.isnan(ours(PREDS, GRADES, weight=only_empty, empty="skip"))
    assert ours(PREDS, GRADES, weight=only_empty, empty="zero") == 0
    assert ours(PREDS, GRADES, weight=only_empty, empty="one") == 1


@pytest.mark.parametrize("name", sorted(FNS))
def test_mask_and_ignore_index_rows_and_one_dense_query(name, backend):
    fn = FNS[name][0]
    mask = torch.rand(Q, N, generator=G) < 0.7
    mask[4] = False  # a row without a real item is no query: its weight counts nowhere
    values = fn(PREDS, GRADES, mask=mask, reduction="none")
    counted = ~torch.isnan(values)
    assert not counted[4]
    want = (values[counted] * WEIGHT[counted]).sum() / WEIGHT[counted].sum()
    assert_close(fn(PREDS, GRADES, mask=mask, weight=WEIGHT), want, atol=1e-14, rtol=1e-13)
    values = fn(PREDS, GRADES, ignore_index=1, reduction="none")
    counted = ~torch.isnan(values)
    want = (values[counted] * WEIGHT[counted]).sum() / WEIGHT[counted].sum()
    assert_close(fn(PREDS, GRADES, ignore_index=1, weight=WEIGHT), want, atol=1e-14, rtol=1e-13)
    # 1-D input is one query: one weight, shape (1,)
    assert_close(fn(PREDS[1], GRADES[1], weight=torch.tensor([4.0])), fn(PREDS[1], GRADES[1]), atol=0, rtol=0)
    assert torch.isnan(fn(PREDS[1], GRADES[1], weight=torch.tensor([0.0])))


def test_weighted_dense_functions_compile_without_a_graph_break():
    for name, k in (("ndcg", 4), ("dcg", None)):
        fn = partial(FNS[name][0], k=k, validate_args=False)
        check_compiles(lambda p, t, w, m, fn=fn: fn(p, t, weight=w, mask=m), PREDS, GRADES, WEIGHT,
                       torch.rand(Q, N, generator=G) < 0.8)


def test_weighted_on_a_device_without_float64(monkeypatch):
    p, t, w = PREDS.float(), GRADES, WEIGHT.float()
    want = {name: FNS[name][0](PREDS, GRADES, weight=WEIGHT, k=3) for name in FNS}
    with float64_less_cpu(monkeypatch):
        got = {name: FNS[name][0](p, t, weight=w, k=3) for name in FNS}
    assert_float32_close(got, want)


# ------------------------------------------------------------------------------------------------ errors
@pytest.mark.parametrize("name", sorted(FNS))
def test_bad_weights_raise_naming_weight_what_was_expected_and_what_came(name):
    fn = FNS[name][0]
    cases = [
        (torch.ones(Q - 1), ValueError, r"`weight` to hold one value per query \(row of `preds`\), shape \(12,\), "
                                        r"got shape \(11,\)"),
        (torch.ones(Q, 1), ValueError, r"one value per query .* shape \(12,\), got shape \(12, 1\)"),
        (torch.ones(()), ValueError, r"one value per query .* got shape \(\)"),
        ([1.0] * Q, TypeError, r"Expected `weight` to be a torch.Tensor, got list"),
        (torch.ones(Q, dtype=torch.bool), TypeError, r"`weight` to have a real .* non-bool dtype, got torch.bool"),
        (torch.ones(Q, dtype=torch.complex64), TypeError, r"`weight` to have a real .* got torch.complex64"),
        (torch.ones(Q, device="meta"), ValueError, r"`weight` on the inputs' device cpu, got meta"),
        (torch.tensor([1.0] * (Q - 1) + [-0.5]), ValueError, r"`weight` to be non-negative and finite, got value -0.5"),
        (torch.tensor([1.0] * (Q - 1) + [float("nan")]), ValueError, r"non-negative and finite, got value nan"),
        (torch.tensor([float("inf")] + [1.0] * (Q - 1)), ValueError, r"non-negative and finite, got value inf"),
    ]
    for weight, error, message in cases:
        with pytest.raises(error, match=message):
            fn(PREDS, GRADES, weight=weight)
    with pytest.raises(ValueError, match=r"one value per query .* shape \(1,\), got shape \(2,\)"):
        fn(PREDS[0], GRADES[0], weight=torch.ones(2))  # 1-D input: one query


@pytest.mark.parametrize("name", sorted(FNS))
def test_weight_with_flat_input_or_per_query_output_raises(name):
    fn = FNS[name][0]
    flat = (PREDS.reshape(-1), GRADES.reshape(-1))
    ids = torch.arange(Q).repeat_interleave(N)
    with pytest.raises(ValueError, match=r"Expected `weight` \(one value per query\) with dense \(queries, items\) "
                                         r"`preds` and `target` and indexes=None, got flat input with `indexes`"):
        fn(*flat, indexes=ids, weight=WEIGHT)
    with pytest.raises(ValueError, match=r"Expected reduction='mean' with `weight` \(the weighted mean over "
                                         r"queries\), got reduction='none'"):
        fn(PREDS, GRADES, weight=WEIGHT, reduction="none")
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'sample_weight'; did you mean `weight`"):
        fn(PREDS, GRADES, sample_weight=WEIGHT)


def test_weight_checks_run_before_anything_is_computed_and_validate_args_skips_the_value_check():
    nan_scores = PREDS.clone()
    nan_scores[0, 0] = float("nan")
    negative = -WEIGHT
    with pytest.raises(ValueError, match=r"`weight` to be non-negative"):  # before the scores' NaN check
        retrieval_normalized_dcg(nan_scores, GRADES, weight=negative)
    with pytest.raises(ValueError, match=r"Expected `empty` to be one of"):  # the options come first
        retrieval_normalized_dcg(PREDS, GRADES, weight=negative, empty="never")
    with pytest.raises(ValueError, match=r"one value per query"):  # the shape check always runs
        retrieval_dcg(PREDS, GRADES, weight=torch.ones(3), validate_args=False)
    retrieval_dcg(PREDS, GRADES, weight=negative, validate_args=False)  # the value check (a host sync) does not


def test_modules_take_no_weight():
    metric = RetrievalNormalizedDCG()
    with pytest.raises(TypeError, match=r"RetrievalNormalizedDCG.update\(.*\) got an unexpected keyword argument "
                                        r"'weight'"):
        metric.update(PREDS, GRADES, weight=WEIGHT)
