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


def test_the_pages_say_how_a_game_ended_in_the_engines_words() -> None:
    """The table page's "The game ended: …" line is written in JS from the result's code;
    its words are the engines' own (no browser needed to check that they agree)."""
    from bigtop.games.clown15go.options import end_reason_text
    from bigtop.games.zirkus.options import ENDING_WORDS, ENDINGS

    js = ROOT / "src" / "bigtop" / "web" / "static" / "js" / "games"
    zirkus = (js / "zirkus.js").read_text()
    for code in ENDINGS:
        assert f'"{code}": "{ENDING_WORDS[code]}"' in zirkus, code
    from bigtop.games.scout.teach import ENDING_WORDS as SCOUT_ENDINGS

    scout = (js / "scout.js").read_text()
    for code, words in SCOUT_ENDINGS.items():
        # The page names the seat as everywhere else ("Anna (P1)", who()), where the engine
        # writes its label "P1".
        assert f'"{code}": `{words.replace("P{player}", "${who(player)}")}`' in scout, code
    clown = (js / "clown15go.js").read_text()
    for code in ("went-out", "all-out", "stall", "turn-limit"):
        words = end_reason_text(code, 97, 9999)
        assert words != code.replace("-", " "), code  # a code the engine has words for
        js_words = words.replace("P97", "${who(first)}").replace("9999",
                                                              "${view.options.max_turns}")
        assert re.search(rf'"{code}": ["`]{re.escape(js_words)}["`]', clown), code
