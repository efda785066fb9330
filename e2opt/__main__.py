"""``python -m e2opt``: same as the ``e2opt`` command."""

import sys

from .cli.main import main

sys.exit(main())
