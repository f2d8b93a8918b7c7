// Load generator of bench/bench_server.py --beside boardgame.io, for both sides, so that
// both servers are measured by the same client (one Node process): the same load as
// bench_server.py's own Python client: N two-player tables, a socket per person; the one to
// move waits a think time, then moves; a move's latency runs from sending it until both
// clients have the new state. Prints "counting" and "counted" when the counted time starts
// and ends (bench_server.py reads the server's CPU time then), and finally one JSON line of
// figures.
//
// --server boardgameio (the default): the stand-in, spoken to as boardgame.io 0.50's own
// client does over socket.io ('sync' to join a match, 'update' to move; the server answers
// with 'sync' and 'update' carrying the state as the player may see it; a version is its
// _stateID). --server bigtop: `bigtop serve`, spoken to as the web front end does: tables
// made by POST /api/tables, a WebSocket per seat (its token in the authorization header;
// permessage-deflate offered, as browsers do), each move {"type": "move", "version", "index":
// 0} (the first legal action, as bench_server.py's client plays), each answer a view.
//
//   node load.js --url http://127.0.0.1:PORT --tables 100 --seconds 15 [--think 1]
//                [--think-max S] [--warmup S] [--seed 12] [--server bigtop|boardgameio]
'use strict';

const { io } = require('socket.io-client');
const WebSocket = require('ws');
const { ScoutStandIn, firstMove } = require('./game');

function options(argv) {
  const o = { url: null, tables: 10, seconds: 15, think: 1, thinkMax: null, warmup: null,
              seed: 12, server: 'boardgameio' };
  const names = { '--url': 'url', '--tables': 'tables', '--seconds': 'seconds',
                  '--think': 'think', '--think-max': 'thinkMax', '--warmup': 'warmup',
                  '--seed': 'seed', '--server': 'server' };
  for (let i = 0; i < argv.length; i += 2) {
    const key = names[argv[i]];
    if (!key || i + 1 >= argv.length) throw new Error(`unknown or incomplete option ${argv[i]}`);
    o[key] = key === 'url' || key === 'server' ? argv[i + 1] : Number(argv[i + 1]);
  }
  if (!o.url) throw new Error('--url is required');
  if (!(o.server in SERVERS)) throw new Error(`--server must be one of ${Object.keys(SERVERS)}`);
  if (o.thinkMax === null) o.thinkMax = o.think;
  if (o.warmup === null) o.warmup = o.thinkMax;
  return o;
}

// A small seeded generator (mulberry32): think times drawn alike on every run.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The middle value (the mean of the two middle ones), as Python's statistics.median.
const median = (xs) => (xs[(xs.length - 1) >> 1] + xs[xs.length >> 1]) / 2;

const now = () => performance.now() / 1000; // seconds, monotonic

async function post(url, body) {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' },
                               body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
  return r.json();
}

const newTable = (id, secrets) => ({ id, secrets, seen: [-1, -1], sentAt: new Map(),
                                     latencies: [], served: 0, refused: 0, finished: false,
                                     moved: false });

// What each server's protocol takes: make a table (HTTP, not measured), connect a seat
// (`onState(client, {version, mine, over, refused})` for every state it is sent; `ready`
// once, with the first), and send a move at version v from the seat's latest state.
const SERVERS = {
  boardgameio: {
    async table(url) { // a match, made and joined through boardgame.io's lobby API
      const game = ScoutStandIn.name;
      const { matchID } = await post(`${url}/games/${game}/create`, { numPlayers: 2 });
      const credentials = [];
      for (const playerID of ['0', '1']) {
        const joined = await post(`${url}/games/${game}/${matchID}/join`,
                                  { playerID, playerName: `p${playerID}` });
        credentials.push(joined.playerCredentials);
      }
      return newTable(matchID, credentials);
    },
    connect(url, table, seat, client, onState, ready) {
      const playerID = String(seat);
      const socket = io(`${url}/${ScoutStandIn.name}`,
                        { transports: ['websocket'], forceNew: true, reconnection: false });
      client.socket = socket;
      const seen = (state) => {
        client.raw = state;
        onState(client, { version: state._stateID, mine: state.ctx.currentPlayer === playerID,
                          over: state.ctx.gameover !== undefined, refused: false });
      };
      socket.on('connect', () => socket.emit('sync', table.id, playerID, table.secrets[seat], 2));
      socket.once('sync', (matchID, { state }) => { seen(state); ready(); });
      socket.on('update', (matchID, state) => seen(state));
    },
    move(client, table, seat, v) {
      const { move, args } = firstMove(client.raw.G, String(seat));
      client.socket.emit('update',
        { type: 'MAKE_MOVE',
          payload: { type: move, args, playerID: String(seat), credentials: table.secrets[seat] } },
        v, table.id, String(seat));
    },
    close(client) { client.socket.close(); },
  },
  bigtop: {
    async table(url) {
      const made = await post(`${url}/api/tables`, { game: 'scout', players: 2, listed: false,
                                                     options: { rounds: 20 } });
      return newTable(made.table, made.seats.map((s) => s.token));
    },
    connect(url, table, seat, client, onState, ready) {
      const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/tables/${table.id}/ws`,
                                   { headers: { authorization: `Bearer ${table.secrets[seat]}` },
                                     perMessageDeflate: true, maxPayload: 1 << 22 });
      client.socket = socket;
      let first = true;
      socket.on('message', (data) => {
        const msg = JSON.parse(data);
        if (msg.type !== 'view') {
          onState(client, { refused: true });
        } else {
          const view = msg.view;
          onState(client, { version: view.version, mine: view.legal_actions.length > 0,
                            over: view.status !== 'playing', refused: false });
        }
        if (first) { first = false; ready(); }
      });
      socket.on('error', (e) => { console.error(`table ${table.id}: ${e.message}`); process.exit(1); });
    },
    move(client, table, seat, v) {
      client.socket.send(JSON.stringify({ type: 'move', version: v, index: 0 }));
    },
    close(client) { client.socket.close(); },
  },
};

async function main() {
  const o = options(process.argv.slice(2));
  const server = SERVERS[o.server];
  const random = generator(o.seed);
  const think = () => (o.thinkMax === o.think ? o.think : o.think + random() * (o.thinkMax -
                                                                               o.think));
  const tables = [];
  for (let i = 0; i < o.tables; i += 50) { // 50 at a time: making tables is not measured
    const batch = [];
    for (let j = i; j < Math.min(o.tables, i + 50); j++) batch.push(server.table(o.url));
    tables.push(...(await Promise.all(batch)));
  }
  const clock = { start: 0, countedFrom: 0, deadline: 0, cpu0: null, cpu1: null };
  let waiting = 2 * o.tables;
  const clients = [];
  let go;
  const started = new Promise((resolve) => { go = resolve; });
  const ready = () => { waiting -= 1; if (waiting === 0) go(); };

  // What a client does with each state it receives (as bench_server.py's client does).
  function see(client, state) {
    client.latest = state;
    if (!clock.start) return;
    const { table, seat } = client;
    if (state.refused) { // a refused move: nothing else would make this table move
      table.refused += 1;
      table.finished = true;
      return;
    }
    const v = state.version;
    table.seen[seat] = Math.max(table.seen[seat], v);
    const t = now();
    if (Math.min(...table.seen) >= v && table.sentAt.has(v - 1)) {
      const sent = table.sentAt.get(v - 1);
      table.sentAt.delete(v - 1);
      if (sent >= clock.countedFrom) table.latencies.push(t - sent);
      if (t >= clock.countedFrom && t <= clock.deadline) table.served += 1;
    }
    if (state.over) {
      table.finished = true;
      return;
    }
    if (!state.mine || table.sentAt.has(v) || client.thinking || table.finished) return;
    let pause = think();
    if (!table.moved) { // the table's first move: out of step with the other tables
      pause *= random();
      table.moved = true;
    }
    client.thinking = true;
    setTimeout(() => {
      client.thinking = false;
      if (now() >= clock.deadline || table.sentAt.has(v) || table.finished) return;
      table.sentAt.set(v, now());
      server.move(client, table, seat, v);
    }, Math.max(0, Math.min(pause, clock.deadline - now())) * 1000);
  }

  for (const table of tables) {
    for (const seat of [0, 1]) {
      const client = { table, seat, latest: null, thinking: false };
      clients.push(client);
      server.connect(o.url, table, seat, client, see, ready);
    }
  }

  await started;
  clock.start = now();
  clock.countedFrom = clock.start + o.warmup;
  clock.deadline = clock.countedFrom + o.seconds;
  setTimeout(() => { clock.cpu0 = process.cpuUsage(); console.log('counting'); },
             o.warmup * 1000);
  for (const client of clients) see(client, client.latest);
  await new Promise((resolve) => setTimeout(resolve, (o.warmup + o.seconds) * 1000));
  clock.cpu1 = process.cpuUsage(clock.cpu0);
  console.log('counted');
  const lat = tables.flatMap((t) => t.latencies).sort((a, b) => a - b);
  const served = tables.reduce((n, t) => n + t.served, 0);
  const ms = (x) => Math.round(10000 * x) / 10;
  const clientCpu = (clock.cpu1.user + clock.cpu1.system) / 1e6;
  console.log(JSON.stringify({
    tables: o.tables, seconds: o.seconds, moves: lat.length,
    moves_per_s: Math.round(10 * served / o.seconds) / 10,
    // moves sent more than a second before the end and never answered (a refused move gets
    // no answer in boardgame.io), and moves refused (an error message: bigtop)
    unanswered: tables.reduce((n, t) => n + [...t.sentAt.values()].filter(
      (s) => s < clock.deadline - 1).length, 0),
    refused: tables.reduce((n, t) => n + t.refused, 0),
    p50_ms: lat.length ? ms(median(lat)) : null,
    p99_ms: lat.length ? ms(lat[Math.min(lat.length - 1, Math.floor(0.99 * lat.length))])
      : null,
    client_cpu_ms_per_move: Math.round(1e6 * clientCpu / Math.max(1, served)) / 1000,
  }));
  for (const c of clients) server.close(c);
  process.exit(0);
}

main().catch((e) => { console.error(e); process.exit(1); });
