"""Venue mode: one laptop serves a club night to every phone in the hall, with no internet.

`make venue` runs `python -m huckley.venue`, which migrates, collects the static files,
prints the address phones should open (with a QR code in the terminal) and where the
backups go, and then runs the production server (the ASGI application under gunicorn's
uvicorn workers, or uvicorn alone on Windows where gunicorn cannot run: pages, API and
online play's WebSocket on one port) with the backup timer beside it (`common.backups`): a backup as
the venue starts, every few minutes while it runs, and once the server has stopped.
The lobby page (`/lobby/`) shows the same address and QR code on the laptop's screen.
"""

from __future__ import annotations

import io
import ipaddress
import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import django
import qrcode
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from common import backups
from common.qr import qr_svg


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that another device on the network can reach.

    Read from the host name and from the kernel's routing choice for an outgoing UDP
    socket: `connect` on UDP only picks a route and a source address, it sends nothing.
    """
    found: list[str] = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        found.extend(str(info[4][0]) for info in infos)
    except OSError:
        pass
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # TEST-NET-1 (RFC 5737): never routed on the internet, and nothing is sent.
        probe.connect(("192.0.2.1", 9))
        found.append(str(probe.getsockname()[0]))
    except OSError:
        pass
    finally:
        probe.close()
    unique: list[str] = []
    for address in found:
        if _usable(address) and address not in unique:
            unique.append(address)
    return unique


def venue_url(port: int | None = None) -> str:
    """The address phones should open: `HUCKLEY_VENUE_URL`, or the first LAN address."""
    configured = os.getenv("HUCKLEY_VENUE_URL", "").strip()
    if configured:
        return configured.rstrip("/") + "/"
    port = port or int(os.getenv("PORT", "8000"))
    addresses = lan_addresses()
    host = addresses[0] if addresses else "127.0.0.1"
    return f"http://{host}:{port}/"


def qr_terminal(text: str) -> str:
    """A QR code drawn with block characters, for the terminal that starts the venue."""
    code = qrcode.QRCode(border=2)
    code.add_data(text)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def lobby(request: HttpRequest) -> HttpResponse:
    """The page the laptop shows: where phones go, as text and as a QR code. While one
    session is taking check-in at the door (workflow.front.door), the code opens its check-in
    page instead, and the address of the whole venue stays under it."""
    # Imported here: `python -m huckley.venue` loads this module before Django is set up,
    # and the workflow imports the models.
    from workflow.front import door

    url = venue_url(int(request.get_port() or 8000))
    at_the_door = door.sessions_at_the_door(timezone.localdate())
    if len(at_the_door) == 1:
        session = at_the_door[0]
        check_in = url + reverse("tournaments:self_check_in", args=[session.pk]).lstrip("/")
        return render(
            request,
            "lobby.html",
            {"url": check_in, "qr": qr_svg(check_in), "session": session, "home": url},
        )
    return render(request, "lobby.html", {"url": url, "qr": qr_svg(url)})


def venue_workers(wanted: int) -> int:
    """How many server processes: `wanted` with Redis (REDIS_URL), whose channel layer
    carries a move from the process that took it to the phones of every other one; one
    without, since the in-memory channel layer reaches only its own process's sockets."""
    return wanted if settings.REDIS_URL else 1


def _server_command(port: int, workers: int) -> list[str]:
    """The ASGI server (huckley/asgi.py: the pages, the API and online play's WebSocket
    on one port): gunicorn running uvicorn workers, or uvicorn alone on Windows, where
    gunicorn cannot run (it needs fork())."""
    bind_host, workers = "0.0.0.0", venue_workers(workers)
    if os.name == "nt" or shutil.which("gunicorn", path=str(Path(sys.executable).parent)) is None:
        return [
            sys.executable,
            "-m",
            "uvicorn",
            "huckley.asgi:application",
            f"--host={bind_host}",
            f"--port={port}",
            f"--workers={workers}",
            "--no-server-header",
            "--no-access-log",
            "--ws-per-message-deflate=false",  # as huckley.workers.AsgiWorker
        ]
    return [
        str(Path(sys.executable).parent / "gunicorn"),
        "huckley.asgi:application",
        "--config=python:huckley.gunicorn_conf",
        "--worker-class=huckley.workers.AsgiWorker",
        f"--bind={bind_host}:{port}",
        f"--workers={workers}",
        "--timeout=30",
        "--graceful-timeout=10",
    ]


def ensure_a_director(manage: list[str]) -> None:
    """A fresh venue has no account: ask for one at the terminal, or say how to make one.

    Asks the database itself: `manage.py shell -c` prints more than the command's answer
    (Django 5.2 announces the objects it imports), so reading its output misjudged a
    venue with accounts as one without."""
    found = get_user_model().objects.exists()
    connections.close_all()  # the server's processes open their own
    if found:
        return
    if sys.stdin.isatty():
        print("No account yet: create the director's account for tonight.")
        subprocess.run([*manage, "createsuperuser"], check=False)
    else:
        print("No account yet: run `.venv/bin/python manage.py createsuperuser` to sign in.")


def _backups_announce() -> bool:
    """Say where the backups go and how to restore one; False when they are off."""
    if not backups.enabled():
        print("Backups are off (HUCKLEY_BACKUPS=0).")
        return False
    if backups.engine() == "postgresql" and shutil.which("pg_dump") is None:
        print("No backups: pg_dump is not installed (Debian: apt install postgresql-client).")
        return False
    minutes = settings.HUCKLEY_BACKUP_INTERVAL / 60
    every = f"{minutes:g} minutes" if minutes >= 1 else f"{settings.HUCKLEY_BACKUP_INTERVAL} s"
    print(
        f"Backups: after every start, movement and finish, and every {every}, into "
        f"{backups.backup_dir()} (the last {settings.HUCKLEY_BACKUP_KEEP} kept)."
    )
    print(
        "If this laptop fails: copy the newest backup to another one with Huckley and run "
        "`.venv/bin/python manage.py restore FILE` there, then `make venue`."
    )
    return True


def _serve(command: list[str], *, backing_up: bool) -> int:
    """Run the server until it stops, with the backup timer beside it; a last backup
    once it has stopped."""
    server = subprocess.Popen(command)

    def forward(signum: int, _frame: object) -> None:
        server.send_signal(signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    if not backing_up:
        return server.wait()
    timer = backups.BackupTimer(settings.HUCKLEY_BACKUP_INTERVAL)
    timer.start()
    code = server.wait()
    timer.stop()
    backups.take_logged("venue-stop")
    return code


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "huckley.settings")
    os.environ["HUCKLEY_VENUE"] = "1"
    django.setup()
    port = int(os.getenv("PORT", "8000"))
    workers = int(os.getenv("WEB_CONCURRENCY", "3"))
    manage = [sys.executable, str(Path(__file__).resolve().parent.parent / "manage.py")]
    subprocess.run([*manage, "migrate", "--no-input", "-v", "0"], check=True)
    subprocess.run([*manage, "collectstatic", "--no-input", "-v", "0"], check=True)
    ensure_a_director(manage)
    url = venue_url(port)
    print(qr_terminal(url))
    print(f"Huckley is serving the hall. Phones open: {url}")
    print(f"The lobby page with this QR code: {url}lobby/  (stop with Ctrl+C)", flush=True)
    backing_up = _backups_announce()
    if backing_up:
        backups.take_logged("venue-start")
    sys.stdout.flush()
    sys.exit(_serve(_server_command(port, workers), backing_up=backing_up))


if __name__ == "__main__":
    main()
