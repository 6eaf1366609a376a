"""`referee shell`: one process for the night, mistakes that cost one line, Tab completion."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from typer.testing import CliRunner

from referee.cli import main
from referee.cli.main import app
from referee.cli.runner import Leave
from referee.cli.shell import shell as prompt

NEW = "new --fool Fool --seat Ada:XVI:red:Ben:IX --seat Cy:III:blue:Di:II --seat Ed:VII:green"
#: Round one's up cards, every player's (R9): Cy's pair of Kings opens.
SHOW = 'hand show "Cy: KC KW" "Ed: 2S 3P" "Ada: 4P 5C" "Fool: 2C 3C 4S 6P"'


def _errors(output: str) -> list[str]:
    return [ln for ln in output.splitlines() if ln.startswith("error:")]


def test_piped_lines_run_and_a_bad_line_costs_one_line(runner: CliRunner, db: Path) -> None:
    lines = [NEW, "hand start", "bet Zed", "# a comment", "", SHOW, "bet Cy", "status --json"]
    result = runner.invoke(app, ["--db", str(db), "shell"], input="\n".join(lines) + "\n")
    assert _errors(result.output) == ["error: unknown player 'Zed'; did you mean Ed?"]
    assert "Traceback" not in result.output
    status = json.loads(result.output.strip().splitlines()[-1])
    hand = status["hand"]
    assert hand["pot"] == 1 and hand["to_act"] == "Ed"
    assert hand["showing"] == {"Cy": ["KC", "KW"], "Ed": ["2S", "3P"], "Ada": ["4P", "5C"],
                               "Fool": ["2C", "3C", "4S", "6P"]}
    assert result.exit_code == 2  # the status of the line that failed, for scripts


def test_usage_errors_and_unclosed_quotes_cost_one_line(runner: CliRunner, db: Path) -> None:
    lines = [NEW, "frobnicate", "hand fix Cy", 'hand show Cy "KC KW', "bet Cy --chips",
             "status --at 0", "status"]
    result = runner.invoke(app, ["--db", str(db), "shell"], input="\n".join(lines) + "\n")
    errors = _errors(result.output)
    assert len(errors) == 5, result.output
    assert "No such command 'frobnicate'" in errors[0]
    assert "Missing argument" in errors[1] and "`hand fix --help`" in errors[1]
    assert "close the quote" in errors[2]
    assert "--chips" in errors[3]
    assert "--at 0: give a number of 1 or more. Usage: status " in errors[4]  # E162, in words
    assert not any(ln.startswith("Usage:") or ln.startswith("╭") for ln in
                   result.output.splitlines())  # one line each, no usage block
    assert "Fool's Errand" in result.output  # `status` still ran after the mistakes


def test_exit_leaves_and_later_lines_do_not_run(runner: CliRunner, db: Path) -> None:
    result = runner.invoke(app, ["--db", str(db), "shell"], input=f"{NEW}\nexit\nhand start\n")
    assert result.exit_code == 0, result.output
    assert "Hand 1" not in result.output
    result = runner.invoke(app, ["--db", str(db), "status", "--json"])
    assert json.loads(result.output)["hand"] is None


def test_clear_clears_the_screen_and_changes_nothing(runner: CliRunner, db: Path) -> None:
    """`clear` at the prompt, as in any terminal: no refusal, no suggestion of another
    command; piped it does nothing; with a word after it, one line says what it takes."""
    result = runner.invoke(app, ["--db", str(db), "shell"], input=f"{NEW}\nclear\nstatus\n")
    assert result.exit_code == 0, result.output
    assert "No such command" not in result.output and "Fool's Errand" in result.output
    before = db.read_bytes()
    result = runner.invoke(app, ["--db", str(db), "shell"], input="clear everything\n")
    assert result.exit_code == 2
    assert "`clear` takes nothing after it" in result.output
    assert db.read_bytes() == before


def test_clear_at_a_station_s_shell_stays_on_this_terminal() -> None:
    """`clear` in `referee --station URL shell` clears this screen and is never sent: the
    station named here does not exist, and nothing tries to reach it."""
    from referee.cli.room.station import RemoteShell

    remote = RemoteShell("http://127.0.0.1:9", "token")
    assert remote.run_line("clear") == 0
    assert remote.run_line("clear now") == 2


def test_a_python_prompt_s_habits_work_here_too(runner: CliRunner, db: Path) -> None:
    """`exit()` and `QUIT` leave (a tired GM types what another prompt took), and `?` is
    `help`: never 'No such command ... Did you mean next?'."""
    for n, leave in enumerate(("exit()", "quit()", "QUIT", "Exit")):
        evening = db.with_name(f"evening-{n}.json")
        result = runner.invoke(app, ["--db", str(evening), "shell"],
                               input=f"{NEW}\n{leave}\nhand start\n")
        assert result.exit_code == 0, result.output
        assert "Hand 1" not in result.output and "No such command" not in result.output, leave
    result = runner.invoke(app, ["--db", str(db), "shell"], input="?\n? bet\n")
    assert result.exit_code == 0, result.output
    assert "At this prompt:" in result.output and "opens the round's betting" in result.output
    from referee.cli.room.station import RemoteShell

    with pytest.raises(Leave):
        RemoteShell("http://127.0.0.1:9", "token").run_line("exit()")


def test_help_alone_lists_the_commands_by_the_part_of_the_evening(runner: CliRunner,
                                                                  db: Path) -> None:
    """`help` at the prompt: the table of contents of `referee --help`, panel by panel, then
    the prompt's own words; not the command line's options (completion, --db, --version),
    and not `shell`, which is where the GM already is."""
    result = runner.invoke(app, ["--db", str(db), "shell"], input="help\n")
    assert result.exit_code == 0, result.output
    text = result.output
    for heading in ("Setup:", "At the table:", "Betting:", "The rulebook:", "At this prompt:"):
        assert heading in text, heading
    for word in ("try LINE", "clear", "exit", "help COMMAND"):
        assert word in text.split("At this prompt:")[1], word
    assert "--install-completion" not in text and "--version" not in text
    assert not any(line.startswith("  shell ") for line in text.splitlines())
    assert main.table_of_contents(shell=True) in text
    assert "Usage: referee" in main.table_of_contents()  # the command line's is unchanged


def test_help_at_a_station_s_shell_is_listed_here(capsys: pytest.CaptureFixture[str]) -> None:
    """The station's shell lists the same table for `help` alone, without asking the station
    (none listens at the address given); `help bet` still goes there."""
    from referee.cli.room.station import RemoteShell

    remote = RemoteShell("http://127.0.0.1:9", "token")
    assert remote.run_line("help") == 0
    assert main.table_of_contents(shell=True) in capsys.readouterr().out
    assert remote.run_line("help bet") == 2  # sent, and nothing answers there


def test_help_lists_the_commands(runner: CliRunner, db: Path) -> None:
    result = runner.invoke(app, ["--db", str(db), "shell"], input="help\nhelp bet\n")
    assert result.exit_code == 0, result.output
    for word in ("bet", "status", "watch", "hand", "soul"):
        assert word in result.output
    assert "opens the round's betting" in result.output


@pytest.mark.system
def test_a_whole_night_in_one_process_through_the_console_script(db: Path) -> None:
    """`run()` prunes the app to the invoked group; the shell must still know every command."""
    lines = [NEW, "hand start", SHOW, "bet Cy", "call Ed", "nonsense Ed",
             "call Ada", "status --json"]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-m", "referee", "--db", str(db), "shell"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          env=env, timeout=60)
    assert "Traceback" not in done.stderr
    assert len(_errors(done.stderr)) == 1, done.stderr
    status = json.loads(done.stdout.strip().splitlines()[-1])
    assert status["hand"]["pot"] == 3
    assert status["chips"]["pot"] == {"blue": 1, "green": 1, "red": 1}
    assert done.returncode == 2


def test_the_shell_rebuilds_the_full_tree_after_pruning(monkeypatch: pytest.MonkeyPatch) -> None:
    app = main.full_app()
    monkeypatch.setattr(app, "registered_commands", app.registered_commands)
    monkeypatch.setattr(app, "registered_groups", app.registered_groups)
    assert main.only("shell")
    assert [c.name for c in app.registered_commands] == ["shell"]
    root = prompt.full_command()
    for word in ("bet", "status", "watch", "shell", "hand", "soul", "new"):
        assert word in root.commands, word


# -- completion ---------------------------------------------------------------------------------


@pytest.fixture
def shell(db: Path, capsys: pytest.CaptureFixture[str]) -> prompt.Shell:
    sh = prompt.Shell(prompt.full_command(), db, debug=False)
    assert sh.run_line(NEW) == 0
    assert sh.run_line("hand start") == 0
    capsys.readouterr()
    return sh


def complete(sh: prompt.Shell, text: str) -> list[str]:
    completer = prompt.make_completer(sh.root, sh.vocabulary)
    found = completer.get_completions(Document(text, len(text)), CompleteEvent())
    return [c.text for c in found]


def replaced(sh: prompt.Shell, text: str) -> dict[str, Any]:
    completer = prompt.make_completer(sh.root, sh.vocabulary)
    found = completer.get_completions(Document(text, len(text)), CompleteEvent())
    return {c.text: c.start_position for c in found}


def test_completes_command_words_and_subcommands(shell: prompt.Shell) -> None:
    assert complete(shell, "b") == ["bet"]
    assert set(complete(shell, "")) >= {"bet", "status", "watch", "hand", "soul", "help", "exit",
                                        "clear"}
    assert complete(shell, "hand s") == ["show", "showdown", "start"]
    assert complete(shell, "soul st") == ["study"]
    assert set(complete(shell, "bet Cy --")) == {"--chips", "--json", "--help"}
    assert "--db" in complete(shell, "--d")
    assert complete(shell, "tr") == ["try"]  # `try LINE` completes as LINE does (E133)
    assert complete(shell, "try hand s") == ["show", "showdown", "start"]


def test_completes_people_souls_colours_and_cards(shell: prompt.Shell) -> None:
    assert complete(shell, "bet ") == ["Fool", "Cy", "Di", "Ed", "Ada", "Ben"]
    assert complete(shell, "fold a") == ["Ada"]
    assert complete(shell, "soul study d") == ["Di"]
    assert complete(shell, "soul study Di co") == ['"the cobalt phial"']
    assert replaced(shell, 'soul study Di "the co') == {'"the cobalt phial"': -7}
    assert complete(shell, "soul smash Ada Ad") == ['"Ada\'s soul"']
    assert complete(shell, "chips give Cy Ed r") == ["red:"]
    assert complete(shell, "bet Cy --chips bl") == ["blue:"]
    cards = complete(shell, "hand show Cy K")
    assert {"KC", "KnC", "KW", "KnP"} <= set(cards)
    assert "XVI" in complete(shell, "hand show Cy KC XV")
    assert complete(shell, "hand show Cy KC towe") == ["The Tower"]
    assert "Knight of Cups" in complete(shell, "hand show Cy Kni")
    inside_quotes = replaced(shell, 'hand show Cy "KC Kn')  # only the last card is replaced
    assert list(inside_quotes)[:4] == ["KnC", "KnW", "KnS", "KnP"]
    assert "Knight of Cups" in inside_quotes and set(inside_quotes.values()) == {-2}
    assert complete(shell, "power access Cy XV") == ["XV", "XVI", "XVII", "XVIII"]
    assert complete(shell, "power access Cy XIX r") == ["reversed"]
    assert complete(shell, "undo --table s") == ["scum"]
    assert complete(shell, "status ") == []


def test_e173_soul_study_completes_the_souls_of_the_studying_side_only(
        shell: prompt.Shell) -> None:
    # R23: an assistant studies a soul their side holds. Di is Cy's: the cobalt phial (Di's)
    # and Cy's own soul; Ben is Ada's: the cracked green bottle and Ada's own.
    assert complete(shell, "soul study Di ") == ['"the cobalt phial"', '"Cy\'s soul"']
    assert complete(shell, "soul study ben ") == ['"the cracked green bottle"', '"Ada\'s soul"']
    assert complete(shell, "soul study Be th") == ['"the cracked green bottle"']  # a prefix
    assert complete(shell, 'soul study Di "the a') == []  # Ed's amber bottle is not Di's
    assert complete(shell, 'soul study Ed "the a') == ['"the amber bottle"']
    assert len(complete(shell, "soul study Zed ")) == 6  # no one's side: every soul
    assert len(complete(shell, "soul guess Di ")) == 6  # a guess names any soul (R24)


def test_hand_show_completes_a_name_where_a_name_goes(shell: prompt.Shell) -> None:
    # The hand's players in seat order, the Fool last; never an assistant or a card first.
    assert complete(shell, "hand show ") == ["Cy", "Ed", "Ada", "Fool"]
    assert complete(shell, "hand show c") == ["Cy"]
    assert complete(shell, "hand show K") == []  # a card is no name
    assert complete(shell, 'hand show "E') == ["Ed: "]
    after = complete(shell, "hand show Cy KC KW E")  # the next player's name after cards
    assert after == ["Ed"]
    assert "Cy" not in complete(shell, "hand show Cy KC KW ")
    assert {"KnC", "Ed", "Ada", "Fool"} <= set(complete(shell, "hand show Cy KC KW "))


def test_completion_follows_the_evening(shell: prompt.Shell, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    assert "Zoe" not in complete(shell, "bet ")
    assert shell.run_line(f"{NEW.replace('Ed:', 'Zoe:')} --force") == 0
    assert "Zoe" in complete(shell, "bet ")
    assert "Ed" not in complete(shell, "bet ")
    assert complete(shell, "chips give Cy Zoe gr") == ["green:"]


def test_a_bad_line_returns_its_status_and_the_shell_goes_on(
        shell: prompt.Shell, capsys: pytest.CaptureFixture[str]) -> None:
    assert shell.run_line("bet Zed") == 2
    assert shell.run_line(SHOW) == 0
    assert shell.run_line("bet Cy") == 0
    err = capsys.readouterr().err
    assert err.strip().splitlines() == ["error: unknown player 'Zed'; did you mean Ed?"]
    with pytest.raises(Leave):
        shell.run_line("quit")


def test_completion_after_a_betting_word_offers_the_player_to_act_first(
        shell: prompt.Shell) -> None:
    assert shell.run_line(SHOW) == 0  # Cy's Kings open
    assert shell.run_line("bet") == 0
    assert complete(shell, "call ")[0] == "Ed"  # the player to act
    assert complete(shell, "fold ")[0] == "Ed"
    assert complete(shell, "chips give ")[0] != "Ed"  # not a betting word: the usual order
    assert "Ed to act" in shell.vocabulary().line


def test_e184_a_line_past_the_bound_is_refused_before_it_is_split(
        runner: CliRunner, db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A megabyte line froze the shell (splitting it costs time that grows with its square):
    a line over the bound is refused at once, never split, one line; the evening as it was."""
    import shlex

    real = shlex.split

    def split(text: str, *args: Any, **kwargs: Any) -> list[str]:
        assert len(text) <= 128 * 1024, "an over-long line was split"
        return real(text, *args, **kwargs)

    monkeypatch.setattr(shlex, "split", split)
    runner.invoke(app, ["--db", str(db), "shell"], input=f"{NEW}\nhand start\n{SHOW}\n")
    before = db.read_bytes()
    long = "A" * 200_000
    lines = [f'bet Cy "{long}"', f"bet Cy {long}", f"chips give Cy Ed 'blue:1 {long}'",
             "bet Cy " + "9" * 5000]
    result = runner.invoke(app, ["--db", str(db), "shell"], input="\n".join(lines) + "\n")
    errors = _errors(result.output)
    assert len(errors) == 4 and "Traceback" not in result.output, result.output[:2000]
    assert all("E184" in e and "200,0" in e for e in errors[:3]), errors[:3]
    assert "5,000 digits" in errors[3] and "E181" in errors[3]  # the one-shot's bound too
    assert db.read_bytes() == before and result.exit_code == 2
