"""polars' allocator settings for the processes that run the store's cross-hand pass.

polars allocates with jemalloc and, on import, sets ``_RJEM_MALLOC_CONF`` to
``dirty_decay_ms:500,muzzy_decay_ms:1000`` (appending whatever the environment already held).
Buffers above jemalloc's ``oversize_threshold`` (8 MiB: every column of a few million rows) live in
an arena that gives freed pages back to the system at once, so each new large column of a query is
page-faulted in again: about a third of the CPU time of the cross-hand query over a large store
(``benchmarks/bench_continuity.py``, ``benchmarks/README.md``).  :data:`KEEP` (jemalloc's own
default decay, set explicitly so that it applies to those large buffers too) keeps freed pages in
the process for about ten seconds, so a query reuses them and an idle process still gives them
back; the cost is a higher peak (measured with ``benchmarks/bench_allocator.py``).  No decay at
all (``dirty_decay_ms:-1``) was measured 5 % faster, with the same peak, but keeps the peak for the
rest of the process.

jemalloc reads the setting once, when polars is first imported: :func:`keep_freed_pages` must run
before that, and sets it only when the user has not set ``_RJEM_MALLOC_CONF`` (any value, even
empty, wins) and when :data:`OPT_OUT` is not set.  Processes started afterwards (the batch pool's
workers, a local Dask cluster's workers) inherit it.  Documented in ``docs/batch.md``.
"""

from __future__ import annotations

import os
import sys

#: The variable jemalloc (as built into polars) reads its options from.
ENV = "_RJEM_MALLOC_CONF"
#: Keep freed pages in the process for about ten seconds before giving them back to the system.
KEEP = "dirty_decay_ms:10000,muzzy_decay_ms:10000"
#: Give freed pages back at once: what ``hhaudit audit``'s cross-hand child process uses
#: (:mod:`auditor.crosshand_audit`), where the memory bound matters more than the query's speed.
GIVE_BACK = "dirty_decay_ms:0,muzzy_decay_ms:0"
#: Set (to anything but empty) to leave polars' own allocator settings alone.
OPT_OUT = "HHAUDIT_POLARS_DEFAULT_ALLOCATOR"


def keep_freed_pages() -> bool:
    """Set ``_RJEM_MALLOC_CONF`` to :data:`KEEP` for this process and the processes it starts, unless
    the user set it (or :data:`OPT_OUT`) or polars is already imported (too late: jemalloc has read
    its options).  True when it was set here."""
    if ENV in os.environ or os.environ.get(OPT_OUT) or "polars" in sys.modules:
        return False
    os.environ[ENV] = KEEP
    return True
