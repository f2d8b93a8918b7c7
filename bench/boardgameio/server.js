// The boardgame.io server of the stand-in game, on loopback only, for bench/bench_server.py
// --beside boardgame.io:  node server.js PORT memory|flatfile [DIR]
// ("memory": boardgame.io's default in-memory store; "flatfile": its FlatFile store, which
// writes each move's state and log through node-persist into DIR).
'use strict';

const { Server, FlatFile } = require('boardgame.io/server');
const { ScoutStandIn } = require('./game');

const [port, store, dir] = process.argv.slice(2);
if (!port || !['memory', 'flatfile'].includes(store) || (store === 'flatfile' && !dir)) {
  console.error('usage: node server.js PORT memory|flatfile [DIR]');
  process.exit(2);
}
const db = store === 'flatfile' ? new FlatFile({ dir, logging: false, ttl: false }) : undefined;
const server = Server({ games: [ScoutStandIn], db, origins: ['http://127.0.0.1'] });
// Server.run listens on every interface; the socket.io layer's listen takes a host.
const listen = server.app.listen;
server.app.listen = (p, cb) => listen(Number(p), '127.0.0.1', cb);
server.run(Number(port), () => console.log(`ready ${port}`));
