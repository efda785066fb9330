"""How pieces go into cells, shared by the families: fill orders (order, teeth_order), candidate tables
(tables) and the optimal refill of pairwise non-adjacent holes by one assignment (assignment)."""
