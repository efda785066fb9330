"""Atomic file writes: a temp file in the same folder, fsync, then os.replace."""

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO


@contextlib.contextmanager
def atomic_stream(path: str | os.PathLike, fsync: bool = True) -> Iterator[BinaryIO]:
    """A binary file written in pieces that replaces ``path`` only once it is complete, so that readers see
    either the old file or the new one, never half; an error names ``path``, not the temporary file.

    ``fsync=False`` still survives a killed process (the rename is atomic); it only skips the
    flush to disk that protects against power loss, for files rewritten many times a second.
    """
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:  # name the file the user asked for, not the temporary one
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    try:
        os.fchmod(fd, 0o666 & ~UMASK)  # mkstemp makes 0600; give the file normal permissions
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            if fsync:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and exc.errno is not None and exc.filename in (tmp, None):
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        raise


def atomic_write_bytes(path: str | os.PathLike, data: bytes, fsync: bool = True) -> None:
    """Write data to path at once, atomically (``atomic_stream``)."""
    with atomic_stream(path, fsync) as f:
        f.write(data)


def _umask() -> int:
    """The process umask (reading it means setting it, so set it straight back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


UMASK = _umask()  # read once, at import: setting it later could race with other threads' file creation


def atomic_write_text(path: str | os.PathLike, text: str, fsync: bool = True) -> None:
    """Text version of atomic_write_bytes (UTF-8)."""
    atomic_write_bytes(path, text.encode("utf-8"), fsync)


class UnreadableFile(ValueError):
    """A file that cannot be read as text; the message is the problem, without the path. A ValueError, so
    that readers of e2opt's own files (result.json, markers) treat it as they treat bad JSON."""


STATE_FILE_MB = 256  # e2opt's own files in run and sweep folders (JSON, journals); far above real sizes


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, for an error message."""
    for test, name in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def check_regular(path: str | os.PathLike, limit_mb: float | None = None) -> int:
    """The size of ``path`` when it is a regular file (of at most ``limit_mb`` MB); UnreadableFile otherwise.

    Checked with stat before any open: opening a named pipe blocks until a writer comes, and a device such as
    /dev/zero never ends, so either would hang e2opt or exhaust its memory.
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise UnreadableFile("no such file") from None
    except OSError as exc:
        raise UnreadableFile(f"cannot read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        kind = _kind(info.st_mode)
        raise UnreadableFile(f"is {kind}, not a file" if kind != "not a regular file" else kind)
    if limit_mb is not None and info.st_size > limit_mb * 2**20:
        raise UnreadableFile(f"too large ({info.st_size / 2**20:.0f} MB; at most {limit_mb} MB is read)")
    return info.st_size


def read_user_bytes(path: str | os.PathLike, limit_mb: float) -> bytes:
    """The bytes of a regular file of at most ``limit_mb`` MB; UnreadableFile says why not.

    At most the checked size plus one byte is read, so a file that grows while it is read cannot exhaust memory.
    """
    size = check_regular(path, limit_mb)
    try:
        with open(path, "rb") as f:
            data = f.read(size + 1)
    except OSError as exc:
        raise UnreadableFile(f"cannot read: {exc.strerror or exc}") from None
    if len(data) > size and len(data) > limit_mb * 2**20:
        raise UnreadableFile(f"grew past {limit_mb} MB while it was read")
    return data


def decode_user_text(data: bytes) -> str:
    """The one encoding rule for every text file e2opt reads: UTF-8, a byte-order mark dropped, CRLF and
    lone CR line ends read as LF (tabs are whitespace to every parser, which split on any whitespace)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnreadableFile(f"not UTF-8 text (bad byte at offset {exc.start})") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_user_text(path: str | os.PathLike, limit_mb: float) -> str:
    """The UTF-8 text of a user's input file (decode_user_text's rules); UnreadableFile says why not.

    Only a regular file is read, and files over ``limit_mb`` MB are refused before they are read, so a wrong
    file (a named pipe, a device, a huge file) cannot hang e2opt or exhaust its memory.
    """
    return decode_user_text(read_user_bytes(path, limit_mb))


def show_token(token: str, limit: int = 40) -> str:
    """A token quoted for an error message: invisible or control characters escaped, long tokens cut."""
    cut = token if len(token) <= limit else token[:limit] + "..."
    return f"'{cut}'" if cut.isprintable() else ascii(cut)


def check_outputs(outputs: dict[str, str | None], inputs: dict[str, str | None], force: bool) -> None:
    """Refuse outputs that would destroy a file by accident: E2optError naming the options.

    An output may not be an input or another output (same file, however spelled); an existing file is
    replaced only with ``force``.
    """
    from .errors import E2optError

    seen: dict[Path, str] = {}
    for option, path in inputs.items():
        if path is not None:
            seen[Path(path).resolve()] = option
    for option, path in outputs.items():
        if path is None:
            continue
        where = Path(path).resolve()
        if where in seen:
            raise E2optError(f"{option} {path}: the same file as {seen[where]}; give another path")
        seen[where] = option
        if where.is_dir():
            raise E2optError(f"{option} {path}: is a folder; give a file path")
        if where.exists() and not force:
            raise E2optError(f"{option} {path}: the file exists; give --force to replace it")
