"""Pure, exact metric functions: ``x(...) = _x_from_stats(_x_stats(checked inputs))``."""

# --- classification
# --- auroc
# --- retrieval
# --- regression, calibration

__all__ = [
    # --- classification
    # --- auroc
    # --- retrieval
    # --- regression, calibration
]
