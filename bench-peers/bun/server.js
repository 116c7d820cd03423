// The uWebSockets reference peer: Bun's HTTP(S) server (Bun.serve, whose WebSocket server is
// uWebSockets) answering GET / with "hello" and upgrading /echo to a WebSocket that sends every
// message back as it came (text or binary).
// Usage: bun server.js PORT [--host ADDR] [--deflate LEVEL] [--one-loop] [--tls DIR]
// (the arguments of every peer, see PeerArgs.java; Bun serves on one thread either way).
'use strict';

const { parse } = require('../node/peer-args');

const args = parse(process.argv.slice(2), 'bun server.js');
const deflate = args.level >= 0;
const server = Bun.serve({
  hostname: args.host,
  port: args.port,
  tls: args.tls ? { key: Bun.file(`${args.tls}/key.pem`), cert: Bun.file(`${args.tls}/cert.pem`) } : undefined,
  fetch(req, srv) {
    const path = new URL(req.url).pathname;
    if (path === '/echo') {
      if (srv.upgrade(req)) return undefined;
      return new Response('expected a WebSocket upgrade', { status: 400 });
    }
    if (path === '/') return new Response('hello', { headers: { 'content-type': 'text/plain' } });
    return new Response(null, { status: 404 });
  },
  websocket: {
    // The suite's limit; uWebSockets' own default is 16 MiB too (Bun's documentation).
    maxPayloadLength: 16 * 1024 * 1024,
    // No idle timeout (Bun's default closes after 120 s), as the other peers keep idle connections.
    idleTimeout: 0,
    // uWebSockets never stops reading; past this many queued bytes Bun would drop what is sent
    // (its default) or, as here, close the connection: a dropped echo must fail the run, not hide.
    backpressureLimit: 64 * 1024 * 1024,
    closeOnBackpressureLimit: true,
    // uWebSockets compresses with its own zlib level (not settable from Bun) and a dedicated
    // compressor per connection, which keeps its context as the other peers do.
    perMessageDeflate: deflate ? { compress: 'dedicated', decompress: 'dedicated' } : false,
    message(ws, message) {
      ws.send(message, deflate);
    },
  },
});
let detail = `bun ${Bun.version} (uWebSockets), one thread`;
if (deflate) detail += '; deflate with uWebSockets\' own level, dedicated compressor';
if (args.tls) detail += '; wss (BoringSSL)';
console.log(`READY ${server.port} ${detail}`);
