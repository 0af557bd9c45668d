"""trec_eval's measure names: its table (the order measures print in), nicknames (``official``, ``all_trec``...),
default parameters, and ``-m name.params`` parsing with trec_eval's rules (numpy-free, no torch).

Each measure has a kind that says how its parameters read and how it prints:

* ``long`` / ``float``: one value per query (``long``: printed ``%ld``, summed over queries);
* ``gm``: a geometric mean over queries (summary only); ``runid``, ``num_q``: summary only;
* ``cut_long``: integer cut-offs (sorted, positive, no duplicates; ``23.4`` reads as 23), one value each, named
  ``P_5``; ``cut_float``: fractional cut-offs named ``iprec_at_recall_0.10``;
* ``p_float``: one value from a list of numbers (named ``utility_2,-1,0,0`` when given), ``p_pair``: gains
  ``level=gain`` (named ``ndcg_1=3,2=9``), ``relstring``: the first N relevance values as text.
"""
from __future__ import annotations

import re
from typing import Dict, List, NamedTuple, Sequence, Tuple

from torchmetrics_lite.cli.errors import CliError

_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALL_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

# name -> (kind, default parameters), in trec_eval 10.0's table order (the order it prints)
TABLE: Dict[str, Tuple[str, tuple]] = {
    "runid": ("runid", ()), "num_q": ("num_q", ()), "num_ret": ("long", ()), "num_rel": ("long", ()),
    "num_rel_ret": ("long", ()), "map": ("float", ()), "gm_map": ("gm", ()), "Rprec": ("float", ()),
    "bpref": ("float", ()), "recip_rank": ("float", ()), "iprec_at_recall": ("cut_float", _RECALL_POINTS),
    "P": ("cut_long", _CUTS), "relstring": ("relstring", (10.0,)), "recall": ("cut_long", _CUTS),
    "infAP": ("float", ()), "gm_bpref": ("gm", ()),
    "Rprec_mult": ("cut_float", (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
    "utility": ("p_float", (1.0, -1.0, 0.0, 0.0)), "11pt_avg": ("p_float", _RECALL_POINTS),
    "binG": ("float", ()), "G": ("p_pair", ()), "dcg": ("p_pair", ()), "ideal_dcg": ("p_pair", ()),
    "ndcg": ("p_pair", ()), "ndcg_rel": ("p_pair", ()), "Rndcg": ("p_pair", ()), "ndcg_cut": ("cut_long", _CUTS),
    "map_cut": ("cut_long", _CUTS), "relative_P": ("cut_long", _CUTS), "success": ("cut_long", (1, 5, 10)),
    "set_P": ("float", ()), "set_relative_P": ("float", ()), "set_recall": ("float", ()), "set_map": ("float", ()),
    "set_F": ("p_float", (1.0,)), "num_nonrel_judged_ret": ("long", ()),
    "prefs_num_prefs_poss": ("long", ()), "prefs_num_prefs_ful": ("long", ()), "prefs_num_prefs_ful_ret": ("long", ()),
    "prefs_simp": ("float", ()), "prefs_pair": ("float", ()), "prefs_avgjg": ("float", ()),
    "prefs_avgjg_Rnonrel": ("float", ()), "prefs_simp_ret": ("float", ()), "prefs_pair_ret": ("float", ()),
    "prefs_avgjg_ret": ("float", ()), "prefs_avgjg_Rnonrel_ret": ("float", ()), "prefs_simp_imp": ("float", ()),
    "prefs_pair_imp": ("float", ()), "prefs_avgjg_imp": ("float", ()),
    "map_avgjg": ("float", ()), "P_avgjg": ("cut_long", _CUTS),
    "Rprec_mult_avgjg": ("cut_float", (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
    "rbp": ("p_pair", ()), "rbp_resid": ("float", ()), "unj": ("cut_long", (5, 10, 20)),
}
_OFFICIAL = ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
             "iprec_at_recall", "P"]
_PREFS = ["prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair",
          "prefs_avgjg"]
NICKNAMES: Dict[str, List[str]] = {
    "official": _OFFICIAL,
    "set": ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall", "set_relative_P",
            "set_map", "set_F"],
    "all_trec": _OFFICIAL + ["relstring", "recall", "infAP", "gm_bpref", "utility", "11pt_avg", "ndcg",
                             "relative_P", "Rprec_mult", "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg",
                             "binG", "G", "set_P", "set_recall", "set_relative_P", "set_map", "set_F",
                             "num_nonrel_judged_ret", "rbp", "rbp_resid", "unj"],
    "all_prefs": ["runid", "num_q"] + _PREFS + ["prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
                                                "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp",
                                                "prefs_pair_imp", "prefs_avgjg_imp"],
    "prefs": ["runid", "num_q"] + _PREFS,
    "qrels_jg": ["runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"],
}


class Selected(NamedTuple):
    """A measure to evaluate: its name and kind, its parameters (cut-offs, numbers, or ``(level, gain)`` pairs)
    and the printed name of each of its values."""

    name: str
    kind: str
    params: tuple
    labels: List[str]


def c_atol(text: str) -> int:
    """C's ``atol``: leading blanks, a sign and digits; the rest ignored (``"23.4"`` -> 23, ``"p"`` -> 0)."""
    match = re.match(r"\s*([+-]?\d+)", text)
    return int(match.group(1)) if match else 0


def c_atof(text: str) -> float:
    """C's ``atof``: the longest leading decimal number (``".25"``, ``"5.0"``, ``"1e-3"``), else 0."""
    match = re.match(r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)", text)
    return float(match.group(1)) if match else 0.0


def mark(arguments: Sequence[str]) -> Tuple[List[str], Dict[str, str]]:
    """The measures ``-m`` arguments mark (nicknames expanded) and each one's first parameter string, as
    trec_eval reads ``-m name[.params]``; an unknown name raises trec_eval's message (exit code 1)."""
    marked: List[str] = []
    params: Dict[str, str] = {}
    for argument in arguments:
        name, dot, rest = argument.partition(".")
        if dot:
            if not rest:
                raise CliError(f"trec_eval: improper measure in parameter '{name}'\n"
                               f"trec_eval: illegal measure '{name}'", 1)
            params.setdefault(name, rest)
        names = NICKNAMES.get(name, [name])
        for single in names:
            if single not in TABLE:
                raise CliError(f"trec_eval: illegal measure '{name}'", 1)
            if single not in marked:
                marked.append(single)
    return marked, params


def select(arguments: Sequence[str]) -> List[Selected]:
    """The measures of ``-m`` arguments (``official`` when none) in trec_eval's order, with their parameters."""
    marked, params = mark(arguments or ["official"])
    return [_init(name, params.get(name)) for name in TABLE if name in marked]


def _init(name: str, text: "str | None") -> Selected:
    kind, default = TABLE[name]
    if kind == "cut_long":
        cuts = tuple(sorted(c_atol(p) for p in text.split(","))) if text is not None else default
        _check_cuts(name, cuts, positive=True)
        return Selected(name, kind, cuts, [f"{name}_{c}" for c in cuts])
    if kind == "cut_float":
        cuts = tuple(sorted(c_atof(p) for p in text.split(","))) if text is not None else default
        _check_cuts(name, cuts, positive=False)
        return Selected(name, kind, cuts, [f"{name}_{c:3.2f}" for c in cuts])
    label = name if text is None else f"{name}_{text}"
    if kind in ("p_float", "relstring"):
        return Selected(name, kind, tuple(c_atof(p) for p in text.split(",")) if text is not None else default,
                        [label])
    if kind == "p_pair":
        return Selected(name, kind, _pairs(name, text) if text is not None else (), [label])
    if text is not None:
        raise CliError(f"trec_eval: measure '{name}' takes no parameters ('{name}.{text}')", 2)
    return Selected(name, kind, (), [name])


def _check_cuts(name: str, cuts: tuple, positive: bool) -> None:
    if positive and cuts[0] <= 0:
        raise CliError(f"trec_eval: Negative cutoff detected\ntrec_eval: Cannot initialize measure '{name}'", 2)
    if any(a == b for a, b in zip(cuts, cuts[1:])):
        raise CliError(f"trec_eval: duplicate cutoffs detected\ntrec_eval: Cannot initialize measure '{name}'", 2)


def _pairs(name: str, text: str) -> Tuple[Tuple[str, float], ...]:
    """``level=gain`` pairs (the level is a name: trec_eval reads it with ``atol``, so ``p=0.95`` is level 0)."""
    pieces = text.split(",")
    if not all(p.count("=") == 1 for p in pieces):
        raise CliError(f"trec_eval: malformed pair parameters in '{text}'\n"
                       f"trec_eval: Cannot initialize measure '{name}'", 2)
    return tuple((p.split("=")[0], c_atof(p.split("=")[1])) for p in pieces)
