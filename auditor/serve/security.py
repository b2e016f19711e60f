"""What keeps ``hhaudit serve`` a local tool: where it may bind, the token, headers and body limits.

Three plain ASGI middlewares wrap the Starlette app (outermost first):

* :class:`Headers` adds the security headers to every response (errors and 401s included):
  a Content-Security-Policy that allows the app's own stylesheet, scripts and images only (no
  inline script, no inline style, no request to another origin, no framing, forms post to the app
  only), ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer``,
  ``X-Frame-Options: DENY`` and ``Cache-Control: no-store`` (hand histories are private).
* :class:`TokenGate` answers 401 to a request without the token, when one is set.  The token is
  accepted as ``Authorization: Bearer TOKEN``, as the ``hhaudit_token`` cookie, or once as
  ``?token=TOKEN`` (the printed start-up link), which sets that cookie (HttpOnly, SameSite=Strict)
  and redirects to the same path without the token, so it does not stay in the address bar.
* :class:`BodyLimit` refuses a request body larger than the upload limit with 413, from its
  Content-Length before reading it (uvicorn holds the body to that length); a POST without a
  Content-Length gets 411.

Host names are checked too (Starlette's ``TrustedHostMiddleware``, set up in :mod:`.app`): on a
loopback address only ``localhost``, ``127.0.0.1`` and ``[::1]`` are accepted, so a web page whose
domain is re-bound to 127.0.0.1 (DNS rebinding) cannot read the app.
"""

from __future__ import annotations

import ipaddress
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, urlencode

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

TOKEN_ENV = "HHAUDIT_SERVE_TOKEN"
COOKIE = "hhaudit_token"
LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]", "::1"]

#: Everything from the app's own origin, nothing inline, nothing from elsewhere.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
]


class BindError(ValueError):
    """An address the app refuses to listen on (a non-loopback address without a token)."""


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1); names are not resolved."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """Raise :class:`BindError` when ``host`` is not a loopback address and there is no token."""
    if is_loopback(host):
        return
    if not token:
        raise BindError(
            f"refusing to listen on {host}: it is not a loopback address, and without a token anyone who "
            f"can reach it could read the hand histories it serves; give --token TOKEN (or set {TOKEN_ENV}), "
            "or bind 127.0.0.1"
        )
    if len(token) < 16:
        raise BindError("the token must be at least 16 characters long (e.g. `python3 -c 'import secrets; "
                        "print(secrets.token_urlsafe())'`)")  # fmt: skip


def _add_headers(send: Send) -> Send:
    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            names = {k.lower() for k, _ in message.get("headers", [])}
            message["headers"] = [*message.get("headers", []), *((k, v) for k, v in HEADERS if k not in names)]
        await send(message)

    return wrapped


class Headers:
    """Adds :data:`HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, _add_headers(send) if scope["type"] == "http" else send)


async def _plain(send: Send, status: int, text: str, extra: list[tuple[bytes, bytes]] | None = None) -> None:
    body = text.encode("utf-8")
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers + (extra or [])})
    await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> str:
    for k, v in scope.get("headers", []):
        if k.lower() == name:
            return bytes(v).decode("latin-1")
    return ""


class TokenGate:
    """401 for every request without the token (see the module docstring for where it is read)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token.encode("utf-8")

    def _ok(self, given: str) -> bool:
        return bool(given) and secrets.compare_digest(given.encode("utf-8"), self.token)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        auth = _header(scope, b"authorization")
        if auth.lower().startswith("bearer ") and self._ok(auth[7:].strip()):
            await self.app(scope, receive, send)
            return
        cookie = SimpleCookie()
        try:
            cookie.load(_header(scope, b"cookie"))
        except Exception:  # a malformed cookie header is no token
            cookie = SimpleCookie()
        if COOKIE in cookie and self._ok(cookie[COOKIE].value):
            await self.app(scope, receive, send)
            return
        query = parse_qsl(bytes(scope.get("query_string", b"")).decode("latin-1"), keep_blank_values=True)
        given = next((v for k, v in query if k == "token"), "")
        if self._ok(given):
            rest = urlencode([(k, v) for k, v in query if k != "token"])
            where = scope.get("path", "/") + (f"?{rest}" if rest else "")
            cookie_out = f"{COOKIE}={given}; HttpOnly; SameSite=Strict; Path=/"
            headers = [(b"location", where.encode("latin-1")), (b"set-cookie", cookie_out.encode("latin-1"))]
            await _plain(send, 303, "token accepted\n", headers)
            return
        await _plain(
            send,
            401,
            "401: this hhaudit serve needs its token: open the link it printed when it started "
            "(…?token=TOKEN) or send the header `Authorization: Bearer TOKEN`.\n",
            [(b"www-authenticate", b'Bearer realm="hhaudit"')],
        )


class BodyLimit:
    """413 for a request body larger than ``limit`` bytes (by its Content-Length, which the server
    holds the body to: a POST without one gets 411)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    def message(self) -> str:
        return (
            f"413: the upload is larger than this server's limit of {self.limit:,} bytes; audit large files "
            "with `hhaudit audit FILE --html DIR` or raise the limit with `hhaudit serve --max-upload`.\n"
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        if length.isdecimal() and int(length) > self.limit:
            await _plain(send, 413, self.message(), [(b"connection", b"close")])
            return
        if not length.isdecimal() and scope.get("method") not in ("GET", "HEAD", "OPTIONS"):
            # a body of unknown length (chunked) could be any size: browsers always send the length
            await _plain(send, 411, "411: send the upload with a Content-Length header.\n", [(b"connection", b"close")])
            return
        await self.app(scope, receive, send)
