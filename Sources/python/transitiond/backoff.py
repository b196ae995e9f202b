"""How long a client waits between attempts to reach a daemon that went away."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class ReconnectBackoff:
    """The first attempt is made at once; after a failed attempt the client waits
    ``initial`` seconds, then each wait ``multiplier`` times the one before, never more than
    ``maximum``; it gives up once ``give_up_after`` seconds have passed since the first
    attempt (never when None). The defaults, 50 ms doubling to 2 s, are the Swift client's
    ``ReconnectBackoff``: no jitter, never giving up.
    """

    initial: float = 0.05
    multiplier: float = 2.0
    maximum: float = 2.0
    give_up_after: Optional[float] = None

    def delay(self, failed_attempt: int, elapsed: float) -> Optional[float]:
        """The wait after failed attempt ``failed_attempt`` (0 for the first), or None to give
        up now that ``elapsed`` seconds have passed since the first attempt."""
        if self.give_up_after is not None and elapsed >= self.give_up_after:
            return None
        maximum = max(self.initial, self.maximum)
        delay = self.initial
        for _ in range(max(0, failed_attempt)):
            delay *= max(1.0, self.multiplier)
            if delay >= maximum:
                delay = maximum
                break
        if self.give_up_after is not None:
            delay = min(delay, self.give_up_after - elapsed)
        return delay
