// The Socket.IO anchor of ./bench resilience: the same scenario as dev.wsjava.bench.Resilience
// against three Socket.IO 4.8 servers sharing rooms through @socket.io/redis-streams-adapter,
// with connection-state recovery on (--recovery on) or off, behind HAProxy with the configuration
// docs/DEPLOYMENT.md shows, printed by the Java harness (dev.wsjava.cli.balancer.Haproxy, --java
// and --cp say how to run it) without the PROXY protocol header, which Socket.IO does not read.
// N clients (socket.io-client, WebSocket transport), one room per 100 clients, a publisher at a
// steady rate; a node killed (SIGKILL), a rolling restart (SIGTERM, started again), HAProxy
// restarted. Prints one table row per scenario. Every wait is bounded.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');

const args = Object.fromEntries(process.argv.slice(2).reduce((a, v, i, all) =>
  (i % 2 === 0 ? a.concat([[v.replace(/^--/, ''), all[i + 1]]]) : a), []));

const PER_TOPIC = 100;
const threads = require('worker_threads');
if (!threads.isMainThread) { publisher(); } else if (args.server) { server(); } else { main().catch(e => { console.error(e); process.exit(1); }); }

// ---- The publisher, on a worker thread of its own ------------------------------------------
// The N clients keep the driver's event loop busy through a reconnect storm; a publisher on that
// loop stopped publishing while they reconnected (a 50 ms step went to 500 ms), so little was
// published while clients were away and little could be lost. Here it has its own loop and keeps
// to the schedule: each tick sends every publication due by then (as Resilience.java's publisher
// does), round robin over the rooms, numbering them in the shared nextSeq (unsent[0] counts those
// it could not send while disconnected).
function publisher() {
  const { io } = require('socket.io-client');
  const { url, rate, topics, nextSeq, unsent } = threads.workerData;
  const seq = new Int32Array(nextSeq), lost = new Int32Array(unsent);
  const pub = io(url, { transports: ['websocket'], reconnectionDelay: 100, reconnectionDelayMax: 1000 });
  const start = process.hrtime.bigint();
  let done = 0, t = 0;
  setInterval(() => {
    const due = Number((process.hrtime.bigint() - start) * BigInt(rate) / 1000000000n);
    for (; done < due; done++) {
      const n = Atomics.add(seq, t, 1);
      if (pub.connected) pub.emit('pub', 't' + t, n, Number(process.hrtime.bigint())); else Atomics.add(lost, 0, 1);
      t = (t + 1) % topics;
    }
  }, 5);
}

// ---- One Socket.IO node -------------------------------------------------------------------
function server() {
  const { createClient } = require('redis');
  const { Server } = require('socket.io');
  const { createAdapter } = require('@socket.io/redis-streams-adapter');
  const redis = createClient({ url: args.redis });
  redis.connect().then(() => {
    const io = new Server({
      adapter: createAdapter(redis),
      connectionStateRecovery: args.recovery === 'on'
        ? { maxDisconnectionDuration: 120000, skipMiddlewares: true } : undefined,
    });
    io.on('connection', socket => {
      if (!socket.recovered) socket.join(socket.handshake.query.sub);
      socket.on('pub', (room, seq, sent) => io.to(room).emit('m', seq, sent));
    });
    io.listen(Number(args.server));
    // Closes every socket at once; the HTTP server may wait on the balancer's connections.
    process.on('SIGTERM', () => { io.close(); setTimeout(() => process.exit(0), 1000); });
  });
}

// ---- The driver -------------------------------------------------------------------------
function freePort() {
  return new Promise(res => { const s = net.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); }); });
}
function awaitPort(port, deadline = Date.now() + 180000) { // a process on a busy machine
  return new Promise((res, rej) => {
    const tryOnce = () => {
      const c = net.connect(port, '127.0.0.1', () => { c.destroy(); res(); });
      c.on('error', () => { c.destroy(); Date.now() > deadline ? rej(new Error('no listener on ' + port)) : setTimeout(tryOnce, 50); });
    };
    tryOnce();
  });
}
const sleep = ms => new Promise(r => setTimeout(r, ms));
function ticks(pid) {
  try { const s = fs.readFileSync('/proc/' + pid + '/stat', 'utf8'); const f = s.slice(s.lastIndexOf(')') + 2).split(' '); return Number(f[11]) + Number(f[12]); } catch { return 0; }
}

async function main() {
  const loadAtStart = os.loadavg()[0]; // what else ran on the machine, for the table's title
  const { io } = require('socket.io-client');
  const clients = Number(args.clients || 1000), rate = Number(args.rate || 200), after = Number(args.after || 5);
  const work = args.work || 'run'; fs.mkdirSync(work, { recursive: true });
  const topics = Math.ceil(clients / PER_TOPIC);
  const procs = [];
  const spawnLogged = (cmd, a, name) => {
    const out = fs.openSync(path.join(work, name + '.log'), 'a');
    const p = spawn(cmd, a, { stdio: ['ignore', out, out] }); procs.push(p); return p;
  };
  const redisPort = await freePort();
  spawnLogged('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], 'redis');
  await awaitPort(redisPort);
  const nodePorts = [await freePort(), await freePort(), await freePort()];
  const nodes = [], cpuDone = [0, 0, 0];
  const startNode = async i => {
    nodes[i] = spawnLogged(process.execPath, [__filename, '--server', String(nodePorts[i]), '--redis',
      'redis://127.0.0.1:' + redisPort, '--recovery', args.recovery || 'on'], 'node' + i);
    await awaitPort(nodePorts[i]);
  };
  for (let i = 0; i < 3; i++) await startNode(i);
  const lbPort = await freePort(), pinnedPort = await freePort();
  const cfg = path.join(work, 'haproxy.cfg');
  fs.writeFileSync(cfg, require('child_process').execFileSync(args.java || 'java',
    ['-cp', args.cp, 'dev.wsjava.cli.balancer.Haproxy', '127.0.0.1', String(lbPort),
      String(clients + 10), 'plain', 'pinned=' + pinnedPort, ...nodePorts.map(String)]));
  let haproxy;
  const startHaproxy = async () => { haproxy = spawnLogged('/usr/sbin/haproxy', ['-db', '-f', cfg], 'haproxy'); await awaitPort(lbPort); };
  await startHaproxy();
  console.error(`[socket.io] recovery ${args.recovery}, ${clients} clients in ${topics} rooms, ${rate} msg/s`);

  const url = 'http://127.0.0.1:' + lbPort;
  const opts = { transports: ['websocket'], reconnectionDelay: 250, reconnectionDelayMax: 5000 };
  const anyone = Array.from({ length: topics }, () => new Set());
  const nextSeq = new Int32Array(new SharedArrayBuffer(4 * topics)); // the publisher's worker counts
  const all = [];
  let attempts = 0, phase = 0;
  const hist = { during: [], after: [] };
  for (let i = 0; i < clients; i++) {
    const c = { topic: Math.floor(i / PER_TOPIC), got: new Set(), dup: 0, down: false,
      droppedAt: 0, attemptAt: 0, openAt: 0, flowingAt: 0 };
    const s = io(url, { ...opts, query: { sub: 't' + c.topic } });
    s.on('m', (seq, sent) => {
      const now = Number(process.hrtime.bigint());
      if (c.openAt && !c.flowingAt) { c.flowingAt = now; c.firstSent = sent; }
      if (c.got.has(seq)) { c.dup++; return; }
      c.got.add(seq); anyone[c.topic].add(seq);
      if (phase === 1) hist.during.push(now - sent); else if (phase === 2) hist.after.push(now - sent);
    });
    const nanos = () => Number(process.hrtime.bigint());
    s.on('disconnect', () => { c.down = true; c.droppedAt = nanos(); c.openAt = 0; c.flowingAt = 0; });
    s.on('connect', () => { if (c.droppedAt) c.openAt = nanos(); c.down = false; });
    s.io.on('reconnect_attempt', () => { attempts++; c.attemptAt = nanos(); });
    c.socket = s; all.push(c);
    if (i % 100 === 99) await sleep(20);
  }
  const deadline = Date.now() + 60000;
  while (all.some(c => !c.socket.connected) && Date.now() < deadline) await sleep(50);
  console.error(`[socket.io] ${all.filter(c => c.socket.connected).length} clients connected`);
  // The publisher comes through HAProxy's listener pinned to node 2, never the killed one, as in
  // Resilience.java: where it sits does not depend on leastconn's tie-breaking.
  const unsentShared = new Int32Array(new SharedArrayBuffer(4));
  const pubWorker = new threads.Worker(__filename, { workerData: { url: 'http://127.0.0.1:' + pinnedPort,
    rate, topics, nextSeq: nextSeq.buffer, unsent: unsentShared.buffer } });
  pubWorker.on('error', e => { console.error('[socket.io] publisher: ' + e); });
  const unsentNow = () => Atomics.load(unsentShared, 0);
  const everyone = Date.now() + 60000;
  while (all.some(c => c.got.size === 0) && Date.now() < everyone) await sleep(50);

  const p99 = a => { if (!a.length) return '-'; a.sort((x, y) => x - y); return (a[Math.min(a.length - 1, Math.ceil(a.length * 0.99) - 1)] / 1e6).toFixed(1); };
  const nobodyDown = async t0 => {
    await sleep(300);
    while (Date.now() - t0 < 60000) { if (!all.some(c => c.down)) return Date.now() - t0; await sleep(5); }
    return -1;
  };
  const cpu = () => nodes.map((p, i) => cpuDone[i] + (p.exitCode === null ? ticks(p.pid) : 0));
  // Resolves once the process is gone (its port free), SIGKILL after 30 s.
  const stop = (i, signal) => new Promise(res => {
    const p = nodes[i];
    cpuDone[i] += ticks(p.pid);
    if (p.exitCode !== null || p.signalCode !== null) { res(); return; }
    p.once('exit', res); p.kill(signal);
    setTimeout(() => p.kill('SIGKILL'), 30000);
  });
  const lostNow = (from, to) => {
    let lost = 0;
    for (const c of all) for (let s = from[c.topic]; s < to[c.topic]; s++) if (anyone[c.topic].has(s) && !c.got.has(s)) lost++;
    return lost;
  };
  // The time from t0 (ns) to the last first message of the clients that dropped after it.
  const flowing = async t0 => {
    const end = Date.now() + 60000;
    while (Date.now() < end) {
      const dropped = all.filter(c => c.droppedAt >= t0);
      if (dropped.every(c => c.flowingAt)) return Math.max(0, ...dropped.map(c => c.flowingAt - t0)) / 1e6;
      await sleep(5);
    }
    return -1;
  };
  // Where the time went per client that dropped, as Resilience.java prints it (p50/p99/max ms).
  const phases = t0 => {
    const rows = all.filter(c => c.droppedAt >= t0 && c.openAt);
    const cols = [['drop noticed', c => c.droppedAt - t0], ['wait', c => c.attemptAt - c.droppedAt],
      ['connect+handshake', c => c.openAt - c.attemptAt], ['open to first message', c => c.flowingAt ? c.flowingAt - c.openAt : -1],
      ['open (since the event)', c => c.openAt - t0]];
    return rows.length + ' clients; ' + cols.map(([n, f]) => {
      const v = rows.map(f).filter(x => x >= 0).sort((x, y) => x - y);
      if (!v.length) return n + ' -';
      const ms = x => Math.floor(x / 1e6);
      return `${n} ${ms(v[v.length >> 1])}/${ms(v[Math.min(v.length - 1, Math.ceil(v.length * 0.99) - 1)])}/${ms(v[v.length - 1])}`;
    }).join(', ');
  };
  // The publications the clients that dropped could not have had without recovery: those of their
  // topic from the event to their open again; what "lost" without recovery should come close to.
  const away = t0 => {
    const rows = all.filter(c => c.droppedAt >= t0 && c.openAt);
    const seconds = rows.reduce((n, c) => n + (c.openAt - t0) / 1e9, 0);
    const early = rows.filter(c => c.flowingAt).map(c => c.openAt - c.firstSent).sort((x, y) => x - y);
    const ms = x => (x / 1e6).toFixed(0);
    return `${rows.length} clients away ${seconds.toFixed(0)} s in all (event to open), about ${(seconds * rate / topics).toFixed(0)} publications of their topics at ${(rate / topics).toFixed(2)}/s each`
      + (early.length ? `; their first message after open was published ${ms(early[early.length >> 1])}/${ms(early[early.length - 1])} ms (p50/max) before the open` : '');
  };
  // The kernel's view, as ListenQueues.java records it: TCP counters (system-wide) and the
  // deepest accept queue of each listener (ss: Recv-Q of a listening socket, Send-Q its backlog).
  const COUNTERS = ['ListenOverflows', 'ListenDrops', 'RetransSegs', 'SyncookiesSent', 'TCPReqQFullDrop', 'TCPSynRetrans', 'TCPTimeouts', 'TCPLossProbes', 'TCPBacklogDrop'];
  const counters = () => {
    const v = COUNTERS.map(() => -1);
    for (const [file, prefix] of [['/proc/net/netstat', 'TcpExt:'], ['/proc/net/snmp', 'Tcp:']]) {
      let lines; try { lines = fs.readFileSync(file, 'ascii').split('\n'); } catch { continue; }
      for (let i = 0; i + 1 < lines.length; i++) {
        if (!lines[i].startsWith(prefix) || !lines[i + 1].startsWith(prefix)) continue;
        const names = lines[i].split(' '), values = lines[i + 1].split(' ');
        names.forEach((n, k) => { const at = COUNTERS.indexOf(n); if (k > 0 && at >= 0) v[at] = Number(values[k]); });
      }
    }
    return v;
  };
  const delta = (a, b) => COUNTERS.map((n, i) => n + ' ' + (a[i] < 0 || b[i] < 0 ? '?' : '+' + (b[i] - a[i]))).join(', ');
  const sampleQueues = () => {
    const listeners = { HAProxy: lbPort, node0: nodePorts[0], node1: nodePorts[1], node2: nodePorts[2] };
    const deepest = Object.fromEntries(Object.keys(listeners).map(n => [n, [0, -1]]));
    let stopped = false, running = Promise.resolve();
    const once = () => new Promise(res => require('child_process').execFile('ss', ['-Hlnt'], (err, out) => {
      if (!err) for (const line of out.split('\n')) {
        const f = line.trim().split(/\s+/); if (f.length < 4) continue;
        const port = Number(f[3].slice(f[3].lastIndexOf(':') + 1));
        for (const [n, p] of Object.entries(listeners)) if (p === port) { deepest[n][0] = Math.max(deepest[n][0], Number(f[1])); deepest[n][1] = Number(f[2]); }
      }
      res();
    }));
    const loop = async () => { while (!stopped) { await once(); await sleep(20); } };
    running = loop();
    return async () => { stopped = true; await running; return Object.entries(deepest).map(([n, [q, b]]) => `${n} ${q}/${b < 0 ? '?' : b}`).join(', '); };
  };
  const phaseLines = [];
  const rows = [];
  const scenario = async (name, event, then) => {
    console.error('[socket.io] ' + name);
    const from = Array.from(nextSeq, (_, i) => Atomics.load(nextSeq, i));
    all.forEach(c => { c.dup = 0; });
    hist.during = []; hist.after = [];
    const attemptsBefore = attempts, cpuBefore = cpu(), wall0 = Date.now();
    const unsentBefore = unsentNow(), kernelBefore = counters();
    await sleep(1000);
    const dropped = new Set();
    const watch = setInterval(() => all.forEach(c => { if (c.down) dropped.add(c); }), 5);
    phase = 1;
    const stopSampling = sampleQueues();
    const stormTicks = () => { const n = cpu(); return [ticks(haproxy.pid), ticks(process.pid), n[0], n[1], n[2], ticks(procs[0].pid)]; };
    const stormBefore = stormTicks();
    const t0 = Date.now();
    const t0n = Number(process.hrtime.bigint());
    await event();
    // Some client noticed the event first (up to 10 s): on a loaded machine drops come late.
    const dropEnd = Date.now() + 10000; // after the event's own time
    while (!all.some(c => c.down || c.droppedAt >= t0n) && Date.now() < dropEnd) await sleep(5);
    const recovered = all.some(c => c.down || c.droppedAt >= t0n) ? await nobodyDown(t0) : -1;
    const stormAfter = stormTicks(), stormSeconds = (Date.now() - t0) / 1000;
    const stormCpu = ['HAProxy', 'clients', 'node0', 'node1', 'node2', 'engine'].map((n, i) =>
      n + ' ' + ((stormAfter[i] >= stormBefore[i] ? stormAfter[i] - stormBefore[i] : stormAfter[i]) / stormSeconds).toFixed(0)).join(', ');
    const deepest = await stopSampling();
    const receiving = recovered < 0 ? -1 : Math.round(await flowing(t0n));
    phaseLines.push(name + ': ' + phases(t0n));
    phaseLines.push(name + ': ' + away(t0n) + '; publisher could not send ' + (unsentNow() - unsentBefore));
    phase = 2;
    await sleep(after * 1000);
    clearInterval(watch);
    phase = 0;
    const to = Array.from(nextSeq, (_, i) => Atomics.load(nextSeq, i)), cpuAfter = cpu(), wall = (Date.now() - wall0) / 1000;
    const settle = Date.now() + 15000;
    let lost;
    while ((lost = lostNow(from, to)) > 0 && Date.now() < settle) await sleep(100);
    const dup = all.reduce((n, c) => n + c.dup, 0);
    phaseLines.push(name + ': kernel ' + delta(kernelBefore, counters()) + '; deepest accept queue/backlog ' + deepest);
    phaseLines.push(name + ': CPU from the event until nobody was down (% of one core) ' + stormCpu);
    const cpuText = cpuAfter.map((v, i) => (100 * (v - cpuBefore[i]) / 100 / wall).toFixed(0)).join(' / ');
    await then();
    await nobodyDown(Date.now());
    rows.push(`| ${name} | ${dropped.size} | ${recovered < 0 ? 'not within 60 s' : recovered} | ${receiving < 0 ? 'not within 60 s' : receiving} | ${lost} | ${dup} | - | ${attempts - attemptsBefore} | ${p99(hist.during)} | ${p99(hist.after)} | ${cpuText} |`);
  };
  const only = (args.scenarios || 'kill,rolling,balancer').split(',');
  const rssMegabytes = pid => { try { return Math.floor(Number(/VmRSS:\s*(\d+)/.exec(fs.readFileSync('/proc/' + pid + '/status', 'ascii'))[1]) / 1024); } catch { return -1; } };
  if (only.includes('kill')) await scenario('node killed', async () => {
    const rss = rssMegabytes(nodes[0].pid), k = Date.now(); // a process's memory goes before its sockets
    await stop(0, 'SIGKILL');
    console.error(`[socket.io] node 0 gone ${Date.now() - k} ms after SIGKILL (RSS ${rss} MB)`);
  }, async () => { await startNode(0); });
  if (only.includes('rolling')) await scenario('rolling restart', async () => {
    for (let i = 0; i < 3; i++) { await stop(i, 'SIGTERM'); await nobodyDown(Date.now()); await startNode(i); }
  }, async () => {});
  if (only.includes('balancer')) await scenario('balancer restarted', async () => {
    await new Promise(res => { haproxy.once('exit', res); haproxy.kill('SIGKILL'); });
    await startHaproxy();
  }, async () => {});
  await pubWorker.terminate();
  console.log();
  console.log(`Socket.IO 4.8, redis-streams-adapter, connection-state recovery ${args.recovery}: ${clients} clients, ${topics} rooms, ${rate} msg/s (load average ${loadAtStart.toFixed(1)} at the start)`);
  console.log('| scenario | clients dropped | all reconnected after (ms) | all receiving again after (ms) | lost | duplicated | gap signals | reconnect attempts | p99 during (ms) | p99 after (ms) | CPU per node (%) |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  rows.forEach(r => console.log(r));
  console.log();
  console.log('Phases per client that dropped (ms, p50/p99/max):');
  phaseLines.forEach(l => console.log('- ' + l));
  all.forEach(c => c.socket.close());
  procs.forEach(p => { try { p.kill('SIGKILL'); } catch {} });
  process.exit(0);
}
