"""The classification family's shared argument text, registered once into :data:`torchmetrics_lite._docs.DOCS`
(docstrings name it as one placeholder per argument line, ``{preds_binary}``, ``{average}``, filled by
:func:`torchmetrics_lite._docs.fill_doc`, re-exported here so that a docstring's user imports the family's entries
with it)."""
from torchmetrics_lite._docs import fill_doc, register

__all__ = ["fill_doc"]

register(
    preds_binary=("preds: probabilities in [0, 1] (floating), real scores with ``from_logits=True``, or 0/1 "
                  "labels (integer or bool); any shape."),
    target_binary="target: 0/1 labels (bool, integer, or floating holding exactly 0.0/1.0), the shape of ``preds``.",
    preds_multiclass=("preds: labels (N, ...) (integer) or scores (N, C, ...) (floating, any real values: "
                      "probabilities or logits; the class axis is 1)."),
    target_multiclass="target: integer labels (N, ...) in [0, C - 1] (or ``ignore_index``).",
    preds_multilabel=("preds: (N, L, ...) probabilities in [0, 1], real scores with ``from_logits=True``, or 0/1 "
                      "labels; the label axis is 1."),
    target_multilabel="target: (N, L, ...) 0/1 labels (bool, integer, or floating holding exactly 0.0/1.0).",
    num_classes="num_classes: the number of classes C.",
    num_labels="num_labels: the number of labels L.",
    threshold=("threshold: a prediction is positive when ``preds > threshold`` (torchmetrics' rule; compared "
               "exactly, whatever the floating dtype); default 0.5."),
    from_logits=("from_logits: ``preds`` are real scores, positive when ``sigmoid(preds) > threshold``, "
                 "computed without a sigmoid as ``preds > log(t / (1 - t))``. Without it, floating ``preds`` "
                 "outside [0, 1] raise (nothing is squashed silently)."),
    average=("average: ``\"micro\"``: the score of the counts summed over classes; ``\"macro\"`` (default): the "
             "mean of the per-class scores over the classes present (in the targets or predictions; with "
             "``top_k > 1`` accuracy, precision and recall use the classes present in the targets, as "
             "torchmetrics); ``\"weighted\"``: that mean weighted by support; ``\"none\"`` or ``None``: per class."),
    absent=("absent: what a ``\"macro\"`` mean does with a class absent from both ``target`` and ``preds``: "
            "``\"ignore\"`` (default, torchmetrics' rule) leaves it out; ``\"zero\"`` keeps it, scoring "
            "``zero_division``, so the mean runs over all ``num_classes`` (scikit-learn's rule with "
            "``labels=range(num_classes)``). Other averages are the same either way."),
    normalize_accuracy=("normalize: ``True`` (default): the fraction of samples predicted right; ``False``: their "
                        "number (the sum of their ``weight``), float64, as scikit-learn's "
                        "``accuracy_score(normalize=False)``."),
    average_multilabel=("average: ``\"micro\"``: the score of the counts summed over labels; ``\"macro\"`` "
                        "(default): the mean of the per-label scores over all labels; ``\"weighted\"``: weighted "
                        "by support; ``\"none\"`` or ``None``: per label."),
    average_multilabel_samples=("average: ``\"micro\"``: the score of the counts summed over labels; ``\"macro\"`` "
                                "(default): the mean of the per-label scores over all labels; ``\"weighted\"``: "
                                "weighted by support; ``\"samples\"``: the score of each sample over its labels, "
                                "then their mean over samples, weighted by ``weight`` (scikit-learn's; a sample's 0/0 "
                                "score is ``zero_division``); ``\"none\"`` or ``None``: per label."),
    top_k=("top_k: with scores, a sample predicts its target when the target is among its ``top_k`` highest "
           "scores, else its highest-scoring class (torchmetrics' rule; ties ordered as ``torch.topk``, also as "
           "torchmetrics). Micro precision, recall and accuracy then all equal top-k accuracy. Default 1: "
           "``argmax`` (the first maximum)."),
    top_k_binary=("top_k: 1 (default): the thresholded accuracy; 2: every counted sample is a hit, its target being "
                  "among the top 2 of 2 classes (scikit-learn's ``top_k_accuracy_score(k=2)`` of binary targets: 1.0; "
                  "its ``k=1`` is ``top_k=1``, with ``from_logits=True`` for decision values, cut at 0)."),
    ignore_index=("ignore_index: samples (elements) whose target equals it are left out of every count; "
                  "default ``None``."),
    multidim_average=("multidim_average: ``\"global\"`` (default): one score over every element; "
                      "``\"samplewise\"``: one score per sample ``(N,)`` (``(N, C)`` with ``average=\"none\"``) over "
                      "the extra dimensions of ``(N, ...)`` inputs, as torchmetrics (module state: per-sample "
                      "confusion matrices, a ``cat`` state)."),
    zero_division=("zero_division: the value of a 0/0 score (default 0.0); with ``float('nan')`` such classes "
                   "are left out of macro/weighted means (scikit-learn's rule)."),
    weight=("weight: optional non-negative, finite sample weights, one per element of ``target`` "
            "(scikit-learn's ``sample_weight``). Counts become float64 sums of weights."),
    weight_multilabel=("weight: optional non-negative, finite sample weights of shape (N, ...) (``target``'s "
                       "shape without the label axis), one per sample, shared by its labels (scikit-learn's "
                       "``sample_weight``). Counts become float64 sums of weights."),
    normalize=("normalize: ``None`` (counts), ``\"true\"`` (rows sum to 1), ``\"pred\"`` (columns) or "
               "``\"all\"`` (the whole matrix); a zero sum gives zeros."),
    raises_value=("ValueError: a bad option (naming it, what was expected and what was received), shapes that "
                  "do not match, or with ``validate_args`` a label, probability, NaN or weight out of range."),
    raises_type="TypeError: ``preds``, ``target`` or ``weight`` of the wrong type or dtype.",
)

