"""`pnp serve`: a local web page of every card of every game, refreshed on every save.

The page (http://127.0.0.1:PORT/, this machine only) shows each game's components with each
card's front as an image, its label and its data row (file:row), the problems `check` found
beside the cards they name (the rest above), and links to the game's rulebook and summary.
A save under cards/, layouts/ or fonts/ rebuilds (as `pnp build`: the outputs are written), and
the page reloads itself through server-sent events. Images are keyed by the face's digest, so
after an edit only the faces that changed are rendered again.
"""

from __future__ import annotations

import hmac
import json
import threading
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, quote, unquote

from . import pipeline
from .editor import Editor, Refused, side_word, targets
from .editor import words as editor_words
from .i18n import _, language
from .layout.plan import laid_cards
from .layout.templates import html_page
from .problems import BuildError, Problem
from .project import Project
from .session import Session

DPI = 110  # the gallery's images: sharp on a screen, quick to render


@dataclass
class Card:
    """A card as the gallery shows it: label, row, face picture and problems."""

    label: str
    where: str  # file:row
    face: str  # the front's key
    problems: list[str] = field(default_factory=list)
    copies: int = 1  # the row's copies, alike: one picture, "×N"


@dataclass
class GameView:
    """A game as the gallery shows it: its cards by component, files and problems."""

    id: str
    title: str
    components: dict[str, list[Card]] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)  # output files the page links to
    problems: list[str] = field(default_factory=list)  # not tied to a card
    ok: bool = True
    font: Path | None = None  # the game's body font file: the page is set in it too
    # component name -> (which face, the editor's address): its layouts, to edit by hand
    edits: dict[str, list[tuple[str, str]]] = field(default_factory=dict)


class Gallery:
    """What the page shows, rebuilt on each save; `version` moves when it changes."""

    def __init__(self, project: Project, games: list[str], options: pipeline.Options):
        self.project, self.named, self.options = project, games, options
        self.out = project.output_for(options.out)
        self.games: dict[str, GameView] = {}
        self.images: dict[str, bytes] = {}  # face key -> PNG
        self.session = Session()  # kept across saves: a rebuild lays out only what changed
        self.version = 0
        self.changed = threading.Condition()
        self.plans: dict = {}  # game -> its Plan as the last good build laid it out (the editor's)
        self.problems: list[Problem] = []  # the last build's
        self.lock = threading.RLock()  # one build (or one face rendered) at a time
        self.editor = Editor(self)

    def rebuild(self) -> None:
        """Build again: the page shows the cards as soon as they are laid out, and their files
        once they are written. A save and the editor's write may ask at once: one builds at a
        time, the second after the first."""
        with self.lock:
            games = self.named or self.project.game_ids()
            try:
                result = pipeline.build(self.project, games, self.options, self.session, self._show)
            except BuildError as exc:
                self._show(None, exc.problems)
                return
            if not result.failed(self.options.strict):
                self._show(result)

    def cache(self):
        return _cache(self.out)

    def _show(self, result, problems=None) -> None:
        """The games as `result` has them (laid out; its files, once written), or the last
        good views marked not built, with the problems that stopped this build."""
        games = self.named or self.project.game_ids()
        problems = result.problems.items if result is not None else problems
        self.problems = list(problems)
        views = dict(self.games)
        laid = {plan.game.id: plan for plan in result.plans} if result else {}
        failed = result is None or result.failed(self.options.strict)
        for game in games:
            plan = laid.get(game)
            if plan is not None and not failed:
                views[game] = self._view(plan, result, views.get(game))
                self.plans[game] = plan
            view = views.setdefault(game, GameView(game, game))
            view.ok = not failed
            self._place_problems(view, [p for p in problems if p.game in (None, game)])
        with self.changed:
            self.games = {g: views[g] for g in games if g in views}
            self.version += 1
            self.changed.notify_all()

    def _view(self, plan, result, before: GameView | None) -> GameView:
        from .render import fonts as render_fonts
        from .render.images import faces_to_png

        game = plan.game
        view = GameView(game.id, game.title, font=plan.fonts.metrics["body"].face.path)
        names = render_fonts.register(plan.fonts, self.cache())
        todo: dict[tuple, dict] = {}  # the faces not rendered yet, by their trim size
        for card, comp, front, _back, laid in laid_cards(plan):
            shown = view.components.setdefault(comp, [])
            where = card.where.row_place
            if shown and shown[-1].where == where and shown[-1].face == front.key:
                shown[-1].copies += 1  # a copy the row makes: counted, not shown again
                continue
            shown.append(Card(card.label(), where, front.key))
            if front.key not in self.images:
                todo.setdefault(laid.geometry.card, {})[front.key] = front
        for size, faces in todo.items():
            pngs = faces_to_png(game.title, list(faces.values()), size, 0.0, names, DPI)
            self.images.update(zip(faces, pngs))
        named = {c.id: c.name for c in game.manifest.components}
        for t in targets(plan, self.project):
            address = "/edit/" + "/".join(quote(p, safe="") for p in t.id.split("/"))
            view.edits.setdefault(named[t.component], []).append((side_word(t.side), address))
        folder = self.out / game.id
        view.files = sorted(
            p.relative_to(folder).as_posix()
            for p in result.written
            if p.is_relative_to(folder) and p.suffix in (".pdf", ".md", ".html")
        ) or (before.files if before is not None else [])  # laid out: the files come after
        return view

    def _place_problems(self, view: GameView, problems: list[Problem]) -> None:
        cards = {c.where: c for cards in view.components.values() for c in cards}
        for card in cards.values():
            card.problems = []
        view.problems = []
        for p in problems:
            where = p.where
            key = where.row_place if where and where.row else None
            if key in cards:
                cards[key].problems.append(p.format())
            else:
                view.problems.append(p.format())

    def page(self) -> str:
        """The gallery page: a template with autoescape, so no game's name, title, label or
        message can be read as markup or script (a game's font named by its place, not its
        folder's name)."""
        views = list(self.games.values())
        fonts = {}
        for view in views:
            if view.font is not None:
                fonts[view.id] = len(fonts) + 1
        return html_page(
            "gallery.html",
            games=views,
            fonts=fonts,
            version=self.version,
            stale=_("not built; the last good outputs stay as they were"),
            edit_word=_("lay out by hand"),
        )


def _cache(out: Path):
    from .cache import Cache

    return Cache.for_output(out, writable=True)


def fonts_of(gallery: Gallery, game: str) -> bool:
    view = gallery.games.get(game)
    return view is not None and view.font is not None


MOST_POSTED = 4 * 1024 * 1024  # an editor's write: a layout file back (an undo) at most
MOST_STREAMS = 16  # event streams open at once (each holds a thread); more are told to wait


def handler(gallery: Gallery):
    streams = threading.BoundedSemaphore(MOST_STREAMS)

    class Handler(BaseHTTPRequestHandler):
        timeout = 60  # a connection that sends no request in this long is closed

        def log_message(self, *args) -> None:  # quiet: the terminal shows builds, not requests
            pass

        def _ours(self) -> bool:
            """Whether the request names this server as its host: a page of another site that
            renamed itself to 127.0.0.1 (DNS rebinding) sends its own name, and is refused."""
            port = self.server.server_address[1]
            host = (self.headers.get("Host") or "").strip().lower()
            return host in {f"127.0.0.1:{port}", f"localhost:{port}"}

        def _send(self, body: bytes, kind: str, cache=False, status=HTTPStatus.OK) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header(
                "Cache-Control", "max-age=31536000, immutable" if cache else "no-store"
            )
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802 - the http.server name
            if not self._ours():
                return self.send_error(HTTPStatus.FORBIDDEN, "not this server's name")
            path = unquote(self.path.split("?", 1)[0])
            if path == "/":
                return self._send(gallery.page().encode(), "text/html; charset=utf-8")
            if path == "/state.json":
                body = json.dumps({"version": gallery.version}).encode()
                return self._send(body, "application/json")
            if path.startswith("/face/") and path.endswith(".png"):
                image = gallery.images.get(path[len("/face/") : -len(".png")])
                if image is not None:
                    return self._send(image, "image/png", cache=True)
            if path.startswith("/font/"):
                view = gallery.games.get(path[len("/font/") :])
                if view is not None and view.font is not None:
                    return self._send(view.font.read_bytes(), "font/otf", cache=True)
            if path.startswith("/files/"):
                game, _sep, name = path[len("/files/") :].partition("/")
                view = gallery.games.get(game)
                if view is not None and name in view.files:  # only what a build wrote
                    kind = {".pdf": "application/pdf", ".html": "text/html; charset=utf-8"}.get(
                        Path(name).suffix, "text/plain; charset=utf-8"
                    )
                    return self._send((gallery.out / game / name).read_bytes(), kind)
            if path.startswith("/edit/"):
                return self._edit_get(path[len("/edit/") :], self.path.partition("?")[2])
            if path == "/events":
                if not streams.acquire(blocking=False):
                    return self.send_error(HTTPStatus.SERVICE_UNAVAILABLE, "too many pages open")
                try:
                    return self._events()
                finally:
                    streams.release()
            self.send_error(HTTPStatus.NOT_FOUND)

        def _edit_get(self, rest: str, query: str) -> None:
            editor = gallery.editor
            if rest.startswith("image/") and rest.endswith(".png"):
                image = editor.images.get(rest[len("image/") : -len(".png")])
                if image is None:
                    return self.send_error(HTTPStatus.NOT_FOUND)
                return self._send(image, "image/png", cache=True)
            parts = rest.split("/")
            try:
                if len(parts) == 4 and parts[3] == "state.json":
                    card = parse_qs(query).get("card", ["0"])[0]
                    state = editor.state(*parts[:3], int(card) if card.isdigit() else 0)
                    return self._send(json.dumps(state).encode(), "application/json")
                if len(parts) == 3:
                    target = editor.target(*parts)
                    page = html_page(
                        "editor.html",
                        target=target,
                        token=editor.token,
                        font=fonts_of(gallery, target.game),
                        words=editor_words(),
                        lang=language(),
                    )
                    return self._send(page.encode(), "text/html; charset=utf-8")
            except Refused as exc:
                return self.send_error(exc.status, exc.message)
            self.send_error(HTTPStatus.NOT_FOUND)

        def do_POST(self) -> None:  # noqa: N802 - the http.server name
            """The editor's writes: only from a page this server sent (its token, in a header
            no other site's page can set without asking first), as JSON, from this machine."""
            if not self._ours():
                return self.send_error(HTTPStatus.FORBIDDEN, "not this server's name")
            port = self.server.server_address[1]
            origin = self.headers.get("Origin")
            if origin is not None and origin not in (
                f"http://127.0.0.1:{port}",
                f"http://localhost:{port}",
            ):
                return self._answer(HTTPStatus.FORBIDDEN, _("a write from another site"))
            if not hmac.compare_digest(self.headers.get("X-PNP-Token", ""), gallery.editor.token):
                return self._answer(
                    HTTPStatus.FORBIDDEN,
                    _("a write needs the token of the editor's page: load the page again"),
                )
            kind = self.headers.get("Content-Type", "").split(";")[0].strip()
            length = int(self.headers.get("Content-Length") or 0)
            if self.path != "/edit/api" or kind != "application/json":
                return self._answer(HTTPStatus.NOT_FOUND, _("not an editor's write"))
            if not 0 < length <= MOST_POSTED:
                return self._answer(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, _("too big a write"))
            try:
                request = json.loads(self.rfile.read(length))
            except ValueError:
                return self._answer(HTTPStatus.BAD_REQUEST, _("not JSON"))
            try:
                answer = gallery.editor.apply(request)
            except Refused as exc:
                return self._answer(exc.status, exc.message)
            body = json.dumps(answer).encode()
            return self._send(body, "application/json")

        def _answer(self, status: int, message: str) -> None:
            body = json.dumps({"ok": False, "message": message}).encode()
            self._send(body, "application/json", status=status)

        def _events(self) -> None:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            seen = -1
            try:
                while True:
                    with gallery.changed:
                        if gallery.version == seen:
                            gallery.changed.wait(timeout=15)
                        version = gallery.version
                    if version != seen:
                        self.wfile.write(f"data: {version}\n\n".encode())
                    else:
                        self.wfile.write(b": keep-alive\n\n")
                    self.wfile.flush()
                    seen = version
            except (BrokenPipeError, ConnectionResetError):
                return

    return Handler


def run(project: Project, games: list[str], options: pipeline.Options, port: int, echo) -> int:
    """Serve until Ctrl-C: build, start the server, rebuild on every save."""
    from .watch import saves

    gallery = Gallery(project, games, options)
    gallery.rebuild()
    server = ThreadingHTTPServer(("127.0.0.1", port), handler(gallery))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    echo(_("serving http://127.0.0.1:{port}/ (Ctrl-C stops)", port=server.server_address[1]))
    try:
        for paths in saves(project):
            if gallery.editor.built(paths):
                continue  # the editor's own writes, built as it wrote them
            gallery.rebuild()
            echo(_("rebuilt (version {version})", version=gallery.version))
    except KeyboardInterrupt:
        pass
    server.shutdown()
    echo(_("stopped"))
    return 0
