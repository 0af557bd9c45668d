"""The stateful X-risk losses on 2 gloo ranks (one spawn for the module): the estimators are synced (every rank
holds the same state after every step, whichever rank saw a sample), the rows equal a single process that applies
each rank's batch in turn, and each rank's loss is the loss of its own batch; a rank whose batch has no positive
still takes part in the exchange."""
import copy

import pytest
import torch

import losses
from tests.helpers.distributed import spawn

N = 48
STEPS = 3


def _makers():
    return {
        "soap": lambda: losses.SOAPLoss(N),
        "dro": lambda: losses.PartialAUCDROLoss(N),
        "cvar": lambda: losses.PartialAUCCVaRLoss(N, max_fpr=0.3),
        "two_way": lambda: losses.TwoWayPartialAUCLoss(N, tau=0.5),
        "song": lambda: losses.SONGNDCGLoss(N, 8, num_items=20, k=3, eta=0.3),
        "compositional": lambda: losses.CompositionalAUCLoss(k=1),
    }


def _batch(step, rank):
    """Rank ``rank``'s batch at ``step``: disjoint ids over the ranks within a step; a sample moves between the
    ranks from one step to the next (as with a reshuffling DistributedSampler). Rank 1 gets more rows."""
    g = torch.Generator().manual_seed(100 + step)
    perm = torch.randperm(N, generator=g)
    idx = perm[:10] if rank == 0 else perm[10:26]
    y = (torch.rand(idx.numel(), generator=torch.Generator().manual_seed(7 * step + rank)) < 0.4).long()
    y[0], y[1] = 1, 0
    if step == 1 and rank == 0:
        y.zero_()  # a rank without positives still takes part in the sync (no hang), and writes nothing
    s = torch.rand(idx.numel(), generator=torch.Generator().manual_seed(11 * step + rank))
    return s, y, idx


def _lists(step, rank):
    g = torch.Generator().manual_seed(200 + 3 * step + rank)
    queries = torch.randperm(8, generator=torch.Generator().manual_seed(300 + step))
    q = queries[:3] if rank == 0 else queries[3:5]
    rel = torch.randint(0, 3, (q.numel(), 6), generator=g)
    idx = q[:, None] * 6 + torch.arange(6)[None, :]
    return (torch.rand(q.numel(), 6, generator=g), rel, idx, q, torch.full((q.numel(),), 3),
            torch.full((q.numel(),), 2.5))


def _call(name, loss_fn, step, rank):
    if name == "song":
        return loss_fn(*_lists(step, rank))
    s, y, idx = _batch(step, rank)
    return loss_fn(s, y) if name == "compositional" else loss_fn(s, y, idx)


def _ranks(rank, world_size):
    out = {}
    for name, make in _makers().items():
        loss_fn = make()
        values = [float(_call(name, loss_fn, step, rank).detach()) for step in range(STEPS)]
        out[name] = {"values": values, "state": copy.deepcopy(loss_fn.state_dict())}
    return out


@pytest.fixture(scope="module")
def per_rank():
    return spawn(_ranks, 2)


def _replay(name):
    """One process applying rank 0's batch then rank 1's at every step; the values of each, and the state."""
    loss_fn = _makers()[name]()
    values = {0: [], 1: []}
    for step in range(STEPS):
        for rank in (0, 1):
            values[rank].append(float(_call(name, loss_fn, step, rank).detach()))
    return values, loss_fn


@pytest.mark.parametrize("name", sorted(_makers()))
def test_estimators_are_synced_over_the_ranks(per_rank, name):
    for key, value in per_rank[0][name]["state"].items():
        other = per_rank[1][name]["state"][key]
        assert torch.equal(value, other) if isinstance(value, torch.Tensor) else value == other, key
    values, replay = _replay(name)
    state = per_rank[0][name]["state"]
    for key, want in replay.state_dict().items():
        got = state[key]
        if key == "w":
            continue  # the mean over both ranks' positives each step, checked below
        if key == "_extra_state":
            assert got == {"steps": STEPS} and want == {"steps": 2 * STEPS}  # each rank counts its own calls
        elif key in ("u", "u_all", "u_pos", "threshold"):
            torch.testing.assert_close(got, want, rtol=1e-6, atol=1e-7)
            assert float(got.abs().sum()) > 0
    if name not in ("two_way", "compositional"):  # each rank: the loss of its own batch on the state before the step
        for rank in (0, 1):
            assert per_rank[rank][name]["values"] == pytest.approx(values[rank], rel=1e-5, abs=1e-7)


def test_two_way_w_is_the_mean_over_every_ranks_positives(per_rank):
    torch.manual_seed(0)
    u = torch.zeros(N)
    w = torch.zeros(())
    for step in range(STEPS):
        rows = []
        for rank in (0, 1):
            s, y, idx = _batch(step, rank)
            pos = y != 0
            if not pos.any():
                continue
            pair = (1.0 - (s[pos][:, None] - s[~pos][None, :])).clamp_min(0) ** 2
            u[idx[pos]] = 0.1 * u[idx[pos]] + 0.9 * torch.exp(pair).mean(1)
            rows.append(u[idx[pos]] ** 2.0)  # power temperature / tau = 2
        w = 0.1 * w + 0.9 * torch.cat(rows).mean()
    for rank in (0, 1):
        torch.testing.assert_close(per_rank[rank]["two_way"]["state"]["w"], w, rtol=1e-5, atol=1e-6)
        torch.testing.assert_close(per_rank[rank]["two_way"]["state"]["u"], u, rtol=1e-5, atol=1e-6)
