"""``python3 -m sandlot_docker``: the image builder as a script (used by scripts/ci/docker-up.sh)."""

import sys

from sandlot_docker.image import main

sys.exit(main())
