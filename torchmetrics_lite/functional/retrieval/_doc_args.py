"""The retrieval family's shared docstring text (functions, modules and curve modules), registered once into
:data:`torchmetrics_lite._docs.DOCS`: one placeholder per argument line (``{preds_retrieval}``, ``{k_retrieval}``,
``{ties}``) and the shared sections (``{sections_retrieval}``), filled by :func:`torchmetrics_lite._docs.fill_doc`,
re-exported here so that a docstring's user imports the family's entries with it."""
from torchmetrics_lite._docs import fill_doc, register

__all__ = ["fill_doc"]

_RETURNS = (
    "Returns:\n"
    '    A float64 scalar (``reduction="mean"``) or one float64 value per query (``reduction="none"``);\n'
    "    float32 on a device without float64 (Apple MPS).\n"
    "\n"
    "Raises:\n"
)
_VALUE_ERRORS = (
    "    ValueError: Shapes that differ, ``preds`` not 1-D/2-D (or not 1-D with ``indexes``), a NaN\n"
    "        score, a NaN or negative grade (with ``validate_args``), an option outside its choices, or\n"
    '        ``empty="error"`` with a query without a relevant item'
)
_TYPE_ERRORS = "    TypeError: A non-tensor or complex input, non-integer ``indexes``, a non-bool ``mask``"

register(
    preds_retrieval=(
        "preds: Scores, used by their order only (any real values, non-positive ones too, ranked as\n"
        "    scikit-learn does; torchmetrics makes every item scored ``<= 0`` non-relevant; float64 stays\n"
        "    float64). Dense ``(queries, items)`` (a 1-D tensor is one query), or flat 1-D with ``indexes``.\n"
        "    Unlike torchmetrics, which flattens a 2-D input without ``indexes`` into ONE query, each row is a\n"
        "    query here: ``retrieval_reciprocal_rank([[.9, .1, .5], [.2, .8, .3]], [[0, 1, 0], [0, 0, 1]])`` is\n"
        "    ``(1/3 + 1/2) / 2 = 0.4167`` here and ``0.25`` there (pass ``preds.reshape(-1)`` and\n"
        "    ``target.reshape(-1)`` for its number)."
    ),
    target_retrieval=(
        "target: Relevance grades of ``preds``' shape, non-negative (bool, integer or floating); an item is\n"
        "    relevant when ``target > 0``."
    ),
    indexes=(
        "indexes: Flat input only: the integer query id of each item (any values, any order). ``None``: dense."
    ),
    mask=(
        "mask: Dense input only: bool, ``True`` at real items (padding ``False``); a row without a real item is\n"
        "    no query at all."
    ),
    k_retrieval="k: The cut-off: only the top ``k`` ranks count; ``None`` (default): the whole list.",
    ties=(
        'ties: ``"average"`` (default): the expected value over uniformly random orders of tied scores\n'
        '    (McSherry and Najork, ECIR 2008); ``"order"``: tied items in input order.'
    ),
    empty=(
        'empty: A query without a relevant item: ``"zero"`` (default: its value is 0, as torchmetrics,\n'
        '    scikit-learn and trec_eval), ``"skip"`` (left out of the mean; ``nan`` per query), ``"one"``, or\n'
        '    ``"error"``.'
    ),
    ignore_index_retrieval="ignore_index: Items whose target equals it are dropped first.",
    reduction=(
        'reduction: ``"mean"`` (default): the mean over counted queries, a float64 scalar (``nan`` when none);\n'
        '    ``"none"``: one value per dense row, or per flat query id in ascending id order.'
    ),
    validate_args_retrieval=(
        "validate_args: ``False`` skips the value checks (NaN scores, NaN or negative grades) that need a\n"
        "    device-to-host sync; a negative grade then counts as 0."
    ),
    gain='gain: ``"linear"`` (default, ``rel``) or ``"exponential"`` (``2^rel - 1``).',
    max_fpr_retrieval=(
        "max_fpr: ``None`` (default): the whole area; a number in ``(0, 1]``: the McClish-standardized partial\n"
        "    area over ``[0, max_fpr]`` (``binary_auroc(max_fpr=)``, scikit-learn's ``roc_auc_score``)."
    ),
    normalize_ap=(
        "normalize: The divisor of AP@k: ``\"relevant\"`` (default): the query's relevant items (trec_eval);\n"
        "    ``\"retrieved\"``: the relevant items in the top ``k`` (torchmetrics' convention)."
    ),
    adaptive_k=(
        "adaptive_k: ``True``: a query with fewer than ``k`` items is divided by its number of items instead of\n"
        "    ``k`` (torchmetrics' ``adaptive_k``); ``False`` (default): by ``k``, as trec_eval."
    ),
    empty_module=(
        "empty: A query without a relevant item: ``\"zero\"`` (default: 0, as torchmetrics' ``empty_target_action=\n"
        '    "neg"``, scikit-learn and trec_eval), ``"skip"`` (left out; counted by :meth:`skipped`), ``"one"``\n'
        '    or ``"error"``.'
    ),
    aggregation=(
        'aggregation: How per-query values become one: ``"mean"`` (default), ``"median"`` (the lower median, as\n'
        '    torchmetrics), ``"min"``, ``"max"``, or a callable, as torchmetrics: ``aggregation(values, dim=None)``\n'
        "    on the 1-D tensor of the counted queries' values (after the ``empty`` rule) returning a scalar tensor\n"
        "    (``nan`` without calling it when no query counts); all but the mean keep every query's value. A\n"
        "    callable must be a module-level function for the metric to pickle (a ``lambda`` does not)."
    ),
    keep_per_query=(
        "keep_per_query: Keep every query's value for :meth:`per_query` (dense updates otherwise keep only\n"
        "    sums)."
    ),
    kwargs_retrieval="**kwargs: Options of :class:`~torchmetrics_lite.metric.Metric` (``validate_args``, ...).",
    max_k="max_k: The last cut-off (a positive int); ``None``: the longest query's number of items.",
    adaptive_k_curve="adaptive_k: Divide precision by ``min(k, n)`` instead of ``k`` for a query of ``n`` items.",
    ties_curve=(
        'ties: ``"average"`` (default): the expectation over random orders of tied scores; ``"order"``: input\n'
        "    order."
    ),
    empty_curve=(
        "empty: A query without a relevant item: ``\"zero\"`` (default, torchmetrics'\n"
        "    ``empty_target_action=\"neg\"``), ``\"one\"`` (``\"pos\"``), ``\"skip\"`` or ``\"error\"``."
    ),
    kwargs_curve="kwargs: :class:`~torchmetrics_lite.metric.Metric`'s options (``validate_args``, ...).",
    sections_retrieval=_RETURNS + _VALUE_ERRORS + ".\n" + _TYPE_ERRORS + ".",
    sections_retrieval_weighted=(
        _RETURNS + _VALUE_ERRORS + "; a ``weight`` that is not one value per\n"
        "        query, on another device than ``preds``, negative or not finite (with ``validate_args``), or\n"
        '        given with flat ``indexes`` input or with ``reduction="none"``.\n'
        + _TYPE_ERRORS + ", a non-tensor,\n        bool or complex ``weight``."
    ),
    weight_query=(
        "weight: Optional per-query weights (scikit-learn's ``sample_weight`` of ``ndcg_score`` and\n"
        "    ``dcg_score``): a 1-D real tensor with one non-negative, finite value per query, i.e. per row of\n"
        "    dense ``(queries, items)`` input (shape ``(1,)`` for 1-D input), on ``preds``' device. Dense input\n"
        '    and ``reduction="mean"`` only. ``None`` (default): every query weighs 1.'
    ),
    weight_rule=(
        "With ``weight`` (scikit-learn's ``sample_weight``) the result is the weighted mean over the counted\n"
        "queries, ``sum_q w_q v_q / sum_q w_q`` (``v_q`` the query's value): a query left out by ``empty=\"skip\"``\n"
        "or a row without a real item (``mask``) counts in neither sum, a zero weight drops its query, and\n"
        "weights that sum to 0 over the counted queries give ``nan`` (scikit-learn raises ``ZeroDivisionError``);\n"
        "weights of ones give the unweighted mean and scaling them changes nothing. Only dense input takes a\n"
        "weight: flat input with ``indexes`` raises a ``ValueError`` (its queries are the ids that keep an item\n"
        "after ``mask`` / ``ignore_index``, known only once ranked; put one query per row, ``mask=False`` at the\n"
        'padding), and so does ``reduction="none"`` (per-query values do not depend on weights). The modules take\n'
        "no weight."
    ),
    update_retrieval=(
        "``update(preds, target, indexes=None, mask=None)`` takes dense ``(queries, items)`` rows (each row a\n"
        "complete query, reduced at once to three sums) or flat 1-D rows with query ``indexes`` (a query may span\n"
        "batches and ranks: the rows are kept and grouped at ``compute``); a 1-D update without ``indexes`` raises a\n"
        "``TypeError`` (as torchmetrics: one batch is not one query). ``compute()`` is the mean over every\n"
        "counted query (``nan`` when none), synced across ranks. There are no per-item weights: ``update`` takes no\n"
        "``weight`` (each query counts once; weight queries by repeating them or through a callable ``aggregation``)."
    ),
    sections_retrieval_module=(
        "Raises:\n"
        "    ValueError: An option outside its choices (at construction); in ``update``, the errors of the\n"
        "        functional form (shapes, NaN scores, negative grades). A rejected update leaves the state\n"
        "        unchanged. In ``compute``, a callable ``aggregation`` that returns a tensor that is not a real\n"
        "        scalar.\n"
        "    TypeError: A non-tensor input, non-integer ``indexes`` or a non-bool ``mask``; in ``compute``, a\n"
        "        callable ``aggregation`` that returns no tensor."
    ),
)
