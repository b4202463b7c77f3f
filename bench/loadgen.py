"""wrk, the C load generator the HTTP benches drive gunicorn with (bench/load.py), and the
plain requests around its runs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

LUA = Path(__file__).resolve().parent / "wrk_report.lua"


def ensure_wrk() -> str:
    found = shutil.which("wrk")
    if found:
        return found
    if os.geteuid() != 0:
        raise SystemExit("wrk is missing: apt-get install wrk (Debian's package)")
    subprocess.run(["apt-get", "update", "-qq"], check=True)
    subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=True)
    return shutil.which("wrk") or "wrk"


def wrk(
    url: str,
    *,
    clients: int,
    seconds: int,
    headers: dict[str, str] | None = None,
    script: Path = LUA,
) -> dict[str, Any]:
    threads = max(1, min(2, clients))
    command = [
        ensure_wrk(),
        f"-t{threads}",
        f"-c{clients}",
        f"-d{seconds}s",
        "--timeout=10s",
        "-s",
        str(script),
    ]
    for key, value in (headers or {}).items():
        command += ["-H", f"{key}: {value}"]
    out = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    line = [ln for ln in out.splitlines() if ln.startswith("{")][-1]
    result: dict[str, Any] = json.loads(line)
    result["errors"] = sum(
        result[k]
        for k in ("connect_errors", "read_errors", "write_errors", "status_errors", "timeouts")
    )
    return result


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str]]:
    status, found, _ = fetch_body(url, headers)
    return status, found


def fetch_body(
    url: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        if error.code != 304:
            raise
        return error.code, dict(error.headers), b""
