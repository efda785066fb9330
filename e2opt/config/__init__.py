"""YAML -> frozen dataclasses: the schema machinery (errors name file and key) and the config sections.
Imports only core."""
