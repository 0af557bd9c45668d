"""The command line's one error type and its exit codes (imported by every stage; imports nothing)."""
from __future__ import annotations

EXIT_DATA, EXIT_USAGE = 1, 2


class CliError(Exception):
    """An error reported to the user as ``tml-eval: error: <message>`` with exit code ``code``."""

    def __init__(self, message: str, code: int = EXIT_DATA) -> None:
        super().__init__(message)
        self.code = code
