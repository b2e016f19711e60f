"""Write ``fixtures/continuity/<CODE>/{bad,good}.txt``: short PokerStars-format sessions of one table.

Every hand of a session is a walk (everybody folds to the big blind, who wins the small blind), so
the stacks, the button and the blinds of each hand follow from the previous one.  ``good.txt`` is
the session as it should be; ``bad.txt`` the same session with one cross-hand fault from hand 3 on:

T001 an hour passes before hand 3 (a gap: reported at info level, nothing judged across it)
T002 a cash player's stack is $50 lower from hand 3 on (ratholing)
T003 a tournament player has 500 chips more from hand 3 on
T004 a cash player has $50 more from hand 3 on (judged with ``top_ups_between_hands = false``)
T005 the button skips a player at hand 3
T006 the tournament blinds go down at hand 3
T007 two tables of one tournament (hands interleaved, 30 seconds apart): the blinds go up from
     level I to level II at 20:04 at table 1; in ``bad.txt`` table 2 stays at level I to the end
T007 ``flights.txt``: two flights of one tournament id played at once, in GGPoker's format (its real
     header names the flight: ``Tournament #9364957, WSOP #77: ... Main Event [Flight W], ...``), each on
     tables '1' and '2': flight W goes up to level 2 at 20:04, flight X stays at level 1; clean (the
     flights are two tournaments).  ``flights_bad.txt``: the same, with flight W's table 2 behind.

Run: ``python scripts/make_continuity_fixtures.py`` (writes the files; commit them).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "continuity")
SEATS = [(1, "Ann"), (2, "Bob"), (4, "Cy"), (6, "Dan")]


@dataclass
class Fault:
    gap_minutes: int = 0
    change: tuple[str, int] | None = None  # player, minor units added from hand 3 on
    skip_button: bool = False
    lower_blinds: bool = False
    # T007: (level II from this minute on, or None: level II throughout), table number, id base, seconds
    schedule: tuple[int | None, int, int, int] | None = None


def _money(v: int, cash: bool) -> str:
    if not cash:
        return str(v)
    return f"${v // 100}" if v % 100 == 0 else f"${v // 100}.{v % 100:02d}"


def session(cash: bool, fault: Fault, hands: int = 6) -> str:
    stacks = {n: (10_000 if cash else 1500) for _, n in SEATS}
    out: list[str] = []
    b = 0  # index of the button in SEATS
    minute = 0
    for i in range(1, hands + 1):
        if i == 3:
            minute += fault.gap_minutes
            if fault.change:
                stacks[fault.change[0]] += fault.change[1]
            if fault.skip_button:
                b = (b + 1) % len(SEATS)
        if cash:
            sb_amt, bb_amt = 50, 100
        else:
            sb_amt, bb_amt = (10, 20) if fault.lower_blinds and i >= 3 else (15, 30)
            if fault.schedule is not None:
                up = fault.schedule[0]
                sb_amt, bb_amt = (15, 30) if up is not None and minute >= up else (10, 20)
        seat_b, name_b = SEATS[b]
        _, sb = SEATS[(b + 1) % len(SEATS)]
        _, bb = SEATS[(b + 2) % len(SEATS)]
        time = f"2026/01/05 {20 + minute // 60}:{minute % 60:02d}:00"
        hid = 260000000000 + i
        tid, table = "999000111", "999000111 1"
        if fault.schedule is not None:
            _up, no, base, sec = fault.schedule
            time = time[:-2] + f"{sec:02d}"
            hid, tid, table = base + i, "999000222", f"999000222 {no}"
        if cash:
            out.append(f"PokerStars Hand #{hid}:  Hold'em No Limit ($0.50/$1 USD) - {time} ET")
            out.append(f"Table 'Altair' 6-max Seat #{seat_b} is the button")
        else:
            level = "II" if bb_amt == 30 else "I"
            out.append(f"PokerStars Hand #{hid}: Tournament #{tid}, $1+$0.10 USD Hold'em No Limit - "
                       f"Level {level} ({sb_amt}/{bb_amt}) - {time} ET")  # fmt: skip
            out.append(f"Table '{table}' 6-max Seat #{seat_b} is the button")
        for s, n in SEATS:
            chips = f"{_money(stacks[n], cash)} in chips"
            out.append(f"Seat {s}: {n} ({chips})")
        out.append(f"{sb}: posts small blind {_money(sb_amt, cash)}")
        out.append(f"{bb}: posts big blind {_money(bb_amt, cash)}")
        out.append("*** HOLE CARDS ***")
        order = [SEATS[(b + 3 + j) % len(SEATS)][1] for j in range(len(SEATS) - 1)]
        for n in order:
            out.append(f"{n}: folds")
        out.append(f"Uncalled bet ({_money(bb_amt - sb_amt, cash)}) returned to {bb}")
        out.append(f"{bb} collected {_money(2 * sb_amt, cash)} from pot")
        out.append(f"{bb}: doesn't show hand")
        out.append("*** SUMMARY ***")
        out.append(f"Total pot {_money(2 * sb_amt, cash)} | Rake {_money(0, cash)}")
        for s, n in SEATS:
            role = " (button)" if n == name_b else " (small blind)" if n == sb else " (big blind)" if n == bb else ""
            if n == bb:
                out.append(f"Seat {s}: {n}{role} collected ({_money(2 * sb_amt, cash)})")
            elif n == sb:
                out.append(f"Seat {s}: {n}{role} folded before Flop")
            else:
                out.append(f"Seat {s}: {n}{role} folded before Flop (didn't bet)")
        out += ["", "", ""]
        stacks[sb] -= sb_amt
        stacks[bb] += sb_amt
        b = (b + 1) % len(SEATS)
        minute += 1
    return "\n".join(out)


CASES: dict[str, tuple[bool, Fault]] = {
    "T001": (True, Fault(gap_minutes=45)),
    "T002": (True, Fault(change=("Cy", -5000))),
    "T003": (False, Fault(change=("Cy", 500))),
    "T004": (True, Fault(change=("Cy", 5000))),
    "T005": (True, Fault(skip_button=True)),
    "T006": (False, Fault(lower_blinds=True)),
}


def tables(behind: bool) -> str:
    """T007: two tables of one tournament, their hands interleaved in time order."""
    one = session(False, Fault(schedule=(4, 1, 260000001000, 0)), hands=8).split("\n\n\n\n")
    two = session(False, Fault(schedule=(None if behind else 4, 2, 260000002000, 30)), hands=8).split("\n\n\n\n")
    hands = [h.strip("\n") for pair in zip(one, two, strict=True) for h in pair if h.strip()]
    return "\n\n\n\n".join(hands) + "\n\n\n\n"


def _hands(up1: int | None, up2: int | None, bases: tuple[int, int], secs: tuple[int, int]) -> list[str]:
    one = session(False, Fault(schedule=(up1, 1, bases[0], secs[0])), hands=8).split("\n\n\n\n")
    two = session(False, Fault(schedule=(up2, 2, bases[1], secs[1])), hands=8).split("\n\n\n\n")
    return [h.strip("\n") for h in one + two if h.strip()]


def _gg(hand: str, flight: str) -> str:
    """A hand of :func:`session` in GGPoker's tournament format, of the flight named."""
    m = re.match(r"PokerStars Hand #(\d+): Tournament #\d+, \S+ USD Hold'em No Limit - Level (I+) \((\d+)/(\d+)\) - "
                 r"(\S+ \S+) ET\n", hand)  # fmt: skip
    assert m is not None, hand[:120]
    hid, level, sb, bb, time = m.groups()
    head = (f"Poker Hand #TM{hid}: Tournament #9364957, WSOP #77: $5,000 No Limit Hold'em Main Event [{flight}], "
            f"$25M GTD Hold'em No Limit - Level{len(level)} ({sb}/{bb}) - {time}\n")  # fmt: skip
    body = re.sub(r"Table '999000222 (\d)'", r"Table '\1'", hand[m.end() :])
    body = body.replace(" | Rake 0", "")
    return head + body


def flights(behind: bool) -> str:
    """T007: two flights of one tournament id at once, two tables each (GGPoker format)."""
    w = [_gg(h, "Flight W") for h in _hands(4, None if behind else 4, (260000001000, 260000002000), (0, 30))]
    x = [_gg(h, "Flight X") for h in _hands(None, None, (260000003000, 260000004000), (10, 40))]
    hands = sorted(w + x, key=lambda h: re.findall(r"\d{4}/\d\d/\d\d \d+:\d\d:\d\d", h.split("\n", 1)[0])[0])
    return "\n\n\n\n".join(hands) + "\n\n\n\n"


def main() -> None:
    d = os.path.join(ROOT, "T007")
    os.makedirs(d, exist_ok=True)
    for name, text in (
        ("good.txt", tables(False)),
        ("bad.txt", tables(True)),
        ("flights.txt", flights(False)),
        ("flights_bad.txt", flights(True)),
    ):
        with open(os.path.join(d, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    for code, (cash, fault) in CASES.items():
        d = os.path.join(ROOT, code)
        os.makedirs(d, exist_ok=True)
        for name, text in (("good.txt", session(cash, Fault())), ("bad.txt", session(cash, fault))):
            with open(os.path.join(d, name), "w", encoding="utf-8", newline="\n") as f:
                f.write(text)


if __name__ == "__main__":
    main()
