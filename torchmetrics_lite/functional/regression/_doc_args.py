"""The regression family's shared docstring text, registered once into :data:`torchmetrics_lite._docs.DOCS`:
the Returns/Raises sections of the error-sum functions and modules that take :func:`mean_squared_error`'s (and
:class:`MeanSquaredError`'s) arguments, filled by :func:`torchmetrics_lite._docs.fill_doc`, re-exported here so that
a docstring's user imports the family's entries with it."""
from torchmetrics_lite._docs import fill_doc, register

__all__ = ["fill_doc"]

register(
    sections_error=(
        "Returns:\n"
        "    A float64 (MPS: float32) 0-d tensor, or ``(d,)`` with ``multioutput=\"raw_values\"``; ``nan`` for empty\n"
        "    input.\n"
        "\n"
        "Raises:\n"
        "    TypeError, ValueError: as :func:`mean_squared_error`."
    ),
    sections_error_module=(
        "Returns:\n"
        "    ``compute()``: a float64 (MPS: float32) 0-d tensor (or ``(d,)``); ``nan`` before any sample.\n"
        "\n"
        "Raises:\n"
        "    TypeError, ValueError: as :class:`MeanSquaredError`."
    ),
    num_outputs="num_outputs: number of output columns ``d``.",
    # the correlation modules that stream as :class:`PearsonCorrCoef`; each names when its value is undefined
    sections_correlation_module=(
        "Returns:\n"
        "    ``compute()``: a float64 0-d tensor (``num_outputs=1``) or ``(d,)``; ``nan`` with fewer than two\n"
        "    samples or {undefined}.\n"
        "\n"
        "Raises:\n"
        "    TypeError, ValueError: as :class:`PearsonCorrCoef`."
    ),
)
