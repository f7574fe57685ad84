"""Which printed revision a build is: `[game] version = "0.3"` as written, or `version = "git"`
for the project's git tag or commit (`git describe`), said with " +edits" when the project has
changes not committed, so a playtester can tell two printings apart. `pnp release` prints its
own VERSION."""

from __future__ import annotations

import subprocess
from dataclasses import replace

from .i18n import _
from .problems import Problems

GIT = "git"  # the manifest's word for "ask git"


def resolved(manifest, root, given: str | None, problems: Problems):
    """The manifest with its version as this build prints it: `given` over the manifest's
    ("" prints none)."""
    if given is not None:
        return replace(manifest, version=given)
    if manifest.version != GIT:
        return manifest
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "describe", "--tags", "--always", "--dirty= +edits"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        done = None
    said = done.stdout.strip() if done is not None and done.returncode == 0 else ""
    if not said:
        problems.warning(
            _(
                '[game] version = "git", but the project is no git repository with a commit '
                "(git describe found nothing): no version is printed"
            ),
            manifest.at("game", "version"),
        )
    return replace(manifest, version=said)


def feedback_url(manifest) -> str:
    """The game's feedback form (`[game] feedback`) with its game, version and language filled
    in, each quoted for a URL; "" without one."""
    from urllib.parse import quote

    if not manifest.feedback:
        return ""
    return manifest.feedback.format(
        game=quote(manifest.id, safe=""),
        version=quote(manifest.version, safe=""),
        language=quote(manifest.language, safe=""),
    )
