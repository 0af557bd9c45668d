"""Data and tables that more than one regression test module reads (the distributed test streams the same
batches as the module that owns the oracle), one module per subject."""
