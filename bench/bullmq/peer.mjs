// The BullMQ peer of bench/run, the Redis job queue most teams would pick instead of the service: `count` delayed
// jobs due at `dueAtMs`, on a Redis of their own, whose Worker POSTs each one to the receiver as the service would:
// the notification's JSON, signed as Standard Webhooks sign, over at most `connections` connections.
//   node peer.mjs <redisPort> <hookUrl> <count> <dueAtMs> <connections>
// Prints "added <ms>" once every job is in the queue and "done <completed> <failed>" before it exits.
import { Queue, Worker } from 'bullmq';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';

const [port, hook, count, dueAt, connections] = process.argv.slice(2);
const total = Number(count);
const connection = { host: '127.0.0.1', port: Number(port), maxRetriesPerRequest: null };
const queueName = 'reminders';
const key = randomBytes(32);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(connections) });
const target = new URL(hook);

function signature(id, timestamp, body) {
  return 'v1,' + createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}

function post(deliveryId) {
  const sendAt = new Date(Number(dueAt));
  const startsAt = new Date(Number(dueAt) + 15 * 60 * 1000).toISOString();
  const body = JSON.stringify({
    deliveryId,
    meetingId: deliveryId.slice(0, 36),
    title: 'BullMQ',
    startsAt,
    occurrence: startsAt,
    sendAt: sendAt.toISOString(),
    remindBefore: 'PT15M',
    timeZone: 'UTC',
    attendees: ['bullmq@example.com'],
  });
  const timestamp = Math.floor(Date.now() / 1000);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        timeout: 5000,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'webhook-id': deliveryId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signature(deliveryId, timestamp, body),
        },
      },
      (answer) => {
        answer.resume();
        answer.on('end', () => (answer.statusCode < 300 ? resolve() : reject(new Error(`${answer.statusCode}`))));
      },
    );
    request.on('timeout', () => request.destroy(new Error('no answer within 5000ms')));
    request.on('error', reject);
    request.end(body);
  });
}

const queue = new Queue(queueName, { connection });
await queue.obliterate({ force: true });
const started = Date.now();
for (let from = 0; from < total; from += 1000) {
  const jobs = [];
  for (let i = from; i < Math.min(total, from + 1000); i++) {
    const deliveryId = `${randomUUID()}:${dueAt}`;
    jobs.push({ name: 'reminder', data: { deliveryId }, opts: { delay: Math.max(0, Number(dueAt) - Date.now()), removeOnComplete: true } });
  }
  await queue.addBulk(jobs);
}
console.log(`added ${Date.now() - started}`);

let completed = 0;
let failed = 0;
const worker = new Worker(queueName, (job) => post(job.data.deliveryId), {
  connection,
  concurrency: Number(connections),
});
await new Promise((resolve) => {
  const settle = () => completed + failed >= total && resolve();
  worker.on('completed', () => { completed++; settle(); });
  worker.on('failed', () => { failed++; settle(); });
});
console.log(`done ${completed} ${failed}`);
await worker.close();
await queue.close();
agent.destroy();
