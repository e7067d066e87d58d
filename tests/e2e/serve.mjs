// A tiny static file server for the built demo page (dist/).
//
//   node tests/e2e/serve.mjs [DIR]      serves DIR (default dist/) on 127.0.0.1:$PORT
//                                       (default 8080; a free port if that one is taken)
//
// Also imported by tests/e2e/demo.mjs: `serve(root, port)` resolves to
// { server, url } once it listens.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

function handler(root) {
  const base = path.resolve(root);
  return (req, res) => {
    let rel;
    try {
      rel = decodeURIComponent((req.url || '/').split('?')[0].split('#')[0]);
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    let file = path.resolve(base, '.' + path.posix.normalize('/' + rel));
    // Never serve anything outside the root.
    if (file !== base && !file.startsWith(base + path.sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    if (rel.endsWith('/')) file = path.join(file, 'index.html');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    fs.stat(file, (err, st) => {
      if (!err && st.isDirectory()) {
        res.writeHead(301, { location: (req.url || '/').split('?')[0] + '/' }).end();
        return;
      }
      if (err || !st.isFile()) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
        return;
      }
      res.writeHead(200, {
        'content-type': TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream',
        'content-length': st.size,
        'cache-control': 'no-cache',
      });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      fs.createReadStream(file).pipe(res);
    });
  };
}

function listen(server, port) {
  return new Promise((resolve, reject) => {
    const onError = (e) => {
      server.off('listening', onListening);
      reject(e);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, '127.0.0.1');
  });
}

/** Serves `root` on 127.0.0.1:`port` (0: any free port; a taken port falls back to a free one). */
export async function serve(root, port = 0) {
  const server = http.createServer(handler(root));
  try {
    await listen(server, port);
  } catch (e) {
    if (e.code !== 'EADDRINUSE' || port === 0) throw e;
    process.stderr.write(`citekit demo: port ${port} is in use, using a free port\n`);
    await listen(server, 0);
  }
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = process.argv[2] || path.join(here, '..', '..', 'dist');
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    process.stderr.write(`citekit demo: ${root}/index.html is missing: build the demo first (scripts/demo.sh --build-only)\n`);
    process.exit(1);
  }
  const raw = process.env.PORT;
  const port = raw === undefined || raw === '' ? 8080 : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`citekit demo: PORT=${raw} is not a port number\n`);
    process.exit(1);
  }
  const { url } = await serve(root, port);
  console.log(`citekit demo: ${url}`);
  const stop = () => process.exit(0);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
