"""Run the engine's command line: ``python -m engine check FILE`` or ``simulate``."""

from __future__ import annotations

import sys

from engine.cli import main

sys.exit(main())
