"""Sphinx configuration: the guide's Markdown pages and ARCHITECTURE.md through myst, the API pages from the
Google-style docstrings (napoleon).

Build (CI runs exactly this, warnings are errors): ``python -m sphinx -W --keep-going -b html docs <outdir>``.
The result reads offline: MathJax is bundled (``sphinx-mathjax-offline``), the theme (furo) ships its assets.
On the API pages a module's docstring is split: its first paragraph stays at the top, the rest (conventions,
implementation notes, which name private kernels) moves below the members, where ``.. module-notes::`` stands, so
that a page opens with its public functions.
"""
from __future__ import annotations

import os
import re
import sys
from typing import Any, Dict, List, Optional

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, ROOT)  # the checkout's code, whatever is installed

project = "torchmetrics_lite + losses"
author = "the torchmetrics_lite authors"
copyright = "the torchmetrics_lite authors"  # noqa: A001  (Sphinx's name)

extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.mathjax", "sphinx-mathjax-offline",
              "myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
root_doc = "index"

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True}
autodoc_mock_imports: list = []  # lightning and matplotlib are imported lazily, so nothing needs mocking
add_module_names = False
napoleon_google_docstring = True
napoleon_numpy_docstring = False
myst_heading_anchors = 3

html_theme = "furo"
html_title = "torchmetrics_lite + losses"
html_static_path = ["_static"]
html_css_files = ["wide-sidebar.css"]


def _resolve_public_alias(app: Any, env: Any, node: Any, contnode: Any) -> Optional[Any]:
    """Docstrings cite the public paths (``torchmetrics_lite.functional.binary_auroc``,
    ``torchmetrics_lite.MetricCollection``); the pages document each name where its family's package exports it
    (``torchmetrics_lite.functional.auroc.binary_auroc``). Link the first to the second when exactly one
    documented object of the same package side (functional or module) ends with the same name."""
    target = node.get("reftarget", "")
    if node.get("refdomain") != "py" or not target.startswith(("torchmetrics_lite.", "losses.")):
        return None
    from sphinx.util.nodes import make_refnode

    functional = ".functional." in target + "."
    parts = target.split(".")
    objects = env.get_domain("py").objects
    for size in range(1, len(parts)):
        tail = "." + ".".join(parts[-size:])
        hits = [name for name in objects
                if name.endswith(tail) and name.split(".")[0] == parts[0] and (".functional." in name) == functional]
        if len(hits) == 1:
            entry = objects[hits[0]]
            return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, hits[0])
    return None


# ------------------------------------------------------------- module docstrings below the members they describe
_PRIVATE = re.compile(r"`[^`]*(?<![\w.])_[a-z]\w*")  # a reference to a private name: ``_ranking``, `_x_stats`
_NOTES: Dict[str, List[List[str]]] = {}  # docname -> the moved docstring bodies, in page order


def _split_module_docstring(app: Any, what: str, name: str, obj: Any, options: Any, lines: List[str]) -> None:
    """Keep a module docstring's first paragraph (unless it names a private kernel) and move the rest to the
    page's ``.. module-notes::``."""
    if what != "module" or not any(line.strip() for line in lines):
        return
    end = next((i for i, line in enumerate(lines) if not line.strip()), len(lines))
    head = lines[:end]
    if any(_PRIVATE.search(line) for line in head):
        head, end = [], 0
    body = lines[end:]
    if any(line.strip() for line in body):
        _NOTES.setdefault(app.env.docname, []).append([f".. py:currentmodule:: {name}", "", *body])
    lines[:] = head


def _module_notes_directive() -> Any:
    from docutils import nodes
    from sphinx.util.docutils import SphinxDirective

    class ModuleNotes(SphinxDirective):
        """The moved bodies of this page's module docstrings, under one rubric each."""

        def run(self) -> List[Any]:
            result: List[Any] = []
            module = self.env.ref_context.get("py:module")
            for body in _NOTES.pop(self.env.docname, []):
                name = body[0].split("::", 1)[1].strip()
                section = nodes.container(classes=["module-notes"])
                section += nodes.rubric(text=f"About {name}")
                section += self.parse_text_to_nodes("\n".join(body))
                result.append(section)
            if module is None:
                self.env.ref_context.pop("py:module", None)
            else:
                self.env.ref_context["py:module"] = module
            return result

    return ModuleNotes


def _check_notes_placed(app: Any, env: Any) -> None:
    from sphinx.util import logging

    for docname in _NOTES:
        logging.getLogger(__name__).warning("%s: module docstrings moved below the members but the page has no "
                                            "'.. module-notes::' directive to show them", docname)


def _check_class_signature(app: Any, what: str, name: str, obj: Any, options: Any, signature: Optional[str],
                           return_annotation: Optional[str]) -> None:
    """A class header of ``(*args, **kwargs)`` is a wrapper's signature, not the class's: fail the build."""
    if what == "class" and signature and re.fullmatch(r"\(\*args(: \w+)?, \*\*kwargs(: \w+)?\)", signature):
        from sphinx.util import logging

        logging.getLogger(__name__).warning("%s shows %s, not its constructor's parameters", name, signature)


_REMOTE_ASSET = re.compile(r"<script[^>]*\ssrc=\"(https?:)?//|<link[^>]*rel=\"stylesheet\"[^>]*href=\"(https?:)?//")


def _check_offline(app: Any, exception: Optional[BaseException]) -> None:
    """The site reads offline: no page loads a script or a stylesheet from the network (MathJax is bundled)."""
    if exception is not None or app.builder.format != "html":
        return
    from sphinx.util import logging

    for folder, _, files in os.walk(app.outdir):
        for name in files:
            if name.endswith(".html"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as page:
                    if _REMOTE_ASSET.search(page.read()):
                        logging.getLogger(__name__).warning("%s loads a script or stylesheet from the network",
                                                            os.path.relpath(path, app.outdir))


def setup(app: Any) -> None:
    app.connect("missing-reference", _resolve_public_alias)
    app.connect("autodoc-process-docstring", _split_module_docstring)
    app.connect("autodoc-process-signature", _check_class_signature)
    app.connect("env-check-consistency", _check_notes_placed)
    app.add_directive("module-notes", _module_notes_directive())
    app.connect("build-finished", _check_offline)
