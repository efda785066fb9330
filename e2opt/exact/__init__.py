"""Exact solving and counting of edge-matching puzzles: ColorPair filtering (paper 000), the
chessboard scheme (paper 001 section 5), turn symmetry (paper 003), variable/value orders (paper 004)."""
