"""Command line: ``python -m torchmetrics_lite`` (installed as ``tml-eval``).

The package is the pipeline, one module per stage: :mod:`~torchmetrics_lite.cli.parse` (bytes -> fields, ids as
order keys, exact decimals) and :mod:`~torchmetrics_lite.cli.files` (qrels and run files -> columns), then
:mod:`~torchmetrics_lite.cli.ids` (id codes), :mod:`~torchmetrics_lite.cli.join` (the run joined with its qrels),
:mod:`~torchmetrics_lite.cli.rank` (trec_eval's ranking); then one of two measure systems, each a folder:
:mod:`~torchmetrics_lite.cli.retrieval` (the ``retrieval`` subcommand: the library's measures by name, and their
printed lines) and :mod:`~torchmetrics_lite.cli.trec_eval` (the ``trec_eval`` subcommand: trec_eval's own
measures in its order of operations, its arguments and output). :mod:`~torchmetrics_lite.cli.main` reads the
arguments and runs it, :mod:`~torchmetrics_lite.cli.classify` is the ``classify`` subcommand. Every stage runs on
numpy alone (no torch import) except ``classify``.

``retrieval QRELS RUN -m ndcg@10 map mrr P@5 recall@100 Rprec [--per-query] [--ties average|docid]``
    TREC files: qrels lines ``qid iter docid rel`` and run lines ``qid Q0 docid rank score tag`` (or without the
    tag: 5 columns), whitespace separated, blank lines skipped; ``-`` reads standard input, a name ending in
    ``.gz`` is gunzipped. Measures as trec_eval writes them too: ``-m ndcg_cut_10 -m map`` (repeated),
    ``-m map ndcg@10`` (several after one flag, before or after the file names), ``-m map,P@5`` and
    ``-m P.5,10`` (comma lists; a bare number is another cut-off of the measure before it). Prints
    trec_eval-style lines ``measure <TAB> qid <TAB> value``: ``num_q`` then the mean of each measure over the
    queries (``all``), after one line per query and measure with ``--per-query``. As trec_eval: a query is
    evaluated when it is in both files, a query with no relevant document counts as 0 (``--empty skip`` leaves
    it out of the mean), documents missing from the qrels are non-relevant, relevant documents the run does not
    retrieve still count (recall, AP and R-precision denominators, the ideal DCG), relevance ``<= 0`` is
    non-relevant (gain 0), and the rank column is ignored (the score orders).

    Tied scores: the default ``--ties average`` is the library's rule, the expected value over every order of the
    tied documents, so a value never depends on document names. It DIFFERS from trec_eval, which breaks ties by
    descending docid; ``--ties docid`` reproduces trec_eval's order exactly (then every measure equals
    trec_eval's). Scores are ranked once for all measures, with numpy alone (no torch import).

``classify FILE.csv --preds COL --target COL -m auroc ap f1 accuracy precision recall [--threshold T]``
    A CSV file with a header row; ``target`` holds 0/1 labels. Threshold measures count ``preds > T`` on
    probabilities in [0, 1]; real-valued scores need ``--from-logits`` (threshold on ``sigmoid(preds)``).
    Prints ``measure <TAB> value`` lines.

Measures (case-insensitive; a cut-off as ``@k``, or trec_eval's ``_k``/``.k``):

====================  ==================================  ===========================================
measure               trec_eval / pytrec_eval name         function (torchmetrics_lite.functional)
====================  ==================================  ===========================================
``ndcg``, ``ndcg@k``  ``ndcg``, ``ndcg_cut_k``             ``retrieval_normalized_dcg`` (linear gain)
``map``, ``map@k``    ``map``, ``map_cut_k``               ``retrieval_average_precision``
``mrr``, ``mrr@k``    ``recip_rank``                       ``retrieval_reciprocal_rank``
``P@k``               ``P_k``                              ``retrieval_precision``
``recall@k``          ``recall_k``                         ``retrieval_recall``
``success@k``         ``success_k``                        ``retrieval_hit_rate`` (also ``hit_rate@k``)
``Rprec``             ``Rprec``                            ``retrieval_r_precision``
``auroc``, ``ap``     (classify)                           ``binary_auroc``, ``binary_average_precision``
``f1``, ``accuracy``  (classify)                           ``binary_f1_score``, ``binary_accuracy``
``precision``         (classify)                           ``binary_precision``, ``binary_recall``
====================  ==================================  ===========================================

Exit codes: 0 success; 1 unreadable, empty or malformed input (the message names the file and line) or values a
measure rejects (naming the command-line flag to change); 2 usage errors (unknown measure, bad options, a
missing file name).
"""

from torchmetrics_lite.cli.classify import classify_values, read_csv_columns
from torchmetrics_lite.cli.errors import CliError
from torchmetrics_lite.cli.files import read_qrels, read_run
from torchmetrics_lite.cli.main import main
from torchmetrics_lite.cli.retrieval.measures import parse_measure, retrieval_values, split_measures

__all__ = ["main", "CliError", "parse_measure", "split_measures", "read_qrels", "read_run", "read_csv_columns",
           "retrieval_values", "classify_values"]
