"""Sphinx configuration of the library's API reference (``make docs-api`` builds it into build/api with warnings as
errors; tests/test_api_reference.py builds it too). autodoc reads the docstrings of the installed ``privtest``
(``make install`` installs the checkout's src/privtest in editable mode); napoleon reads their Google-style
sections (Args, Returns, Raises, Attributes, Example).

Each public object is documented once: a name of ``privtest.__all__`` on the privtest page, under the name users
import (``privtest.GTMTester``, with its defining module as the canonical name), every other public member of a
module on that module's page."""

from sphinx.pycode import ModuleAnalyzer

import privtest

project = "privtest"
author = "privtest developers"
release = version = privtest.__version__

extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon"]
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False  # "Returns: (halt_step, samples): ..." names values, not types: no cross-references
autodoc_member_order = "bysource"  # the order of the code, which follows the paper; for privtest: that of __all__
autodoc_typehints = "signature"
autodoc_preserve_defaults = True  # defaults as written (theta=DEFAULT_THETA), not their repr

exclude_patterns = ["_build"]
html_theme = "alabaster"

_documenting = {"module": ""}  # the module whose automodule directive is being processed


def _note_module(app, what, name, obj, options, lines):
    if what == "module":  # a module's docstring is processed before its members are gathered
        _documenting["module"] = name


def _skip_member(app, what, name, obj, skip, options):
    if what != "module":
        return None
    module = _documenting["module"]
    if module == "privtest":
        return name not in privtest.__all__  # its public names (its constants: _constants)
    if privtest._EXPORTS.get(name) == module:
        return True  # documented on the privtest page
    return None


def _constants(app, docname, source):
    """The privtest page documents the public constants too (automodule lists a module's variables only when that
    module's source documents them): one autodata directive each, after the automodule."""
    if docname == "privtest":
        names = [n for n in privtest.__all__ if not callable(getattr(privtest, n, None)) and n in dir(privtest)]
        source[0] += "".join(f"\n.. autodata:: privtest.{n}\n" for n in names)


def _constant_docs(app, what, name, obj, options, lines):
    """A public constant's doc comment (``#:``) is in the module that defines it, not in privtest/__init__.py."""
    short = name.removeprefix("privtest.")
    if what == "data" and name == f"privtest.{short}" and short in privtest._EXPORTS:
        docs = ModuleAnalyzer.for_module(privtest._EXPORTS[short]).find_attr_docs().get(("", short))
        lines[:] = list(docs or [])  # not the docstring of the value's type (float's)


def setup(app):
    app.connect("source-read", _constants)
    app.connect("autodoc-process-docstring", _note_module)
    app.connect("autodoc-process-docstring", _constant_docs)
    app.connect("autodoc-skip-member", _skip_member)
