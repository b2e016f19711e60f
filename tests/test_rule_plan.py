"""The audit step runs only the checks of a hand's plan (``auditor.findings.plan``: the rules
registered with ``applies=`` are left out of the kinds of hands they cannot find anything in).
Which checks run never changes what is found: on every fixture hand and every hand of the shared
corpus, a check left out of the plan finds nothing, and :func:`auditor.audit.judge` returns exactly
what running every registered check (sorted, cascades folded) returns."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from auditor.audit import _ROOTS, _line_order, fold_consequences, hand_kind, judge
from auditor.findings import Finding, HandKind, Stage, catalogue, plan
from auditor.profiles import for_hand
from auditor.replay import Trace, replay
from auditor.replay.pots import PotTrace
from auditor.replay.pots import build as build_pots
from tests.conftest import FIXTURES, corpus_dir
from tests.format_helpers import parsed_hands


def _every(stage: Stage) -> list[Any]:
    return [r.check for _, r in sorted(catalogue().items()) if r.stage == stage and r.check is not None]


def _applying(stage: Stage, kind: HandKind) -> set[Any]:
    """The checks that can find anything in a hand of ``kind``: the plan calls them, or their group."""
    rules = [r for r in catalogue().values() if r.stage == stage and r.check is not None]
    got = {r.check for r in rules if r.applies is None or r.applies(kind)}
    calls = plan(stage, kind)  # (stage is "hand" or "pots")
    assert all(c in calls or r.group in calls for r in rules for c in [r.check] if c in got)
    return got


def _reference(t: Trace, pt: PotTrace) -> list[Finding]:
    """Every registered check, as the audit step ran them before plans (in code order)."""
    out: list[Finding] = []
    for check in _every("hand"):
        out.extend(check(t))
    for check in _every("pots"):
        out.extend(check(t, pt))
    out.sort(key=_line_order)
    if any(f.code in _ROOTS for f in out):
        out = fold_consequences(out, {e.line: e.street for e in t.hand.events})
    return out


def _audited(folder: Path) -> Iterator[tuple[Trace, PotTrace]]:
    for hand in parsed_hands(folder):
        profile = for_hand(hand.site, None)
        t = replay(hand, profile)
        yield t, build_pots(t, profile)


def _fresh(t: Trace, pt: PotTrace) -> None:
    t.cache.clear()
    pt.cache.clear()


def _check_folder(folder: Path) -> int:
    n = 0
    for t, pt in _audited(folder):
        n += 1
        kind = hand_kind(t)
        hand_plan, pots_plan = _applying("hand", kind), _applying("pots", kind)
        for check in _every("hand"):
            if check not in hand_plan:
                _fresh(t, pt)
                assert not list(check(t)), (t.hand.path, t.hand.hand_id, check.__name__, kind)
        for check in _every("pots"):
            if check not in pots_plan:
                _fresh(t, pt)
                assert not list(check(t, pt)), (t.hand.path, t.hand.hand_id, check.__name__, kind)
        _fresh(t, pt)
        want = _reference(t, pt)
        _fresh(t, pt)
        got = judge(t, pt)
        assert [f.as_dict() for f in got] == [f.as_dict() for f in want], (t.hand.path, t.hand.hand_id)
    return n


def test_fixture_hands_find_the_same_with_their_plans() -> None:
    assert _check_folder(FIXTURES) > 100


def test_a_plan_leaves_out_the_checks_that_cannot_apply() -> None:
    nlhe = HandKind("holdem", "NL", True, False, True, True)
    names = {c.__name__ for c in _applying("hand", nlhe)}
    assert "b002" in names and "b008" not in names and "b009" not in names and "b012" not in names
    stud = HandKind("stud", "FL", True, False, True, True)
    names = {c.__name__ for c in _applying("hand", stud)}
    assert {"b009", "b010", "b012"} <= names and "h004" not in names
    assert plan("hand", nlhe) is plan("hand", nlhe)  # computed once per kind


def test_a_group_is_called_once_in_place_of_its_checks() -> None:
    from auditor.rules.awards import payouts
    from auditor.rules.betting import walk

    nlhe = HandKind("holdem", "NL", True, False, True, True)
    calls = plan("hand", nlhe)
    assert calls.count(walk) == 1 and not {"b001", "b002", "s001", "s003"} & {c.__name__ for c in calls}
    assert plan("pots", nlhe).count(payouts) == 1


@pytest.mark.corpus
def test_corpus_hands_find_the_same_with_their_plans() -> None:
    assert _check_folder(corpus_dir()) > 1000
