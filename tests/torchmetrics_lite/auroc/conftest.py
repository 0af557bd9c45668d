import pytest

from torchmetrics_lite import _backend


@pytest.fixture(params=["numpy", "torch"])
def backend(request):
    """The packed numpy sort of the curve reads (CPU) and the sweep (other devices, compile, float64)."""
    with _backend.force(request.param):
        yield request.param
