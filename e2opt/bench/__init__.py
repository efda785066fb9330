"""Benchmarks: moves per CPU second, quality after a CPU budget, constructions."""
