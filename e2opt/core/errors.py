"""Exceptions for errors the user can cause; cli.py prints them as one line and exits 2."""


class E2optError(Exception):
    """Base of every error caused by user input (files, configs, options)."""


class PuzzleError(E2optError):
    """A malformed puzzle file; the message names the file and the line."""

    def __init__(self, path: str, line: int | None, problem: str):
        self.path, self.line, self.problem = path, line, problem
        where = f"{path}, line {line}" if line is not None else path
        super().__init__(f"{where}: {problem}")


class BoardError(E2optError):
    """A malformed or rule-breaking board file."""


class ConfigError(E2optError):
    """A bad config: names the file and the dotted key path.

    ``key`` (dotted) and ``problem`` (the message without its source), when set, let a value that came
    from the command line be blamed on its option instead of on the config file.
    """

    def __init__(self, message: str, key: str | None = None, problem: str | None = None):
        super().__init__(message)
        self.key, self.problem = key, problem
