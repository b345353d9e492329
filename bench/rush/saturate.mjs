// Closed-loop save driver for the saturated phase (bench/rush): one keep-alive socket per client,
// requests written as raw HTTP/1.1 and answers parsed by hand, so that the load generator costs
// about what autocannon or pgbench cost per operation (undici's pool cost ~0.09 ms of CPU per save,
// a third of what the server spends). Run by run.ts in its own process:
//   node bench/rush/saturate.mjs <config.json>   → one JSON line on stdout
// config: { port, seconds, seq0, exerciseIds: string[], tokens: string[][] } (one client per list of tokens:
// a client's saves go to its pupils in turn, each pupil under the per-pupil save limit, decision 39).
import { readFileSync } from 'node:fs';
import net from 'node:net';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { port, seconds, seq0, exerciseIds, tokens } = config;
const started = performance.now();
const until = started + seconds * 1000;

/** Per request: latency (ms), completion (ms since start), status (0 = socket failure). */
const samples = { ms: [], at: [], status: [] };
/** Per client, the request numbers n that got 200 (answer `${client}.${n}`, seq seq0 + n). */
const acked = tokens.map(() => []);

function client(index) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', noDelay: true });
    socket.setEncoding('latin1');
    const heads = tokens[index].map(
      (token) =>
        `POST /api/answer HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: `,
    );
    let n = 0;
    let sentAt = 0;
    let buffer = '';
    const send = () => {
      if (performance.now() >= until) {
        sentAt = 0;
        socket.end();
        return resolve();
      }
      const body = JSON.stringify({ exerciseId: exerciseIds[n % exerciseIds.length], answer: `${index}.${n}`, seq: seq0 + n });
      sentAt = performance.now();
      socket.write(`${heads[n % heads.length]}${Buffer.byteLength(body)}\r\n\r\n${body}`);
    };
    const record = (status) => {
      const now = performance.now();
      samples.ms.push(now - sentAt);
      samples.at.push(now - started);
      samples.status.push(status);
      if (status === 200) acked[index].push(n);
      n += 1;
    };
    socket.on('data', (chunk) => {
      buffer += chunk;
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const header = buffer.slice(0, end);
        const status = Number(header.slice(9, 12));
        const length = /\r\ncontent-length: *(\d+)/i.exec(header);
        let total;
        if (length) total = end + 4 + Number(length[1]);
        else {
          const last = buffer.indexOf('\r\n0\r\n\r\n', end);
          if (last < 0) return;
          total = last + 7;
        }
        if (buffer.length < total) return;
        buffer = buffer.slice(total);
        record(status);
        send();
      }
    });
    socket.on('error', () => {
      if (sentAt) record(0);
      resolve();
    });
    socket.on('connect', send);
  });
}

await Promise.all(tokens.map((_, i) => client(i)));
process.stdout.write(JSON.stringify({ samples, acked }));
