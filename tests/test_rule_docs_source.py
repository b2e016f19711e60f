"""A rule's documentation is the same whether its function carries its docstring (pure Python) or
not (a module compiled by mypyc drops docstrings; ``findings._source_doc`` reads the ``.py``
shipped beside the ``.so``): the fallback gives every rule exactly the docstring Python sees."""

from __future__ import annotations

import inspect

from auditor.findings import _source_doc, catalogue


def test_source_docs_are_the_docstrings() -> None:
    checked = 0
    for r in catalogue().values():
        if r.check is None or not r.check.__doc__:
            continue  # compiled (the compiled leg checks these in tests/test_compiled.py)
        assert inspect.cleandoc(_source_doc(r.check)) == inspect.cleandoc(r.check.__doc__) == r.doc, r.code
        checked += 1
    assert checked > 20


def test_no_source_no_doc() -> None:
    def nowhere() -> None:
        pass

    nowhere.__module__ = "auditor.no_such_module"
    assert _source_doc(nowhere) == ""
