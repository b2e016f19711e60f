"""BLAKE2b from the standard library's built-in module (issue 16: start-up).

``import hashlib`` loads OpenSSL's ``_hashlib`` (~2-3 ms of a one-hand run's ~100 ms) whatever
is asked of it, yet ``hashlib.blake2b`` is this same built-in class (CPython never takes BLAKE2
from OpenSSL).  The hand fingerprints (:mod:`auditor.handprint`), the cross-hand stage's
partitions (:mod:`auditor.crosshand_audit`) and the registry cache's keys
(:mod:`auditor.formats.cache`) use it from here; a Python built without ``_blake2`` falls back to
``hashlib``'s.  (``_sha256``, the built-in SHA-256, is ~5x slower than OpenSSL's on the ~1 MB the
cache keys read at start-up: the keys are BLAKE2b, as fast as OpenSSL's SHA-256 there.)
"""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without its BLAKE2 module
    from hashlib import blake2b

__all__ = ["blake2b"]
