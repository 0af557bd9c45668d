"""The installed distribution's version, or a fallback for a plain checkout (``PYTHONPATH=.``)."""
try:
    from importlib.metadata import PackageNotFoundError, version

    try:
        __version__ = version("torchmetrics-lite")
    except PackageNotFoundError:
        __version__ = "0.0.0+checkout"
except ImportError:  # pragma: no cover - Python without importlib.metadata
    __version__ = "0.0.0+checkout"
