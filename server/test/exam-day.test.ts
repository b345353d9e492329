import { and, eq, sql } from 'drizzle-orm';
import { PDFDocument } from '@cantoo/pdf-lib';
import { readSheet } from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessGroups,
  centerRefusals,
  centerRegistrations,
  centers,
  chapters,
  familyAddresses,
  institutions,
  jobs,
  mailDeliveries,
  users,
} from '../src/db/schema.js';
import { queueTimedMails, runMailJobs } from '../src/mail/scheduler.js';
import { queueOpening, queueResults } from '../src/mail/notifications.js';
import { unsubscribeUrl } from '../src/mail/unsubscribe.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';
import { startSmtp } from './smtp.js';

/** Decisions 59 and 60 through the API, with a real SMTP server on loopback (no mock transport). */
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let t: TestApp;
let chapterId: string;
let A: string, B: string;
type Headers = Record<string, string>;
let teacherA: { id: string; headers: Headers };
let teacherB: { headers: Headers };
let admin: { headers: Headers };
const SECRET = 'test-secret-test-secret-test-secret';

/** A pupil whose parent confirmed their address (decision 134: an unconfirmed one gets no convocation). */
const pupilOf = async (institutionId: string, fields: Record<string, unknown> = {}) => {
  const pupil = await createUser(t, 'pupil', {
    ...PUPIL_PROFILE,
    institutionId,
    emailNotifications: true,
    emailParent: 'parent.germain@exemple.fr',
    ...fields,
  });
  await t.database.db.insert(familyAddresses).values({ userId: pupil.id, address: 'parent.germain@exemple.fr', confirmedAt: new Date() });
  return pupil;
};
const unfold = (data: string) => data.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
const deliveries = (kind: string) => t.database.db.select().from(mailDeliveries).where(eq(mailDeliveries.kind, kind));

beforeAll(async () => {
  smtp = await startSmtp();
  t = await buildTestApp({
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Olympe <coupe@olympe.test>', MAIL_RATE_PER_SECOND: '0' },
  });
  const db = t.database.db;
  [{ id: A }, { id: B }] = await db
    .insert(institutions)
    .values([
      {
        name: 'Collège Blaise Pascal',
        address: '1 rue des Sciences, 63000 Clermont-Ferrand',
        latitude: 45.77,
        longitude: 3.08,
        confirmed: true,
      },
      { name: 'Lycée Henri Poincaré', address: '2 place Carrière, 54000 Nancy', latitude: 48.69, longitude: 6.18, confirmed: true },
    ])
    .returning();
  [{ id: chapterId }] = await db.insert(chapters).values({ title: 'Coupe papier', offline: true }).returning();
  await db.insert(accessGroups).values({ chapterId, position: 0, accessStart: new Date('2027-03-12T08:00:00Z') });
  teacherA = await createUser(t, 'teacher', { institutionId: A, firstName: 'Paul', lastName: 'Prof', emailNotifications: true });
  teacherB = await createUser(t, 'teacher', { institutionId: B });
  admin = await createUser(t, 'admin');
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('centre details', () => {
  it('defaults from the chapter and the institution until the school sets them, shown on the map once open', async () => {
    let res = await inject(t, { method: 'GET', url: `/api/center/${chapterId}`, headers: teacherA.headers });
    expect(res.status).toBe(200);
    expect(res.body.details).toMatchObject({
      sittingAt: '2027-03-12T08:00:00.000Z',
      address: '1 rue des Sciences, 63000 Clermont-Ferrand',
      room: '',
      defaults: { sittingAt: true, address: true, bring: true },
    });
    res = await inject(t, {
      method: 'PATCH',
      url: `/api/center/${chapterId}`,
      headers: teacherA.headers,
      payload: { opened: true, nb_places: 1, sittingAt: '2027-03-12T09:30', room: 'Salle 12', bring: 'Stylo, règle' },
    });
    expect(res.status).toBe(200);
    res = await inject(t, { method: 'GET', url: `/api/center/${chapterId}`, headers: teacherA.headers });
    // 9 h 30 in Paris in March (UTC+1).
    expect(res.body.details).toMatchObject({
      sittingAt: '2027-03-12T08:30:00.000Z',
      room: 'Salle 12',
      bring: 'Stylo, règle',
      defaults: { sittingAt: false, bring: false },
    });
    const pupil = await pupilOf(B);
    const options = await inject(t, { method: 'GET', url: `/api/center/institutions/${chapterId}`, headers: pupil.headers });
    const a = options.body.find((o: { _id: string }) => o._id === A);
    expect(a.details).toMatchObject({ room: 'Salle 12', address: '1 rue des Sciences, 63000 Clermont-Ferrand' });
  });

  it('refuses a bad date with a French 400 and changes nothing', async () => {
    const res = await inject(t, {
      method: 'PATCH',
      url: `/api/center/${chapterId}`,
      headers: teacherA.headers,
      payload: { sittingAt: '12/03/2027 9h' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Date de l’épreuve invalide/);
    const [row] = await t.database.db
      .select()
      .from(centers)
      .where(and(eq(centers.chapterId, chapterId), eq(centers.institutionId, A)));
    expect(row.room).toBe('Salle 12');
  });
});

describe('registration, convocation and its mail', () => {
  let pupil: Awaited<ReturnType<typeof pupilOf>>;
  beforeAll(async () => {
    pupil = await pupilOf(A, { firstName: 'Émilie', lastName: 'du Châtelet', email: 'emilie@exemple.fr' });
  });

  it('registering queues one convocation per address, sent once with the PDF and no unsubscribe link (a service mail, decision 143)', async () => {
    const before = smtp.received.length;
    const res = await inject(t, {
      method: 'PATCH',
      url: `/api/center/user/${chapterId}`,
      headers: pupil.headers,
      payload: { institution: A },
    });
    expect(res.status).toBe(200);
    // Registering again at the same centre adds nothing.
    await inject(t, { method: 'PATCH', url: `/api/center/user/${chapterId}`, headers: pupil.headers, payload: { institution: A } });
    const queued = (await deliveries('convocation')).filter((d) => d.userId === pupil.id);
    expect(queued.map((d) => d.to).sort()).toEqual(['emilie@exemple.fr', 'parent.germain@exemple.fr']);
    await runMailJobs(t.app.deps);
    await runMailJobs(t.app.deps);
    const mails = smtp.received.slice(before);
    expect(mails.map((m) => m.to[0]).sort()).toEqual(['emilie@exemple.fr', 'parent.germain@exemple.fr']);
    const mail = unfold(mails[0].data);
    expect(mail).not.toMatch(/List-Unsubscribe/);
    expect(readable(mails[0].data)).toContain('il est envoyé même quand les rappels par e-mail sont désactivés');
    expect(mail).toMatch(/Content-Type: application\/pdf; name=convocation\.pdf/);
    expect(mail).toMatch(/Content-Type: text\/html/);
    expect(mail).toMatch(/Message-ID: <[0-9a-f-]{36}@olympe\.mail>/);
  });

  it('serves the pupil their own convocation, staff all of their centre, and nobody else', async () => {
    const own = await t.app.inject({ method: 'GET', url: `/api/center/convocation/${chapterId}.pdf`, headers: pupil.headers });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('application/pdf');
    expect((await PDFDocument.load(own.rawPayload)).getPageCount()).toBe(1);
    const other = await pupilOf(B);
    const none = await inject(t, { method: 'GET', url: `/api/center/convocation/${chapterId}.pdf`, headers: other.headers });
    expect(none.status).toBe(404);
    const second = await pupilOf(A, { lastName: 'Abel' });
    await inject(t, { method: 'PATCH', url: `/api/center/user/${chapterId}`, headers: second.headers, payload: { institution: A } });
    const all = await t.app.inject({ method: 'GET', url: `/api/center/convocation/${chapterId}.pdf`, headers: teacherA.headers });
    expect(all.statusCode).toBe(200);
    expect((await PDFDocument.load(all.rawPayload)).getPageCount()).toBe(2);
    const foreign = await inject(t, {
      method: 'GET',
      url: `/api/center/convocation/${chapterId}.pdf?institution=${A}`,
      headers: teacherB.headers,
    });
    expect(foreign.status).toBe(403);
  });

  it('prints the attendance sheet and the registered pupils as XLSX', async () => {
    const sheet = await t.app.inject({ method: 'GET', url: `/api/center/attendance-sheet/${chapterId}.pdf`, headers: teacherA.headers });
    expect(sheet.statusCode).toBe(200);
    expect((await PDFDocument.load(sheet.rawPayload)).getPageCount()).toBe(1);
    const xlsx = await t.app.inject({ method: 'GET', url: `/api/center/registered/${chapterId}.xlsx`, headers: teacherA.headers });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect(xlsx.headers['content-disposition']).toMatch(/inscrits-/);
    const rows = await readSheet(xlsx.rawPayload);
    expect(rows[0]).toEqual(['Nom', 'Prénom', 'Classe', 'Établissement', 'Présence']);
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.slice(1).every((r) => typeof r[0] === 'string' && r[0].length > 0)).toBe(true);
  });

  it('records attendance all or nothing, and counts it against the registrations', async () => {
    const stranger = await pupilOf(B);
    let res = await inject(t, {
      method: 'PUT',
      url: `/api/center/attendance/${chapterId}`,
      headers: teacherA.headers,
      payload: [
        { user: pupil.id, present: true },
        { user: stranger.id, present: false },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/pas inscrits dans ce centre/);
    res = await inject(t, {
      method: 'PUT',
      url: `/api/center/attendance/${chapterId}`,
      headers: teacherA.headers,
      payload: [{ user: pupil.id, present: true }],
    });
    expect(res.status).toBe(200);
    res = await inject(t, {
      method: 'PUT',
      url: `/api/center/attendance/${chapterId}`,
      headers: teacherA.headers,
      payload: [{ user: 'pas-un-id', present: true }],
    });
    expect(res.status).toBe(400);
    const centre = await inject(t, { method: 'GET', url: `/api/center/${chapterId}`, headers: teacherA.headers });
    expect(centre.body.stats).toMatchObject({ registered: 2, present: 1, absent: 0 });
    expect(centre.body.members.find((m: { _id: string }) => m._id === pupil.id).present).toBe(true);
    const overview = await inject(t, { method: 'GET', url: `/api/center/overview/${chapterId}`, headers: admin.headers });
    const a = overview.body.members.find((m: { institution: { _id: string } }) => m.institution._id === A);
    expect(a.stats).toMatchObject({ registered: 2, present: 1, absent: 0, copies: 0, pagesSorted: 0 });
    const pupilTry = await inject(t, {
      method: 'PUT',
      url: `/api/center/attendance/${chapterId}`,
      headers: pupil.headers,
      payload: [{ user: pupil.id, present: true }],
    });
    expect(pupilTry.status).toBe(403);
  });

  it('mails the registered pupils once when the centre changes its room, and when it closes', async () => {
    await runMailJobs(t.app.deps);
    const before = smtp.received.length;
    await inject(t, { method: 'PATCH', url: `/api/center/${chapterId}`, headers: teacherA.headers, payload: { room: 'Salle 14' } });
    // Instructions alone are not mailed.
    await inject(t, {
      method: 'PATCH',
      url: `/api/center/${chapterId}`,
      headers: teacherA.headers,
      payload: { instructions: 'Entrée côté cour' },
    });
    await runMailJobs(t.app.deps);
    const changed = smtp.received.slice(before);
    expect(changed).toHaveLength(2);
    expect(changed.map((m) => m.to[0])).toContain('emilie@exemple.fr');
    expect(unfold(changed[0].data)).toContain('Salle 14');
    await inject(t, { method: 'PATCH', url: `/api/center/${chapterId}`, headers: teacherA.headers, payload: { opened: false } });
    await runMailJobs(t.app.deps);
    expect(smtp.received.length - before).toBe(4);
    await inject(t, { method: 'PATCH', url: `/api/center/${chapterId}`, headers: teacherA.headers, payload: { opened: true } });
  });
});

describe('delivery guarantees', () => {
  it('results published: one mail per participant, none twice when the queue is killed and taken again, retried with back-off', async () => {
    const db = t.database.db;
    const [results] = await db.insert(chapters).values({ title: 'Coupe en ligne', offline: false }).returning();
    const pupils = await Promise.all(Array.from({ length: 6 }, (_, i) => pupilOf(B, { email: `res${i}@exemple.fr`, emailParent: null })));
    await db.execute(
      sql`INSERT INTO chapter_sessions (chapter_id, user_id) SELECT ${results.id}, id FROM users WHERE email LIKE 'res%@exemple.fr'`,
    );
    // One pupil unticked the reminders' box: the results are a service mail, sent all the same (decision 143).
    await db.update(users).set({ emailNotifications: false }).where(eq(users.id, pupils[5].id));
    // Publishing through the chapter's analysis flag queues the job; queuing twice adds nothing.
    const res = await inject(t, {
      method: 'PATCH',
      url: `/api/chapter/${results.id}`,
      headers: admin.headers,
      payload: { analysis: true },
    });
    expect(res.status).toBe(200);
    await runMailJobs(t.app.deps, { maxAttempts: 1 });
    expect(await queueResults(db, results.id)).toBe(0);
    // An instance died holding a send job: after its lock went stale it is taken again, and not sent twice.
    const resultsMails = (await deliveries('results')).filter((d) => d.to.startsWith('res'));
    expect(resultsMails).toHaveLength(6);
    const [one] = resultsMails;
    await db.execute(
      sql`UPDATE jobs SET status = 'running', locked_at = now() - interval '1 hour' WHERE payload->>'deliveryId' = ${one.id}`,
    );
    await runMailJobs(t.app.deps);
    const received = smtp.received.filter((m) => m.to[0].startsWith('res'));
    expect(received.map((m) => m.to[0]).sort()).toEqual([
      'res0@exemple.fr',
      'res1@exemple.fr',
      'res2@exemple.fr',
      'res3@exemple.fr',
      'res4@exemple.fr',
      'res5@exemple.fr',
    ]);
  });

  it('an SMTP failure puts the mail back with a delay, then sends it', async () => {
    const db = t.database.db;
    const pupil = await pupilOf(B, { email: 'retry@exemple.fr', emailParent: null });
    const [c] = await db.insert(chapters).values({ title: 'Coupe de printemps', offline: false }).returning();
    await db.execute(sql`INSERT INTO chapter_sessions (chapter_id, user_id) VALUES (${c.id}, ${pupil.id})`);
    await queueResults(db, c.id);
    const deps = { ...t.app.deps, mailer: { send: async () => Promise.reject(new Error('421 service not available')) } };
    await runMailJobs(deps);
    const [job] = await db
      .select()
      .from(jobs)
      .where(sql`payload->>'deliveryId' = (SELECT id::text FROM mail_deliveries WHERE "to" = 'retry@exemple.fr')`);
    expect(job.status).toBe('pending');
    expect(job.notBefore!.getTime()).toBeGreaterThan(Date.now() + 30_000);
    await db.update(jobs).set({ notBefore: null }).where(eq(jobs.id, job.id));
    await runMailJobs(t.app.deps);
    expect(smtp.received.filter((m) => m.to[0] === 'retry@exemple.fr')).toHaveLength(1);
    const stats = await inject(t, { method: 'GET', url: '/api/mail/stats', headers: admin.headers });
    expect(stats.body.total.sent).toBeGreaterThan(5);
    const metrics = await inject(t, { method: 'GET', url: '/api/metrics', headers: admin.headers });
    expect(String(metrics.body)).toMatch(/olympe_mail_deliveries\{kind="results",status="sent"\} \d+/);
  });

  it('one-click unsubscribe turns notifications off without login; a forged link is refused', async () => {
    const pupil = await pupilOf(B);
    const url = unsubscribeUrl('', SECRET, pupil.id);
    const page = await t.app.inject({ method: 'GET', url });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Me désabonner');
    let [row] = await t.database.db.select().from(users).where(eq(users.id, pupil.id));
    expect(row.emailNotifications).toBe(true);
    const forged = await inject(t, {
      method: 'POST',
      url: url.replace(/t=[^&]+/, 't=AAAA'),
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(forged.status).toBe(400);
    const res = await inject(t, {
      method: 'POST',
      url,
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    [row] = await t.database.db.select().from(users).where(eq(users.id, pupil.id));
    expect(row.emailNotifications).toBe(false);
  });

  it('the clock queues « opens in 24 hours » and the staff digest once', async () => {
    const db = t.database.db;
    const now = new Date('2027-03-11T10:00:00Z');
    const [soon] = await db.insert(chapters).values({ title: 'Coupe du lendemain', offline: false }).returning();
    await db.insert(accessGroups).values({ chapterId: soon.id, position: 0, accessStart: new Date('2027-03-12T06:00:00Z') });
    await db
      .update(centerRegistrations)
      .set({ createdAt: new Date('2027-03-10T12:00:00Z') })
      .where(eq(centerRegistrations.institutionId, A));
    const first = await queueTimedMails(t.app.deps, now);
    expect(first.opening).toBeGreaterThan(0);
    expect(first.digest).toBe(1);
    expect(await queueTimedMails(t.app.deps, now)).toEqual({ published: 0, opening: 0, digest: 0 });
    const before = smtp.received.length;
    await runMailJobs(t.app.deps);
    const digest = smtp.received.slice(before).find((m) => m.to[0] === (teacherA as unknown as { email: string }).email);
    expect(digest).toBeDefined();
    expect(unfold(digest!.data)).toMatch(/Coupe papier/);
  });

  it('a publication scheduled for an instant now past mails its participants once, whichever instance ticks', async () => {
    const db = t.database.db;
    const pupil = await pupilOf(B, { email: 'planifie@exemple.fr', emailParent: null });
    const [c] = await db
      .insert(chapters)
      .values({ title: 'Coupe planifiée', offline: false, publishAt: new Date('2027-04-01T16:00:00Z') })
      .returning();
    await db.execute(sql`INSERT INTO chapter_sessions (chapter_id, user_id) VALUES (${c.id}, ${pupil.id})`);
    // Before the instant: nothing.
    expect((await queueTimedMails(t.app.deps, new Date('2027-04-01T15:59:00Z'))).published).toBe(0);
    // Two instances tick after it: one takes the chapter, the other finds nothing to do.
    const ticks = await Promise.all([
      queueTimedMails(t.app.deps, new Date('2027-04-01T16:01:00Z')),
      queueTimedMails(t.app.deps, new Date('2027-04-01T16:01:00Z')),
    ]);
    expect(ticks.map((r) => r.published).sort()).toEqual([0, 1]);
    const [row] = await db.select().from(chapters).where(eq(chapters.id, c.id));
    expect(row.analysis).toBe(true);
    const before = smtp.received.length;
    await runMailJobs(t.app.deps);
    expect(smtp.received.slice(before).filter((m) => m.to[0] === 'planifie@exemple.fr')).toHaveLength(1);
  });
});

/** Quoted-printable mail text as read: soft breaks joined, =XX bytes decoded as UTF-8. */
const readable = (data: string) =>
  Buffer.from(
    data.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

describe('a pupil turned away by a centre is told by mail (decision 81)', () => {
  const refuse = (headers: Headers, user: string) =>
    inject(t, { method: 'POST', url: `/api/center/refuse/${chapterId}`, headers, payload: { user } });
  const register = (headers: Headers, institution: string) =>
    inject(t, { method: 'PATCH', url: `/api/center/user/${chapterId}`, headers, payload: { institution } });
  const mailsTo = (address: string) => smtp.received.filter((m) => m.to[0] === address);

  it('sends the pupil (not the parents) one French mail, without unsubscribe link (a service mail), once', async () => {
    const pupil = await pupilOf(A, {
      firstName: 'Sophie',
      lastName: 'Germain',
      email: 'sophie@exemple.fr',
      emailParent: 'parent.sophie@exemple.fr',
    });
    expect((await register(pupil.headers, A)).status).toBe(200);
    await runMailJobs(t.app.deps);
    const res = await refuse(teacherA.headers, pupil.id);
    expect(res.status).toBe(200);
    await runMailJobs(t.app.deps);
    await runMailJobs(t.app.deps);
    const departures = (await deliveries('center-departure')).filter((d) => d.userId === pupil.id);
    expect(departures.map((d) => [d.to, d.status])).toEqual([['sophie@exemple.fr', 'sent']]);
    expect(departures[0].key).toMatch(new RegExp(`^center-departure:${chapterId}:${pupil.id}:${A}:\\d+:sophie@exemple\\.fr$`));
    const received = mailsTo('sophie@exemple.fr').filter((m) => readable(m.data).includes('retiré votre inscription'));
    expect(received).toHaveLength(1);
    expect(mailsTo('parent.sophie@exemple.fr').filter((m) => readable(m.data).includes('retiré'))).toHaveLength(0);
    const text = readable(received[0].data);
    expect(text).toContain('Bonjour Sophie Germain,');
    expect(text).toContain(
      'Le centre Collège Blaise Pascal a retiré votre inscription à l’épreuve « Coupe papier » : vous n’y êtes plus inscrit(e)',
    );
    expect(text).toContain(
      'choisissez un autre centre d’examen sur la page de l’épreuve avant le 12 mars 2027 à 9\u00a0h\u00a030 (heure de Paris).',
    );
    // Headers are not quoted-printable: read them raw.
    const headers = unfold(received[0].data);
    expect(headers).not.toMatch(/List-Unsubscribe/);
  });

  it('tells a pupil who unticked the reminders’ box too: a service mail (decision 143)', async () => {
    const pupil = await pupilOf(A, { email: 'discret@exemple.fr', emailNotifications: false });
    await register(pupil.headers, A);
    expect((await refuse(teacherA.headers, pupil.id)).status).toBe(200);
    await runMailJobs(t.app.deps);
    expect((await deliveries('center-departure')).filter((d) => d.userId === pupil.id).map((d) => d.status)).toEqual(['sent']);
    expect(mailsTo('discret@exemple.fr').filter((m) => readable(m.data).includes('retiré votre inscription'))).toHaveLength(1);
  });

  it('a new registration that ends again is a new mail, under another key', async () => {
    const pupil = await pupilOf(A, { email: 'revient@exemple.fr', emailParent: null });
    await register(pupil.headers, A);
    await refuse(teacherA.headers, pupil.id);
    // The pupil moves to school B, registers at its centre, and B's staff turn them away too.
    await t.database.db.update(users).set({ institutionId: B }).where(eq(users.id, pupil.id));
    expect((await register(pupil.headers, B)).status).toBe(200);
    const teacherB2 = await createUser(t, 'teacher', { institutionId: B });
    expect((await refuse(teacherB2.headers, pupil.id)).status).toBe(200);
    await runMailJobs(t.app.deps);
    const keys = (await deliveries('center-departure')).filter((d) => d.userId === pupil.id).map((d) => d.key);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
    const texts = mailsTo('revient@exemple.fr')
      .map((m) => readable(m.data))
      .filter((m) => m.includes('retiré votre inscription'));
    expect(texts).toHaveLength(2);
    expect(texts.some((m) => m.includes('Le centre Lycée Henri Poincaré a retiré'))).toBe(true);
  });

  it('the staff digest of the day lists the pupils the centre turned away', async () => {
    const db = t.database.db;
    const [sophie] = await db.select().from(users).where(eq(users.email, 'sophie@exemple.fr'));
    await db
      .update(centerRefusals)
      .set({ createdAt: new Date('2027-05-01T12:00:00Z') })
      .where(eq(centerRefusals.userId, sophie.id));
    // No registration that day: the refusal alone brings the digest.
    expect((await queueTimedMails(t.app.deps, new Date('2027-05-02T10:00:00Z'))).digest).toBe(1);
    const before = smtp.received.length;
    await runMailJobs(t.app.deps);
    const digest = smtp.received.slice(before).find((m) => m.to[0] === (teacherA as unknown as { email: string }).email);
    expect(digest).toBeDefined();
    const text = readable(digest!.data);
    expect(text).toContain('Voici les élèves inscrits dans votre centre le 1er mai 2027, et ceux qui l’ont quitté :');
    expect(text).toContain('« Coupe papier » : 0 nouvelle inscription, 1 départ (');
    expect(text).toContain('– Sophie Germain : inscription retirée par le centre');
  });
});

describe('service mails go whatever the profile’s box says, reminders follow it (decision 143)', () => {
  const mailsTo = (address: string) =>
    smtp.received.filter((m) => m.to[0] === address).map((m) => ({ text: readable(m.data), raw: unfold(m.data) }));

  it('a pupil who unticked the box still gets the convocation (their confirmed parent too) and the results mail, and no reminder', async () => {
    const db = t.database.db;
    const pupil = await pupilOf(A, {
      email: 'sans.rappels@exemple.fr',
      emailParent: 'parent.sans.rappels@exemple.fr',
      emailNotifications: false,
    });
    await db.insert(familyAddresses).values({ userId: pupil.id, address: 'parent.sans.rappels@exemple.fr', confirmedAt: new Date() });
    const ticked = await pupilOf(A, { email: 'avec.rappels@exemple.fr', emailParent: null });

    // The convocation: to the pupil and to the confirmed parent, with the service note and no unsubscribe link.
    expect(
      (await inject(t, { method: 'PATCH', url: `/api/center/user/${chapterId}`, headers: pupil.headers, payload: { institution: A } }))
        .status,
    ).toBe(200);
    await runMailJobs(t.app.deps);
    for (const address of ['sans.rappels@exemple.fr', 'parent.sans.rappels@exemple.fr']) {
      const convocations = mailsTo(address).filter((m) => m.raw.includes('name=convocation.pdf'));
      expect(convocations, address).toHaveLength(1);
      expect(convocations[0].raw).not.toMatch(/List-Unsubscribe/);
      expect(convocations[0].text).toContain('il est envoyé même quand les rappels par e-mail sont désactivés');
    }

    // The results mail.
    const [online] = await db.insert(chapters).values({ title: 'Coupe sans rappels', offline: false }).returning();
    await db.execute(
      sql`INSERT INTO chapter_sessions (chapter_id, user_id) VALUES (${online.id}, ${pupil.id}), (${online.id}, ${ticked.id})`,
    );
    await queueResults(db, online.id);
    await runMailJobs(t.app.deps);
    expect(
      mailsTo('sans.rappels@exemple.fr').filter((m) =>
        m.text.includes('Les résultats de l’épreuve «\u202fCoupe sans rappels\u202f» sont publiés.'),
      ),
    ).toHaveLength(1);

    // A reminder (the test opens tomorrow): only the pupil whose box is ticked, with the link that stops reminders.
    const opening = (m: { text: string }) => m.text.includes('ouvre le');
    expect(
      await queueOpening(db, { chapterId: online.id, startMs: Date.parse('2027-06-01T08:00:00Z'), userIds: [pupil.id, ticked.id] }),
    ).toBe(1);
    await runMailJobs(t.app.deps);
    expect(mailsTo('sans.rappels@exemple.fr').filter(opening)).toHaveLength(0);
    const reminder = mailsTo('avec.rappels@exemple.fr').filter(opening);
    expect(reminder).toHaveLength(1);
    expect(reminder[0].raw).toMatch(/List-Unsubscribe:\s+<http:\/\/olympe\.test\/api\/mail\/unsubscribe\?u=/);
    expect(reminder[0].text).toContain('Pour ne plus recevoir de rappels\u00a0: http://olympe.test/api/mail/unsubscribe?u=');
  });

  it('unsubscribing from a reminder stops reminders already queued, not the convocation', async () => {
    const db = t.database.db;
    const pupil = await pupilOf(A, { email: 'desabonne@exemple.fr', emailParent: null });
    const [soon] = await db.insert(chapters).values({ title: 'Coupe désabonnée', offline: false }).returning();
    expect(await queueOpening(db, { chapterId: soon.id, startMs: Date.parse('2027-06-02T08:00:00Z'), userIds: [pupil.id] })).toBe(1);
    // The link of an earlier reminder, followed before this one is sent.
    const url = unsubscribeUrl('', SECRET, pupil.id);
    const res = await inject(t, {
      method: 'POST',
      url,
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toContain('Les convocations et les résultats vous restent envoyés.');
    expect(
      (await inject(t, { method: 'PATCH', url: `/api/center/user/${chapterId}`, headers: pupil.headers, payload: { institution: A } }))
        .status,
    ).toBe(200);
    await runMailJobs(t.app.deps);
    const openings = (await deliveries('opening')).filter((d) => d.userId === pupil.id);
    expect(openings.map((d) => [d.status, d.error])).toEqual([['skipped', 'rappels désactivés']]);
    expect(mailsTo('desabonne@exemple.fr').filter((m) => m.raw.includes('name=convocation.pdf'))).toHaveLength(1);
  });
});
