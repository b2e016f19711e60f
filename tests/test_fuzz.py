"""The fuzz suite of issue 11 (stakes with 3 decimals are left out: a known parse-layer failure,
see tests/test_hostile_parse.py): hypothesis mutates real fixture hands (bytes, numbers, cards, names,
line order, encodings, truncation) and checks the contract of ``hhaudit audit`` on every run:
exit status 0, 1 or 2, no traceback, valid JSON, ``hands_seen == hands_parsed + hands_failed``.

It runs in CI in about a minute (derandomized: the same cases every run).  The long campaign
with a time budget is ``scripts/fuzz_campaign.py``.
"""

from __future__ import annotations

import codecs
import json
import re
from pathlib import Path

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from tests.conftest import FIXTURES
from tests.test_hostile_input import cli

SEEDS = sorted((FIXTURES / "sites").glob("*/*.txt"))
TEXTS = [p.read_text("utf-8") for p in SEEDS]
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")
NUMBER = re.compile(r"\d+(?:\.\d+)?")
NAME = re.compile(r"(?<=Seat \d: )\S+")
ODD = ["", "\x00", "\r", "\ufeff", "\u202e", "\ud7ff", "💥", "'", '"', "<script>", "[", "]", "(", ")", "#", "$",
       ": ", "\t", "Zd", "10h", "-1", "0", "NaN"]  # fmt: skip


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """One or more fixture hands, mutated by a few drawn operations, then encoded."""
    text = "\n\n".join(draw(st.lists(st.sampled_from(TEXTS), min_size=1, max_size=3)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["number", "card", "name", "lines", "cut", "insert", "delete"]))
        if op == "number" and (ms := list(NUMBER.finditer(text))):
            m = draw(st.sampled_from(ms))
            new = draw(st.sampled_from(["0", "99999", "65536", "9223372036854775808", "1e5", "-3"]))
            text = text[: m.start()] + new + text[m.end() :]
        elif op == "card" and (ms := list(CARD.finditer(text))):
            m = draw(st.sampled_from(ms))
            text = text[: m.start()] + draw(st.sampled_from(["As", "Ah", "2c", "Xx", "A", "Asd"])) + text[m.end() :]
        elif op == "name" and (ms := list(NAME.finditer(text))):
            m = draw(st.sampled_from(ms))
            text = text[: m.start()] + draw(st.text(min_size=0, max_size=12)) + text[m.end() :]
        elif op == "lines":
            lines = text.split("\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        elif op == "cut":
            text = text[: draw(st.integers(0, len(text)))]
        elif op == "insert":
            i = draw(st.integers(0, len(text)))
            text = text[:i] + draw(st.sampled_from(ODD)) + text[i:]
        elif op == "delete" and text:
            i = draw(st.integers(0, len(text) - 1))
            text = text[:i] + text[i + draw(st.integers(1, 20)) :]
    enc = draw(st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-16-be", "cp1252", "mixed"]))
    if enc == "mixed":
        half = len(text) // 2
        data = text[:half].encode("utf-16") + text[half:].encode("utf-8", "surrogatepass")
    else:
        data = text.encode(enc, errors="replace") if enc != "utf-8" else text.encode("utf-8", "surrogatepass")
    if draw(st.booleans()):  # byte-level damage
        for _ in range(draw(st.integers(1, 3))):
            i = draw(st.integers(0, max(0, len(data) - 1)))
            data = data[:i] + bytes([draw(st.integers(0, 255))]) + data[i + 1 :]
    if draw(st.integers(0, 9)) == 0:
        data = draw(st.sampled_from([b"\x00" * 2048, codecs.BOM_UTF16_LE, b"\r\n" * 3])) + data
    return data


#: Failures of the parse layer already recorded as strict xfails in tests/test_hostile_parse.py
#: (fixed after the registry restructure); a case that hits one is rejected, not failed.
KNOWN: tuple[str, ...] = ()  # messages of known parse-layer bugs the fuzzer may skip (none left)


def check_contract(data: bytes, tmp: Path) -> None:
    p = tmp / "fuzz.txt"
    p.write_bytes(data)
    try:
        code, out, err = cli("audit", str(p), "--format", "json", "--fail-on", "error")
    except Exception as e:
        if any(k in str(e) for k in KNOWN):
            reject()
        raise
    assert code in (0, 1), err
    assert "Traceback" not in err
    doc = json.loads(out)
    s = doc["summary"]
    assert s["hands_seen"] == s["hands_parsed"] + s["hands_failed"]
    assert s["findings"] == len(doc["findings"])


@settings(max_examples=1500, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=mutated())
def test_mutated_hands_keep_the_contract(tmp_path_factory, data: bytes) -> None:  # type: ignore[no-untyped-def]
    check_contract(data, tmp_path_factory.mktemp("fuzz"))
