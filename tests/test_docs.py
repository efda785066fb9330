"""Docs a newcomer can read: a short README opening, pages that guide rather than narrate issues, no link that
leaves the repository, and the three parts of docs/ (user guide, developer guide, results by topic)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
OPENING_MAX_CHARS = 700
ISSUE_MENTION = re.compile(r"\bissues? #?\d+", re.IGNORECASE)


def pages() -> list[Path]:
    """The README and every page of docs/ this test checks."""
    return [README, *sorted(DOCS.glob("*.md"))]


def test_readme_opens_short_with_the_two_commands_first() -> None:
    text = README.read_text()
    opening = text[: text.index("\n## ")].rstrip()
    assert len(opening) <= OPENING_MAX_CHARS, len(opening)
    blocks = re.findall(r"```bash\n(.*?)```", opening, re.S)
    assert len(blocks) == 2 and "e2opt run config/eternity2.yaml" in blocks[0] and "pytest" in blocks[1]


def test_no_page_narrates_issues() -> None:
    found = [f"{p.name}: {m.group(0)}" for p in pages() for m in ISSUE_MENTION.finditer(p.read_text())]
    assert not found


def test_no_link_leaves_the_repository() -> None:
    # a Markdown link out, a web address (the viewer's link format, which e2opt reads and writes, excepted) or
    # a path above the repository (config-relative paths such as ../instances/ stay inside it)
    outside = re.compile(r"\]\((?:https?:|/|\.\./\.\.)|https?://(?!e2\.bucas\.name/#)|\.\./(?:\.\./|shared)")
    found = [f"{p.name}: {m.group(0)}" for p in pages() for m in outside.finditer(p.read_text())]
    assert not found


def test_docs_index_names_every_page_once_in_a_part() -> None:
    index = (DOCS / "README.md").read_text()
    for part in ("## User guide", "## Developer guide", "## Results by topic"):
        assert part in index
    named = set(re.findall(r"`docs/([a-z_0-9]+\.md)`", index))
    assert named == {p.name for p in DOCS.glob("*.md")} - {"README.md"}
