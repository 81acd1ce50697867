"""`python -m watercolor.bench`: see watercolor/bench/__init__.py."""

import sys

from watercolor.bench.cli import main

sys.exit(main())
