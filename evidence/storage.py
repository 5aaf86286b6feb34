"""Content-addressed document bytes through Django's storage API.

The name of a file is derived from its SHA-256, so the same bytes are stored
once, whichever case they belong to, and a stored file is never overwritten:
writing bytes whose name exists is a no-op. The backend is
``storages["default"]`` (the file system by default; object storage by
settings alone)."""

from __future__ import annotations

import hashlib

from django.core.files.base import ContentFile
from django.core.files.storage import Storage, storages


def document_storage() -> Storage:
    return storages["default"]


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def storage_name_for(sha256: str) -> str:
    return f"documents/sha256/{sha256[:2]}/{sha256[2:4]}/{sha256}.pdf"


def document_bytes_store(*, data: bytes, sha256: str) -> str:
    """Store the bytes under their hash name unless they are already there.
    Returns the storage name. Callers hold the hash's advisory lock, so two
    writers of the same bytes do not race."""
    if sha256_hex(data) != sha256:
        raise ValueError("the bytes do not match their SHA-256")
    storage = document_storage()
    name = storage_name_for(sha256)
    if storage.exists(name):
        return name
    saved = storage.save(name, ContentFile(data))
    if saved != name:  # a concurrent writer won; keep one copy under the hash name
        storage.delete(saved)
    return name


def document_bytes_read(storage_name: str) -> bytes:
    with document_storage().open(storage_name, "rb") as handle:
        data: bytes = handle.read()
    return data


def document_bytes_delete(storage_name: str) -> None:
    storage = document_storage()
    if storage.exists(storage_name):
        storage.delete(storage_name)
