"""docs/web.md and the README show pictures that `make screenshots` makes."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[2]


def test_every_picture_in_the_web_docs_exists() -> None:
    for doc, base in ((ROOT / "docs" / "web.md", ROOT / "docs"), (ROOT / "README.md", ROOT)):
        pictures = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", doc.read_text())
        assert pictures, doc
        for picture in pictures:
            assert (base / picture).is_file(), f"{doc.name} shows a missing {picture}"
