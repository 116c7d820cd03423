// The Node.js reference peer: an HTTP server answering GET / with "hello", and the ws library's
// WebSocketServer on /echo sending every message back as it came (text or binary).
// Usage: node server.js PORT [--deflate]
'use strict';
const http = require('http');
const { WebSocketServer } = require('ws');

const port = Number(process.argv[2]);
const deflate = process.argv[3] === '--deflate';
if (!Number.isInteger(port) || (process.argv[3] !== undefined && !deflate)) {
  console.error('usage: node server.js PORT [--deflate]');
  process.exit(2);
}

const server = http.createServer((req, res) => {
  if (req.url === '/') {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 5 });
    res.end('hello');
  } else {
    res.writeHead(404, { 'content-length': 0 });
    res.end();
  }
});
const wss = new WebSocketServer({
  server,
  path: '/echo',
  perMessageDeflate: deflate,
  maxPayload: 16 * 1024 * 1024,
});
wss.on('connection', (ws) => {
  ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
  ws.on('error', () => ws.terminate());
});
server.listen({ port, host: '127.0.0.1', backlog: 4096 }, () => {
  console.log(`READY ${port} node ${process.version} ws ${require('ws/package.json').version}`);
});
