"""``hhaudit serve`` over HTTP (Starlette's TestClient): every route, bad input, and the security rules.

The store tests build a small audit store with ``hhaudit batch`` from the bundled samples and the
B001 rule example; a store of a million hands is measured in ``benchmarks/bench_serve.py``.
"""

from __future__ import annotations

import io
import os
import re
import shutil
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from auditor.batch.runner import Options, run_batch
from auditor.cli import main
from auditor.serve import security
from auditor.serve.app import Config, create_app, sample_files
from auditor.serve.browse import Filters, Store
from tests.conftest import FIXTURES

B001 = FIXTURES / "rules" / "B001" / "bad.txt"
LOCAL = "http://127.0.0.1"


def client(cfg: Config | None = None, **kw: object) -> TestClient:
    return TestClient(create_app(cfg or Config(samples=sample_files())), base_url=LOCAL, **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("src")
    shutil.copytree(FIXTURES / "samples", src / "samples")
    shutil.copytree(FIXTURES / "rules" / "B001", src / "B001")
    st = tmp_path_factory.mktemp("store")
    code = run_batch(Options(sources=[str(src)], store=str(st), night="2026-11-29", progress="log"), io.StringIO(),
                     io.StringIO())  # fmt: skip
    assert code in (0, 1)
    return st


def error_text(html: str) -> str:
    m = re.search(r'id="error">(.*?)</p>', html, re.S)
    assert m, html[:2000]
    return m.group(1)


# ---------------------------------------------------------------------------------- the dispute page


def test_dispute_page_lists_profiles_and_samples() -> None:
    r = client().get("/")
    assert r.status_code == 200
    assert 'name="text"' in r.text and 'name="file"' in r.text
    assert 'value="tda"' in r.text
    assert "disputed_reraise.txt" in r.text
    assert client().get("/dispute").text == r.text


def test_paste_a_hand_shows_its_b001_and_explanation() -> None:
    c = client()
    r = c.post("/dispute", data={"text": B001.read_text("utf-8"), "profile": ""}, follow_redirects=False)
    assert r.status_code == 303
    assert re.fullmatch(r"/dispute/[\w-]+/1", r.headers["location"])
    page = c.get(r.headers["location"])
    assert page.status_code == 200
    assert "B001" in page.text and "illegal-reraise" in page.text
    assert 'id="pots"' in page.text and 'id="players"' in page.text  # the report's hand page: the explanation
    assert 'href="/static/report.css"' in page.text and "<style>" not in page.text


def test_upload_a_file_with_a_profile() -> None:
    c = client()
    r = c.post("/dispute", data={"profile": "tda"}, files={"file": ("bad.txt", B001.read_bytes(), "text/plain")})
    assert r.status_code == 200 and "B001" in r.text
    assert "tda" in r.text


def test_sample_with_several_hands_lists_them() -> None:
    c = client()
    r = c.post("/dispute", data={"sample": "mixed_export.txt"})
    assert r.status_code == 200
    assert 'id="hands"' in r.text and "250000000102" in r.text and "250000000103" in r.text
    link = re.search(r'href="(/dispute/[\w-]+/2)"', r.text)
    assert link
    assert c.get(link.group(1)).status_code == 200
    assert c.get(link.group(1)[:-1] + "9").status_code == 404


@pytest.mark.parametrize(
    ("data", "files", "status", "says"),
    [
        ({"text": "   "}, None, 400, "Paste a hand history"),
        ({"text": "hello, this is not a hand"}, None, 422, "No hand history was found"),
        ({}, {"file": ("x.bin", bytes(range(256)) * 64, "application/octet-stream")}, 422, "No hand history"),
        ({}, {"file": ("x.txt", b"\xff\xfe\xfa" * 400, "text/plain")}, 422, "No hand history"),
        ({"text": "x", "profile": "nope"}, None, 400, "Unknown rule profile"),
        ({"sample": "../../etc/passwd"}, None, 404, "no such sample"),
    ],
)
def test_bad_input_gets_a_clear_message(data: dict[str, str], files: object, status: int, says: str) -> None:
    r = client().post("/dispute", data=data, files=files)  # type: ignore[arg-type]
    assert r.status_code == status
    assert says in error_text(r.text)
    assert "Traceback" not in r.text


def test_upload_limit() -> None:
    c = client(Config(max_upload=10_000))
    r = c.post("/dispute", files={"file": ("big.txt", b"x" * 200_000, "text/plain")})
    assert r.status_code == 413
    assert "limit" in r.text and "hhaudit audit" in r.text
    assert r.headers["content-security-policy"] == security.CSP
    small = c.post("/dispute", data={"text": B001.read_text("utf-8")})
    assert small.status_code == 200


def test_post_without_length_is_refused() -> None:
    def body():  # type: ignore[no-untyped-def]
        yield b"text=x"

    r = client().post("/dispute", content=body(), headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 411


def test_expired_submission_and_unknown_routes_are_404_pages() -> None:
    c = client()
    for url in ("/dispute/nope", "/dispute/nope/1", "/nowhere", "/rules/Z999.html", "/store"):
        r = c.get(url)
        assert r.status_code == 404, url
        assert "Traceback" not in r.text


def test_internal_error_is_a_page_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*a: object, **k: object) -> None:
        raise RuntimeError("secret detail")

    monkeypatch.setattr("auditor.serve.app.audit_bytes", boom)
    r = client(raise_server_exceptions=False).post("/dispute", data={"text": "x"})
    assert r.status_code == 500
    assert "internal error" in r.text and "secret detail" not in r.text and "Traceback" not in r.text


def test_rule_page_static_and_index_redirect() -> None:
    c = client()
    r = c.get("/rules/B001.html")
    assert r.status_code == 200 and "illegal-reraise" in r.text
    assert c.get("/static/report.css").status_code == 200
    assert c.get("/static/serve.js").status_code == 200
    assert c.get("/index.html", follow_redirects=False).headers["location"] == "/"


# ---------------------------------------------------------------------------------- security


def test_security_headers_on_every_response(store: Path) -> None:
    c = client(Config(store=str(store)))
    for url in ("/", "/dispute", "/store/findings", "/static/report.css", "/nowhere", "/rules/B001.html"):
        h = client().get(url).headers if url == "/dispute" else c.get(url).headers
        csp = h["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp, url
        assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
        assert h["x-content-type-options"] == "nosniff"
        assert h["referrer-policy"] == "no-referrer"
        assert h["x-frame-options"] == "DENY"


def test_pages_have_no_inline_script_or_style_and_no_external_url(store: Path) -> None:
    c = client(Config(store=str(store), samples=sample_files()))
    post = c.post("/dispute", data={"text": B001.read_text("utf-8")})
    pages = [c.get("/dispute").text, post.text, c.get("/store").text, c.get("/store/findings").text,
             c.get("/store/search?q=Amir").text]  # fmt: skip
    for html in pages:
        # scripts come from /static; the replayer's steps are a JSON data block (never executed, CSP-safe)
        assert not re.search(r"<script(?![^>]*\bsrc=\"/static/)(?! type=\"application/json\")", html), html[:400]
        assert " style=" not in html and "<style" not in html
        assert not re.search(r"""(src|href|action)=["']?(https?:)?//""", html)


def test_foreign_host_header_is_refused() -> None:
    r = client().get("/", headers={"host": "attacker.example"})
    assert r.status_code == 400


def test_token_required_when_set() -> None:
    token = "s3cret-token-0123456789"
    c = client(Config(token=token, loopback_only=False))
    r = c.get("/")
    assert r.status_code == 401 and "token" in r.text
    assert r.headers["content-security-policy"] == security.CSP
    assert c.get("/", headers={"authorization": "Bearer wrong"}).status_code == 401
    assert c.get("/", headers={"authorization": f"Bearer {token}"}).status_code == 200
    r = c.get(f"/dispute?token={token}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/dispute"
    assert "HttpOnly" in r.headers["set-cookie"] and "SameSite=Strict" in r.headers["set-cookie"]
    assert c.get("/dispute").status_code == 200  # the cookie now
    assert client(Config(token=token, loopback_only=False)).post("/dispute", data={"text": "x"}).status_code == 401


def test_bind_rules() -> None:
    security.check_bind("127.0.0.1", None)
    security.check_bind("::1", None)
    security.check_bind("localhost", None)
    with pytest.raises(security.BindError, match="token"):
        security.check_bind("0.0.0.0", None)
    with pytest.raises(security.BindError, match="16 characters"):
        security.check_bind("192.168.1.5", "short")
    security.check_bind("0.0.0.0", "a-long-enough-token-123")


def test_non_loopback_bind_without_token_refuses_to_start(capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    monkeypatch.delenv(security.TOKEN_ENV, raising=False)
    started: list[object] = []
    monkeypatch.setattr("auditor.serve.app.serve", lambda *a, **k: started.append(a))
    assert main(["serve", "--host", "0.0.0.0"]) == 2
    err = capsys.readouterr().err
    assert "refusing to listen on 0.0.0.0" in err and "--token" in err
    assert not started
    monkeypatch.setenv(security.TOKEN_ENV, "a-long-enough-token-123")
    assert main(["serve", "--host", "0.0.0.0", "--quiet"]) == 0
    assert started


def test_serve_command_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--store", str(tmp_path)]) == 2
    assert "not an audit store" in capsys.readouterr().err
    assert main(["serve", "--max-upload", "lots"]) == 2
    assert "--max-upload" in capsys.readouterr().err


# ---------------------------------------------------------------------------------- the store


def test_store_overview(store: Path) -> None:
    r = client(Config(store=str(store))).get("/")
    assert r.status_code == 200
    assert "2026-11-29" in r.text and 'id="by-code"' in r.text and "B001" in r.text
    assert 'id="by-player"' in r.text


def test_store_findings_filters(store: Path) -> None:
    c = client(Config(store=str(store)))
    r = c.get("/store/findings?code=b001")
    assert r.status_code == 200
    assert r.text.count("illegal-reraise") >= 0 and "/store/hand/" in r.text
    rows, total = Store(str(store)).findings(Filters(code="B001"))
    assert total == 2 and all(x["code"] == "B001" for x in rows)
    assert Store(str(store)).findings(Filters(night="2026-11-29"))[1] >= total
    assert Store(str(store)).findings(Filters(night="not-a-date"))[1] == 0
    assert Store(str(store)).findings(Filters(player="Amir"))[1] == 1
    assert c.get("/store/findings?night=2026-11-29&severity=error&page=x").status_code == 200


def test_store_search_by_id_player_file_and_code(store: Path) -> None:
    st = Store(str(store))
    rows, what = st.search("#250000000101")
    assert [r["hand_id"] for r in rows] == ["250000000101"] and what == "hand id"
    rows, what = st.search("Bahar")
    assert "250000000101" in {r["hand_id"] for r in rows} and "player" in what
    rows, _ = st.search("mixed_export")
    assert {r["hand_id"] for r in rows} >= {"250000000102"}
    rows, what = st.search("B001")
    assert "code" in what and rows
    assert st.search("")[0] == [] and st.search("no-such-thing-at-all")[0] == []
    r = client(Config(store=str(store))).get("/store/search?q=Bahar")
    assert r.status_code == 200 and "250000000101" in r.text


def test_store_hand_is_read_from_the_recorded_file(store: Path) -> None:
    c = client(Config(store=str(store)))
    rows, _ = Store(str(store)).search("250000000101")
    r = c.get(f"/store/hand/{rows[0]['file_key']}/{rows[0]['hand_no']}")
    assert r.status_code == 200
    assert "B001" in r.text and 'id="pots"' in r.text and "unchanged since it was audited" in r.text
    assert 'id="stored"' in r.text


@pytest.mark.parametrize(
    "url",
    [
        "/store/hand/..%2F..%2F..%2Fetc%2Fpasswd/0",
        "/store/hand/%2Fetc%2Fpasswd/0",
        "/store/hand/etc/passwd/0",
        "/store/hand/disputed_reraise_txt-0000000000000000/0",
        "/store/hand/../../../etc/passwd",
        "/static/../../../../etc/passwd",
        "/static/%2e%2e/%2e%2e/pyproject.toml",
    ],
)
def test_path_outside_the_store_is_refused(store: Path, url: str) -> None:
    r = client(Config(store=str(store))).get(url)
    assert r.status_code == 404
    assert "root:" not in r.text and "[project]" not in r.text


def test_store_hand_whose_file_changed_or_vanished(store: Path, tmp_path: Path) -> None:
    copy = tmp_path / "store"
    shutil.copytree(store, copy)
    st = Store(str(copy))
    rows, _ = st.search("250000000101")
    key, no = rows[0]["file_key"], rows[0]["hand_no"]
    rec = st.hand(key, no)
    assert rec is not None
    original = Path(rec.path).read_bytes()
    try:
        Path(rec.path).write_bytes(original + b"\n")
        r = client(Config(store=str(copy))).get(f"/store/hand/{key}/{no}")
        assert r.status_code == 200 and "has changed since it was audited" in r.text and "B001" in r.text
        os.unlink(rec.path)
        r = client(Config(store=str(copy))).get(f"/store/hand/{key}/{no}")
        assert r.status_code == 200 and "no longer there" in r.text
    finally:
        Path(rec.path).write_bytes(original)
