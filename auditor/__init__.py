"""hhaudit: a poker hand-history parser and auditor."""

__version__ = "0.1.0"
