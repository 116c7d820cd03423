// The Node.js reference peer: an HTTP(S) server answering GET / with "hello", and the ws library's
// WebSocketServer on /echo sending every message back as it came (text or binary).
// Usage: node server.js PORT [--host ADDR] [--deflate LEVEL] [--one-loop] [--tls DIR]
// (the arguments of every peer, see PeerArgs.java; Node runs one event loop either way).
'use strict';
const fs = require('fs');
const http = require('http');
const https = require('https');
const path = require('path');
const { WebSocketServer } = require('ws');

const { parse } = require('./peer-args');

const args = parse(process.argv.slice(2), 'node server.js');
const hello = (req, res) => {
  if (req.url === '/') {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 5 });
    res.end('hello');
  } else {
    res.writeHead(404, { 'content-length': 0 });
    res.end();
  }
};
// noDelay is Node's default for HTTP servers since v16; written out as the suite's contract.
const server = args.tls
  ? https.createServer({
    key: fs.readFileSync(path.join(args.tls, 'key.pem')),
    cert: fs.readFileSync(path.join(args.tls, 'cert.pem')),
    noDelay: true,
  }, hello)
  : http.createServer({ noDelay: true }, hello);
const wss = new WebSocketServer({
  server,
  path: '/echo',
  // Context takeover kept (ws's default), every message compressed at the suite's level: the
  // threshold only applies without context takeover.
  perMessageDeflate: args.level >= 0 ? { zlibDeflateOptions: { level: args.level } } : false,
  maxPayload: 16 * 1024 * 1024,
});
wss.on('connection', (ws) => {
  ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
  ws.on('error', () => ws.terminate());
});
server.listen({ port: args.port, host: args.host, backlog: 4096 }, () => {
  let detail = `node ${process.version} ws ${require('ws/package.json').version}, one event loop`;
  if (args.level >= 0) detail += `; deflate level ${args.level}`;
  if (args.tls) detail += '; wss';
  console.log(`READY ${args.port} ${detail}`);
});
