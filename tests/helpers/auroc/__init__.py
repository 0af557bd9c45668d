"""Data that more than one test module of the AUROC family reads: one module per subject, each holding the seeded
inputs of its test module and the distributed cases that ``tests/torchmetrics_lite/auroc/test_auroc.py`` runs in
the family's one spawned group per world size (a case's batches are the ones its module's harness test streams)."""
