import os

import pytest
import torch

from tests.helpers import hermetic

# Small ops on a 2-core machine suffer from thread wake-ups; tests do not need intra-op parallelism.
torch.set_num_threads(1)
os.environ.setdefault("OMP_NUM_THREADS", "1")

# Every file the suite reads is in the repository (or a temporary folder, or Python's): see tests/helpers/hermetic.py.
hermetic.install()


@pytest.fixture(autouse=True)
def _reads_stay_in_the_repository():
    hermetic.take_violations()
    yield
    outside = hermetic.take_violations()
    assert not outside, f"this test opened files outside the repository: {sorted(set(outside))[:5]}"
