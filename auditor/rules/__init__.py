"""Rule families, one module per family; importing this package registers every rule."""

from auditor.rules import parse as parse  # noqa: F401  (registers P-codes)
