"""Escaping for output that reaches a terminal, a spreadsheet or a line-oriented reader.

Player names, file names and hand text are attacker-controlled: a name holding ESC, OSC or BEL
could drive the terminal, a CR could hide text or forge a line, and a newline in a file name could
print a fake finding.  :func:`visible` spells every such character out (``\\x1b``, ``\\n``,
``\\u202e``), so what is printed is what the input held, and nothing acts on the terminal.
"""

from __future__ import annotations

import re

# C0 and C1 controls, DEL, line/paragraph separators and the bidirectional overrides/isolates
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\\\\]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\"}


def _escape(m: re.Match[str]) -> str:
    c = m.group(0)
    if c in _NAMED:
        return _NAMED[c]
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def visible(text: str) -> str:
    """``text`` with every control, line-separator and bidi-override character escaped visibly.

    A backslash is doubled only when the text holds something to escape, so ordinary Windows
    paths print unchanged while an escaped text can never be confused with an unescaped one.
    """
    if not _UNSAFE.search(text.replace("\\", "")):
        return text
    return _UNSAFE.sub(_escape, text)


def json_line_safe(text: str) -> str:
    """JSON text with U+2028 and U+2029 escaped: raw, they end a line for JavaScript and for some
    JSON Lines readers, though they are legal inside a JSON string."""
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
