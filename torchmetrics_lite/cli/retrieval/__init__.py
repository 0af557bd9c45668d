"""The ``retrieval`` subcommand's measures: names as users write them (``ndcg@10``, ``P.5,10``, trec_eval's
``ndcg_cut_10``), each the library's function over the ranking of :mod:`~torchmetrics_lite.cli.rank`
(``measures``; the name parser serves ``classify`` too), and the printed lines (``output``). Numpy alone, no torch.
trec_eval's own measures, in its order of operations, are the other system: :mod:`torchmetrics_lite.cli.trec_eval`.
"""
