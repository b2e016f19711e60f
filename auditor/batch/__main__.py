"""``python -m auditor.batch batch|report ...``: the batch commands without ``auditor/cli.py``."""

import sys

from auditor.batch.cli import main

if __name__ == "__main__":
    sys.exit(main())
