"""Files written whole or not at all: a save, an embosser file and its preview, the udev rules.

A file is first written to a temporary beside it (``.NAME.PID.XXXXXXXX.tmp``: the pid of the
writer, so that the leftovers of a process killed mid-write can be told from the work of a
live one), synced, then renamed over the file; the folder is synced so the rename lasts.

    write_atomically(Path("uno.json"), data, mode=0o600)
    write_together([(Path("deck.brf"), brf), (Path("deck.pdf"), pdf)])  # both or neither
    clean_leftovers(Path("~/.local/state/brailledev").expanduser())
    with held(Path("uno.json")): ...   # one program uses the file at a time
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import stat
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from layouts.errors import UserError

# A temporary of write_atomically: ``.NAME.PID.RANDOM.tmp``.
_TEMPORARY = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]{1,10})\.[A-Za-z0-9_]{4,16}\.tmp")


def write_atomically(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write ``data`` to ``path`` so that a crash or a full disk leaves the old file or the
    new one, never half of one: a temporary file in the same folder is written, flushed and
    synced, given ``mode``, renamed over ``path``, then the folder is synced so the rename
    lasts. On any failure the temporary file is removed and the error (``OSError``) raised.

    ``write_atomically(Path("deck.brf"), b"...")``
    """
    write_together([(path, data)], mode)


def write_together(files: Sequence[tuple[Path, bytes]], mode: int = 0o644) -> None:
    """Write several files so that either all of them are replaced or none is: every
    temporary is written and synced first, and only then are they renamed; should a rename
    fail, the files already renamed are put back as they were. The error (``OSError``, its
    ``filename`` the file that failed) is raised.

    ``write_together([(Path("pad.brf"), brf), (Path("pad.svg"), svg)])``
    """
    ready: list[tuple[str, Path]] = []
    kept: dict[Path, tuple[bool, str | None]] = {}
    try:
        for path, data in files:
            if path.is_dir():
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
            ready.append((_temporary(path, data, mode), path))
        if len(ready) > 1:  # one file alone is replaced or not: nothing to put back
            for _, path in ready:
                kept[path] = _keep(path)
        done: list[Path] = []
        try:
            for temporary, path in ready:
                try:
                    os.replace(temporary, path)
                except OSError as error:
                    error.filename = str(path)
                    raise
                done.append(path)
        except BaseException:
            for path in done:
                _put_back(path, kept.get(path, (True, None)))
            raise
    except BaseException:
        for temporary, _ in ready:
            Path(temporary).unlink(missing_ok=True)
        raise
    finally:
        for _, backup in kept.values():
            if backup is not None:
                Path(backup).unlink(missing_ok=True)
    for folder in {path.parent for _, path in ready}:
        _sync_folder(folder)


def _keep(path: Path) -> tuple[bool, str | None]:
    """Whether a file is at ``path``, and a second name for it (a hard link) while it is
    replaced, so a failure can put it back (``None`` if the folder takes no link)."""
    if not path.is_file():
        return False, None
    backup = f"{path.parent}/.{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        os.link(path, backup)
    except OSError:
        return True, None
    return True, backup


def _put_back(path: Path, kept: tuple[bool, str | None]) -> None:
    """The file at ``path`` as it was before the replacing: its old self, or none."""
    existed, backup = kept
    with contextlib.suppress(OSError):
        if backup is not None:
            os.replace(backup, path)
        elif not existed:
            path.unlink()


def _temporary(path: Path, data: bytes, mode: int) -> str:
    """A synced temporary beside ``path`` holding ``data``, with ``mode``."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp",
                                         dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return temporary


def clean_leftovers(folder: Path) -> list[Path]:
    """Remove the temporaries that writers killed mid-write left in ``folder`` (those whose
    process is gone; a live writer's are kept) and return them; a folder that cannot be
    read is left as it is: ``clean_leftovers(Path("saves"))``."""
    removed: list[Path] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        found = _TEMPORARY.fullmatch(name)
        if found is None or _alive(int(found.group("pid"))):
            continue
        with contextlib.suppress(OSError):
            (folder / name).unlink()
            removed.append(folder / name)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):  # another user's process, or no such number
        return pid < 2**31
    return True


@contextlib.contextmanager
def held(path: Path, in_use: str = "save_in_use") -> Iterator[None]:
    """Hold ``path`` for this program while it runs (an ``fcntl`` lock on ``path.lock``
    beside it, let go when the program ends, however it ends: the kernel lets go of a
    killed one); a file another program holds is refused in one sentence (UserError
    ``in_use``, naming the file): ``with held(save, "seat_in_use"): ...``; the lock file
    goes when the program lets go. A folder that does not exist yet holds no file to
    share: nothing is locked."""
    lock = path.with_name(f"{path.name}.lock")
    while True:
        try:
            handle = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            yield
            return
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(handle)
            raise UserError(in_use, path=path) from None
        if _same_inode(handle, lock):
            break
        # The holder removed this lock file as we opened it: a third program may lock the
        # new one, so lock that one too.
        os.close(handle)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):  # the folder beside the file stays tidy
            os.unlink(lock)
        os.close(handle)


def _same_inode(handle: int, path: Path) -> bool:
    try:
        named = os.stat(path)
    except OSError:
        return False
    opened = os.fstat(handle)
    return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)


def state_folder() -> Path:
    """brailledev's own folder for what it keeps (``$XDG_STATE_HOME/brailledev``): saved
    games and pads, seats at tables, a server's tables: ``state_folder() / "uno.json"``."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "brailledev"


def private_folder(folder: Path, ours: bool = False) -> None:
    """Make ``folder`` and its missing parents, readable by their owner only (XDG state
    folders are 0700). An existing folder keeps its mode unless it is ``ours`` (brailledev's
    own state folder, tightened): ``private_folder(Path("saves"))``. Raises ``OSError``."""
    if ours and folder.is_dir():
        os.chmod(folder, 0o700)
    missing = []
    for each in (folder, *folder.parents):
        if each.exists():
            break
        missing.append(each)
    for each in reversed(missing):
        with contextlib.suppress(FileExistsError):
            each.mkdir(mode=0o700)
        # mkdir's mode passes through the umask, chmod does not.
        os.chmod(each, 0o700)


def _sync_folder(folder: Path) -> None:
    # The rename is an entry in the folder: without this a power cut may undo it.
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


class NotAFile(OSError):
    """The path names a folder, a pipe or a device, not a file: ``NotAFile(path)``."""


class TooBig(OSError):
    """The file holds more than the reader takes: ``TooBig(path)``."""


def read_file(path: Path, most: int) -> bytes:
    """The bytes of the regular file ``path``: :class:`NotAFile` for a folder, a pipe or a
    device (never waiting on one), :class:`TooBig` past ``most`` bytes, else ``OSError``
    (``FileNotFoundError``...): ``read_file(Path("uno.json"), 32 * 2**20)``."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    try:
        info = os.fstat(descriptor)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(info.st_mode):
            raise NotAFile(errno.EINVAL, "not a regular file", str(path))
        os.set_blocking(descriptor, True)
        with os.fdopen(os.dup(descriptor), "rb") as handle:
            data = handle.read(most + 1)
    finally:
        os.close(descriptor)
    if len(data) > most:
        raise TooBig(errno.EFBIG, "too big", str(path))
    return data
