"""The run's board pool (issue 25): bounded, deduplicated, best first, boards unlike the repaired ones
preferred, and the same after its checkpoint form."""

from __future__ import annotations

import json

import numpy as np

from e2opt.engine.boardpool import BoardPool, board_key


def boards(seed: int, count: int, n: int = 16) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    return [(rng.permutation(n), rng.integers(0, 4, n)) for _ in range(count)]


def test_pool_keeps_each_board_once_and_at_most_its_size_best_first():
    pool = BoardPool(size=5, similar=0.5)
    made = boards(1, 12)
    scores = [3, 9, 1, 7, 7, 2, 8, 5, 6, 4, 9, 0]
    kept = [pool.offer(p, r, s, 1, float(t)) for t, ((p, r), s) in enumerate(zip(made, scores, strict=True))]
    assert len(pool.entries) == 5
    assert sorted(e.score for e in pool.entries) == sorted(scores)[-5:]
    assert kept[1] and kept[11] is False  # 0 is worse than a full pool's worst
    assert not pool.offer(*made[1], 9, 1, 99.0)  # seen before: never again, even the same board
    assert len({e.key for e in pool.entries}) == 5


def test_the_elite_is_ranked_best_first_and_first_come_first_among_equals():
    elite = BoardPool(size=3, similar=1.0)
    made = boards(6, 5)
    for t, ((p, r), s) in enumerate(zip(made, [5, 7, 5, 9, 5], strict=True)):
        elite.offer(p, r, s, t, 0.0)
    assert [(e.score, e.worker) for e in elite.ranked()] == [(9, 3), (7, 1), (5, 0)]  # later 5s left
    assert elite.known(*made[4]) and not elite.offer(*made[4], 10, 4, 0.0)  # offered once: never again
    assert [b["score"] for b in elite.shared()] == [9, 7, 5]


def test_take_prefers_high_scores_unlike_the_boards_already_repaired():
    pool = BoardPool(size=10, similar=0.5)
    rng = np.random.default_rng(4)
    first = (rng.permutation(16), rng.integers(0, 4, 16))
    near = (first[0].copy(), first[1].copy())
    near[1][:3] = (near[1][:3] + 1) % 4  # 13 of 16 placements as in `first`
    far = (rng.permutation(16), rng.integers(0, 4, 16))
    pool.offer(*first, 10, 1, 0.0)
    pool.offer(*near, 9, 1, 1.0)
    pool.offer(*far, 8, 1, 2.0)
    assert pool.take(0).score == 10
    assert pool.take(0).score == 8  # `near` scores more, but it is `first` again for the most part
    assert pool.take(0).score == 9  # nothing else is left
    assert pool.take(0) is None and pool.waiting() == 0


def test_a_full_pool_lets_repaired_boards_go_first():
    pool = BoardPool(size=2, similar=1.0)
    (a, b, c) = boards(2, 3)
    pool.offer(*a, 10, 1, 0.0)
    pool.offer(*b, 5, 1, 0.0)
    pool.take(0)  # the 10 is repaired: it leaves before the waiting 5
    pool.offer(*c, 6, 1, 0.0)
    assert sorted(e.score for e in pool.entries) == [5, 6] and pool.waiting() == 2


def test_pool_survives_its_checkpoint_form():
    pool = BoardPool(size=4, similar=0.5)
    for t, (p, r) in enumerate(boards(3, 6)):
        pool.offer(p, r, t, 1, float(t))
    pool.take(2)
    again = BoardPool(size=4, similar=0.5)
    again.restore(json.loads(json.dumps(pool.meta())), pool.arrays())
    assert [e.meta() for e in again.entries] == [e.meta() for e in pool.entries]
    assert again.seen == pool.seen
    assert [board_key(e.piece, e.rot) for e in again.entries] == [e.key for e in pool.entries]


def test_a_board_handed_out_but_not_searched_waits_again_in_checkpoints_and_after_release():
    pool = BoardPool(size=4, similar=0.5)
    (a, b) = boards(5, 2)
    pool.offer(*a, 10, 1, 0.0)
    pool.offer(*b, 9, 1, 0.0)
    handed = pool.take(0)
    meta = json.loads(json.dumps(pool.meta(pending={handed.key})))
    assert all(m["taken_by"] is None for m in meta["entries"]) and meta["repaired"] == [False]
    again = BoardPool(size=4, similar=0.5)
    again.restore(meta, pool.arrays())
    assert again.waiting() == 2 and not again.repaired
    pool.release(handed.key)
    assert pool.waiting() == 2 and not pool.repaired and pool.take(1).key == handed.key


def test_repaired_boards_count_for_similar_after_they_leave_a_full_pool(monkeypatch):
    import e2opt.engine.boardpool as boardpool

    pool = BoardPool(size=2, similar=0.5)
    rng = np.random.default_rng(6)
    first = (rng.permutation(16), rng.integers(0, 4, 16))
    pool.offer(*first, 10, 1, 0.0)
    pool.take(0)
    for t, (p, r) in enumerate(boards(7, 2)):
        pool.offer(p, r, 5 + t, 1, 1.0)  # the pool is full: the repaired 10 leaves
    assert all(e.taken_by is None for e in pool.entries)
    near = (first[0].copy(), first[1].copy())
    near[1][0] = (near[1][0] + 1) % 4
    pool.offer(*near, 20, 1, 2.0)
    assert pool.take(0).score == 6  # the 20 is the repaired 10 again for the most part
    monkeypatch.setattr(boardpool, "SEEN_LIMIT", 1)  # keys forgotten: a board in the pool is offered again
    assert not pool.offer(*near, 20, 1, 3.0) and len(pool.entries) == 2
