"""Issue 11, parse layer: minimal reproductions the fuzzer found in the readers and the replay's
evaluator.  Each now ends as a finding with its line, never a traceback."""

from __future__ import annotations

import json

import pytest

from tests.conftest import FIXTURES
from tests.test_hostile_input import cli

CAP = (FIXTURES / "sites" / "pokerstars" / "cap_no_limit.txt").read_text("utf-8")
BASIC = (FIXTURES / "sites" / "pokerstars" / "cash_nlhe_basic.txt").read_text("utf-8")

CASES = {  # the text, and the finding it must give
    # a show-down of 6 hole cards + 5 board cards reaches phevaluator: ValueError (5 to 7 cards)
    "more-than-7-cards:H004": CAP.replace("cy: shows [Kd Ks]", "cy: shows [Kd Ks Qd Qs 3c 4c]").replace(
        "showed [Kd Ks] and", "showed [Kd Ks Qd Qs 3c 4c] and"
    ),
    # an amount of 5,000 digits: int() refuses beyond Python's 4,300-digit limit (ValueError)
    "5000-digit-amount:P006": BASIC.replace("alice ($10 in chips)", "alice ($" + "9" * 5000 + " in chips)"),
    # stakes with 3 decimals: read exactly, in thousandths (an internal exception once escaped)
    "stakes-3-decimals:": BASIC.replace("($0.05/$0.10 USD)", "($0.05/$0.105 USD)"),
}


@pytest.mark.parametrize(("case", "text"), list(CASES.items()), ids=list(CASES))
def test_parse_layer_reproduction(tmp_path, case: str, text: str) -> None:  # type: ignore[no-untyped-def]
    p = tmp_path / "h.txt"
    p.write_text(text)
    try:
        code, _out, _err = cli("audit", str(p), "--format", "json")
    except Exception as e:  # the contract: never a traceback
        pytest.fail(f"{type(e).__name__}: {e}")
    assert code in (0, 1)
    doc = json.loads(_out)
    want = case.split(":")[1]
    assert (want in {f["code"] for f in doc["findings"]}) if want else doc["summary"]["hands_parsed"] == 1


def test_a_player_named_like_another_formats_header_does_not_split_the_hand(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A player named ``Poker Hand #1:`` (GGPoker's header) in a PokerStars hand: "Poker Hand #1:
    collected $0.62 from pot" reads as a line of the hand, not as a new GG hand."""
    p = tmp_path / "h.txt"
    p.write_text(BASIC.replace("alice", "Poker Hand #1:"))
    _code, out, _err = cli("audit", str(p), "--format", "json")
    s = json.loads(out)["summary"]
    assert (s["hands_seen"], s["hands_parsed"], s["findings"]) == (1, 1, 0), out


def test_a_gg_header_with_a_long_run_of_spaces_is_read_without_hanging(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 11: a GGPoker tournament header with 60,000 spaces once took minutes (the pattern was
    cubic in the run of spaces).  A guard of 30 s catches a hang; the reader takes milliseconds."""
    import signal

    line = (
        "Poker Hand #TM1: Tournament #1, " + " " * 60_000 + "x Hold'em No Limit - Level1(10/20) - 2020/06/02 19:17:33"
    )
    p = tmp_path / "gg.txt"
    p.write_text(line + "\nTable '1' 6-max Seat #1 is the button\nSeat 1: a (100 in chips)\n")

    def hung(*_a: object) -> None:
        raise TimeoutError("the header was not read within 30 s")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(30)
    try:
        code, out, _err = cli("audit", str(p), "--format", "json", "--fail-on", "none")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert code == 0 and json.loads(out)["summary"]["hands_seen"] == 1
