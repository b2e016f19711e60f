"""The HTML audit report: plain view models built in Python, rendered by Jinja2 templates.

Templates live in ``reports/templates`` (shipped in the wheel as ``auditor/reports``); they only
loop over view-model fields — every number and every sentence is computed here.  Autoescaping is
always on and undefined names are errors: player names are attacker-controlled text.

Layout of a report directory::

    index.html                 what was audited, counts by code / severity / site, findings (page 1)
    findings-<n>.html          further pages of the findings table (500 rows a page)
    code-<CODE>-<n>.html       the findings of one code; site-<site>-<n>.html: of one site
    hands/<n>.html             one page per hand with findings: source, replay, pots, findings
    rules/<CODE>.html          one page per rule: documentation, a bad and a good example
    static/report.css, report.js
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, BinaryIO

import jinja2


@dataclass(frozen=True)
class Page:
    """What ``base.html.j2`` reads: the title, a subtitle, the prefix from the page to the report
    root (None for a standalone page) and the CSS to inline (None: link ``static/report.css``)."""

    title: str
    subtitle: str
    root: str | None = ""
    inline_css: str | None = None
    #: JavaScript to inline (a standalone page only: served and report pages link ``static/*.js``)
    inline_js: str | None = None


def reports_dir() -> Path:
    """Where the templates and static assets are: inside the installed package, or the checkout."""
    packaged = resources.files("auditor") / "reports"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent.parent / "reports"


def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(reports_dir() / "templates")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render(template: str, **context: Any) -> str:
    """Render a template; a ``view`` with a ``page`` also provides the base template's ``page``."""
    if "view" in context and "page" not in context:
        context["page"] = context["view"].page
    return _env().get_template(template).render(**context)


_ENV: jinja2.Environment | None = None


def _env() -> jinja2.Environment:
    global _ENV
    if _ENV is None:
        _ENV = environment()
    return _ENV


@contextlib.contextmanager
def open_atomic(path: Path) -> Iterator[BinaryIO]:
    """A new file that becomes ``path`` when the block ends, without following links planted in the way.

    The bytes go to a new temporary file created exclusively (``tempfile.mkstemp``: ``O_EXCL``,
    mode 0600, an unpredictable name) in the destination folder, which is then renamed over
    ``path``.  A symbolic link at ``path`` is replaced, never written through; a directory at
    ``path`` is an error.  On any failure (disk full, permissions) the temporary file is removed
    and the error is raised.
    """
    parent = path.parent
    parent.mkdir(parents=True, exist_ok=True)
    if path.is_dir() and not path.is_symlink():
        raise IsADirectoryError(errno.EISDIR, "is a directory", str(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=parent)
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically and safely (see :func:`open_atomic`)."""
    with open_atomic(path) as f:
        f.write(data)


def stream(path: Path, template: str, **context: Any) -> None:
    """Render ``template`` into ``path`` piece by piece (``Template.generate``: the page is never
    held whole), atomically and safely as :func:`write`; ``context`` as :func:`render`'s."""
    if "view" in context and "page" not in context:
        context["page"] = context["view"].page
    with open_atomic(path) as f:
        buf: list[str] = []
        size = 0
        for piece in _env().get_template(template).generate(**context):
            buf.append(piece)
            size += len(piece)
            if size >= 1 << 16:
                f.write("".join(buf).encode("utf-8"))
                buf, size = [], 0
        f.write("".join(buf).encode("utf-8"))


def write(path: Path, text: str) -> None:
    """Write ``text`` as UTF-8, atomically and safely (see :func:`write_bytes`)."""
    write_bytes(path, text.encode("utf-8"))


def safe_dir(d: Path) -> Path:
    """Create the folder ``d`` of a report; a symbolic link or a file planted there is an error."""
    if d.is_symlink() or (d.exists() and not d.is_dir()):
        raise NotADirectoryError(errno.ENOTDIR, "not a folder of the report (a link or a file is in the way)", str(d))
    d.mkdir(parents=True, exist_ok=True)
    return d


def copy_static(out: Path) -> None:
    static = reports_dir() / "static"
    dest = safe_dir(out / "static")
    for f in static.iterdir():
        write_bytes(dest / f.name, f.read_bytes())


def inline_css() -> str:
    return (reports_dir() / "static" / "report.css").read_text("utf-8")


def inline_js(name: str = "replayer.js") -> str:
    """A static script for a standalone page; ``</`` is escaped so it cannot close its element."""
    return (reports_dir() / "static" / name).read_text("utf-8").replace("</", "<\\/")


#: The file that marks a folder as an hhaudit report (a folder without it, not empty and without an
#: ``index.html``, is never replaced).
MARKER = ".hhaudit-report"


def staging_dir(out: Path) -> Path:
    """A new empty folder beside ``out`` to write a report into, before :func:`publish` swaps it in.

    ``out`` is checked first: a link or a file in its place, a linked folder inside it, or a folder
    that holds something other than an hhaudit report is an error (OSError), so nothing is written.
    """
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise NotADirectoryError(errno.ENOTDIR, "not a folder of the report (a link or a file is in the way)", str(out))
    if out.is_dir():
        entries = list(out.iterdir())
        for e in entries:
            if e.is_symlink() and e.is_dir():
                raise NotADirectoryError(errno.ENOTDIR, "a linked folder is in the way", str(e))
        names = {e.name for e in entries}
        if entries and MARKER not in names and "index.html" not in names:
            raise FileExistsError(errno.EEXIST, "the folder is not empty and holds no hhaudit report", str(out))
    parent = out.absolute().parent
    parent.mkdir(parents=True, exist_ok=True)
    d = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".new", dir=parent))
    os.chmod(d, 0o755)
    write(d / MARKER, "hhaudit HTML report: this folder is replaced as a whole by the next run\n")
    return d


def publish(staged: Path, out: Path) -> None:
    """Replace the folder ``out`` by ``staged`` (a sibling): a rename, so the previous run's pages
    never mix with this run's.  The previous folder is renamed aside, then removed (links in it are
    unlinked, never followed)."""
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise NotADirectoryError(errno.ENOTDIR, "not a folder of the report (a link or a file is in the way)", str(out))
    if not out.exists():
        os.rename(staged, out)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".old", dir=out.absolute().parent))
    os.rmdir(old)
    os.rename(out, old)
    os.rename(staged, out)
    shutil.rmtree(old, ignore_errors=True)


def sha256_of(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
