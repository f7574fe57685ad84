"""What one process keeps from a build of a project to the next, in memory only.

`pnp build` and `pnp check` make a Session and drop it with the build; `pnp watch` and `pnp
serve` keep one across saves, so a rebuild after an edit lays out only the faces the edit
changed and compiles no template twice. Stages are handed the part they use (`faces` to the
layout stage, `templates` while templates are compiled). Nothing here outlives the process:
the disk keeps only what takes seconds cold, the fonts' subsets and metrics (cache.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Session:
    # game id -> the face memo of its last build (layout.faces.FaceMemo)
    faces: dict[str, object] = field(default_factory=dict)
    # template source -> (template, the names it reads, whether it draws at random)
    templates: dict[str, tuple] = field(default_factory=dict)
