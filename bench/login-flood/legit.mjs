// The legitimate pupil, in a process of its own (as on another machine): the flood's driver, busy
// sending 1,500 requests, would otherwise delay this one's request and its timing. Opens its
// connection before the flood, logs in `count` times, prints one JSON line per login.
// node bench/login-flood/legit.mjs <port> <email> <password> <ip> <count> <firstMs> <everyMs>
import http from 'node:http';

const [port, email, password, ip, count, firstMs, everyMs] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const body = JSON.stringify({ email, password });

function login() {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: Number(port),
        path: '/api/auth/login',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-forwarded-for': ip },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started }));
      },
    );
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(body);
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// Warm: the connection is open and the account's path is known before the flood.
await login();
process.send?.({ ready: true });
await new Promise((r) => process.once('message', r));
const t0 = performance.now();
for (let i = 0; i < Number(count); i++) {
  await sleep(i === 0 ? Number(firstMs) : Number(everyMs));
  const at = performance.now() - t0;
  process.send?.({ at, ...(await login()) });
}
agent.destroy();
process.send?.({ done: true });
