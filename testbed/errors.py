"""The one error type an operation reports to the agent: a code and a message, never a crash.

It lives at the bottom floor because the testbed raises it too (a path outside the office);
``officesim.apps`` re-exports it with the registry that turns it into an observation.
"""

from __future__ import annotations


class OpError(Exception):
    """An error the agent caused; becomes an observation, never a crash."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class TooLarge(Exception):
    """A file refused because opening it would pass a size limit; the message names the limit
    (testbed/guards.py sets the limits and raises it)."""
