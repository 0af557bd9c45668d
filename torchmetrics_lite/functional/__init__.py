"""Pure, exact metric functions: ``x(...) = _x_from_stats(_x_stats(checked inputs))``."""

__all__: list = []
