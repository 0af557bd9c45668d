"""Sphinx configuration: API pages from the Google-style docstrings (napoleon), ARCHITECTURE.md through myst.

Build (CI runs exactly this, warnings are errors): ``python -m sphinx -W --keep-going -b html docs <outdir>``.
"""
from __future__ import annotations

import os
import sys
from typing import Any, Optional

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, ROOT)  # the checkout's code, whatever is installed

project = "torchmetrics_lite + losses"
author = "the torchmetrics_lite authors"
copyright = "the torchmetrics_lite authors"  # noqa: A001  (Sphinx's name)

extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.mathjax", "myst_parser"]
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

html_theme = "alabaster"
html_static_path: list = []


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


def setup(app: Any) -> None:
    app.connect("missing-reference", _resolve_public_alias)
