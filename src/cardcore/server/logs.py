"""The logs of ``cardcore serve`` (docs/server.md, "Logs"): one line per record, a UTC
timestamp on each, seat tokens and invites redacted from every line (access and application alike), as
text or as JSON lines.

Redaction happens on the finished line, after formatting, so it never changes a record's
``args`` (uvicorn's access formatter unpacks them) and it also covers exception text.
"""
from __future__ import annotations

import json
import logging
import re
import time
from typing import Any

__all__ = ["LOG_FORMATS", "LineFormatter", "RedactTokens", "redact", "log_config"]

LOG_FORMATS = ("text", "json")

# ?token=... and ?invite=... (or #invite=), a token subprotocol, a bearer credential, a token
# or invite in a JSON message or body ("token", "creator_token", "invite"; a WebSocket frame
# logged at --log-level debug), and the seats' tokens of a new table ("seats": {...}).
_SECRETS = [
    (re.compile(r"((?:token|invite)=)[^&\s\"'\\#]*", re.IGNORECASE), r"\1[redacted]"),
    (re.compile(r"(cardcore\.token\.)[A-Za-z0-9_\-]+"), r"\1[redacted]"),
    (re.compile(r"(bearer\s+)[^\s\"',;]+", re.IGNORECASE), r"\1[redacted]"),
    (re.compile(r"""((?:\\?["'])(?:[a-z_]*token|invite)(?:\\?["'])\s*:\s*(?:\\?["']))"""
                r"""[^"'\\]*""", re.IGNORECASE), r"\1[redacted]"),
    (re.compile(r"""((?:\\?["'])seats(?:\\?["'])\s*:\s*\{)[^}]*""", re.IGNORECASE),
     r"\1[redacted]"),
]
_HINTS = ("token", "bearer", "invite", "seats")


def redact(text: str) -> str:
    """``text`` with every seat token, creator token and invite it holds replaced by
    ``[redacted]``."""
    lowered = text.lower()
    if not any(hint in lowered for hint in _HINTS):
        return text
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


class RedactTokens(logging.Filter):
    """For hosts that keep their own formatters: redacts the message and each string argument
    in place, keeping the arguments' number (uvicorn's access formatter unpacks five)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


def _timestamp(record: logging.LogRecord) -> str:
    seconds = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
    return f"{seconds}.{int(record.msecs):03d}Z"


def _access_fields(record: logging.LogRecord) -> dict[str, Any] | None:
    """uvicorn's access record: (client, method, path, http version, status); cardcore's
    (observe.py) has the request's duration in milliseconds too."""
    args = record.args
    if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
        client, method, path, version, status = args
        return {"client": str(client), "method": str(method), "path": str(path),
                "http": str(version), "status": int(str(status))}
    if record.name == "cardcore.access" and isinstance(args, tuple) and len(args) == 6:
        client, method, path, version, status, seconds_ms = args
        return {"client": str(client), "method": str(method), "path": str(path),
                "http": str(version), "status": int(str(status)),
                "duration_ms": round(float(str(seconds_ms)), 1)}
    return None


class LineFormatter(logging.Formatter):
    """One line per record: ``TIME LEVEL LOGGER message`` (text) or a JSON object (json);
    access records as ``client "METHOD path HTTP/v" status``. Tokens redacted."""

    def __init__(self, fmt: str | None = None, datefmt: str | None = None,
                 style: str = "%", *, kind: str = "text", **_: Any) -> None:
        super().__init__()
        if kind not in LOG_FORMATS:
            raise ValueError(f"log format must be one of {LOG_FORMATS}, not {kind!r}")
        self.kind = kind

    def format(self, record: logging.LogRecord) -> str:
        access = _access_fields(record)
        if access is not None:
            message = (f'{access["client"]} "{access["method"]} {access["path"]} '
                       f'HTTP/{access["http"]}" {access["status"]}')
            if "duration_ms" in access:
                message += f' {access["duration_ms"]}ms'
        else:
            try:
                message = record.getMessage()
            except Exception:                       # a bad format string: keep the line
                message = f"{record.msg!r} {record.args!r}"
        extra = ""
        if record.exc_info:
            extra = self.formatException(record.exc_info)
        elif record.exc_text:
            extra = record.exc_text
        if self.kind == "json":
            body: dict[str, Any] = {"time": _timestamp(record), "level": record.levelname,
                                    "logger": record.name, "message": message}
            if access is not None:
                body.update(access)
            if extra:
                body["exception"] = extra
            return redact(json.dumps(body, ensure_ascii=False))
        line = f"{_timestamp(record)} {record.levelname} {record.name} {message}"
        if extra:                                   # one line: the traceback's newlines escaped
            line += " | " + extra.replace("\n", "\\n")
        return redact(line.replace("\n", "\\n"))


def log_config(kind: str = "text", level: str = "info") -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for uvicorn and cardcore: everything to stderr."""
    if kind not in LOG_FORMATS:
        raise ValueError(f"log format must be one of {LOG_FORMATS}, not {kind!r}")
    formatter = {"()": "cardcore.server.logs.LineFormatter", "kind": kind}
    handler = {"class": "logging.StreamHandler", "formatter": "line",
               "stream": "ext://sys.stderr", "filters": ["redact"]}
    loggers = {name: {"handlers": ["line"], "level": level.upper(), "propagate": False}
               for name in ("uvicorn", "uvicorn.access", "cardcore")}
    loggers["uvicorn.error"] = {"level": level.upper()}     # propagates to "uvicorn"
    return {"version": 1, "disable_existing_loggers": False,
            "filters": {"redact": {"()": "cardcore.server.logs.RedactTokens"}},
            "formatters": {"line": formatter}, "handlers": {"line": handler},
            "loggers": loggers}
