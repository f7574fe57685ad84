"""Static rules checks that need no playouts: what the deal gives each player count, against the
rules' text.

Fed by the model (and the rendered rules source for quoting); returns problems only. Runs
without ReportLab.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

from ..i18n import N_, _, listed, ngettext
from ..model import Game
from ..problems import BuildError, Problems, SourceRef, did_you_mean
from ..rulesource import Unstated, dealing, find_line, plain, rule_ref
from ..typeset import strip_ruby
from . import gaps
from . import text as rules_text

# The engine, the module loader and the simulator are imported where a game is played: a build
# that only checks the text needs none of them (nor multiprocessing, which they bring).


def check_dealing(game: Game, problems: Problems) -> None:
    """The deal for every player count: what is dealt, what is left and whether the rules say
    what becomes of it. From game.toml's [deal]; lacking one, from the rules' own sentence
    (「各プレイヤーに５枚ずつ配ります」), its impossible counts then a warning, not an error."""
    deal, said = game.manifest.deal, False
    if not deal:
        deal, said = rules_text.deal_in_text(game), True
    if not deal:
        return
    deck = game.deck(deal["component"])  # the manifest reader made sure it exists
    rule = deal.get("rule", "")
    at = rule_ref(game, rule)
    if rule and at is None:
        problems.warning(
            _("the [deal] rule sentence 「{rule}」 is not in the rules source", rule=rule),
            game.manifest.at("deal", "rule"),
        )
    at = at or game.rules_where or game.manifest.where
    name = deck.component.name
    rest = rules_text.rest_sentence(game, rule)  # what becomes of the cards a deal leaves, if said
    for d in dealing(game, deal=deal):
        n, each, left, total = d["players"], d["each"], d["left"], d["total"]
        facts = dict(n=n, each=each, dealt=each * n, total=total, name=name, left=left, rule=rule)
        if left < 0:
            problems.add(
                "warning" if said else "error",
                _(
                    "{n} players: dealing {each} each needs {dealt} {name} but there are "
                    "{total}; the rules say 「{rule}」",
                    **facts,
                ),
                at,
            )
        elif left and rest:
            problems.notice(
                _(
                    "{n} players: {each} each deals {dealt} of the {total} {name}, {left} not "
                    "dealt; the rules say 「{rest}」",
                    rest=rest[0],
                    **facts,
                ),
                at,
            )
        elif left:
            problems.warning(
                ngettext(
                    "{players} players: the {total} {name} deal {each} each with {n} left over; "
                    "the rules say 「{rule}」 and do not say what becomes of the card left over",
                    "{players} players: the {total} {name} deal {each} each with {n} left over; "
                    "the rules say 「{rule}」 and do not say what becomes of the cards left over",
                    left,
                    players=n,
                    total=total,
                    name=name,
                    each=each,
                    rule=rule,
                ),
                at,
            )
        else:
            problems.notice(
                _("{n} players: the {total} {name} deal {each} each, none left over", **facts),
                at,
            )


def check_piles(game: Game, problems: Problems) -> None:
    """[setup] piles: a deck split into equal piles, e.g. the 72 dragon-vein cards into 6 holes."""
    piles = game.manifest.setup.get("piles")
    if not piles:
        return
    try:
        deck = game.deck(piles.get("component", ""))
    except KeyError:
        problems.error(
            _(
                "[setup] piles names component {id!r}, which is not a deck",
                id=piles.get("component"),
            ),
            game.manifest.at("setup", "piles", "component"),
        )
        return
    n, rule = int(piles.get("count", 1)), piles.get("rule", "")
    total = len(deck.cards)
    at = rule_ref(game, rule)
    if rule and at is None:
        problems.warning(
            _("the [setup] piles rule sentence 「{rule}」 is not in the rules source", rule=rule),
            game.manifest.at("setup", "piles", "rule"),
        )
    at = at or game.manifest.where
    if total % n:
        problems.warning(
            _(
                "the {total} {name} do not split into {n} equal piles ({each} each, {left} left "
                "over); the rules say 「{rule}」",
                total=total,
                name=deck.component.name,
                n=n,
                each=total // n,
                left=total % n,
                rule=rule,
            ),
            at,
        )
    else:
        problems.notice(
            _(
                "the {total} {name} split into {n} piles of {each}",
                total=total,
                name=deck.component.name,
                n=n,
                each=total // n,
            ),
            at,
        )


def check_provisional(game: Game, problems: Problems) -> None:
    """Every row the project filled in because the designer's text leaves it open: one notice per
    reason and component, naming each item, so the designer sees what is still theirs to write."""
    for deck in game.decks:
        for reason, cards in deck.provisional().items():
            names = listed(c.label() for c in cards)
            problems.notice(
                _(
                    "{name} {items}: provisional — {reason}",
                    name=deck.component.name,
                    items=names,
                    reason=reason,
                ),
                cards[0].where.at(column="provisional"),
            )


PLAYOUTS_PER_COUNT = 200
COVERAGE_PER_COUNT = 100  # games of players trying every kind of action
LEVEL = {"error": "error", "warning": "warning", "notice": "notice"}


def check_open_points(game: Game, module, problems: Problems, strict: bool = False) -> None:
    """Each point where the rules can be read more than one way (an option of the module) that
    game.toml's [readings] leaves open: a notice at its sentence (a warning when strict, so a
    strict check fails until the designer chooses)."""
    texts = getattr(module, "TEXTS", {})
    check_texts(module, texts, problems)
    for name, option in module.OPTIONS.items():
        at = _said_at(game, option.rule) if option.rule else None
        if option.rule and at is None:  # the sentence changed or went: the point may be gone
            problems.warning(
                _(
                    "open point '{name}': the rules no longer say 「{rule}」; is this reading "
                    "still open? Quote the sentence as the rules say it now, or remove the "
                    "open point if the text settles it",
                    name=name,
                    rule=option.rule,
                ),
                _module_line(module, f'"{name}"'),
            )
            continue
        if name in game.manifest.readings:
            continue
        problems.add(
            "warning" if strict else "notice",
            _(
                "open point '{name}': {why}; played as {name}={value}, the literal reading "
                "(choose in game.toml [readings]: {choices})",
                name=name,
                why=texts.get("open_points", {}).get(name, option.why),
                value=option.default,
                choices=" | ".join(option.choices),
            ),
            at or game.manifest.where,
        )


def check_texts(module, texts: dict, problems: Problems) -> None:
    """A name in the game's texts file that the module does not declare: a typo, or a point
    since removed (its words would never be said)."""
    if not texts:
        return
    messages = getattr(module, "MESSAGES", None)
    known = {
        "open_points": module.OPTIONS,
        "branches": getattr(module, "BRANCHES", {}),
        "checks": messages.english if messages is not None else {},
        "actions": getattr(module, "ACTION_TYPES", None) or {},
        "choices": {f"{n}.{v}": None for n, o in module.OPTIONS.items() for v in o.choices},
    }
    doc = texts["_doc"]
    for key in sorted(set(doc.data) - set(known)):
        problems.warning(
            _(
                "unknown table [{key}] (the texts file has: {tables})",
                key=key,
                tables=", ".join(known),
            ),
            doc.at(key),
        )
    for name, text in texts.get("checks", {}).items():
        if messages is None or name not in messages.english:
            continue
        try:
            fields = {f for _, f, _, _ in string.Formatter().parse(text) if f}
        except ValueError:
            fields = {"{"}
        if extra := fields - messages.fields(name):
            problems.warning(
                _(
                    "[checks] {name}: {fields} is no field of the message (its fields: "
                    "{known}); the English is said instead",
                    name=name,
                    fields=", ".join(sorted(extra)),
                    known=", ".join(sorted(messages.fields(name))) or _("none"),
                ),
                doc.at("checks", name),
            )
    for key, names in known.items():
        for name in texts.get(key, {}):
            if name not in names:
                problems.warning(
                    _(
                        "[{key}] {name}: the rules module has no such name{hint}",
                        key=key,
                        name=name,
                        hint=did_you_mean(name, names),
                    ),
                    doc.at(key, name),
                )


def _said_at(game: Game, sentence: str) -> SourceRef | None:
    """Where the game says `sentence`: its line in the rules, else the first card whose text
    holds it (a skill's words on a card), else None."""
    at = rule_ref(game, sentence)
    if at is not None:
        return at
    for deck in game.decks:
        for card, _n in deck.alike:
            for column, value in card.fields.items():
                if isinstance(value, str) and sentence in strip_ruby(value):
                    return card.where.at(column=column)
    return None


def _module_line(module, text: str) -> SourceRef:
    """Where the rules module writes `text` (an open point's name), else the module itself."""
    ref = SourceRef(module.RULES_REF.shown)
    try:
        source = Path(module.RULES_REF.path).read_text("utf-8")
    except (OSError, TypeError, UnicodeDecodeError):
        return ref
    for n, line in enumerate(source.splitlines(), start=1):
        if text in line:
            return ref.at(row=n)
    return ref


def check_by_playing(
    game: Game, module, problems: Problems, chosen: dict, games: int = PLAYOUTS_PER_COUNT
) -> None:
    """A short simulation per supported player count under the designer's readings (game.toml
    [readings] over the literal ones). Where those differ from the literal readings, the literal
    readings are played too and their failures kept, as warnings: only of the points still
    open, since a point whose sentence the text no longer says may be settled by the new words
    (check_open_points asks), and its literal reading was a reading of the old ones."""
    from . import engine, modules

    data = modules.guarded(module, module.prepare, game)
    options = engine.resolve_options(module.OPTIONS, chosen)
    settled = {
        name: options[name]
        for name, option in module.OPTIONS.items()
        if option.rule and _said_at(game, option.rule) is None
    }
    literal = engine.resolve_options(module.OPTIONS, settled)
    lo, hi = game.manifest.players
    for players in range(lo, hi + 1):
        _play_and_report(game, module, data, players, games, options, options, problems)
        if options != literal:
            _play_and_report(game, module, data, players, games, literal, options, problems)


def _play_and_report(game, module, data, players, games, options, base, problems) -> None:
    from . import findings, report, simulate, statistics

    kinds = ("random",) * players
    rows = simulate.run(module, data, players, games, 1, options, kinds)
    stats = statistics.statistics(game.id, players, 1, options, kinds, rows)
    stats.base = base
    literal_run = options != base
    if not literal_run:
        simulate.coverage(module, data, stats, COVERAGE_PER_COUNT)
    for f in findings.findings(module, stats):
        if literal_run and f.severity != "error":
            continue  # the literal reading's failures only; the rest is the chosen game's
        if f.severity == "notice" and not (f.in_check or f.key in module.NOTABLE or ":" in f.key):
            continue  # the full tally is in `pnp simulate`'s report; rules that never or
            # always fire, and kinds of action random players never take, are said here
        where = rule_ref(game, f.rule) or game.manifest.where
        text = ngettext(
            "{n} player, {games} random playouts: {finding}",
            "{n} players, {games} random playouts: {finding}",
            players,
            games=games,
            finding=f.said(),
        )
        if f.options:
            readings = ", ".join(f"{k}={v}" for k, v in f.options.items())
            text += " " + _("(reading {readings})", readings=readings)
        if literal_run:
            text += " " + _(
                "— the literal reading; game.toml [readings] plays {readings}",
                readings=", ".join(f"{k}={v}" for k, v in base.items() if options[k] != v),
            )
        if f.seed is not None:
            command = report.replay_command(game.id, stats, f.seed, module)
            text += "; " + _("replay: {command}", command=command)
        problems.add("warning" if literal_run else LEVEL[f.severity], text, where)


def check_rules(
    game: Game,
    problems: Problems,
    play: bool = True,
    code: bool | None = None,
    strict: bool = False,
) -> None:
    """The generic checks; with `code` (as `play` unless given), the game's rules module (the
    project's code, said so) and its own static checks; with `play`, playouts too."""
    from .. import trust

    code = play if code is None else code
    module, refused = None, None
    if code:
        from . import modules

        try:
            module = modules.rules_for(game)
        except trust.Untrusted as exc:  # the generic checks run; the code's are not run
            refused = exc
    check_dealing(game, problems)
    check_piles(game, problems)
    check_provisional(game, problems)
    rules_text.check_names(game, problems)
    rules_text.check_numbers(game, problems)
    rules_text.check_unmentioned(game, problems)
    rules_text.check_unreachable(game, problems)
    rules_text.check_ties(game, problems)
    rules_text.check_limits(game, problems)
    gaps.check_all(game, problems, module)
    rules_text.check_round_floor(
        game, problems, game.manifest.deal or rules_text.deal_in_text(game)
    )
    parsed = _parsed(game)
    check_summary_covers_play(game, problems, parsed)
    check_heading_numbers(game, problems, parsed)
    if refused is not None:
        for problem in refused.problems:
            problems.warning(problem.message, problem.where)
        return
    if module is None:
        return
    problems.notice(
        _("runs the game's rules module, Python code from the project (check --no-play runs none)"),
        SourceRef(module.RULES_REF.shown),
    )
    chosen = modules.chosen_readings(game, module, problems)
    check_open_points(game, module, problems, strict)
    for check in module.CHECKS:
        try:
            modules.guarded(module, check, game, problems)
        except Unstated as gone:  # the sentence went or changed: the check may be moot
            name = getattr(check, "__name__", "check")
            problems.warning(
                _(
                    "{check} reads {what} from a sentence like 「{sentence}」, which the rules "
                    "no longer say, so it did not run; is it still needed? Point it at the "
                    "sentence as the rules say it now, or remove it if the text settles it",
                    check=name,
                    what=gone.what,
                    sentence=gone.shown,
                ),
                _module_line(module, f"def {name}("),
            )
    if play:
        check_by_playing(game, module, problems, chosen)


# What a player needs while playing, by the words that say it: how the game ends, how it is
# won or scored, who plays next, and limits. A sentence outside the summary that says one of
# these is named, so the designer can mark it in (`<!-- summary: … -->`).
PLAY_NEEDS = (
    (re.compile(r"終了|終わり|最終ラウンド"), N_("when something ends")),
    (re.compile(r"勝利|勝者|勝ち|得点|ＶＰ|VP|点を得|ボーナス"), N_("how it is won or scored")),
    (
        re.compile(r"時計回り|スタートプレイヤー|次のプレイヤー|左隣|右隣|次手番"),
        N_("who plays next"),
    ),
    (
        re.compile(r"のみ|しか|できません|できない|禁止|[１1一]回だけ|累計でなく|尽きた"),
        N_("a limit"),
    ),
)
_SENTENCE = re.compile(r"[^。！？]*[。！？]?")


def _parsed(game: Game):
    """The rules source as blocks and summary parts, once for the checks that read its
    structure; None when it cannot be parsed (the rulebook stage reports why)."""
    from ..rulesource import parse

    try:
        return parse(game.rules_source or "", game.rules_where or game.manifest.where)
    except BuildError:
        return None


def check_summary_covers_play(game: Game, problems: Problems, parsed) -> None:
    """Sentences a player needs during play (end, scoring, turn order, limits) that the
    summary leaves out, each named at its line. Only for rules that mark a summary at all."""
    source = game.rules_source or ""
    where = game.rules_where or game.manifest.where
    if parsed is None or not parsed[1]:
        return
    blocks, summary = parsed
    inside = {id(b) for section in summary for b in section.blocks}
    for block in blocks:
        if id(block) in inside or block.kind not in ("para", "list", "olist"):
            continue
        texts = [block.text] if block.kind == "para" else list(block.items)
        for text in texts:
            plain_text = strip_ruby(plain(text))
            for sentence in _SENTENCE.findall(plain_text):
                sentence = sentence.strip()
                if not sentence or "{{" in sentence or "{%" in sentence:
                    continue
                needs = [_(what) for pattern, what in PLAY_NEEDS if pattern.search(sentence)]
                if needs:
                    line = find_line(source, sentence[:20]) or block.line
                    problems.notice(
                        _(
                            "「{sentence}」 says {needs}, but the summary leaves it out; mark it "
                            "with <!-- summary: … --> if players need it during play",
                            sentence=sentence[:40] + ("…" if len(sentence) > 40 else ""),
                            needs=_(", ").join(needs),
                        ),
                        where.at(row=line),
                    )


_NUMBERED = re.compile(r"^([0-9０-９]+)\s*[：:.．、]")


def check_heading_numbers(game: Game, problems: Problems, parsed) -> None:
    """Numbered headings (「１：ラウンド開始」) in the order they come, level by level under one
    parent: a number repeated or skipped is named at its line — never renumbered silently."""
    if parsed is None:
        return
    where = game.rules_where or game.manifest.where
    runs: dict[int, list] = {}  # level -> the numbered headings since their parent heading
    for block in parsed[0]:
        if block.kind != "heading":
            continue
        for deeper in [lv for lv in runs if lv > block.level]:
            del runs[deeper]
        m = _NUMBERED.match(plain(block.text))
        if not m:
            if block.level in runs:
                del runs[block.level]
            continue
        number = int(m.group(1))  # int() reads full-width digits too
        seen = runs.setdefault(block.level, [])
        if seen:
            previous, prev_block = seen[-1]
            if number != previous + 1:
                problems.warning(
                    _(
                        "「{heading}」 is numbered {n} after 「{previous}」: the numbers "
                        "repeat or skip (the rulebook prints them as written)",
                        heading=plain(block.text),
                        n=number,
                        previous=plain(prev_block.text),
                    ),
                    where.at(row=block.line),
                )
        seen.append((number, block))
