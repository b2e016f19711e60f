"""The Starlette application of ``hhaudit serve``: routes, views and error pages.

Routes (every page is rendered server-side by the report's Jinja2 environment; the hand pages
reuse the HTML report's own view and template, :func:`auditor.report.views.hand_view` and
``hand.html.j2``, with the report root at ``/``)::

    GET  /                         the dispute page (no store), or the store overview (--store)
    GET  /dispute                  paste or drop a hand history, pick a rule profile
    POST /dispute                  audit it (form fields: text, file, profile, sample) → 303
    GET  /dispute/{sid}            the hands of a submission and the findings outside any hand
    GET  /dispute/{sid}/{n}        one hand of it: explanation, pots, replay, findings, source
    GET  /store                    findings by night, code, site, player (--store only)
    GET  /store/findings           the findings, filtered by night, code, site, player, severity
    GET  /store/search?q=          hands by hand id, player, file (part of its path) or code
    GET  /store/hand/{key}/{no}    one hand of the store, read from the file the store recorded
    GET  /store/table?site=&table=&tournament=   one table's timeline: its hands in order, stacks, T-codes
    GET  /rules/{CODE}.html        a rule's documentation and examples (the report's rule page)
    GET  /static/...               the report's stylesheet and scripts (and serve's own)
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from auditor.findings import RULES
from auditor.profiles import PROFILES
from auditor.report import Page, render, reports_dir
from auditor.serve import security
from auditor.serve.browse import PAGE, Filters, Store
from auditor.serve.dispute import Recent, Submission, audit_bytes, label_of
from auditor.serve.store_hand import open_store_hand

log = logging.getLogger("hhaudit.serve")

DEFAULT_MAX_UPLOAD = 2 * 1024 * 1024


@dataclass
class Config:
    """What ``hhaudit serve`` was started with."""

    store: str | None = None
    token: str | None = None
    max_upload: int = DEFAULT_MAX_UPLOAD
    loopback_only: bool = True  # accept only loopback Host headers (the default bind)
    samples: list[Path] = field(default_factory=list)


def sample_files() -> list[Path]:
    """The bundled sample hands: ``fixtures/samples`` of the checkout (or of the working directory),
    then the bad example hand of every rule (shipped in the wheel)."""
    from auditor.report.views import example_dir

    out: list[Path] = []
    for d in (Path(__file__).resolve().parents[2] / "fixtures" / "samples", Path.cwd() / "fixtures" / "samples"):
        if d.is_dir():
            out += sorted(p for p in d.iterdir() if p.is_file() and not p.name.startswith("."))
            break
    ex = example_dir()
    out += [ex / c / "bad.txt" for c in sorted(RULES) if (ex / c / "bad.txt").is_file()]
    return out


def _sample_name(p: Path) -> str:
    return f"{p.parent.name}/{p.name}" if p.name in ("bad.txt", "good.txt") else p.name


def _page(title: str, subtitle: str = "") -> Page:
    return Page(title, subtitle, "/")


def _html(template: str, status: int = 200, **context: Any) -> HTMLResponse:
    context.setdefault("has_store", False)
    context.setdefault("serve", True)  # base.html.j2: the header links to serve's start page, not a report index
    context.setdefault("q", "")
    return HTMLResponse(render(template, **context), status_code=status)


class App:
    """The routes, bound to one :class:`Config`."""

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.recent = Recent()
        self.store = Store(cfg.store) if cfg.store else None
        self.samples = {_sample_name(p): p for p in cfg.samples}

    def html(self, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        return _html(template, status, has_store=self.store is not None, **context)

    # ------------------------------------------------------------------ dispute

    def _dispute_form(self, request: Request, error: str = "", status: int = 200, text: str = "") -> HTMLResponse:
        profiles = [{"name": p.name, "title": p.title} for p in PROFILES.values()]
        samples = list(self.samples)
        first = [s for s in samples if "/" not in s]
        rules = [s for s in samples if "/" in s]
        return self.html("serve/dispute.html.j2", status, page=_page("Dispute a hand"), error=error, text=text,
                     profiles=profiles, samples=first, rule_samples=rules, limit=f"{self.cfg.max_upload:,}",
                     store=self.store is not None)  # fmt: skip

    async def home(self, request: Request) -> Response:
        if self.store is not None:
            return await self.store_home(request)
        return self._dispute_form(request)

    async def dispute_get(self, request: Request) -> Response:
        return self._dispute_form(request)

    async def dispute_post(self, request: Request) -> Response:
        try:
            form = await request.form(max_files=1, max_fields=8, max_part_size=self.cfg.max_upload)
        except MultiPartException as e:
            return self._dispute_form(request, f"The upload could not be read: {e.message}.", 400)
        profile = str(form.get("profile") or "")
        if profile and profile not in PROFILES:
            return self._dispute_form(request, f"Unknown rule profile {profile!r}.", 400)
        data, label = b"", "pasted"
        upload = form.get("file")
        sample = str(form.get("sample") or "")
        if sample:
            path = self.samples.get(sample)
            if path is None:
                return self._dispute_form(request, "There is no such sample.", 404)
            data, label = await run_in_threadpool(path.read_bytes), f"sample/{sample}"
        elif isinstance(upload, UploadFile) and upload.filename:
            data = await upload.read()
            label = label_of(upload.filename)
        text = form.get("text")
        if not data and isinstance(text, str) and text.strip():
            data = text.encode("utf-8")
        if not data:
            return self._dispute_form(request, "Paste a hand history into the box, or choose a file.", 400)
        sub = await run_in_threadpool(audit_bytes, data, label, profile)
        if not sub.results:
            why = "; ".join(list(dict.fromkeys(f"{f.code} {f.message}" for f in sub.loose))[:3])
            msg = f"No hand history was found in {label}" + (f": {why}" if why else ".")
            return self._dispute_form(request, msg, 422, text if isinstance(text, str) and not upload else "")
        self.recent.add(sub)
        where = f"/dispute/{sub.id}/1" if len(sub.results) == 1 and not sub.loose else f"/dispute/{sub.id}"
        return RedirectResponse(where, status_code=303)

    def _submission(self, request: Request) -> Submission:
        sub = self.recent.get(str(request.path_params["sid"]))
        if sub is None:
            raise HTTPException(404, "This result has expired (the server keeps the latest 32): paste the hand again.")
        return sub

    async def dispute_result(self, request: Request) -> Response:
        sub = self._submission(request)
        rows = []
        for i, r in enumerate(sub.results, start=1):
            worst = max((f.severity for f in r.findings), default=None)
            rows.append({"n": i, "hand_id": r.chunk.hand_id if hasattr(r.chunk, "hand_id") else "",
                         "site": r.chunk.site, "first_line": r.chunk.first_line, "findings": len(r.findings),
                         "codes": ", ".join(sorted({f.code for f in r.findings})),
                         "worst": str(worst) if worst is not None else ""})  # fmt: skip
            if r.hand is not None:
                rows[-1]["hand_id"] = r.hand.hand_id
        title = f"{sub.label}: {sub.hands} hand(s)"
        return self.html("serve/submission.html.j2", page=_page(title), sub=sub, rows=rows, loose=sub.loose)

    async def dispute_hand(self, request: Request) -> Response:
        from auditor.report.views import Kept, hand_view

        sub = self._submission(request)
        n = int(request.path_params["n"])
        if not 1 <= n <= len(sub.results):
            raise HTTPException(404, f"This submission has {len(sub.results)} hand(s).")
        r = sub.results[n - 1]
        view = await run_in_threadpool(hand_view, Kept(n, r.audited, r.chunk, r.findings), "/")
        nav = {"back": f"/dispute/{sub.id}", "back_label": f"{sub.label}: {sub.hands} hand(s)",
               "prev": f"/dispute/{sub.id}/{n - 1}" if n > 1 else "",
               "next": f"/dispute/{sub.id}/{n + 1}" if n < sub.hands else "", "note": "", "stored": []}  # fmt: skip
        return self.html("serve/hand.html.j2", view=view, nav=nav)

    # ------------------------------------------------------------------ store

    def _need_store(self) -> Store:
        if self.store is None:
            raise HTTPException(404, "No audit store: start with `hhaudit serve --store DIR` to browse one.")
        return self.store

    async def store_home(self, request: Request) -> Response:
        st = self._need_store()
        o = await run_in_threadpool(st.overview)
        return self.html("serve/store.html.j2", page=_page("Audit store", st.root), o=o, store=st.root)

    async def store_findings(self, request: Request) -> Response:
        st = self._need_store()
        q = request.query_params
        flt = Filters(*(q.get(k, "")[:200] for k in ("night", "code", "site", "player", "severity", "table")))
        page = _int(q.get("page", "1"), 1)
        rows, total = await run_in_threadpool(st.findings, flt, page)
        options = await run_in_threadpool(st.options)
        pages = max(1, -(-total // PAGE))
        base = "&".join(f"{k}={_q(v)}" for k, v in flt.active().items())
        pager = [{"label": str(i), "href": None if i == page else f"/store/findings?{base}&page={i}"}
                 for i in _pages(page, pages)]  # fmt: skip
        return self.html("serve/findings.html.j2", page=_page("Findings", st.root), rows=rows, total=total, flt=flt,
                     options=options, pager=pager, active=flt.active())  # fmt: skip

    async def store_search(self, request: Request) -> Response:
        st = self._need_store()
        q = request.query_params.get("q", "")[:200]
        rows, what = await run_in_threadpool(st.search, q)
        return self.html("serve/search.html.j2", page=_page(f"Search: {q}" if q else "Search", st.root), q=q,
                     rows=rows, what=what)  # fmt: skip

    async def store_hand(self, request: Request) -> Response:
        st = self._need_store()
        key = str(request.path_params["key"])
        no = _int(str(request.path_params["no"]), -1)
        rec = await run_in_threadpool(st.hand, key, no)
        if rec is None:
            raise HTTPException(404, "The store holds no such hand.")
        view, note = await run_in_threadpool(open_store_hand, rec)
        nav = {
            "back": "/store",
            "back_label": "audit store",
            "prev": "",
            "next": "",
            "note": note,
            "stored": rec.findings,
        }
        if view is None:
            return self.html("serve/store_hand.html.j2", page=_page(f"Hand {rec.hand_id_text()}", st.root), rec=rec,
                         note=note, nav=nav)  # fmt: skip
        return self.html("serve/hand.html.j2", view=view, nav=nav)

    async def store_table(self, request: Request) -> Response:
        from auditor.batch.timeline import table_timeline

        st = self._need_store()
        q = request.query_params
        site, table = q.get("site", "")[:200], q.get("table", "")[:500]
        tournament = q.get("tournament")
        tl = await run_in_threadpool(table_timeline, st.root, site, table,
                                     tournament[:200] if tournament else None, serve=True)  # fmt: skip
        if tl is None:
            raise HTTPException(404, "The store holds no hand of this table.")
        return self.html("serve/table.html.j2", page=_page(f"Table {tl.title}", st.root), tl=tl)

    # ------------------------------------------------------------------ the report's rule pages

    async def rule_page(self, request: Request) -> Response:
        from auditor.report.views import rule_view

        code = str(request.path_params["name"]).removesuffix(".html").upper()
        if code not in RULES:
            raise HTTPException(404, "No such rule.")
        view = await run_in_threadpool(rule_view, code, "/")
        return self.html("rule.html.j2", view=view)

    async def index_html(self, request: Request) -> Response:
        return RedirectResponse("/", status_code=303)


def _int(v: str, default: int) -> int:
    try:
        return int(v)
    except ValueError:
        return default


def _q(v: str) -> str:
    from urllib.parse import quote

    return quote(v, safe="")


def _pages(page: int, pages: int) -> list[int]:
    near = {1, pages, *range(max(1, page - 3), min(pages, page + 3) + 1)}
    return sorted(near)


async def _error(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    if isinstance(exc, HTTPException):
        detail = exc.detail
    else:
        log.exception("hhaudit serve: internal error on %s", request.url.path, exc_info=exc)
        detail = "hhaudit failed on this request (an internal error; the server's log has the details)."
    try:
        return _html("serve/error.html.j2", status, page=_page(f"{status}"), code=status, detail=detail)
    except Exception:  # the error page itself failed: plain text, never a traceback
        return PlainTextResponse(f"{status}: {detail}\n", status_code=status)


def create_app(cfg: Config) -> Starlette:
    """The ASGI application for ``cfg`` (with the security middlewares of :mod:`.security`)."""
    a = App(cfg)
    static = StaticFiles(directory=str(reports_dir() / "static"))
    routes = [
        Route("/", a.home),
        Route("/index.html", a.index_html),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/dispute", a.dispute_get, methods=["GET"]),
        Route("/dispute", a.dispute_post, methods=["POST"]),
        Route("/dispute/{sid:str}", a.dispute_result),
        Route("/dispute/{sid:str}/{n:int}", a.dispute_hand),
        Route("/store", a.store_home),
        Route("/store/findings", a.store_findings),
        Route("/store/search", a.store_search),
        Route("/store/hand/{key:str}/{no:str}", a.store_hand),
        Route("/store/table", a.store_table),
        Route("/rules/{name:str}", a.rule_page),
        Mount("/static", app=static, name="static"),
    ]
    middleware = [Middleware(security.Headers)]
    if cfg.token:
        middleware.append(Middleware(security.TokenGate, token=cfg.token))
    middleware.append(Middleware(security.BodyLimit, limit=cfg.max_upload + 64 * 1024))  # form overhead
    if cfg.loopback_only:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=security.LOOPBACK_HOSTS))
    handlers: dict[Any, Any] = {HTTPException: _error, Exception: _error}
    return Starlette(routes=routes, middleware=middleware, exception_handlers=handlers)


def serve(cfg: Config, host: str, port: int, quiet: bool = False) -> None:
    """Run the app with uvicorn until interrupted (``check_bind`` must have passed)."""
    import uvicorn

    app = create_app(cfg)
    shown = f"[{host}]" if ":" in host else host
    link = f"http://{shown}:{port}/" + (f"?token={cfg.token}" if cfg.token else "")
    if not quiet:
        print(f"hhaudit serve: open {link}  (Ctrl+C stops it)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning" if quiet else "info", server_header=False,
                proxy_headers=False, access_log=not quiet)  # fmt: skip


__all__ = ["Config", "create_app", "sample_files", "serve"]
