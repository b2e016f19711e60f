"""Nightly batch audits into a Parquet audit store (``hhaudit batch`` and ``hhaudit report --store``).

The pieces, from the bottom up:

* :mod:`auditor.batch.store` - the store's layout (Parquet tables ``files``, ``hands``,
  ``findings`` and ``runs``, partitioned ``night=YYYY-MM-DD``), atomic writes, the manifest that
  marks a file done, garbage collection after a killed run, and consistent readers.
* :mod:`auditor.batch.work` - :func:`~auditor.batch.work.audit_file`, the one per-file function:
  hash, skip if unchanged, stream, parse, audit, write parts, commit.  Every engine runs it.
* :mod:`auditor.batch.engines` - where ``audit_file`` runs: in-process, a local process pool, or a
  dask.distributed cluster.
* :mod:`auditor.batch.runner` - one batch run: list the sources, clean up, dispatch, show
  progress, write the run log, compute the exit status.
* :mod:`auditor.batch.report` - trends over nights computed with polars and rendered to HTML.
* :mod:`auditor.batch.cli` - the ``batch`` and ``report`` subcommands.

See ``docs/batch.md`` for the operator's view (cron line, Dask cluster, querying the store).
"""

from __future__ import annotations

#: Rows of ``hands`` (or ``findings``) a worker buffers before writing them as one Parquet part.
#: A hand's row costs about 3 KB while buffered, so the default keeps the buffer near 15 MB.
DEFAULT_BATCH_SIZE = 5_000
