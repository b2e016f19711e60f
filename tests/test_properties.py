"""Property tests: whatever bytes arrive, the reader never crashes and the counts add up."""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from auditor import rules  # noqa: F401
from auditor.findings import Finding
from auditor.formats import parse_chunk
from auditor.formats.registry import REGISTRY
from auditor.ingest import Chunk, read_stream
from auditor.model import Hand
from tests.conftest import FIXTURES

# text formats: a document format (iPoker XML) has no hand header on its first line
# XML documents whose first line is a session header, not a hand (iPoker, Everest) are left out
REAL = [p.read_text("utf-8") for p in sorted((FIXTURES / "sites").glob("*/*.txt"))
        if p.parent.name not in ("ipoker", "everest")]  # fmt: skip


def read_all(data: bytes) -> tuple[int, int, int, list[Finding]]:
    """(seen, parsed, failed, findings) for a byte string, the way the pipeline counts them."""
    info, items = read_stream(io.BytesIO(data), "prop.txt", len(data))
    seen = parsed = failed = 0
    findings: list[Finding] = []
    for item in items:
        if isinstance(item, Finding):
            findings.append(item)
            continue
        assert isinstance(item, Chunk)
        seen += 1
        hand, fs = parse_chunk(item)
        findings += fs
        if hand is None:
            failed += 1
            assert any(f.code in ("P001", "P006") for f in fs)
        else:
            parsed += 1
            assert isinstance(hand, Hand)
    assert seen == info.hands
    for f in findings:
        assert f.path == "prop.txt"
        assert f.line is None or f.line >= 1
    return seen, parsed, failed, findings


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=4000))
def test_arbitrary_bytes_never_crash(data: bytes) -> None:
    seen, parsed, failed, _ = read_all(data)
    assert seen == parsed + failed


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400), st.sampled_from(REAL), st.sampled_from(("utf-8", "utf-16-le", "cp1252")))
def test_real_header_then_noise(noise: bytes, hand: str, enc: str) -> None:
    lines = hand.splitlines()
    # a line the site prints before a hand that belongs to no hand (PartyPoker "Game #N starts.",
    # the card's preamble) and blank lines are not the header: the header is the first other line
    while lines and (not lines[0].strip() or REGISTRY.preamble.match(lines[0])):
        lines.pop(0)
    # a lead-in line (888 "#Game No : N") only announces a hand: the header proper follows it
    lead = any(REGISTRY.is_lead_in(site, lines[0]) for site in REGISTRY.lead_ins)
    head = "\n".join(lines[: 2 if lead else 1]) + "\n"
    data = head.encode(enc, errors="replace") + noise
    seen, parsed, failed, _ = read_all(data)
    assert seen >= 1 and seen == parsed + failed


@st.composite
def mutated_hand(draw: st.DrawFn) -> str:
    lines = draw(st.sampled_from(REAL)).splitlines()
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(("delete", "duplicate", "swap", "truncate", "insert", "replace_char")))
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        if not lines:
            break
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "truncate":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        elif op == "insert":
            lines.insert(i, draw(st.text(max_size=60)))
        else:
            s = lines[i]
            k = draw(st.integers(0, max(0, len(s) - 1)))
            lines[i] = s[:k] + draw(st.characters()) + s[k + 1 :]
    return "\n".join(lines)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(mutated_hand(), min_size=1, max_size=3))
def test_mutated_real_hands_end_as_hands_or_findings(hands: list[str]) -> None:
    data = "\n\n".join(hands).encode("utf-8", errors="surrogatepass")
    seen, parsed, failed, _findings = read_all(data)
    assert seen == parsed + failed


def test_fixtures_exist() -> None:
    assert len(REAL) >= 16
    assert Path(FIXTURES).is_dir()
