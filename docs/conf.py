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
autodoc_default_options = {"members": True, "show-inheritance": False}
autodoc_mock_imports: list = []  # lightning and matplotlib are imported lazily, so nothing needs mocking
add_module_names = False
napoleon_google_docstring = True
napoleon_numpy_docstring = False
myst_heading_anchors = 3

html_theme = "alabaster"
html_static_path: list = []
