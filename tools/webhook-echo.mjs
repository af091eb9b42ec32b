#!/usr/bin/env node
// Prints every webhook notification it receives: the receiving end of the quick-start config.
// Usage: node tools/webhook-echo.mjs [port]   (default 5001, loopback only)
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 5001);
createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    let shown = body;
    try {
      shown = JSON.stringify(JSON.parse(body), null, 2);
    } catch {
      // not JSON: print as received
    }
    console.log(`${new Date().toISOString()} ${req.method} ${req.url}\n${shown}\n`);
    res.writeHead(200).end();
  });
}).listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}/`));
