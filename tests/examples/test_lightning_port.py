"""The Lightning script written for torchmetrics (``examples/lightning_port.py``), run as it is and with only its
import line changed to torchmetrics_lite, on one process and on two DDP processes (gloo, CPU): both log the same
numbers (float32 against float64), through ``self.log(name, metric)`` with no extra import, a ``ModelCheckpoint``
monitoring ``val/auroc`` and a resume from the last checkpoint. The four runs go concurrently."""
import json
import os
import subprocess
import sys

import pytest

from tests.helpers.distributed import free_ports

pytest.importorskip("pytorch_lightning")
pytest.importorskip("torchmetrics")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "examples", "lightning_port.py")
IMPORT_LINE = "import torchmetrics  # the port: import torchmetrics_lite as torchmetrics\n"


def _ported(tmp_path):
    """The script with its import line changed, and nothing else."""
    source = open(SCRIPT).read()
    assert source.count(IMPORT_LINE) == 1
    ported = tmp_path / "lightning_port_ours.py"
    ported.write_text(source.replace(IMPORT_LINE, "import torchmetrics_lite as torchmetrics\n"))
    return str(ported)


def test_the_ported_lightning_script_logs_torchmetrics_numbers(tmp_path):
    scripts = {"torchmetrics": SCRIPT, "ours": _ported(tmp_path)}
    runs = {}
    runs_to_start = [(lib, d) for lib in scripts for d in (1, 2)]
    for port, (library, devices) in zip(free_ports(len(runs_to_start)), runs_to_start):
        out = tmp_path / f"{library}_{devices}"
        env = dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS="1", MASTER_PORT=str(port))
        runs[library, devices] = (out, subprocess.Popen(
            [sys.executable, scripts[library], str(out), str(devices)], cwd=str(tmp_path), env=env,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT))
    logged = {}
    for key, (out, process) in runs.items():
        output, _ = process.communicate(timeout=600)
        assert process.returncode == 0, output.decode()[-3000:]
        logged[key] = [json.load(open(out / f"rank{r}.json")) for r in range(key[1])]
    for devices in (1, 2):
        theirs, ours = logged["torchmetrics", devices], logged["ours", devices]
        assert theirs[0]["library"] == "torchmetrics" and ours[0]["library"] == "torchmetrics_lite"
        for rank in range(devices):
            assert ours[rank]["epochs"] == ours[0]["epochs"]  # every rank logs the synced values
            for mine, want in zip(ours[rank]["epochs"], theirs[rank]["epochs"], strict=True):
                assert set(mine) == set(want) >= {"val/acc", "val/f1", "val/precision", "val/auroc", "val/loss",
                                                  "train/acc_epoch", "best_model_score"}
                for k in want:
                    assert mine[k] == pytest.approx(want[k], rel=2e-6, abs=1e-7), (devices, rank, k)
        epochs = ours[0]["epochs"]
        assert epochs[1]["best_model_score"] == max(e["val/auroc"] for e in epochs)  # monitored across the resume
    assert logged["ours", 1][0]["epochs"] != logged["ours", 2][0]["epochs"]  # DDP did train on two shards
