"""Errors a user can fix: the CLI prints them as one line and exits 2."""


class UserError(Exception):
    """Bad input from the user: unknown name, malformed file, unusable database."""


class DriverError(Exception):
    """A driver crashed, hung or broke the protocol; the cell is recorded failed."""


class StoreError(UserError):
    """The database cannot be read or written (read-only, full, locked, damaged, not ours)."""
