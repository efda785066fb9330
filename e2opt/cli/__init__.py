"""The command line: one small class per command, one table of commands."""
