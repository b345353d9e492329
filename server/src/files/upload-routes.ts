import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { TUS_RESUMABLE } from '@tus/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { AppError, badRequest, errorCodeFor } from '../errors.js';
import { sendError } from '../http/errors.js';
import { hitUploadRate, reserveUpload } from './quota.js';
import type { FileStore } from './store.js';
import { checkCreation, frenchTusError, openUploads, UPLOAD_CLEANUP_MS, type UploadCaller, type Uploads } from './uploads.js';

const uploadParams = z.object({ id: z.uuid({ error: 'Identifiant d’envoi invalide.' }) });
const tags = ['files'];
const OFFSET_STREAM = 'application/offset+octet-stream';

/**
 * POST /uploads, then HEAD, PATCH and DELETE /uploads/:id: resumable uploads (tus 1.0, decision 91).
 * Fastify checks the token and the owner, then hands the request to @tus/server as a web Request
 * whose body is the raw request stream: this scope has no body parser, so a PATCH's bytes are read
 * once, by tus, as they arrive. The answer goes back through Fastify (security headers, logs, French
 * errors with their code).
 */
export const uploadRoutes: FastifyPluginAsyncZod<{ deps: Deps; store: FileStore }> = async (app, { deps, store }) => {
  const uploads = openUploads({ db: deps.db, config: deps.config, store, log: deps.log });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  scheduleCleanup(app, deps, uploads);

  app.post(
    '/uploads',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Creates a resumable upload (tus 1.0: Tus-Resumable, Upload-Length, Upload-Metadata with exercise or chapter, filename)',
      },
    },
    (request, reply) => createUpload(deps, uploads, request, reply),
  );

  app.route({
    method: ['HEAD', 'PATCH', 'DELETE'],
    url: '/uploads/:id',
    preHandler: requireAuth,
    schema: { tags, params: uploadParams, summary: 'An upload’s offset (HEAD), its next bytes (PATCH), its cancellation (DELETE)' },
    handler: (request, reply) => continueUpload(uploads, request, reply),
  });
};

/** Expired resumable uploads removed every UPLOAD_CLEANUP_MS while the app runs. */
function scheduleCleanup(app: FastifyInstance, deps: Deps, uploads: Uploads): void {
  let cleanup: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    cleanup = setInterval(() => {
      uploads.cleanUp().then(
        (removed) => removed > 0 && deps.log.info({ removed }, 'expired resumable uploads removed'),
        (err: unknown) => deps.log.warn({ err }, 'expired resumable uploads: cleanup failed'),
      );
    }, UPLOAD_CLEANUP_MS);
    cleanup.unref();
  });
  app.addHook('onClose', async () => clearInterval(cleanup));
}

/** POST /uploads: the room reserved, then the creation handed to tus. */
async function createUpload(deps: Deps, uploads: Uploads, request: FastifyRequest, reply: FastifyReply) {
  const auth = authOf(request);
  if (request.headers['content-type'] === OFFSET_STREAM) throw badRequest('Créez l’envoi sans données, puis envoyez le fichier (PATCH).');
  await hitUploadRate(deps, auth);
  const { meta, size, limit } = await checkCreation(deps, auth, request.headers);
  // The room is reserved before tus sees the request, atomically in the database (decision 133); a
  // creation tus then refuses gives it back.
  const id = randomUUID();
  await reserveUpload(deps, auth, { id, size, resumable: { limit } });
  let response: Response;
  try {
    response = await toTus(uploads, request, { auth, meta, id });
  } catch (err) {
    await uploads.release(id);
    throw err;
  }
  if (response.status !== 201) await uploads.release(id);
  return send(request, reply, response);
}

/** HEAD, PATCH or DELETE /uploads/:id of the caller's own upload, handed to tus. */
async function continueUpload(uploads: Uploads, request: FastifyRequest, reply: FastifyReply) {
  const auth = authOf(request);
  const { id } = request.params as z.infer<typeof uploadParams>;
  const complete = (size: number) =>
    reply
      .status(200)
      .headers({ 'tus-resumable': TUS_RESUMABLE, 'upload-offset': String(size), 'upload-length': String(size) })
      .send();
  if (request.method === 'HEAD') {
    const size = await uploads.finishedSize(auth, id);
    if (size !== null) return complete(size);
  } else {
    await uploads.ownUpload(auth, id);
  }
  if (request.method === 'PATCH' && request.headers['content-type'] !== OFFSET_STREAM) {
    throw new AppError(415, `Type de contenu attendu : ${OFFSET_STREAM}.`);
  }
  const response = await toTus(uploads, request, { auth });
  // A cancelled upload's room is given back at once (decision 133).
  if (request.method === 'DELETE' && response.status === 204) await uploads.release(id);
  if (
    request.method === 'HEAD' &&
    response.status === 200 &&
    response.headers.get('upload-offset') === response.headers.get('upload-length')
  ) {
    // The last byte arrived while this HEAD waited: « complete » only once the file is recorded.
    const size = await uploads.finishedSize(auth, id);
    if (size !== null) return complete(size);
  }
  return send(request, reply, response);
}

/** The request as a web Request for @tus/server (its body the raw stream), and tus's answer. */
async function toTus(uploads: Uploads, request: FastifyRequest, caller: UploadCaller): Promise<Response> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const init: RequestInit & { duplex?: 'half' } = { method: request.method, headers };
  if (hasBody(request)) {
    init.body = Readable.toWeb(request.raw) as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  // tus reads the upload's id from the path's last segment: the query string (never used by tus) is left out.
  const webRequest = new Request(new URL(request.url.split('?')[0], 'http://olympe.local'), init);
  uploads.remember(webRequest, caller);
  return uploads.tus.handleWeb(webRequest);
}

/** Only a PATCH carries bytes: a creation with its first bytes (creation-with-upload) is refused. */
const hasBody = (request: FastifyRequest) => request.method === 'PATCH';

/** tus's answer through Fastify; its English error bodies in French. */
async function send(request: FastifyRequest, reply: FastifyReply, response: Response) {
  reply.status(response.status);
  for (const [name, value] of response.headers) {
    if (name === 'content-length' || name.startsWith('access-control-')) continue;
    reply.header(name, value);
  }
  // A request tus answered without reading all of its body (a refused PATCH): the connection cannot
  // carry another request.
  if (hasBody(request) && !request.raw.readableEnded) reply.header('connection', 'close');
  const text = await response.text();
  if (response.status < 400) return reply.send(text === '' ? undefined : text);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  reply.type('application/json; charset=utf-8');
  // A refusal of ours, carried through tus (uploads.ts): `{ message, code }` already, or its status's code.
  if (body && typeof body === 'object' && 'message' in body) {
    return reply.send('code' in body ? body : { ...body, code: errorCodeFor(response.status) });
  }
  const french = frenchTusError(response.status, text);
  return sendError(reply, new AppError(french.status, french.message));
}
