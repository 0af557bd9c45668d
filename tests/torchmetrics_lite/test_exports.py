"""The lazy export tables of ``torchmetrics_lite`` and ``torchmetrics_lite.functional`` list exactly the public
names of each family module (its ``__all__``), so a name added to a family is never missing from the package
(nor from its docs page, which ``tests/test_docs.py`` checks against ``__all__``)."""
import importlib

import pytest

import torchmetrics_lite
import torchmetrics_lite.functional

PACKAGES = [torchmetrics_lite, torchmetrics_lite.functional]


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_export_tables_match_each_family_all(package):
    for module_name, names in package._EXPORTS.items():
        module = importlib.import_module(module_name)
        public = getattr(module, "__all__", None)
        if public is None:  # _version: one name, no __all__
            assert all(hasattr(module, n) for n in names), module_name
            continue
        assert set(names) == set(public), f"{module_name}: table {sorted(set(names) ^ set(public))} differ"


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_every_exported_name_resolves_and_is_listed_once(package):
    names = [n for table in package._EXPORTS.values() for n in table]
    assert len(names) == len(set(names)) and set(names) == set(package.__all__)
    for name in names:
        assert getattr(package, name) is not None
