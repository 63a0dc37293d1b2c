"""Secrets and ids of the table server: seat tokens (kept only as hashes) and table ids."""
from __future__ import annotations

import hashlib
import secrets

__all__ = ["new_token", "new_table_id", "token_hash", "TOKEN_BYTES", "TABLE_ID_BYTES",
           "MAX_TOKEN_TEXT"]

TOKEN_BYTES = 24            # 192 random bits per seat token
TABLE_ID_BYTES = 9          # 72 bits: table ids are public, they only need to be unique
MAX_TOKEN_TEXT = 100        # longer "tokens" are refused before hashing


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_table_id() -> str:
    """A fresh table id (72 random bits, URL-safe) that does not start with "-": a command
    line (``cardcore admin end ID``) would read such an id as an option."""
    while True:
        table_id = secrets.token_urlsafe(TABLE_ID_BYTES)
        if not table_id.startswith("-"):
            return table_id


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
