"""Entry point of the component package: `python plugin <engine address>`, as the Pulumi Python language
host runs a plugin folder that holds a __main__.py (pulumi/pulumi v3.259.0,
sdk/python/cmd/pulumi-language-python/main.go, RunPlugin: `python <program directory> <args>`).

The components live in this checkout's `components` package, one folder up; the plugin's environment
holds their dependencies (requirements.txt in this folder).
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from plugin.host import serve  # noqa: E402 needs the checkout on the path

if __name__ == "__main__":
    serve()
