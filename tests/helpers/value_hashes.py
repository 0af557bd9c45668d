"""Hashes of every public function's and module's output on a fixed input set (refactor guard).

``python -m tests.helpers.value_hashes OUT.json`` writes ``{case: sha256}`` for every public function of
``torchmetrics_lite.functional`` and every public metric class of ``torchmetrics_lite`` (wrappers, collection and
aggregation included), each on fixed inputs, once per option value that its signature takes (one option varied at
a time; a module gets every option of ``VARIANTS``, so that an argument it stops or starts taking shows), on both
backends (numpy on CPU and ``_backend.force("torch")``). A module case hashes its ``forward``
value, its ``compute`` after a second ``update`` and its local state. An error is recorded as its type and
message. ``python -m tests.helpers.value_hashes OUT.json --compare BASE.json`` prints the cases that differ.

A refactor that promises bit-identical values records the hashes at its base commit and compares after each step.
"""
from __future__ import annotations

import hashlib
import inspect
import json
import math
import sys
import warnings
from typing import Any, Callable, Dict, Iterator, List, Tuple

import torch

N, C, L, Q, ITEMS = 37, 4, 3, 6, 9

VARIANTS: Dict[str, List[Any]] = {
    "average": ["micro", "macro", "weighted", "none", None],
    "top_k": [2, 3],
    "ignore_index": [0, -1],
    "zero_division": [1.0, math.nan],
    "threshold": [0.3],
    "from_logits": [True],
    "normalize": ["true", "pred", "all", "length"],
    "weights": ["linear", "quadratic"],
    "max_fpr": [0.3],
    "alpha": [0.2],
    "n_bins": [4],
    "norm": ["l2", "max"],
    "multioutput": ["raw_values", "variance_weighted"],
    "squared": [False],
    "adjusted": [2],
    "k": [1, 4],
    "ties": ["order"],
    "empty": ["skip", "one", "error"],
    "gain": ["exponential"],
    "aggregation": ["median", "min", "max"],
    "keep_per_query": [True],
    "reduction": ["none", "sum"],
    "validate_args": [False],
    "weighted": [True],
    "strict": [True],
    "num_outputs": [2],
    "thresholds": [5],
    "multidim_average": ["samplewise"],
    "adaptive_k": [True],
    "nan_strategy": ["ignore"],
}
REQUIRED: Dict[str, Any] = {"num_classes": C, "num_labels": L, "beta": 2.0, "min_recall": 0.5, "min_precision": 0.5,
                            "min_specificity": 0.5, "min_sensitivity": 0.5, "threshold": 0.5, "p": 2}


def _inputs(family: str, seed: int) -> Dict[str, Any]:
    """Fixed inputs of one family: scores with ties, targets, weights (retrieval's: one per query)."""
    g = torch.Generator().manual_seed(seed)
    if family == "binary":
        preds = (torch.rand(N, generator=g) * 10).round() / 10
        return {"preds": preds, "target": torch.randint(0, 2, (N,), generator=g),
                "weight": torch.rand(N, generator=g), "preds_b": torch.rand(N, generator=g)}
    if family == "multiclass":
        preds = torch.softmax((torch.randn(N, C, generator=g) * 2).round(), dim=1)
        return {"preds": preds, "target": torch.randint(0, C, (N,), generator=g), "weight": torch.rand(N, generator=g)}
    if family == "multilabel":
        preds = (torch.rand(N, L, generator=g) * 10).round() / 10
        return {"preds": preds, "target": torch.randint(0, 2, (N, L), generator=g),
                "weight": torch.rand(N, generator=g)}
    if family == "regression":
        return {"preds": torch.randn(N, 2, generator=g), "target": torch.randn(N, 2, generator=g) + 0.1,
                "weight": torch.rand(N, generator=g)}
    if family == "retrieval":
        preds = (torch.rand(Q, ITEMS, generator=g) * 4).round()
        target = torch.randint(0, 3, (Q, ITEMS), generator=g)
        target[0] = 0  # a query with no relevant item
        return {"preds": preds, "target": target,
                "indexes": torch.arange(Q).repeat_interleave(ITEMS).flip(0),
                "mask": torch.rand(Q, ITEMS, generator=g) < 0.8,
                "weight": torch.rand(Q, generator=g)}  # per query (NDCG/DCG); drawn last: the rest is unchanged
    if family == "choice":
        return {"loglik": (torch.randn(N, 4, generator=g) * 2).round(),
                "target": torch.randint(0, 4, (N,), generator=g),
                "lengths": torch.randint(1, 5, (N, 4), generator=g)}
    raise KeyError(family)


def _family(name: str) -> str:
    low = name.lower()
    if "choice" in low:
        return "choice"
    if low.startswith("retrieval"):
        return "retrieval"
    for fam in ("binary", "multiclass", "multilabel"):
        if low.startswith(fam):
            return fam
    if low.startswith("paired"):
        return "binary"
    return "regression"


def _digest(value: Any, h: "hashlib._Hash") -> None:
    if isinstance(value, torch.Tensor):
        t = value.detach().cpu().contiguous()
        h.update(f"T{t.dtype}{tuple(t.shape)}".encode())
        h.update(t.reshape(-1).view(torch.uint8).numpy().tobytes() if t.numel() else b"")
    elif isinstance(value, dict):
        h.update(b"{")
        for k in value:
            h.update(repr(k).encode())
            _digest(value[k], h)
        h.update(b"}")
    elif isinstance(value, (tuple, list)):
        h.update(f"{type(value).__name__}(".encode())
        for v in value:
            _digest(v, h)
        h.update(b")")
    else:
        h.update(repr(value).encode())


def _hash(value: Any) -> str:
    h = hashlib.sha256()
    _digest(value, h)
    return h.hexdigest()[:24]


def _guard(fn: Callable[[], Any]) -> str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _hash(fn())
    except Exception as e:  # noqa: BLE001 - errors are part of the behaviour
        return f"error {type(e).__name__}: {e}"


def _params(obj: Any) -> Dict[str, inspect.Parameter]:
    """Constructor/function parameters; for a class, those of every ``__init__`` on its MRO (``**kwargs``)."""
    if not isinstance(obj, type):
        return dict(inspect.signature(obj).parameters)
    out: Dict[str, inspect.Parameter] = {}
    for klass in reversed(obj.__mro__):
        if "__init__" in vars(klass) and klass.__module__.startswith("torchmetrics_lite"):
            out.update(inspect.signature(klass.__init__).parameters)
    out.pop("self", None)
    return out


def _option_sets(params: Dict[str, inspect.Parameter]) -> Iterator[Tuple[str, Dict[str, Any]]]:
    base = {n: REQUIRED[n] for n, p in params.items() if n in REQUIRED and p.default is p.empty}
    yield "default", base
    for n in params:
        for v in VARIANTS.get(n, []):
            yield f"{n}={v!r}", {**base, n: v}


def _function_cases() -> Iterator[Tuple[str, Callable[[], Any]]]:
    import torchmetrics_lite.functional as F

    for name in F.__all__:
        fn = getattr(F, name)
        if name == "fold_moments":
            stack = torch.randn(3, 4, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
            yield name, lambda fn=fn, stack=stack: fn(stack)
            continue
        params = _params(fn)
        data = _inputs(_family(name), 0)
        for label, opts in _option_sets(params):
            for weighted in ((False, True) if "weight" in params else (False,)):
                yield f"{name}[{label}{',w' if weighted else ''}]", _call(fn, params, data, opts, weighted)
            if "indexes" in params:
                yield f"{name}[{label},flat]", _call(fn, params, data, opts, False, flat=True)
                yield f"{name}[{label},unmasked]", _call(fn, params, {**data, "mask": None}, opts, False)


def _call(fn: Callable, params: Dict[str, inspect.Parameter], data: Dict[str, Any], opts: Dict[str, Any],
          weighted: bool, flat: bool = False) -> Callable[[], Any]:
    def run() -> Any:
        args: Dict[str, Any] = {}
        for n in params:
            if n == "preds_a":
                args[n] = data["preds"]
            elif n == "preds_b":
                args[n] = data["preds_b"]
            elif n in ("preds", "target", "loglik", "lengths"):
                args[n] = data[n]
            elif n == "weight" and weighted:
                args[n] = data["weight"]
        if flat:
            args["preds"], args["target"] = data["preds"].reshape(-1), data["target"].reshape(-1)
            args["indexes"] = data["indexes"]
        elif "mask" in params:
            args["mask"] = data["mask"]
        if "preds" in args and _family(fn.__name__) == "regression" and opts.get("multioutput") is None:
            args["preds"], args["target"] = args["preds"][:, 0], args["target"][:, 0]
        return fn(**args, **opts)
    return run


def _metric_classes() -> Iterator[Tuple[str, type]]:
    import torchmetrics_lite as T
    from torchmetrics_lite.metric import Metric

    for name in T.__all__:
        obj = getattr(T, name)
        if isinstance(obj, type) and issubclass(obj, Metric) and obj is not Metric:
            yield name, obj


def _update_args(name: str, data: Dict[str, Any], half: slice, weighted: bool, flat: bool) -> Tuple[tuple, dict]:
    fam = _family(name)
    if name in ("SumMetric", "MeanMetric", "MaxMetric", "MinMetric"):
        return (data["weight"][half] * 3,), ({"weight": data["weight"][half]} if weighted else {})
    if name == "PairedAUROCTest":
        return (data["preds"][half], data["preds_b"][half], data["target"][half]), {}
    if fam == "choice":
        return (data["loglik"][half], data["target"][half], data["lengths"][half]), {}
    if fam == "retrieval":
        if flat:
            p, t, i = data["preds"].reshape(-1), data["target"].reshape(-1), data["indexes"]
            rows = slice(half.start and half.start * ITEMS // 3, half.stop and half.stop * ITEMS // 3)
            return (p[rows], t[rows]), {"indexes": i[rows]}
        rows = slice(half.start and half.start // 12, half.stop and half.stop // 12)
        return (data["preds"][rows], data["target"][rows]), {"mask": data["mask"][rows]}
    p, t = data["preds"][half], data["target"][half]
    if fam == "regression" and not flat:
        p, t = p[:, 0], t[:, 0]
    return (p, t), ({"weight": data["weight"][half]} if weighted else {})


def _module_run(name: str, make: Callable[[], Any], weighted: bool, flat: bool) -> Callable[[], Any]:
    def run() -> Any:
        data = _inputs(_family(name), 0)
        m = make()
        first, second = slice(0, 12), slice(12, None)
        a, k = _update_args(name, data, first, weighted, flat)
        fwd = m(*a, **k)
        a, k = _update_args(name, data, second, weighted, flat)
        m.update(*a, **k)
        state = m.local_state() if hasattr(m, "local_state") else None
        return {"forward": fwd, "compute": m.compute(), "state": state}
    return run


def _module_cases() -> Iterator[Tuple[str, Callable[[], Any]]]:
    import torchmetrics_lite as T

    wrappers = {
        "BootStrapper": lambda **o: T.BootStrapper(T.BinaryAccuracy(), num_bootstraps=4, seed=3, **o),
        "ClasswiseWrapper": lambda **o: T.ClasswiseWrapper(T.MulticlassRecall(C, average=None), **o),
        "Running": lambda **o: T.Running(T.BinaryAUROC(), window=2, **o),
        "MetricCollection": lambda **o: T.MetricCollection([T.BinaryAccuracy(), T.BinaryF1Score(), T.BinaryAUROC()],
                                                           **o),
    }
    fams = {"BootStrapper": "binary", "ClasswiseWrapper": "multiclass", "Running": "binary",
            "MetricCollection": "binary"}
    for name, cls in _metric_classes():
        if name in wrappers:
            alias = "Binary" + name if fams[name] == "binary" else "Multiclass" + name
            yield f"{name}[default]", _module_run(alias, wrappers[name], False, False)
            continue
        params = _params(cls)
        # every variant, also those the class rejects; given a default, so that none reads as required (base)
        every = {n: inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=None) for n in VARIANTS}
        for label, opts in _option_sets({**every, **params}):
            weighted = opts.get("weighted", False) or name in ("MeanMetric",) or (
                "weighted" not in params and _family(name) in ("binary", "multiclass", "multilabel", "regression"))
            yield f"{name}[{label}]", _module_run(name, lambda cls=cls, opts=opts: cls(**opts), False, False)
            if weighted:
                yield f"{name}[{label},w]", _module_run(name, lambda cls=cls, opts=opts: cls(**opts), True, False)
            if _family(name) in ("retrieval", "regression"):
                yield f"{name}[{label},flat]", _module_run(name, lambda cls=cls, opts=opts: cls(**opts), False, True)


def _collection_case() -> Iterator[Tuple[str, Callable[[], Any]]]:
    import torchmetrics_lite as T

    def run() -> Any:
        data = _inputs("binary", 0)
        c = T.MetricCollection({"acc": T.BinaryAccuracy(), "f1": T.BinaryF1Score(), "auc": T.BinaryAUROC(),
                                "ap": T.BinaryAveragePrecision()})
        fwd = c(data["preds"][:12], data["target"][:12])
        c.update(data["preds"][12:], data["target"][12:])
        return {"forward": fwd, "compute": c.compute()}
    yield "MetricCollection[dict]", run


def hashes() -> Dict[str, str]:
    """Every case's hash, on the numpy-on-CPU path and on the torch path."""
    from torchmetrics_lite import _backend

    torch.set_num_threads(1)
    out: Dict[str, str] = {}
    cases = [*_function_cases(), *_module_cases(), *_collection_case()]
    for backend in ("auto", "torch"):
        for name, fn in cases:
            if backend == "auto":
                out[name] = _guard(fn)
            else:
                with _backend.force("torch"):
                    out[f"torch:{name}"] = _guard(fn)
    return out


def main(argv: List[str]) -> int:
    out = hashes()
    if "--compare" in argv:
        with open(argv[argv.index("--compare") + 1]) as f:
            base = json.load(f)
        differ = sorted(k for k in set(base) | set(out) if base.get(k) != out.get(k))
        for k in differ:
            print(f"{k}\n  base: {base.get(k)}\n  now:  {out.get(k)}")
        n_err = sum(v.startswith("error") for v in out.values())
        print(f"{len(out)} cases ({n_err} errors recorded), {len(differ)} differ")
        return 1 if differ else 0
    with open(argv[0], "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
    print(f"{len(out)} cases, {sum(v.startswith('error') for v in out.values())} errors")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
