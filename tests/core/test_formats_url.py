"""Viewer links decoded by the viewer's own rules, written again here independently of the encoder:
split on '&' and '=' (no URL-decoding), 4 letters per cell 'a' + colour (up, right, down, left), a join
scored when both sides are equal and not 'a' (initBoardConflicts), board_pieces 3 digits per cell; the set
verified when its sorted smallest rotations are the viewer's list and cell 135 shows the centre clue."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import BOARDS, INSTANCES, SET1, e2opt

from e2opt.cli.main import main
from e2opt.core.board import format_board
from e2opt.core.formats.read import read_board, read_puzzle
from e2opt.core.formats.viewer import viewer_url
from e2opt.core.generate import generate
from e2opt.core.verify import verify_texts

DATA = Path(__file__).parents[1] / "data"


def params(url: str) -> dict[str, str]:
    """The viewer's extractParameters on the hash of the link."""
    assert url.startswith("https://e2.bucas.name/#")
    out = {}
    for part in url.split("#", 1)[1].split("&"):
        key, _, value = part.partition("=")
        out[key] = value
    return out


def viewer_score(p: dict[str, str]) -> int:
    """The viewer's score: max minus conflicts, a conflict being a differing join or two empty sides."""
    w, h, e = int(p["board_w"]), int(p["board_h"]), p["board_edges"]
    assert len(e) == 4 * w * h and e.isalpha() and e.islower()
    conflicts = 0
    for y in range(h):
        for x in range(w):
            s = x + y * w
            if x != w - 1 and (e[4 * s + 1] != e[4 * (s + 1) + 3] or e[4 * s + 1] == "a"):
                conflicts += 1
            if y != h - 1 and (e[4 * s + 2] != e[4 * (s + w)] or e[4 * s + 2] == "a"):
                conflicts += 1
    return 2 * w * h - w - h - conflicts


def decode(p: dict[str, str], puzzle_text: str) -> str:
    """The link's board as .board text: each cell's letters matched against every rotation of every piece."""
    rows = [ln.split() for ln in puzzle_text.splitlines() if ln.strip() and not ln.startswith(("#", "hint"))]
    pieces = [[int(x) for x in r] for r in rows[1:]]
    ids = sorted({c for piece in pieces for c in piece})
    letter = {c: chr(97 + c) for c in ids} if max(ids) <= 25 else {c: chr(97 + i) for i, c in enumerate(ids)}
    w, h, e = int(p["board_w"]), int(p["board_h"]), p["board_edges"]
    placed = {}
    for i, (t, r, b, left) in enumerate(pieces):
        sides = [t, r, b, left]
        for k in range(4):
            word = "".join(letter[sides[(s - k) % 4]] for s in range(4))  # k clockwise turns
            placed.setdefault(word, (i, k))
    cells = [placed[e[4 * s : 4 * s + 4]] for s in range(w * h)]
    lines = [f"{h} {w}"] + [" ".join(f"{p}:{k}" for p, k in cells[y * w : (y + 1) * w]) for y in range(h)]
    return "\n".join(lines) + "\n"


def check_link(url: str, puzzle_path: Path, board_text: str) -> dict[str, str]:
    p = params(url)
    puzzle_text = puzzle_path.read_text()
    decoded = decode(p, puzzle_text)
    assert decoded == format_board(read_board_text(board_text))
    report = verify_texts(puzzle_text, decoded)
    assert report.score == viewer_score(p) == verify_texts(puzzle_text, board_text).score
    return p


def read_board_text(text: str):
    from e2opt.core.board import parse_board

    return parse_board(text)


def official_checks(p: dict[str, str]) -> None:
    """What makes the viewer say 'Pieces Verified': the sorted smallest rotations and the centre clue."""
    listed = [
        ln.split()[1] for ln in (DATA / "e2_official_pieces.txt").read_text().splitlines() if ln[:1] != "#"
    ]
    e = p["board_edges"]
    smallest = sorted(
        min(e[4 * s + k : 4 * s + 4] + e[4 * s : 4 * s + k] for k in range(4)) for s in range(256)
    )
    assert smallest == sorted(min(w[k:] + w[:k] for k in range(4)) for w in listed)
    assert e[135 * 4 : 135 * 4 + 4] == "ijjm"
    numbers = [int(p["board_pieces"][3 * s : 3 * s + 3]) for s in range(256)]
    assert sorted(numbers) == list(range(1, 257))
    for s, n in enumerate(numbers):  # each cell's number is the published piece with those edges
        word = listed[n - 1]
        assert e[4 * s : 4 * s + 4] in {word[k:] + word[:k] for k in range(4)}
    assert p["show_conflicts"] == "1"


@pytest.mark.parametrize("board", sorted(BOARDS.glob("eternity2_*.board")), ids=lambda b: b.stem)
def test_links_of_the_public_e2_boards(board: Path) -> None:
    puzzle = read_puzzle(INSTANCES / "eternity2.txt")
    url = viewer_url(puzzle, read_board(board))
    official_checks(check_link(url, INSTANCES / "eternity2.txt", board.read_text()))


def test_links_of_other_puzzles(tmp_path: Path) -> None:
    for board in sorted((SET1 / "solutions").glob("*.board"))[:8]:
        puzzle_path = SET1 / f"{board.stem}.txt"
        p = check_link(
            viewer_url(read_puzzle(puzzle_path), read_board(board)), puzzle_path, board.read_text()
        )
        assert "board_pieces" not in p
    puzzle, solution = generate(5, 7, 2, 30, 4, 0)  # colour ids past 'z': dense letters
    path = tmp_path / "wide.txt"
    from e2opt.core.puzzle import write_puzzle

    write_puzzle(puzzle, path)
    check_link(viewer_url(read_puzzle(path), solution), path, format_board(solution))


def test_a_run_on_eternity2_prints_and_records_its_link(tmp_path: Path, capsys) -> None:
    code = main(
        [
            "run", str(Path(__file__).parents[2] / "config" / "eternity2.yaml"), "--runs-dir", str(tmp_path),
            "--quiet", "--set", "construct.method=random", "--set", "stop.max_iterations=30",
            "--set", "output.plots=false", "--workers", "1",  # no producer: its DFS round took 20 CPU s
        ]
    )  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    (run_dir,) = tmp_path.iterdir()
    result = json.loads((run_dir / "result.json").read_text())
    assert result["clues"] == "1/5" and "(clues 1/5)" in out
    assert out.strip().splitlines()[-1] == f"viewer: {result['viewer_url']}"
    p = check_link(result["viewer_url"], INSTANCES / "eternity2.txt", (run_dir / "best.board").read_text())
    official_checks(p)
    assert viewer_score(p) == result["best_score"]
    report = e2opt("report", run_dir).stdout
    assert f"viewer: {result['viewer_url']}" in report and "(clues 1/5)" in report


def test_verify_and_render_print_the_link(tmp_path: Path) -> None:
    board = BOARDS / "eternity2_470_Joshua_Blackwood_470.board"
    puzzle = read_puzzle(INSTANCES / "eternity2.txt")
    want = f"viewer: {viewer_url(puzzle, read_board(board))}"
    out = e2opt("verify", INSTANCES / "eternity2.txt", board, "--url").stdout.splitlines()
    assert out == ["470/480 valid", want]
    out = e2opt("render", INSTANCES / "eternity2.txt", board, "-o", tmp_path / "b.svg", "--url").stdout
    assert out.splitlines()[-1] == want


@pytest.mark.slow
def test_links_are_read_back_as_boards(tmp_path: Path) -> None:
    """verify, render and convert read a link (a file holding it) as the board it shows."""
    from e2opt.core.formats.detect import board_format, parse_any_board

    puzzle = read_puzzle(INSTANCES / "eternity2.txt")
    for board_path in sorted(BOARDS.glob("eternity2_*.board"))[:4]:
        board = read_board(board_path)
        text = f"look: {viewer_url(puzzle, board)}\n"
        assert board_format(text) == "url"
        assert parse_any_board(text, "link", puzzle) == board  # distinct pieces: the very same board
    for seed in range(20):
        small, solution = generate(4, 6, 2, 3, seed, 0)
        back = parse_any_board(viewer_url(small, solution), "link", small)
        assert (back.colours(small) == solution.colours(small)).all()  # symmetric pieces may turn
    link = tmp_path / "link.txt"
    link.write_text(
        viewer_url(puzzle, read_board(BOARDS / "eternity2_470_Joshua_Blackwood_470.board")) + "\n"
    )
    assert e2opt("verify", INSTANCES / "eternity2.txt", link).stdout == "470/480 valid\n"
    for bad, words in [
        (link.read_text().replace("board_edges=acda", "board_edges=zzzz"), "which no piece"),
        (link.read_text().replace("board_w=16", "board_w=15"), "15x16"),
        (link.read_text().replace("board_w=16", "board_w=x"), "board_w and board_h"),
        (link.read_text().strip() + "&motifs_order=jef\n", "motifs_order=jef"),
    ]:
        link.write_text(bad)
        done = e2opt("verify", INSTANCES / "eternity2.txt", link)
        assert done.returncode == 2 and words in done.stderr and len(done.stderr.splitlines()) == 1
