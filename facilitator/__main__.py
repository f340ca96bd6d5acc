import sys

from facilitator.cli import main

sys.exit(main())
