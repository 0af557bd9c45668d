"""Data that more than one classification test module reads, one module per data set: the seeded inputs, their
batches and the module tables that a subject's harness test streams, and the distributed cases that
``tests/torchmetrics_lite/classification/test_classification.py`` runs in the family's one spawned group."""
