"""Numba kernels that several families share (rng: the splitmix64 random numbers of every numba loop)."""
