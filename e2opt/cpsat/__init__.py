"""The CP-SAT models shared by construction, search moves and exact solving."""
