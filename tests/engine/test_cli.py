"""`python -m engine`: exit codes 0/1/2, JSON on standard output, one line on standard error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engine.records import FIVE, game
from tests.engine.test_spec_example import SPEC_INPUT, SPEC_OUTPUT

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str | bytes = b"") -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=data,
        capture_output=True,
        cwd=ROOT,
        check=False,
        timeout=60,
    )


def one_line(stderr: bytes) -> str:
    text = stderr.decode()
    assert text.count("\n") == 1, text
    assert text.endswith("\n"), text
    assert "Traceback" not in text
    return text


def test_a_valid_record_prints_the_output_and_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(SPEC_INPUT))
    result = run("check", str(path))
    assert result.returncode == 0
    assert json.loads(result.stdout) == SPEC_OUTPUT
    assert result.stderr == b""


def test_standard_input_is_read_for_a_dash() -> None:
    result = run("check", "-", stdin=json.dumps(SPEC_INPUT))
    assert result.returncode == 0
    assert json.loads(result.stdout)["next_dealer"] == "Dee"


def test_an_invalid_record_still_prints_the_output_and_exits_1() -> None:
    record = game({"out": ["Bob", "Cy"], "tricks": {"Ann": 5}})
    result = run("check", "-", stdin=json.dumps(record))
    assert result.returncode == 1
    output = json.loads(result.stdout)
    assert output["valid"] is False
    assert output["errors"][0]["code"] == "too_many_out"
    assert result.stderr == b""


@pytest.mark.parametrize("text", ["[1, 2]", '"a string"', "null"])
def test_json_that_is_no_record_is_invalid_not_unreadable(text: str) -> None:
    result = run("check", "-", stdin=text)
    assert result.returncode == 1
    assert json.loads(result.stdout)["errors"][0]["code"] == "not_an_object"


@pytest.mark.parametrize(
    ("stdin", "words"),
    [
        ("garbage{", "not JSON"),
        ("", "not JSON"),
        ('{"rules": ', "not JSON"),
        (b"\xff\xfe\x00", "standard input"),
        ("[" * 100_000, "standard input"),
    ],
)
def test_unreadable_input_exits_2_with_one_line_and_no_traceback(
    stdin: str | bytes, words: str
) -> None:
    result = run("check", "-", stdin=stdin)
    assert result.returncode == 2
    assert result.stdout == b""
    assert words in one_line(result.stderr)


def test_a_missing_file_exits_2_naming_it(tmp_path: Path) -> None:
    result = run("check", str(tmp_path / "nope.json"))
    assert result.returncode == 2
    assert "nope.json" in one_line(result.stderr)


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("frobnicate",),
        ("check",),
        ("check", "a", "b"),
        ("simulate", "--rules", "poker", "--players", "5", "--seed", "1"),
        ("simulate", "--rules", "huckley-buck", "--players", "5"),
        ("simulate", "--rules", "huckley-buck", "--players", "5", "--seed", "x"),
        ("simulate", "--rules", "huckley-buck", "--players", "2", "--seed", "1"),
        ("simulate", "--rules", "huckley-buck", "--players", "9", "--seed", "1"),
        ("simulate", "--rules", "huckley-buck", "--players", "Ann,Ann,Bob", "--seed", "1"),
    ],
)
def test_bad_usage_exits_2_with_one_line(args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.returncode == 2
    one_line(result.stderr)


@pytest.mark.parametrize(
    "extra",
    [(), ("--strategy", "greedy"), ("--card-play",), ("--strategy", "greedy", "--card-play")],
)
def test_simulate_prints_a_record_that_check_accepts(extra: tuple[str, ...]) -> None:
    result = run("simulate", "--rules", "huckley-buck", "--players", "5", "--seed", "7", *extra)
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["players"] == FIVE
    assert ("upcard" in record["rounds"][-1]) == ("--card-play" in extra)
    checked = run("check", "-", stdin=result.stdout)
    assert checked.returncode == 0
    output = json.loads(checked.stdout)
    assert output["valid"]
    assert output["finished"]


def test_simulate_takes_names_and_is_the_same_for_the_same_seed() -> None:
    args = ("simulate", "--rules", "hucklebuck", "--players", "Ann,Bob,Cy", "--seed", "3")
    first = run(*args)
    assert first.returncode == 0
    assert json.loads(first.stdout)["players"] == ["Ann", "Bob", "Cy"]
    assert run(*args).stdout == first.stdout


def test_simulate_takes_rule_set_options() -> None:
    """Ten-Point Buck is five rounds unless the option `rounds` says otherwise."""
    made = run("simulate", "--rules", "ten-point-buck", "--players", "4", "--seed", "3",
               "--option", "rounds=3")  # fmt: skip
    assert made.returncode == 0
    record = json.loads(made.stdout)
    assert record["options"] == {"rounds": 3}
    assert len(record["rounds"]) >= 3


def test_target_is_refused_for_a_game_not_played_to_a_target() -> None:
    made = run("simulate", "--rules", "buck-euchre", "--players", "4", "--seed", "3",
               "--target", "5")  # fmt: skip
    assert made.returncode == 2
    assert made.stderr.decode().strip() == "engine: --target: buck-euchre is not played to a target"
