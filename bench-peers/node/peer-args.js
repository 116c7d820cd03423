// The command line of every peer (PeerArgs.java), shared by the Node and Bun servers:
// PROG PORT [--host ADDR] [--deflate LEVEL] [--one-loop] [--tls DIR]
// (both run one event loop, so --one-loop changes nothing).
'use strict';

function parse(argv, prog) {
  const usage = `usage: ${prog} PORT [--host ADDR] [--deflate LEVEL] [--one-loop] [--tls DIR]`;
  const args = { port: Number(argv[0]), host: '127.0.0.1', level: -1, tls: null };
  if (!Number.isInteger(args.port)) throw new Error(usage);
  for (let i = 1; i < argv.length; i++) {
    switch (argv[i]) {
      case '--host': args.host = argv[++i]; break;
      case '--deflate': args.level = Number(argv[++i]); break;
      case '--one-loop': break; // one event loop already
      case '--tls': args.tls = argv[++i]; break;
      default: throw new Error(`unknown argument ${argv[i]}; ${usage}`);
    }
  }
  if (args.level !== -1 && !(Number.isInteger(args.level) && args.level >= 0 && args.level <= 9)) {
    throw new Error('--deflate takes a zlib level 0-9');
  }
  return args;
}

module.exports = { parse };
