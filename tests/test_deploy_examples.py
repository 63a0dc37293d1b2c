"""The deployment examples of docs/operations.md (examples/deploy/): the production HAProxy
configuration the doc quotes, the systemd unit and the container file. What can be checked
here without running them is checked: HAProxy's own configuration check, `systemd-analyze
verify`, and every `cardcore serve` command line through the CLI's own parser. (The HAProxy
configuration runs in tests/test_server_proxy.py and tests/test_server_chaos.py.)"""
from __future__ import annotations

import configparser
import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

from cardcore.cli import build_parser
from cardcore.server.drain import WRITES_GRACE_SECONDS

from server_helpers import (EXAMPLE_HAPROXY, free_port, production_haproxy_config,
                            self_signed_certificate)

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "examples" / "deploy"
OPERATIONS = ROOT / "docs" / "operations.md"


def test_the_doc_quotes_the_production_haproxy_file_whole():
    doc = OPERATIONS.read_text(encoding="utf-8")
    block = re.search(r'```haproxy title="examples/deploy/haproxy\.cfg"\n(.*?)```', doc, re.S)
    assert block is not None, "docs/operations.md does not quote examples/deploy/haproxy.cfg"
    assert block.group(1) == EXAMPLE_HAPROXY.read_text(encoding="utf-8")


def test_the_production_haproxy_file_passes_haproxys_check(tmp_path):
    pem, _ = self_signed_certificate(tmp_path)
    config = tmp_path / "haproxy.cfg"
    config.write_text(production_haproxy_config(free_port(), free_port(), free_port(),
                                                8001, 8002, pem))
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    checked = subprocess.run([haproxy, "-c", "-f", str(config)], capture_output=True,
                             text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    text = EXAMPLE_HAPROXY.read_text(encoding="utf-8")
    for needed in ("on-marked-down shutdown-sessions", "option redispatch", "timeout check 2s",
                   "tcp-request connection reject", "stick-table type ip", "stats enable",
                   "log stdout", "ssl crt", "%HPO"):
        assert needed in text, needed


def _serve_args(words: list[str]) -> object:
    """A `cardcore serve` command line (after the program) through the CLI's own parser:
    an option that does not exist or a bad value fails here."""
    assert words[0] == "serve", words
    args = build_parser().parse_args(words)
    assert args.func.__name__ == "cmd_serve"
    return args


def _unit() -> configparser.ConfigParser:
    unit = configparser.ConfigParser(interpolation=None, strict=True)
    unit.optionxform = str                          # systemd's keys are case-sensitive
    unit.read_string((DEPLOY / "cardcore.service").read_text(encoding="utf-8"))
    return unit


def test_the_systemd_unit_runs_a_valid_command_and_outlasts_its_drain(tmp_path):
    unit = _unit()
    assert set(unit.sections()) == {"Unit", "Service", "Install"}
    service = unit["Service"]
    command = shlex.split(service["ExecStart"].replace("${CARDCORE_DB}",
                                                       "postgresql://cardcore@db/cardcore"))
    assert command[0].endswith("/cardcore")
    args = _serve_args(command[1:])
    assert args.drain > 0 and args.quiet_health_checks and args.forwarded_allow_ips
    stop = float(service["TimeoutStopSec"])
    assert stop > args.drain + WRITES_GRACE_SECONDS       # SIGKILL never cuts a drain short
    assert service["KillSignal"] == "SIGTERM" and int(service["LimitNOFILE"]) >= 8192
    assert service["User"] != "root" and service["UMask"] == "0077"
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    analyze = shutil.which("systemd-analyze")
    if analyze is not None:                     # systemd's own parser, where it is installed
        program = tmp_path / "cardcore"
        program.write_text("#!/bin/sh\n")
        program.chmod(0o755)
        text = (DEPLOY / "cardcore.service").read_text(encoding="utf-8")
        text = text.replace("/opt/cardcore/bin/cardcore", str(program))
        text = text.replace("EnvironmentFile=/etc/cardcore/", f"EnvironmentFile=-{tmp_path}/")
        copy = tmp_path / "cardcore.service"
        copy.write_text(text)
        done = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True)
        # A bad key or value is only a warning (exit 0): none is allowed.
        assert done.returncode == 0 and not done.stderr.strip(), done.stderr


def _instructions() -> list[tuple[str, str]]:
    """The Containerfile's instructions (continuation lines joined, comments left out)."""
    text = (DEPLOY / "Containerfile").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n\s*", " ", "\n".join(lines))
    found = []
    for line in joined.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


def test_the_containerfile_builds_in_two_stages_and_runs_a_valid_command():
    steps = _instructions()
    known = {"FROM", "RUN", "COPY", "USER", "WORKDIR", "VOLUME", "EXPOSE", "STOPSIGNAL",
             "HEALTHCHECK", "ENTRYPOINT", "CMD"}
    assert {word for word, _ in steps} <= known, steps
    stages = [rest for word, rest in steps if word == "FROM"]
    assert len(stages) == 2 and stages[0].endswith(" AS build")
    final = steps[[i for i, (word, _) in enumerate(steps) if word == "FROM"][1]:]
    assert any(w == "COPY" and r.startswith("--from=build ") for w, r in final)
    user = [r for w, r in final if w == "USER"]
    assert user and user[-1] not in ("root", "0")
    entry = json.loads(next(r for w, r in final if w == "ENTRYPOINT"))
    cmd = json.loads(next(r for w, r in final if w == "CMD"))
    assert entry[0] == "cardcore"
    args = _serve_args(entry[1:] + cmd)
    assert args.host == "0.0.0.0" and args.drain > 0
    assert [r for w, r in final if w == "EXPOSE"] == [str(args.port)]
    assert dict(final)["STOPSIGNAL"] == "SIGTERM"
    check = dict(final)["HEALTHCHECK"]
    assert f"127.0.0.1:{args.port}/livez" in check
    assert cmd[cmd.index("--db") + 1].startswith(dict(final)["VOLUME"])
