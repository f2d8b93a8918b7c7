// Load generator for the boardgame.io stand-in, speaking boardgame.io 0.50's socket.io
// protocol as its own client does ('sync' to join a match, 'update' to move; the server
// answers with 'sync' and 'update' carrying the state as the player may see it). The same
// load as bench/bench_server.py's for bigtop: N two-player tables, a socket per person; the
// one to move waits a think time, then moves; a move's latency runs from sending it until
// both clients have the new state (its _stateID). Prints "counting" and "counted" when the
// counted time starts and ends (bench_server.py reads the server's CPU time then), and
// finally one JSON line of figures.
//
//   node load.js --url http://127.0.0.1:PORT --tables 100 --seconds 15 [--think 1]
//                [--think-max S] [--warmup S] [--seed 12]
'use strict';

const { io } = require('socket.io-client');
const { ScoutStandIn, firstMove } = require('./game');

function options(argv) {
  const o = { url: null, tables: 10, seconds: 15, think: 1, thinkMax: null, warmup: null,
              seed: 12 };
  const names = { '--url': 'url', '--tables': 'tables', '--seconds': 'seconds',
                  '--think': 'think', '--think-max': 'thinkMax', '--warmup': 'warmup',
                  '--seed': 'seed' };
  for (let i = 0; i < argv.length; i += 2) {
    const key = names[argv[i]];
    if (!key || i + 1 >= argv.length) throw new Error(`unknown or incomplete option ${argv[i]}`);
    o[key] = key === 'url' ? argv[i + 1] : Number(argv[i + 1]);
  }
  if (!o.url) throw new Error('--url is required');
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

// One match, created and joined through boardgame.io's lobby API.
async function newTable(url) {
  const game = ScoutStandIn.name;
  const { matchID } = await post(`${url}/games/${game}/create`, { numPlayers: 2 });
  const seats = [];
  for (const playerID of ['0', '1']) {
    const joined = await post(`${url}/games/${game}/${matchID}/join`,
                              { playerID, playerName: `p${playerID}` });
    seats.push(joined.playerCredentials);
  }
  return { matchID, credentials: seats, seen: [-1, -1], sentAt: new Map(), latencies: [],
           served: 0, finished: false, moved: false };
}

async function main() {
  const o = options(process.argv.slice(2));
  const random = generator(o.seed);
  const think = () => (o.thinkMax === o.think ? o.think : o.think + random() * (o.thinkMax -
                                                                               o.think));
  const tables = [];
  for (let i = 0; i < o.tables; i += 50) { // 50 at a time: the lobby's HTTP is not measured
    const batch = [];
    for (let j = i; j < Math.min(o.tables, i + 50); j++) batch.push(newTable(o.url));
    tables.push(...(await Promise.all(batch)));
  }
  const clock = { start: 0, countedFrom: 0, deadline: 0, cpu0: null, cpu1: null };
  let waiting = 2 * o.tables;
  const clients = [];
  let go;
  const started = new Promise((resolve) => { go = resolve; });

  for (const table of tables) {
    for (const seat of [0, 1]) {
      const playerID = String(seat);
      const socket = io(`${o.url}/${ScoutStandIn.name}`,
                        { transports: ['websocket'], forceNew: true, reconnection: false });
      const client = { socket, latest: null, thinking: false };
      clients.push(client);
      const onState = (state) => {
        client.latest = state;
        if (clock.start) see(table, seat, client, state);
      };
      socket.on('connect', () => socket.emit('sync', table.matchID, playerID,
                                             table.credentials[seat], 2));
      socket.once('sync', (matchID, { state }) => {
        onState(state);
        waiting -= 1;
        if (waiting === 0) go();
      });
      socket.on('update', (matchID, state) => onState(state));
    }
  }

  // What a client does with each state it receives (as bench_server.py's client does).
  function see(table, seat, client, state) {
    const v = state._stateID;
    table.seen[seat] = Math.max(table.seen[seat], v);
    const t = now();
    if (Math.min(...table.seen) >= v && table.sentAt.has(v - 1)) {
      const sent = table.sentAt.get(v - 1);
      table.sentAt.delete(v - 1);
      if (sent >= clock.countedFrom) table.latencies.push(t - sent);
      if (t >= clock.countedFrom && t <= clock.deadline) table.served += 1;
    }
    if (state.ctx.gameover !== undefined) {
      table.finished = true;
      return;
    }
    if (state.ctx.currentPlayer !== String(seat) || table.sentAt.has(v) || client.thinking ||
        table.finished) return;
    let pause = think();
    if (!table.moved) { // the table's first move: out of step with the other tables
      pause *= random();
      table.moved = true;
    }
    client.thinking = true;
    setTimeout(() => {
      client.thinking = false;
      if (now() >= clock.deadline || table.sentAt.has(v)) return;
      const { move, args } = firstMove(state.G, String(seat));
      table.sentAt.set(v, now());
      client.socket.emit('update',
        { type: 'MAKE_MOVE',
          payload: { type: move, args, playerID: String(seat),
                     credentials: table.credentials[seat] } },
        v, table.matchID, String(seat));
    }, Math.max(0, Math.min(pause, clock.deadline - now())) * 1000);
  }

  await started;
  clock.start = now();
  clock.countedFrom = clock.start + o.warmup;
  clock.deadline = clock.countedFrom + o.seconds;
  setTimeout(() => { clock.cpu0 = process.cpuUsage(); console.log('counting'); },
             o.warmup * 1000);
  for (const [i, client] of clients.entries()) {
    see(tables[Math.floor(i / 2)], i % 2, client, client.latest);
  }
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
    // no answer in boardgame.io)
    unanswered: tables.reduce((n, t) => n + [...t.sentAt.values()].filter(
      (s) => s < clock.deadline - 1).length, 0),
    p50_ms: lat.length ? ms(median(lat)) : null,
    p99_ms: lat.length ? ms(lat[Math.min(lat.length - 1, Math.floor(0.99 * lat.length))])
      : null,
    client_cpu_ms_per_move: Math.round(1e6 * clientCpu / Math.max(1, served)) / 1000,
  }));
  for (const c of clients) c.socket.close();
  process.exit(0);
}

main().catch((e) => { console.error(e); process.exit(1); });
