"""The floors of the house: every module of ``torchmetrics_lite`` and ``losses`` imports only modules of its own
floor or lower ones, and no import circle exists; the floors are the table in ARCHITECTURE.md ("Floors"), read
here, so the page and the code cannot disagree.

What counts as an import (read statically with ``ast``, nothing is imported):

* every ``import`` / ``from ... import`` statement anywhere in a module, at module level or inside a function (a
  lazy import is still a dependency: it runs the first time the function does);
* ``from package import name`` is an import of the submodule ``package.name`` when there is one, else of the
  module that the package's lazy export table (``_EXPORTS``, served by ``torchmetrics_lite._lazy.attach``)
  names for ``name`` (followed through nested tables), else of the package's ``__init__``;
* the lazy export tables themselves are not imports of the package that holds them (``_lazy`` imports a
  module when one of its names is first used, never at the package's import), and ``importlib.import_module``
  calls with computed names (``tasks._exported``) are not seen;
* importing ``a.b.c`` is an import of ``a.b.c`` alone: the parent packages Python runs first are not counted
  (a package ``__init__`` that re-exports its submodules would otherwise form a circle with each of them).
"""
from __future__ import annotations

import ast
import fnmatch
import functools
import re
from pathlib import Path
from typing import Dict, Iterable, List, Mapping, NamedTuple, Sequence, Set, Tuple

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("torchmetrics_lite", "losses")
Edges = Mapping[str, Mapping[str, int]]  # module -> {imported module: line of the first such import}


class Floor(NamedTuple):
    number: int
    name: str
    patterns: Tuple[str, ...]


# ----------------------------------------------------------------------------------------------- the checker
def module_files(root: Path, packages: Sequence[str] = PACKAGES) -> Dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file of ``packages`` (a package is its ``__init__.py``)."""
    out = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _lazy_exports(tree: ast.Module) -> Dict[str, str]:
    """The lazy export table a package hands to ``_lazy.attach(__name__, globals(), table)`` (inline or a
    module-level name), as ``{name: module}``; names computed at import time are not seen."""
    assigned = {t.id: node.value for node in tree.body if isinstance(node, ast.Assign) for t in node.targets
                if isinstance(t, ast.Name)}
    out: Dict[str, str] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and len(node.args) == 3 and getattr(node.func, "attr", None) == "attach"):
            continue
        table = node.args[2]
        table = assigned.get(table.id, table) if isinstance(table, ast.Name) else table
        for key, value in zip(getattr(table, "keys", []), getattr(table, "values", [])):
            try:
                out.update({name: ast.literal_eval(key) for name in ast.literal_eval(value)})
            except ValueError:  # a computed list of names
                continue
    return out


def _import_statements(tree: ast.Module) -> Iterable[ast.stmt]:
    """Every ``import`` statement of a module, in its functions, classes and blocks too (statements only are
    walked: an import is never inside an expression)."""
    todo: List[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        else:
            todo += [c for c in ast.iter_child_nodes(node) if isinstance(c, (ast.stmt, ast.excepthandler, _CASE))]


_CASE = getattr(ast, "match_case", ast.excepthandler)  # Python < 3.10 has no match statement


def import_graph(files: Mapping[str, Path]) -> Dict[str, Dict[str, int]]:
    """Every module's imports of the other modules of ``files`` (see the module docstring for what counts)."""
    trees = {m: ast.parse(p.read_text(encoding="utf-8"), str(p)) for m, p in files.items()}
    exports = {m: _lazy_exports(t) for m, t in trees.items()}

    def provider(package: str, name: str) -> str:
        seen: Set[str] = set()
        while name in exports.get(package, {}) and package not in seen:
            seen.add(package)
            package = exports[package][name]
        return package

    edges: Dict[str, Dict[str, int]] = {}
    for module, tree in trees.items():
        here = module.split(".") if files[module].name == "__init__.py" else module.split(".")[:-1]
        found = edges[module] = {}
        for node in _import_statements(tree):
            targets: List[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else provider(base, a.name)
                           for a in node.names]
            for target in targets:
                while target not in files and "." in target:
                    target = target.rsplit(".", 1)[0]
                if target in files and target != module:
                    found[target] = min(found.get(target, node.lineno), node.lineno)
    return edges


def circles(edges: Edges) -> List[List[str]]:
    """One cycle ``[a, b, ..., a]`` for each strongly connected group of modules that import each other."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    groups: List[Set[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next((c for c in children if c in edges), None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(group)
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(edges[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return [_cycle_in(group, edges) for group in groups]


def _cycle_in(group: Set[str], edges: Edges) -> List[str]:
    """A cycle through the first member of a strongly connected ``group`` (breadth first: a shortest one)."""
    start = min(group)
    came: Dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for child in sorted(edges[node]):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return [start, *reversed(path[:-1]), start] if len(path) > 1 else [start, node, start]
                if child in group and child not in came:
                    came[child] = node
                    nxt.append(child)
        frontier = nxt
    raise AssertionError(f"no cycle in {sorted(group)}")  # pragma: no cover - a group is strongly connected


def floor_of(module: str, floors: Sequence[Floor]) -> Floor:
    """The lowest floor with a pattern that matches ``module`` (``fnmatch`` on the dotted name)."""
    for floor in floors:
        if any(fnmatch.fnmatchcase(module, p) for p in floor.patterns):
            return floor
    raise LookupError(module)


def climbs(edges: Edges, floors: Sequence[Floor], allowed: Iterable[Tuple[str, str]] = ()) -> List[str]:
    """Each import of a module on a higher floor than the importer's, less the ``allowed`` pairs."""
    allowed = set(allowed)
    out = []
    for module in sorted(edges):
        mine = floor_of(module, floors)
        for target, line in sorted(edges[module].items()):
            theirs = floor_of(target, floors)
            if theirs.number > mine.number and (module, target) not in allowed:
                out.append(f"{module} (floor {mine.number}, {mine.name}) imports {target} (floor {theirs.number}, "
                           f"{theirs.name}) at line {line}")
    return out


# ------------------------------------------------------------------------------------- the table in ARCHITECTURE
def architecture_floors(text: str) -> Tuple[List[Floor], List[Tuple[str, str]]]:
    """The floors table of ARCHITECTURE.md's "Floors" section, lowest first, and its allowed climbs."""
    section = text.split("\n### Floors\n", 1)[1].split("\n#", 1)[0]
    floors = []
    for row in re.findall(r"^\| *(\d+) ([^|]+?) *\|([^|]+)\|", section, re.MULTILINE):
        patterns = tuple(p if p.startswith(PACKAGES) else f"torchmetrics_lite.{p}" for p in
                         re.findall(r"`([^`]+)`", row[2]))
        floors.append(Floor(int(row[0]), row[1], patterns))
    allowed = re.findall(r"^\* Allowed climb: `([\w.]+) -> ([\w.]+)`", section, re.MULTILINE)
    assert floors == sorted(floors), "ARCHITECTURE.md's floors are listed lowest first"
    return floors, allowed


@functools.lru_cache(maxsize=1)
def _house() -> Tuple[Dict[str, Path], Dict[str, Dict[str, int]], List[Floor], List[Tuple[str, str]]]:
    files = module_files(ROOT)
    floors, allowed = architecture_floors((ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8"))
    return files, import_graph(files), floors, allowed


# ------------------------------------------------------------------------------------------------------- tests
def test_no_import_circle():
    _, edges, _, _ = _house()
    found = circles(edges)
    assert not found, "import circles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_every_module_is_on_a_floor_and_every_pattern_holds_a_module():
    files, _, floors, _ = _house()
    homeless = []
    for module in files:
        try:
            floor_of(module, floors)
        except LookupError:
            homeless.append(module)
    assert not homeless, f"modules on no floor of ARCHITECTURE.md's table (add a pattern): {homeless}"
    stale = [p for f in floors for p in f.patterns if not any(fnmatch.fnmatchcase(m, p) for m in files)]
    assert not stale, f"ARCHITECTURE.md's floors name patterns no module matches (remove them): {stale}"


def test_the_ground_floor_imports_nothing_of_the_packages():
    _, edges, floors, _ = _house()
    ground = {m: sorted(t) for m, t in edges.items() if floor_of(m, floors).number == floors[0].number and t}
    assert not ground, f"floor 1 ({floors[0].name}) is the modules that import nothing of the package: {ground}"


def test_no_import_climbs_to_a_higher_floor():
    _, edges, floors, allowed = _house()
    found = climbs(edges, floors, allowed)
    assert not found, "imports that climb (move the shared piece down, or the importer up):\n" + "\n".join(found)
    stale = [pair for pair in allowed if pair[1] not in edges.get(pair[0], {})
             or floor_of(pair[1], floors).number <= floor_of(pair[0], floors).number]
    assert not stale, f"ARCHITECTURE.md allows climbs that no longer happen (remove them): {stale}"


def test_torchmetrics_lite_never_imports_losses():
    _, edges, _, _ = _house()
    found = [(m, t) for m, ts in edges.items() if m.startswith("torchmetrics_lite") for t in ts
             if t.split(".")[0] == "losses"]
    assert not found, found


def test_the_checker_reports_a_circle_and_a_climb():
    """A checker that cannot fail is a defect: a synthetic graph with a circle (a -> b -> c -> a) and a climb
    (low imports high) gets both reported; a clean one gets neither."""
    floors = [Floor(1, "low", ("pkg.low", "pkg.a", "pkg.b", "pkg.c")), Floor(2, "high", ("pkg.high",))]
    edges = {"pkg.a": {"pkg.b": 1}, "pkg.b": {"pkg.c": 1}, "pkg.c": {"pkg.a": 3}, "pkg.low": {"pkg.high": 7},
             "pkg.high": {"pkg.low": 2}}
    assert circles(edges) == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"], ["pkg.high", "pkg.low", "pkg.high"]]
    assert climbs(edges, floors) == ["pkg.low (floor 1, low) imports pkg.high (floor 2, high) at line 7"]
    assert climbs(edges, floors, [("pkg.low", "pkg.high")]) == []
    clean = {"pkg.a": {"pkg.b": 1}, "pkg.b": {}, "pkg.high": {"pkg.low": 1}, "pkg.low": {}}
    assert circles(clean) == [] and climbs(clean, floors) == []


def test_the_reader_counts_function_level_relative_and_lazy_imports(tmp_path):
    """The import reader on a tiny package: an import inside a function counts, a relative import resolves, a
    name from a lazy export table resolves to the module that provides it, and the table itself is no edge."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text('_EXPORTS = {"pkg.sub.deep": ["Deep"]}\n'
                                  "__getattr__, __dir__ = _lazy.attach(__name__, globals(), _EXPORTS)\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "deep.py").write_text("def f():\n    from pkg import top  # lazy\n    return top\n")
    (pkg / "top.py").write_text("from pkg import Deep\nfrom .sub import deep\n")
    edges = import_graph(module_files(tmp_path, ("pkg",)))
    assert edges == {"pkg": {}, "pkg.sub": {}, "pkg.sub.deep": {"pkg.top": 2},
                     "pkg.top": {"pkg.sub.deep": 1}}
    assert circles(edges) == [["pkg.sub.deep", "pkg.top", "pkg.sub.deep"]]


def test_the_floors_table_reads_patterns_and_allowed_climbs():
    text = ("# A\n\n### Floors\n\n| Floor | Modules | Holds |\n|---|---|---|\n| 1 ground | `_dtype` `_backend` | x |\n"
            "| 2 losses | `losses` `losses.*` | y |\n\n* Allowed climb: `torchmetrics_lite._dtype -> losses`: why\n\n"
            "## Next\n| 3 no | `x` | z |\n")
    floors, allowed = architecture_floors(text)
    assert floors == [Floor(1, "ground", ("torchmetrics_lite._dtype", "torchmetrics_lite._backend")),
                      Floor(2, "losses", ("losses", "losses.*"))]
    assert allowed == [("torchmetrics_lite._dtype", "losses")]
