"""Smoke test of the learning-to-rank quality benchmark (``--quick``) and of its pieces: the synthetic teacher set is
seeded and graded as documented, and the judging says "no clear win" unless the gap beats one sd."""
import torch

from benchmarks import bench_ltr_quality as B


def test_quick_run_prints_the_table(capsys):
    threads = torch.get_num_threads()
    try:
        B.main(["--quick"])
    finally:
        torch.set_num_threads(threads)  # the benchmark pins 1 thread
    out = capsys.readouterr().out
    assert "| MSE | - |" in out and "| LambdaRank@10 | NDCG@10 |" in out and "vs best baseline" in out


def test_synthetic_set_is_seeded_and_graded_by_the_quantiles():
    (x, rel, mask), (xt, relt, _), clean = B.synthetic(400, 100)
    (x2, rel2, _), _, _ = B.synthetic(400, 100)
    assert torch.equal(x, x2) and torch.equal(rel, rel2) and mask.all()
    assert x.shape == (400, 30, 24) and xt.shape == (100, 30, 24) and clean.shape == (100, 30)
    freq = torch.stack([(rel == g).float().mean() for g in range(5)])
    torch.testing.assert_close(freq, torch.tensor([0.6, 0.2, 0.12, 0.06, 0.02]), atol=1e-3, rtol=0)


def test_verdict_needs_a_gap_above_one_sd():
    res = {"MSE": {"NDCG@10": [0.5, 0.5]}, "sigmoid CE": {"NDCG@10": [0.4, 0.4]}, "softmax CE": {"NDCG@10": [0.3, 0.3]},
           "a": {"NDCG@10": [0.60, 0.62]}, "b": {"NDCG@10": [0.45, 0.65]}}
    assert B.verdict(res, "a", "NDCG@10").startswith("wins (+0.1100 vs MSE")
    assert B.verdict(res, "b", "NDCG@10").startswith("no clear win (+0.0500 vs MSE, 1 sd = 0.1000)")
