"""The community's puzzle and board formats: read, write, detect, convert; viewer links; official numbers.

One module per format (csvfmt: the McGavin/Blackwood/anjou puzzle CSV; blackwood: ``NNN/R`` board text;
anjou: board JSON; clark: Dave Clark's sample puzzles and solutions; brendan: Brendan Owen's piece and
solution files), viewer (e2.bucas.name links), official (the official set's numbers and clue convention),
detect (which format a file is in, and the table of readers and writers), convert (the command).
docs/formats.md describes every format and where each rule comes from.
"""
