"""Every example runs, on reduced settings, and produces what it promises."""
import importlib.util
import os
import re
import subprocess
import sys
import urllib.request

import numpy as np
import torch

from tests.helpers.distributed import free_port

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")


def load(name):
    if EXAMPLES not in sys.path:
        sys.path.insert(0, EXAMPLES)
    spec = importlib.util.spec_from_file_location(name, os.path.join(EXAMPLES, f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_quickstart_values_match_scikit_learn(capsys):
    from sklearn.metrics import accuracy_score, average_precision_score, f1_score, ndcg_score, roc_auc_score

    mod = load("quickstart")
    got = mod.main()
    assert "AUROC streamed" in capsys.readouterr().out
    batches = mod.make_classifier_batches()
    logits = torch.cat([b[0] for b in batches]).numpy()
    labels = torch.cat([b[1] for b in batches]).numpy()
    assert abs(got["val/auroc"] - roc_auc_score(labels, logits)) < 1e-12
    assert abs(got["val/ap"] - average_precision_score(labels, logits)) < 1e-12
    assert abs(got["val/f1"] - f1_score(labels, logits > 0)) < 1e-12  # from_logits=True: threshold 0
    assert abs(got["val/acc"] - accuracy_score(labels, logits > 0)) < 1e-12
    _, relevance = mod.make_ranking_data()
    scores = torch.randn(relevance.shape, generator=torch.Generator().manual_seed(3)).numpy()
    rel = relevance.numpy()
    assert abs(got["ndcg@10"] - ndcg_score(rel, scores, k=10)) < 1e-12
    ap = np.mean([average_precision_score(r > 0, s) for r, s in zip(rel, scores)])  # no tied scores
    assert abs(got["map"] - ap) < 1e-12
    assert got["ndcg_after"] > got["ndcg_before"] + 0.2  # the surrogate trains what NDCG measures


def test_ddp_validation_on_two_nodes_of_two_ranks_under_torchrun():
    """The README's multi-node recipe: torchrun with the c10d rendezvous started twice on loopback (two "nodes" of
    two ranks each, the last rank without data); every family's synced value equals the single-process value."""
    import re

    env = dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS="1")
    command = [sys.executable, "-m", "torch.distributed.run", "--nnodes=2", "--nproc-per-node=2",
               "--rdzv-backend=c10d", f"--rdzv-endpoint=127.0.0.1:{free_port()}", "--rdzv-id=ddp-validation",
               os.path.join(EXAMPLES, "ddp_validation.py")]
    nodes = [subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    outputs = [node.communicate(timeout=300) for node in nodes]
    for node, (out, err) in zip(nodes, outputs):
        assert node.returncode == 0, out + err
    out = "".join(o for o, _ in outputs)
    lines = dict(re.findall(r"\[rank (\d)/4\] rows \d+:\d+ -> ([^\[\n]*)", out))  # one line per rank
    assert sorted(lines) == ["0", "1", "2", "3"], out
    assert len(set(lines.values())) == 1, lines  # every rank computed the same global values
    for family in ("auroc", "ap", "f1", "mse", "acc", "macro_f1", "multiclassaccuracy_4", "ndcg@10"):
        assert f"{family} " in lines["0"], lines["0"]
    assert "synced values match the single-process values" in out, out


def test_ddp_validation_shards_are_uneven_and_cover_everything():
    mod = load("ddp_validation")
    for world in (1, 2, 3, 4):
        bounds = [mod.shard_bounds(r, world) for r in range(world)]
        assert bounds[0][0] == 0 and max(hi for _, hi in bounds) == mod.N
        assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:]))
    assert mod.shard_bounds(2, 3) == (mod.N, mod.N)  # an empty rank


def test_train_ranker_synthetic_improves_over_random():
    mod = load("train_ranker")
    results = mod.main(epochs=4, synthetic=True, verbose=False)
    assert set(results) == {"LambdaRank@10", "MSE (pointwise baseline)"}
    _, test, _ = mod.load_data(synthetic=True)
    from torchmetrics_lite.functional import retrieval_normalized_dcg

    random_ndcg = retrieval_normalized_dcg(torch.rand(test[1].shape), test[1], mask=test[2], k=10).item()
    for r in results.values():
        assert set(r) == {"ndcg@10", "map", "mrr"}
        assert r["ndcg@10"] > random_ndcg + 0.1  # trained models beat random scores clearly


def test_train_ranker_falls_back_when_offline(monkeypatch, tmp_path, capsys):
    mod = load("train_ranker")
    monkeypatch.setenv("TML_CACHE", str(tmp_path))

    def offline(*args, **kwargs):
        raise OSError("no network")

    monkeypatch.setattr(urllib.request, "urlopen", offline)
    train, test, name = mod.load_data(synthetic=False)
    assert name.startswith("synthetic")
    assert "could not fetch the MSLR sample" in capsys.readouterr().out


def test_svmlight_parsing_and_padding(tmp_path):
    mod = load("train_ranker")
    path = tmp_path / "tiny.txt"
    path.write_text("2 qid:7 1:0.5 3:1\n0 qid:7 2:2\n1 qid:3 1:-1 # comment\n")
    x, rel, qid = mod.parse_svmlight(str(path), n_features=3)
    np.testing.assert_array_equal(x, [[0.5, 0, 1], [0, 2, 0], [-1, 0, 0]])
    assert rel.tolist() == [2, 0, 1] and qid.tolist() == [7, 7, 3]
    feats, relevance, mask = mod.to_lists(x, rel, qid)
    assert mask.tolist() == [[True, False], [True, True]]  # query 3 first (sorted ids), then query 7
    assert relevance.tolist() == [[1, 0], [2, 0]] and feats[1, 1, 1].item() == 2


def test_imbalanced_auc_writes_plots(tmp_path):
    mod = load("imbalanced_auc")
    results = mod.main(out_dir=str(tmp_path), steps=60, verbose=False, seeds=2)
    assert set(results) == {"BCE", "soft-AUC", "AUC-M"}
    for r in results.values():  # 1% positives of make_classification: about 0.78-0.82 after 300 steps
        assert 0.7 < r["auroc"] <= 1 and 0 <= r["ece"] <= 1 and r["auroc_sd"] >= 0
    pngs = sorted(p.name for p in tmp_path.iterdir())
    assert pngs == sorted(mod.PLOT_FILES) == ["precision_recall.png", "reliability.png", "roc.png"]


def test_demo_end_to_end(tmp_path, capsys):
    mod = load("demo")
    assert mod.main(out_dir=str(tmp_path), ranker_epochs=2, auc_steps=30, synthetic=True) == 0
    out = capsys.readouterr().out
    assert "| LambdaRank@10 |" in out and "| MSE (pointwise baseline) |" in out and "| AUC-M |" in out
    assert str(tmp_path) in out
    assert "predicted positive" in out and "F1 at p >= 0.5" in out  # a 0 F1 comes with its reason
    last = out.strip().splitlines()[-1]  # the run's own time and the machine's load
    assert re.fullmatch(r"Demo time: [\d.]+ s wall clock .*, [\d.]+ s CPU; load average [\d.]+ / [\d.]+ / [\d.]+ "
                        r"\(1 / 5 / 15 min\) on \d+ CPUs", last), last
