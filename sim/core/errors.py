"""The one error type that reaches users as a one-line message (exit code 2 on the CLI)."""


class UserError(ValueError):
    """Bad input from a user: unknown game/strategy/option, out-of-range value, foreign folder.

    The message is a single line naming the problem and the allowed values.
    """
