"""The AUROC family's shared docstring text, registered once into :data:`torchmetrics_lite._docs.DOCS` (one
placeholder per argument line, ``{weight_rank}``, ``{thresholds}``, filled by :func:`torchmetrics_lite._docs.fill_doc`,
re-exported here so that a docstring's user imports the family's entries with it)."""
from torchmetrics_lite._docs import fill_doc, register

__all__ = ["fill_doc"]

register(
    weight_rank=("weight: optional non-negative sample weights (scikit-learn's ``sample_weight``), one per sample "
                 "(the shape is given per function). Every count becomes a sum of weights: a positive/negative "
                 "pair counts ``w_i * w_j``. ``None``: every sample counts 1 (exact integer counts)."),
    strict=("strict: raise ``ValueError`` instead of returning ``nan`` with a ``UserWarning`` when the value is "
            "undefined (one class present)."),
    from_logits_mc=("from_logits: ``preds`` are logits (any real scores): a float64 softmax over the classes turns "
                    "them into probabilities first (as torchmetrics does for scores outside ``[0, 1]`` and as "
                    "scikit-learn needs). ``False`` (default): ``preds`` must be probabilities in ``[0, 1]`` (used "
                    "as given); other values raise a ``ValueError`` that names ``from_logits=True``."),
    from_logits_bin=("from_logits: with ``thresholds``: ``preds`` are logits (any real scores), turned into "
                     "probabilities by a sigmoid in their own dtype before they are compared with the thresholds "
                     "(torchmetrics' ``preds.sigmoid()`` of scores outside ``[0, 1]``: its numbers); without it such "
                     "scores raise a ``ValueError`` that names ``from_logits=True``. In the exact mode "
                     "(``thresholds=None``) it changes nothing: the values only depend on the scores' order, which a "
                     "sigmoid keeps, and the curves' thresholds are the scores as given."),
    thresholds=("thresholds: torchmetrics' binned mode: ``None`` (default, exact over every distinct score), an int "
                "``T >= 2`` (``torch.linspace(0, 1, T)``), a list of floats in ``[0, 1]`` or a 1-D floating tensor "
                "of values in ``[0, 1]``, taken as a set of operating points (sorted: their order never changes a "
                "value; the curves return them sorted): one confusion matrix per threshold (``score >= t`` is "
                "positive), torchmetrics' numbers (see "
                "``torchmetrics_lite.functional.auroc.binned``); the scores must then be probabilities (or logits "
                "with ``from_logits=True``), and ``weight`` is not taken."),
    ignore_index_rank=("ignore_index: samples (for multilabel input: elements) whose target equals it are left "
                       "out, as torchmetrics."),
    compile=("With ``validate_args=False`` it traces under ``torch.compile(fullgraph=True)`` (the static-shape "
             "sweep: one sort, cumulative sums, ``cummin``/``cummax`` for tie groups); there the undefined case "
             "returns ``nan`` without the warning or ``strict`` error, which need a host sync."),
)
register(
    preds_scores="preds: floating scores of any shape.",
    target_scores="target: 0/1 labels of the same shape.",
    preds_ovr="preds: ``(N, num_classes)`` probabilities (or logits with ``from_logits=True``).",
    target_ovr="target: ``(N,)`` class indices in ``[0, num_classes)``.",
    num_classes_rank="num_classes: the number of classes.",
    average_ovr=("average: ``\"macro\"`` (mean over classes), ``\"weighted\"`` (weighted by each class's positive "
                 "weight: its count in ``target`` without weights) or ``\"none\"`` (the ``(num_classes,)`` per-class "
                 "values). A class absent from ``target`` is ``nan`` with a ``UserWarning`` and left out of the "
                 "averages (``strict=True`` raises)."),
    preds_per_label="preds: ``(N, num_labels)`` floating scores (any real values; thresholds are the scores as given).",
    target_per_label="target: ``(N, num_labels)`` 0/1 labels.",
    num_labels_rank="num_labels: the number of labels.",
)
register(
    thresholds_module=("thresholds: torchmetrics' binned mode (an int, a list or a 1-D tensor of thresholds in "
                       "[0, 1], sorted: a set of operating points; probabilities, or binary/multilabel logits with "
                       "``from_logits=True``: a sigmoid in their dtype first, as torchmetrics): one confusion "
                       "matrix per threshold, summed over batches and ranks, and "
                       "torchmetrics' values (see ``torchmetrics_lite.functional.auroc.binned``); ``None`` (default): "
                       "exact."),
    ignore_index_rank_module=("ignore_index: samples (multilabel: elements) whose target equals it are left out, as "
                              "torchmetrics."),
    from_logits_module="from_logits: ``preds`` are logits (a float64 softmax is applied at compute).",
)

register(drop_intermediate=("drop_intermediate: ``False`` (default): every distinct score a point; ``True``: "
                            "scikit-learn's ``roc_curve(drop_intermediate=True)``, collinear points dropped "
                            "(exact mode only: with ``thresholds=`` it raises)."))
