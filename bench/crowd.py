"""The client processes of the online play bench (bench/play.py): each drives a slice of
the tables (whole tables: their phones and their echo socket) with asyncio, one step at a
time as the bench says, and hands back its tally as JSON.

The bench starts them with `Clients` and says each step on their standard input, one
line each; a process answers each step with one line of JSON on its standard output:

1. its slice (the first line): it opens its tables' echo sockets, and answers;
2. `warm`: the phones of a tenth of its tables connect, and it answers once they have
   read their first view: the servers have then done everything once (the modules
   imported, the connections opened, the first tables read);
3. `connect`: its other phones connect (fifty at a time across all processes, as a room
   arrives), and it answers once all have read their first view;
4. `play`: the phones play, and the echo sockets time their round trips meanwhile; it
   answers once all its tables have played their rounds;
5. `end` (once every process has answered `play`): the phones read the last views for
   two seconds more and close, and it answers with its tally (bench/phones.py) and the
   CPU time it used while playing. Until then a phone whose table is done stays
   connected, present and not moving, as a player waits for the other tables.

Between the steps the bench reads the servers' memory and CPU: the echo sockets and the
warming phones are open before it reads the memory the other phones will be measured
against (what a phone holds, not what a server does once), the phones are all
connected before the play's CPU is counted, and the play's cost is read once every table
has played its rounds.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.phones import Echo, Phone, Table, Tally

#: The share of its tables (one in this many) whose phones connect first, to warm the
#: servers, before the memory a phone holds is measured over the others.
WARM_SHARE = 10
#: A table whose phones received no new view for this long has stalled (a view lost, or
#: a move not published): the play stops with a failure, well before a robot would
#: cover the player waiting for it (the grace time), and long after any thought.
STALLED_SECONDS = 45


class Clients:
    """The client processes, started with their slices and driven step by step."""

    def __init__(self, slices: list[dict[str, Any]]) -> None:
        self.processes = [
            subprocess.Popen(
                [sys.executable, __file__],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            for _ in slices
        ]
        for process, part in zip(self.processes, slices, strict=True):
            self.say(process, json.dumps(part))

    @staticmethod
    def say(process: subprocess.Popen[str], line: str) -> None:
        assert process.stdin is not None
        process.stdin.write(line + "\n")
        process.stdin.flush()

    def answers(self) -> list[dict[str, Any]]:
        """Each process's answer to the step, once all have answered."""
        found = []
        for process in self.processes:
            assert process.stdout is not None
            line = process.stdout.readline()
            if not line:
                self.stop()
                raise SystemExit("a client process failed (its error above)")
            found.append(json.loads(line))
        return found

    def step(self, command: str) -> list[dict[str, Any]]:
        for process in self.processes:
            self.say(process, command)
        return self.answers()

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
            process.wait()


def answer(out: IO[str], message: dict[str, Any]) -> None:
    out.write(json.dumps(message) + "\n")
    out.flush()


async def heard() -> str:
    """The bench's next step, read without blocking the phones."""
    line: str = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    return line.strip()


async def drive(part: dict[str, Any], out: IO[str]) -> None:
    tally = Tally()
    tables: dict[int, Table] = {}
    door = asyncio.Semaphore(part["door"])
    ports = part["ports"]
    phones = [
        Phone(
            ph,
            ports[ph["node"]],
            tables.setdefault(ph["table"], Table()),
            tally,
            rounds=part["rounds"],
            think=part["think"],
            http_port=part["http_port"],
            door=door,
        )
        for ph in part["phones"]
    ]
    echoes = [
        Echo(ports[node], tables[table], tally, floor) for table, node, floor in part["echoes"]
    ]
    await asyncio.gather(*(echo.open() for echo in echoes))
    answer(out, {"step": "echo"})

    everyone, leave = asyncio.Event(), asyncio.Event()
    connected = [asyncio.Event() for _ in phones]
    tasks: list[asyncio.Task[Any]] = []
    # The phones of the first tenth of its tables warm the servers first; then the rest.
    first = set(list(tables)[: max(1, len(tables) // WARM_SHARE)])
    warm = [ph["table"] in first for ph in part["phones"]]
    for warming in (True, False):
        await heard()  # warm, then connect
        now = [(ph, c) for ph, c, w in zip(phones, connected, warm, strict=True) if w is warming]
        started = time.perf_counter()
        tasks += [asyncio.create_task(ph.play(c, everyone, leave)) for ph, c in now]
        await asyncio.wait_for(asyncio.gather(*(c.wait() for _, c in now)), timeout=600)
        seconds = time.perf_counter() - started
        answer(out, {"step": "connected", "phones": len(now), "seconds": seconds})

    await heard()  # play
    cpu_before = sum(os.times()[:2])
    echoing = [asyncio.create_task(echo.run()) for echo in echoes]
    played = asyncio.Event()
    echoing.append(asyncio.create_task(lag(tally, played)))
    everyone.set()
    playing = asyncio.gather(*tasks, return_exceptions=True)
    deadline = time.monotonic() + 1800
    for table in tables.values():
        table.changed_at = time.perf_counter()
    while not playing.done() and not all(t.finished(part["rounds"]) for t in tables.values()):
        if time.monotonic() > deadline:
            tally.failures.append("the play did not end within 30 minutes")
            break
        quiet = time.perf_counter() - STALLED_SECONDS
        stalled = [
            t for t in tables.values() if not t.finished(part["rounds"]) and t.changed_at < quiet
        ]
        if stalled:  # a view lost, most likely: its phones wait for it until the grace time
            tally.failures.append(
                f"{len(stalled)} table(s) received no new view for {STALLED_SECONDS} s"
            )
            break
        if any(task.done() for task in tasks):  # a phone gave up: its table cannot end
            tally.failures.append("a phone stopped before its table had played its rounds")
            break
        await asyncio.sleep(0.2)
    cpu = sum(os.times()[:2]) - cpu_before
    played.set()
    answer(out, {"step": "played"})

    await heard()  # end
    await asyncio.sleep(2)  # the last views on their way
    leave.set()
    for table in tables.values():
        table.over = True
        table.changed.set()
    ended = await asyncio.wait_for(playing, timeout=60)
    tally.failures += [f"a phone: {e!r}" for e in ended if isinstance(e, BaseException)]
    await asyncio.gather(*echoing)
    for table in tables.values():
        table.deliveries(tally)
    # Field by field: `dataclasses.asdict` would rebuild the Counter from its items.
    found = {f.name: getattr(tally, f.name) for f in dataclasses.fields(tally)}
    answer(out, {"step": "done", "tally": found, "cpu_seconds": cpu})


async def lag(tally: Tally, played: asyncio.Event) -> None:
    """How late the process's loop wakes from a tenth of a second's sleep while the phones
    play: a loop that cannot keep up with its phones delays what they time."""
    while not played.is_set():
        started = time.perf_counter()
        await asyncio.sleep(0.1)
        tally.lag.append(time.perf_counter() - started - 0.1)


def main() -> None:
    # The answers go to the bench on the standard output: nothing else may write there.
    out = sys.stdout
    sys.stdout = sys.stderr
    part = json.loads(sys.stdin.readline())
    asyncio.run(drive(part, out))


if __name__ == "__main__":
    main()
