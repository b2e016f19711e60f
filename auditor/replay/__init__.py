"""Replay: what should have happened, derived from what the site printed."""

from auditor.replay.betting import Replay, Step, StreetOpen, Trace, replay

__all__ = ["Replay", "Step", "StreetOpen", "Trace", "replay"]
