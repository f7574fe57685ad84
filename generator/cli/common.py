"""What every command shares: the `pnp` group, its options, how a command runs (a user's
mistake is a message and exit 1, never a traceback) and how problems are printed."""

from __future__ import annotations

import functools
import inspect
import os
import sys
import unicodedata
from dataclasses import fields
from pathlib import Path

import click

from .. import i18n, pipeline
from ..i18n import N_, _, ngettext
from ..limits import DEFAULT
from ..problems import BuildError
from ..project import find_project


def project_from(path: str | None):
    """The project `--project` names, else the one this folder is in: here, or the nearest
    folder above with cards/ and layouts/ (a designer working in cards/GAME/)."""
    if path:
        return find_project(Path(path))
    here = Path.cwd()
    if not (here / "cards").is_dir():
        for folder in here.resolve().parents:
            if (folder / "cards").is_dir() and (folder / "layouts").is_dir():
                return find_project(folder)
    return find_project(here)


def print_problems(result: pipeline.Result, strict: bool, quiet: bool = False) -> int:
    for line in result.problems.folded("warning" if quiet else "notice"):
        click.echo(line, err=True)
    errors, warnings = result.problems.said("error"), result.problems.said("warning")
    if errors or warnings:
        click.echo(
            _(
                "{errors}, {warnings}",
                errors=ngettext("{n} error", "{n} errors", errors),
                warnings=ngettext("{n} warning", "{n} warnings", warnings),
            ),
            err=True,
        )
    return 1 if result.failed(strict) else 0


def say_now(line: str) -> None:
    """A line for a command that keeps running (watch, serve): out at once, even to a pipe."""
    click.echo(line)
    sys.stdout.flush()


def reports(command):
    """A command whose body returns its exit code, run so that a user's mistake is a message and
    exit 1 (never a traceback), Ctrl-C is 130 and a bug of ours 2."""

    @functools.wraps(command)
    def run(*args, **kwargs) -> None:
        sys.exit(_code(command, args, kwargs))

    return run


def _code(command, args, kwargs) -> int:
    try:
        return command(*args, **kwargs)
    except BuildError as exc:
        for p in exc.problems:
            click.echo(p.format(), err=True)
        return 1
    except KeyboardInterrupt:  # Ctrl-C before anything was finished
        click.echo(_("stopped"), err=True)
        return 130
    except BrokenPipeError:  # `pnp simulate … --replay N | head`: the reader has had enough
        # what is left to flush goes nowhere (Python's own advice for SIGPIPE), not to a
        # closed pipe on the way out
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # a bug of ours: say so briefly, keep the traceback for PNP_DEBUG=1
        if os.environ.get("PNP_DEBUG"):
            raise
        click.echo(
            _(
                "internal error: {error}\n"
                "This is a bug in pnp, not in your files; PNP_DEBUG=1 shows the traceback.",
                error=f"{type(exc).__name__}: {exc}",
            ),
            err=True,
        )
        return 2


limit_option = click.option(
    "--limit",
    "limits",
    multiple=True,
    metavar="NAME=N",
    help="Raise a bound on what is read or made (repeatable): "
    + ", ".join(f"{f.name}={getattr(DEFAULT, f.name):,}" for f in fields(DEFAULT))
    + ".",
)


def limits_from(pairs: tuple[str, ...]):
    return DEFAULT.with_given(parse_pairs(pairs, "--limit"))


project_option = click.option(
    "--project",
    "project_dir",
    type=click.Path(file_okay=False),
    help="The project folder (holding cards/ and layouts/); default: the current folder.",
)


paper_option = click.option(
    "--paper",
    default="a4",
    show_default=True,
    help="The paper: a4, letter, a3, a5, b5, b4 (JIS), or one the project's sheets.toml defines.",
)
out_option = click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    help="Output folder; default: PROJECT/output.",
)


def _speak(ctx, param, value) -> None:
    if value or ctx.parent is None:  # the group always picks; a command only when told
        i18n.use(i18n.pick(value))


LANG_HELP = N_("Language of messages: en or ja; default: PNP_LANG, else LANGUAGE, LC_ALL or LANG.")
# click's own words in --help, said in the language of messages (`_Formatter`, `_Translated`).
N_("Usage: ")
N_("Options")
N_("Commands")
N_("Show this message and exit.")
lang_option = click.option(
    "--lang",
    type=click.Choice(i18n.LANGUAGES),
    expose_value=False,
    is_eager=True,
    callback=_speak,
    help=LANG_HELP,
)


def _wide(text: str) -> bool:
    """Whether the text holds characters two columns wide (Japanese): an English help with an
    ellipsis or a dash is laid out as click lays it out."""
    return any(unicodedata.east_asian_width(ch) in "WF" for ch in text)


class _Formatter(click.HelpFormatter):
    """click's help layout with its words (Usage, Options, Commands) in the language of
    messages."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, _("Usage: ") if prefix is None else prefix)

    def section(self, name: str):
        return super().section(_(name))

    def write_dl(self, rows, col_max: int = 30, col_spacing: int = 2) -> None:
        """The options' and commands' lists, each help in the language of messages (what click
        adds after it, `[default: a4]`, as it is); Japanese in lines of the screen's width,
        two columns a character."""
        said = []
        for first, second in rows:
            text, mark, extra = second.partition("  [")
            said.append((first, _(text) + mark + extra if text else second))
        if not any(_wide(second) for _first, second in said):
            super().write_dl(said, col_max, col_spacing)
            return
        first_col = min(max((len(first) for first, _s in said), default=0), col_max)
        first_col += col_spacing
        indent = " " * self.current_indent
        room = max(10, (self.width - first_col - self.current_indent) // 2)
        for first, second in said:
            self.write(f"{indent}{first}")
            if not second:
                self.write("\n")
                continue
            if len(first) <= first_col - col_spacing:
                self.write(" " * (first_col - len(first)))
            else:
                self.write("\n" + indent + " " * first_col)
            lines = _japanese_lines(second, room)
            self.write(lines[0] + "\n")
            for line in lines[1:]:
                self.write(indent + " " * first_col + line + "\n")


class _Context(click.Context):
    formatter_class = _Formatter


class _Translated:
    """A command's help (its docstring) in the language of messages, as the catalog holds it
    (tests/catalog.py gathers the docstrings); its options' help follows in `_Formatter`."""

    context_class = _Context

    def format_help_text(self, ctx, formatter) -> None:
        text = inspect.cleandoc(self.help).partition("\f")[0] if self.help else ""
        if text:
            formatter.write_paragraph()
            with formatter.indentation():
                said = _(text)
                if not _wide(said):
                    formatter.write_text(said)
                else:  # Japanese: lines of the screen's width, broken after 、 and 。
                    room = (formatter.width - formatter.current_indent) // 2
                    for line in _japanese_lines(said, room):
                        formatter.write(" " * formatter.current_indent + line + "\n")

    def get_short_help_str(self, limit: int = 45) -> str:
        text = _(inspect.cleandoc(self.help)) if self.help else ""
        if text and _wide(text):  # a Japanese sentence, up to its first 。, at two
            first = text.split("。", 1)[0].replace("\n", "")  # columns a character
            most = max(10, limit // 2)
            return first if len(first) <= most else first[: most - 1] + "…"
        return super().get_short_help_str(limit)


# click's messages for a command line it cannot take, as click words them (its own
# catalog is English only), and the same in the language of messages.
_CLICK_SAYS = [
    (r"Missing argument '(?P<name>[^']+)'\.", N_("Missing argument '{name}'.")),
    (r"Missing option '(?P<name>[^']+)'\.", N_("Missing option '{name}'.")),
    (
        r"No such option '(?P<name>[^']+)'\. Did you mean '(?P<meant>[^']+)'\?",
        N_("No such option '{name}'. Did you mean '{meant}'?"),
    ),
    (r"No such option '(?P<name>[^']+)'\.", N_("No such option '{name}'.")),
    (r"No such command '(?P<name>[^']+)'\.", N_("No such command '{name}'.")),
    (
        r"Option '(?P<name>[^']+)' requires an argument\.",
        N_("Option '{name}' requires an argument."),
    ),
    (
        r"Invalid value for '(?P<name>[^']+)': '(?P<value>.*)' is not one of (?P<choices>.+)\.",
        N_("Invalid value for '{name}': '{value}' is not one of {choices}."),
    ),
    (
        r"Invalid value for '(?P<name>[^']+)': '(?P<value>.*)' is not a valid integer(?: range)?\.",
        N_("Invalid value for '{name}': '{value}' is not a whole number."),
    ),
    (r"Invalid value for '(?P<name>[^']+)': (?P<why>.+)", N_("Invalid value for '{name}': {why}")),
    (
        r"Got unexpected extra arguments? \((?P<extra>.+)\)",
        N_("Unexpected extra arguments ({extra})."),
    ),
]


def _said(message: str) -> str:
    """click's message in the language of messages, where it is one pnp knows."""
    import re

    for pattern, words in _CLICK_SAYS:
        found = re.fullmatch(pattern, message)
        if found:
            return _(words, **found.groupdict())
    return message


def _show(exc: click.ClickException) -> None:
    """A command line click cannot take, said as click says it, in the language of messages:
    the usage and where help is, then the error."""
    ctx = getattr(exc, "ctx", None)
    if isinstance(exc, click.UsageError) and ctx is not None:
        hint = ""
        if ctx.command.get_help_option(ctx) is not None:
            option = max(ctx.help_option_names, key=len)  # --help
            hint = _("Try '{command} {option}' for help.", command=ctx.command_path, option=option)
            hint += "\n"
        click.echo(f"{ctx.get_usage()}\n{hint}", err=True)
    click.echo(_("Error: {error}", error=_said(exc.format_message())), err=True)


def _japanese_lines(text: str, room: int) -> list[str]:
    """Japanese text in lines of at most `room` characters, broken after a 「、」 or 「。」 or a
    space where one is near, else where the line is full (never before a closing mark)."""
    lines, line = [], ""
    for ch in text.replace("\n", ""):
        if len(line) >= room and ch not in "、。）」』]":
            cut = max(line.rfind(mark) for mark in "、。 ")
            if cut >= room // 2:  # break after the last mark or space in the line's half
                lines.append(line[: cut + 1].rstrip())
                line = line[cut + 1 :].lstrip()
            else:
                lines.append(line)
                line = ""
        line += ch
    return lines + ([line] if line else [])


class _Command(_Translated, click.Command):
    pass


class _Commands(_Translated, click.Group):
    """pnp's commands: a command line click cannot take (an unknown option, a file given where
    a folder is asked for) is the user's mistake like any other, exit 1 (exit 2 is pnp's own
    internal error), said as click says it."""

    command_class = _Command
    group_class = type  # a group of commands inside pnp's (cache, printer) is one of these

    def main(self, *args, standalone_mode: bool = True, **kwargs):
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)
        except click.ClickException as exc:
            _show(exc)
            asked_help = getattr(click.exceptions, "NoArgsIsHelpError", ())  # `pnp` alone
            sys.exit(0 if isinstance(exc, asked_help) else 1)
        except click.exceptions.Abort:
            click.echo(_("Aborted."), err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(
    package_name="pnp-generator",
    prog_name="pnp",
    message="%(prog)s %(version)s",
    help="Show pnp's version and exit.",
)
@lang_option
def main() -> None:
    """Print-and-play components from spreadsheets: card sheets, rulebook, summary."""


def parse_pairs(pairs: tuple[str, ...], flag: str = "--option") -> dict[str, str]:
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise BuildError(_("{flag} takes NAME=VALUE, got '{pair}'", flag=flag, pair=pair))
        name, value = pair.split("=", 1)
        out[name.strip()] = value.strip()
    return out
