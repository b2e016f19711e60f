"""``hhaudit serve``: a small local web app over the audit step and the audit store.

* :mod:`.app`: the Starlette application (routes, views, error pages);
* :mod:`.dispute`: audit pasted or uploaded bytes (the same ingest → detect → read → audit path as
  ``hhaudit audit``);
* :mod:`.browse` and :mod:`.store_hand`: the store's queries (polars, lazily) and opening one of its
  hands from the file the store recorded;
* :mod:`.security`: loopback by default, the token, security headers, upload limits;
* :mod:`.cli`: the command's arguments and start-up checks.

Templates are under ``reports/templates/serve/``, static files in ``reports/static/`` (``serve.css``,
``serve.js``); the hand pages are the HTML report's own (``auditor.report.views.hand_view``).
"""
