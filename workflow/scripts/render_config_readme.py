"""Rewrite config/README.md's generated key reference (block ``config-keys``) from the config schema's descriptions
(privtest_workflow.configdoc). Usage: ``python workflow/scripts/render_config_readme.py [--check]``; ``--check``
exits 1 if the committed file differs from the rendering."""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "workflow" / "lib"))
from privtest_workflow import configdoc  # noqa: E402

from privtest_artifact import docs  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only compare; exit 1 if config/README.md is stale")
    args = ap.parse_args()
    path = ROOT / configdoc.README
    text = path.read_text()
    new = docs.replace_block(text, configdoc.BLOCK, configdoc.render(configdoc.load_schema(ROOT)))
    if args.check:
        if new != text:
            print(f"{configdoc.README} is stale: run python workflow/scripts/render_config_readme.py", file=sys.stderr)
            return 1
        return 0
    path.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
