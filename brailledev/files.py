"""Files written whole or not at all: a save, an embosser file, the udev rules.

    write_atomically(Path("uno.json"), data, mode=0o600)
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write ``data`` to ``path`` so that a crash or a full disk leaves the old file or the
    new one, never half of one: a temporary file in the same folder is written, flushed and
    synced, given ``mode``, renamed over ``path``, then the folder is synced so the rename
    lasts. On any failure the temporary file is removed and the error (``OSError``) raised.

    ``write_atomically(Path("deck.brf"), b"...")``
    """
    folder = path.parent
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    # The rename is an entry in the folder: without this a power cut may undo it.
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
