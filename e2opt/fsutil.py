"""Atomic file writes: a temp file in the same folder, fsync, then os.replace."""

import contextlib
import os
import tempfile
from pathlib import Path


def atomic_write_bytes(path: str | os.PathLike, data: bytes, fsync: bool = True) -> None:
    """Write data to path so that readers see either the old file or the new one, never half.

    ``fsync=False`` still survives a killed process (the rename is atomic); it only skips the
    flush to disk that protects against power loss, for files rewritten many times a second.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~UMASK)  # mkstemp makes 0600; give the file normal permissions
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            if fsync:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    """The process umask (reading it means setting it, so set it straight back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


UMASK = _umask()  # read once, at import: setting it later could race with other threads' file creation


def atomic_write_text(path: str | os.PathLike, text: str, fsync: bool = True) -> None:
    """Text version of atomic_write_bytes (UTF-8)."""
    atomic_write_bytes(path, text.encode("utf-8"), fsync)
