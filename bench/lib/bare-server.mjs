// Baseline for every HTTP benchmark: the cheapest possible Node answer, a fixed JSON body.
import http from 'node:http';
const body = JSON.stringify({ code: 200, result: 'ok' });
http
  .createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  })
  .listen(Number(process.argv[2]), '127.0.0.1');
