"""Play a table on a running `bigtop serve` from Python: create a table with one bot, then
follow it over the WebSocket and play the first listed action whenever it is our turn.

    .venv/bin/bigtop serve --port 8000 &
    .venv/bin/python examples/server_client.py http://127.0.0.1:8000
"""

from __future__ import annotations

import asyncio
import json
import sys

import httpx
import websockets


async def play(base: str) -> dict[str, object]:
    async with httpx.AsyncClient(base_url=base) as api:
        made = (await api.post("/api/tables", json={
            "game": "scout", "players": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]})).json()
    table, token = made["table"], made["seats"][0]["token"]
    url = base.replace("http", "ws", 1) + f"/api/tables/{table}/ws"
    # The token in a header, never in the URL (the server refuses ?token=).
    headers = {"authorization": f"Bearer {token}"}
    async with websockets.connect(url, additional_headers=headers) as ws:
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] != "view":
                continue  # an error (e.g. stale version): the next view follows
            view = msg["view"]
            for line in view["log"]:
                print(f"{line['version']:>4}  {line['text']}")
            if view["status"] != "playing":
                return dict(view["result"])
            if view["legal_actions"]:
                await ws.send(json.dumps({"type": "move", "version": view["version"],
                                          "index": 0}))


if __name__ == "__main__":
    print(asyncio.run(play(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")))
