"""The ``trec_eval`` subcommand: trec_eval 10.0's arguments (getopt: ``-q -c -M100 -l2 -m all_trec -m P.5,10
-Z file -R format ...``), its measures in its order of operations, and its output, byte for byte (numpy alone,
no torch). One module per step, each importing only the ones listed before it:

``names`` (measure table, nicknames, parameters), ``lists`` (the sparse ranked lists), ``gains`` and
``measures`` (every measure, in trec_eval's order of operations), ``options`` (the arguments, usage and help),
``output`` (the printed lines), ``evaluate`` (what every relevance format shares: float32 scores, the run in
trec_eval's rank order, the measures' values, z-scores), ``prefs`` (``-R prefs``, ``-R qrels_prefs``: the
``all_prefs`` measures), ``formats`` (``-R qrels_jg``, and the choice of relevance format), ``command`` (the
subcommand: ``-R qrels`` itself, else ``formats``).

The reading steps are the command line's own: read (:mod:`~torchmetrics_lite.cli.files`), join
(:mod:`~torchmetrics_lite.cli.join`: queries in ``strcmp`` order), rank (trec_eval's order: descending score,
ties by descending docid). ``--trec-version 9`` follows trec_eval 9.x (pytrec_eval) where the two differ: the
recall points of ``iprec_at_recall`` and ``11pt_avg``, scores read as float32.
"""
