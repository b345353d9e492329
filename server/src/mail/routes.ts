import { mailStatsSchema, savedMessageSchema } from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import type { JobWorker } from '../jobs/worker.js';
import { startMailClock, startMailWorkers } from './scheduler.js';
import { mailStats, unsubscribe } from './service.js';
import { escapeHtml } from '../http/escape-html.js';
import { AppError } from '../errors.js';
import { ADDRESS_CONFIRMED, confirmFamilyAddress } from './family-addresses.js';

const unsubscribeQuery = z.object({
  u: z.uuid({ error: 'Lien de désinscription invalide.' }),
  t: z.string({ error: 'Lien de désinscription invalide.' }).max(100, { error: 'Lien de désinscription invalide.' }),
});
const tags = ['mail'];
const confirmQuery = z.object({
  t: z
    .string({ error: 'Lien de confirmation invalide.' })
    .min(20, { error: 'Lien de confirmation invalide.' })
    .max(100, { error: 'Lien de confirmation invalide.' }),
});

/** A small French page of the server (the mail links' answers): no script, no style to load. */
const htmlPage = (title: string, body: string) =>
  `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} – Olympe</title></head>` +
  `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;

/**
 * Decision 60: notification mails — one-click unsubscribe without login (RFC 8058), the admins'
 * counts, and this instance's mail workers and clock (started when the app is ready).
 */
export const mailRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  if (deps.config.jobsWorker !== false) {
    let workers: JobWorker[] = [];
    let clock: { stop(): void } | undefined;
    app.addHook('onReady', async () => {
      workers = startMailWorkers(deps);
      clock = startMailClock(deps);
    });
    app.addHook('onClose', async () => {
      clock?.stop();
      await Promise.all(workers.map((w) => w.stop()));
    });
  }
  // RFC 8058: mail clients POST « List-Unsubscribe=One-Click » as a form; the body says nothing more.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, body, done) =>
    done(null, body),
  );

  app.post(
    '/mail/unsubscribe',
    { schema: { tags, querystring: unsubscribeQuery, response: { 200: savedMessageSchema } } },
    async (request) => {
      await unsubscribe(deps, request.query.u, request.query.t);
      return { message: 'Vous ne recevrez plus de rappels par e-mail d’Olympe. Les convocations et les résultats vous restent envoyés.' };
    },
  );

  // The link itself only shows a button: a link scanner opening it must not unsubscribe anyone. It stops
  // reminders only: service mails do not depend on the box (decision 143).
  app.get('/mail/unsubscribe', { schema: { tags, querystring: unsubscribeQuery } }, async (request, reply) => {
    const action = `/api/mail/unsubscribe?u=${encodeURIComponent(request.query.u)}&t=${encodeURIComponent(request.query.t)}`;
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Ne plus recevoir les rappels d’Olympe</title></head>` +
          `<body><main><h1>Ne plus recevoir les rappels d’Olympe</h1><p>Vous ne recevrez plus les rappels par e-mail (ouverture d’une épreuve, récapitulatif des inscriptions d’un centre). Les convocations, les changements de centre et les résultats restent envoyés. Vous pourrez réactiver les rappels dans votre profil.</p>` +
          `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Me désabonner</button></form></main></body></html>`,
      );
  });

  // Decision 134: the double opt-in link of a family address. The link only shows a button, as above:
  // a link scanner opening it must not confirm an address for its owner.
  app.get(
    '/mail/confirm-address',
    { schema: { tags, querystring: confirmQuery, response: { 200: z.string() } } },
    async (request, reply) => {
      const action = `/api/mail/confirm-address?t=${encodeURIComponent(request.query.t)}`;
      return reply
        .type('text/html; charset=utf-8')
        .send(
          htmlPage(
            'Confirmez votre adresse',
            `<p>Un élève a indiqué cette adresse dans son profil Olympe. En la confirmant, vous recevrez ses convocations aux épreuves.</p>` +
              `<form method="post" action="${escapeHtml(action)}"><button type="submit">Confirmer mon adresse</button></form>`,
          ),
        );
    },
  );

  // The page's form posts here and reads a page back; any other client gets JSON and the usual errors.
  app.post(
    '/mail/confirm-address',
    { schema: { tags, querystring: confirmQuery, response: { 200: z.union([savedMessageSchema, z.string()]) } } },
    async (request, reply) => {
      const fromPage = String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
      try {
        await confirmFamilyAddress(deps.db, request.query.t);
      } catch (err) {
        if (!fromPage || !(err instanceof AppError) || err.statusCode !== 400) throw err;
        return reply
          .code(200)
          .type('text/html; charset=utf-8')
          .send(htmlPage('Lien non valable', `<p>${escapeHtml(err.message)}</p>`));
      }
      if (!fromPage) return { message: ADDRESS_CONFIRMED };
      return reply
        .type('text/html; charset=utf-8')
        .send(
          htmlPage(
            ADDRESS_CONFIRMED,
            '<p>Vous recevrez désormais les convocations de cet élève. Chacun de ces e-mails permet de ne plus les recevoir.</p>',
          ),
        );
    },
  );

  app.get('/mail/stats', { preHandler: requireRole('admin'), schema: { tags, response: { 200: mailStatsSchema } } }, async () =>
    mailStats(deps.db),
  );
};
