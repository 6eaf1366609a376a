"""Who may open what: the evening's tokens beside it in ``PATH.access`` (E52), the links
they make, and whether a link reaches beyond this machine."""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from referee.errors import StoreError
from referee.storage import files
from referee.storage.files import atomic_write
from referee.storage.lock import EveningLock

if TYPE_CHECKING:
    pass


DEFAULT_PORT = 8765
#: The access file beside the evening: ``PATH.access``, mode 0600 (E52).
ACCESS_SUFFIX = ".access"
TOKEN_BYTES = 24  # 192 bits from `secrets` (E52)

# -- access tokens --------------------------------------------------------------------------------


@dataclass
class Access:
    """The evening's tokens: the GM's station token and one per assistant (E52).

    Kept in a 0600 file beside the evening rather than in its event log: a token is a key,
    not a move of the game, so it must not enter the hash-chained log (which never forgets,
    is copied into every backup, and which `undo` could bring back after `--new-tokens`).
    """

    station: str
    assistants: dict[str, str] = field(default_factory=dict)
    url: str | None = None  # where the last `referee serve` said the evening is

    def assistant_for(self, token: str) -> str | None:
        """The assistant whose token this is, compared in constant time; else None."""
        found = None
        for name, mine in self.assistants.items():
            if hmac.compare_digest(mine.encode(), token.encode()):
                found = name
        return found

    def is_station(self, token: str) -> bool:
        return hmac.compare_digest(self.station.encode(), token.encode())

    def link(self, assistant: str, base: str | None = None) -> str:
        return f"{(base or self.url or local_url(DEFAULT_PORT)).rstrip('/')}/a/" \
               f"{self.assistants[assistant]}"


def local_url(port: int, host: str = "127.0.0.1", scheme: str = "http") -> str:
    return f"{scheme}://{host}:{port}"


def access_path(evening: Path) -> Path:
    return evening.with_name(evening.name + ACCESS_SUFFIX)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def load_access(evening: Path) -> Access | None:
    """The tokens kept beside ``evening``, or None when there are none (or they are unreadable:
    ``access_damage`` says why)."""
    return _read_access(evening)[0]


def _read_access(evening: Path) -> tuple[Access | None, str | None, bool]:
    """The tokens beside ``evening``; what is wrong with their file (None: sound or none);
    and whether it carries its checksum (E186: an earlier release wrote it without)."""
    try:
        data, checked, what = files.read_checked(access_path(evening))
    except (OSError, StoreError):
        return None, "it cannot be read", False
    if data is None and what is None:
        kept = access_path(evening).with_name(access_path(evening).name + ".bak")
        if kept.is_file():  # its copy is there: tokens were handed out, and it was deleted
            return None, f"it is gone; its copy {kept.name} holds the tokens last made", False
        return None, None, False  # no file: no tokens were handed out here yet
    if what is not None:
        return None, what, False
    if checked is False:
        return None, "its checksum does not match: it was changed outside the referee", False
    try:
        assert data is not None
        assistants = data["assistants"]
        if not isinstance(assistants, dict) or not isinstance(data["station"], str):
            raise TypeError
        url = data.get("url")
        found = Access(station=data["station"],
                       assistants={str(k): str(v) for k, v in assistants.items()},
                       url=url if isinstance(url, str) else None)
    except (KeyError, TypeError):
        return None, "it holds no tokens", False
    return found, None, checked is True


def access_damage(evening: Path) -> str | None:
    """The one line for a damaged tokens file beside ``evening`` (E186), or None: emptied,
    garbled or changed by a byte, it is said, never mended in silence (the links printed
    and the station token would stop opening anything)."""
    why = _read_access(evening)[1]
    if why is None:
        return None
    target = access_path(evening)
    kept = target.with_name(target.name + ".bak")
    copy = _read_access_at(kept)
    back = (f"copy {kept} to {target.name} to keep the links handed out, or " if copy else "")
    return (f"the tokens file {target} is damaged ({why}); the links and the station token "
            f"handed out cannot be checked against it; {back}`referee serve --new-tokens` "
            "makes new ones (hand every link out again) (E186)")


def _read_access_at(path: Path) -> bool:
    """Whether ``path`` is a sound tokens file, checksum and all (E186)."""
    try:
        data, checked, what = files.read_checked(path)
    except (OSError, StoreError):
        return False
    return bool(checked and what is None and isinstance(data, dict)
                and isinstance(data.get("station"), str)
                and isinstance(data.get("assistants"), dict))


def ensure_access(evening: Path, assistants: list[str], *, renew: bool = False,
                  url: str | None = None, dry: bool = False) -> Access:
    """The evening's tokens, made for every assistant who has none (all anew with ``renew``).

    Written atomically, mode 0600, under the evening's lock, so two commands never hand out
    two tokens for one assistant.

    Raises:
        StoreError: the evening is busy, or the access file cannot be written.
    """
    lock = EveningLock(evening.with_name(evening.name + ".lock"))
    if not lock.acquire(3.0):
        raise StoreError(f"the evening {evening} is busy in another terminal; try again")
    try:
        return _update_access(evening, assistants, renew=renew, url=url, dry=dry)
    finally:
        lock.release()


def replace_access(evening: Path, assistants: list[str], *, dry: bool = False
                   ) -> Access | None:
    """A new evening's tokens (E66): every token anew, the station's too, one for each of its
    ``assistants`` at once, where links were handed out before (an access file exists); the
    address `serve` last gave is kept. Returns them, or None when there were none to replace.

    The caller holds the evening's lock (``new`` does, inside its transaction), so no phone
    reads the new evening with an old link.

    Raises:
        StoreError: the access file cannot be written.
    """
    target = access_path(evening)
    copy = target.with_name(target.name + ".bak")  # links were handed out, the file deleted
    if not any(p.exists() or p.is_symlink() for p in (target, copy)):
        return None
    old = load_access(evening)
    return _update_access(evening, assistants, renew=True, url=old.url if old else None,
                          dry=dry)


def _update_access(evening: Path, assistants: list[str], *, renew: bool,
                   url: str | None, dry: bool = False) -> Access:
    old, why, checked = (None, None, True) if renew else _read_access(evening)
    if why is not None:  # E186: never minted anew in silence
        raise StoreError(access_damage(evening) or why, ruling="E186")
    access = old or Access(station=new_token(), url=url)
    changed = old is None or not checked  # an older file gets its checksum now (E186)
    for name in assistants:
        if name not in access.assistants:
            access.assistants[name] = new_token()
            changed = True
    if url is not None and url != access.url:
        access.url, changed = url, True

    if changed and not dry:  # E133: a dry run's keys are never written
        target = access_path(evening)
        # With a checksum in front, as the evening carries one (E186).
        text = files.encode_checked({"station": access.station,
                                     "assistants": access.assistants, "url": access.url})
        try:
            # A copy beside it first, which tells a tokens file deleted from one never made
            # (E186), and holds the tokens to copy back.
            for where in (target.with_name(target.name + ".bak"), target):
                atomic_write(where, bytes(text))
                os.chmod(where, 0o600)
        except OSError as exc:
            raise StoreError(f"cannot write the access file {target}: {exc.strerror}; "
                             "give an evening in a writable folder") from None
    return access


def is_loopback(url: str) -> bool:
    """Whether ``url`` names this machine only (127.x, ::1, localhost): no phone can open it.

    >>> is_loopback("http://127.0.0.1:8765"), is_loopback("http://192.168.1.20:8765")
    (True, False)
    """
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False




def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or None."""
    import socket  # the room's address only (serve --lan, a link to this machine)

    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.connect(("192.0.2.1", 9))  # TEST-NET-1: connect() on UDP only picks a route
        address: str = sock.getsockname()[0]
    except OSError:
        return None
    finally:
        sock.close()
    return None if address.startswith("127.") else address

