"""A003 on a Run It Once walk with a splash the pot: the main pot is printed with the walk's
uncalled part left in it (export fact ``silent_returns_in_walks``) and without the house's STP
money, printed as an item of its own ("Main pot €0.15 | STP €0.50", total €0.65).  The clean record
passes; a wrong main pot is still caught."""

from __future__ import annotations

from tests.conftest import FIXTURES
from tests.format_helpers import audit_text, codes_at, line_of

WALK = (FIXTURES / "exports" / "clones" / "runitonce_stp_walk.txt").read_text("utf-8")


def test_clean_walk_passes() -> None:
    assert audit_text(WALK) == []


def test_main_pot_without_the_uncalled_part_is_a003() -> None:
    bad = WALK.replace("Main pot €0.15", "Main pot €0.10")
    assert ("A003", line_of(bad, "Total pot")) in codes_at(audit_text(bad))


def test_main_pot_short_is_a003() -> None:
    bad = WALK.replace("Main pot €0.15", "Main pot €0.14")
    assert ("A003", line_of(bad, "Total pot")) in codes_at(audit_text(bad))


def test_main_pot_beyond_layer_and_kept_part_is_a003() -> None:
    bad = WALK.replace("Main pot €0.15", "Main pot €0.20")
    assert ("A003", line_of(bad, "Total pot")) in codes_at(audit_text(bad))
