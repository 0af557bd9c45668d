"""What a mutation run of ``sync.py`` and ``_identity.py`` found untested (issue 34), checked in one process: the
handshake's error texts through a stand-in for ``torch.distributed`` whose collectives fail (the labels a
failure names), and the canonical option texts that two ranks compare."""
import pytest
import torch

from torchmetrics_lite import _identity, sync


class _FailingDist:
    """Two ranks whose every collective fails in the backend (a rank died)."""

    def is_available(self):
        return True

    def is_initialized(self):
        return True

    def get_world_size(self, group=None):
        return 2

    def get_rank(self, group=None):
        return 0

    def all_gather(self, *args, **kwargs):
        raise RuntimeError("Connection closed by peer")


@pytest.mark.parametrize("n, shown", [(1, "a: the handshake"), (3, "MetricCollection of 3 (a, b, c): the"),
                                      (4, "MetricCollection of 4 (a, b, c, ...): the")])
def test_a_failed_collective_names_the_metrics(monkeypatch, n, shown):
    monkeypatch.setattr(sync, "_dist", lambda: _FailingDist())
    items = [({"n": torch.ones(2)}, {"n": "sum"}) for _ in range(n)]
    with pytest.raises(sync.SyncError) as info:
        sync.reduce_states(items, names=list("abcd"[:n]), options=[""] * n)
    assert str(info.value).startswith(shown)
    assert "handshake all_gather of the sync across ranks failed in the backend" in str(info.value)
    assert isinstance(info.value.__cause__, RuntimeError) and "Connection closed" in str(info.value.__cause__)


class _Pair(tuple):
    """A tuple subclass with ``_fields`` (as a NamedTuple): described by its ``repr``, not as a tuple."""

    _fields = ("a", "b")

    def __repr__(self):
        return f"Pair{tuple(self)}"


def test_option_texts_read_every_byte_nested_values_and_key_order():
    # every byte of a tensor: values that agree after a cast to uint8 still differ
    assert _identity.describe_value(torch.tensor([1.0])) != _identity.describe_value(torch.tensor([1.5]))
    assert _identity.describe_value(torch.tensor([256])) != _identity.describe_value(torch.tensor([0]))
    flags = torch.tensor([True, False])
    assert _identity.describe_value(flags) != _identity.describe_value(flags.flip(0))
    # inside lists and tuples each element is described (a device by its type), a 1-tuple keeps its comma
    assert _identity.describe_value([torch.device("cuda", 1), (0.5,)]) == "[device cuda, (0.5,)]"
    assert _identity.describe_value((torch.device("cuda", 0),)) == "(device cuda,)"
    assert _identity.describe_value(_Pair((1, 2))) == "Pair(1, 2)"  # named tuples: their repr
    # a dict does not depend on the order it was built in
    assert _identity.describe_value({"b": 1, "a": 2}) == _identity.describe_value({"a": 2, "b": 1})


class _Work:
    def __init__(self, log):
        self.log = log

    def wait(self, timeout=None):
        self.log.append(timeout)
        return True

    def is_completed(self):
        return True


class _MirrorDist(_FailingDist):
    """Two ranks that hold the same states: every collective succeeds and sees this rank's tensors twice."""

    def __init__(self):
        self.waits = []

    def all_gather(self, received, tensor, group=None, async_op=False):
        for r in received:
            r.copy_(tensor)
        return _Work(self.waits) if async_op else None

    def get_backend(self, group=None):
        return "gloo"

    ReduceOp = torch.distributed.ReduceOp

    def all_reduce(self, tensor, op=None, group=None):
        if op == self.ReduceOp.SUM:
            tensor.mul_(2)


def _sum_stack(stack):
    return stack.sum(0)


def test_a_sync_timeout_is_waited_as_given(monkeypatch):
    import datetime

    fake = _MirrorDist()
    monkeypatch.setattr(sync, "_dist", lambda: fake)
    sync.reduce_states([({"rows": torch.ones(3, 1)}, {"rows": "cat"})], names=["m"], options=[""], timeout=2.5)
    assert fake.waits == [datetime.timedelta(seconds=2.5)]


def test_several_fold_states_are_unpacked_at_their_own_offsets(monkeypatch):
    from torchmetrics_lite.metric import Fold

    monkeypatch.setattr(sync, "_dist", lambda: _MirrorDist())
    states = {"a": torch.tensor([1.0, 2.0, 3.0]), "b": torch.tensor([[10.0, 20.0], [30.0, 40.0]]),
              "c": torch.tensor(7.0)}
    out = sync.reduce_states([(states, dict.fromkeys(states, Fold(_sum_stack)))], names=["m"], options=[""])[0]
    assert {k: v.tolist() for k, v in out.items()} == {k: (2 * v).tolist() for k, v in states.items()}


def test_bool_states_come_back_bool(monkeypatch):
    monkeypatch.setattr(sync, "_dist", lambda: _MirrorDist())
    states = {"any": torch.tensor([True, False]), "all": torch.tensor([False, True]), "n": torch.tensor(3)}
    out = sync.reduce_states([(states, {"any": "max", "all": "min", "n": "sum"})], names=["m"], options=[""])[0]
    assert out["any"].dtype == out["all"].dtype == torch.bool
    assert out["any"].tolist() == [True, False] and out["all"].tolist() == [False, True] and out["n"].item() == 6


class _CountingMirror(_MirrorDist):
    """:class:`_MirrorDist` that counts its all_gathers and lets rank 1 claim other cat dtypes in the header."""

    def __init__(self, rank1_codes=None):
        super().__init__()
        self.gathers, self.rank1_codes = 0, rank1_codes or {}

    def all_gather(self, received, tensor, group=None, async_op=False):
        self.gathers += 1
        work = super().all_gather(received, tensor, group, async_op)
        if self.gathers == 1:  # the header: rank 1 holds the same rows in another dtype
            for slot, dtype in self.rank1_codes.items():
                word = int(received[1][4 + slot])
                received[1][4 + slot] = (word >> sync._CODE_BITS) << sync._CODE_BITS | sync._CODE[dtype]
        return work


def test_cat_states_of_one_dtype_are_unpacked_at_their_own_offsets(monkeypatch):
    fake = _CountingMirror()
    monkeypatch.setattr(sync, "_dist", lambda: fake)
    states = {"a": torch.tensor([[1.0, 2.0]]), "b": torch.tensor([[5.0, 6.0], [7.0, 8.0]]), "c": torch.zeros(0, 2)}
    out = sync.reduce_states([(states, dict.fromkeys(states, "cat"))], names=["m"], options=[""])[0]
    assert {k: v.tolist() for k, v in out.items()} == {k: torch.cat([v, v]).tolist() for k, v in states.items()}
    assert fake.gathers == 2  # the header, then one all_gather for the float32 cat states


def test_cat_states_empty_on_every_rank_need_no_gather_and_still_promote(monkeypatch):
    fake = _CountingMirror(rank1_codes={0: torch.float64})
    monkeypatch.setattr(sync, "_dist", lambda: fake)
    states = {"rows": torch.zeros(0, 3), "flags": torch.zeros(0, dtype=torch.bool)}
    out = sync.reduce_states([(states, dict.fromkeys(states, "cat"))], names=["m"], options=[""])[0]
    assert out["rows"].dtype == torch.float64 and out["rows"].shape == (0, 3)  # rank 1's float64 promotes
    assert out["flags"].dtype == torch.bool and out["flags"].shape == (0,)
    assert fake.gathers == 1  # the header only: nothing to gather
