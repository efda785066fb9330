"""The data every layer shares: puzzles, boards, the independent verifier, generated puzzles, pictures,
best known scores, errors, safe file writes and signal helpers. Imports nothing else of e2opt."""
