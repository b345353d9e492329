import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CENTER_MOVES_PER_CHAPTER, TOO_MANY_MOVES_IN_ALL_MESSAGE, TOO_MANY_MOVES_MESSAGE } from '../src/centers/registration.js';
import { accessGroups, centerRegistrations, chapters, familyAddresses, institutions, mailDeliveries, sentMails } from '../src/db/schema.js';
import { column, one } from '../src/db/query.js';
import { ADDRESS_CONFIRM_PER_ADDRESS_LIMIT, FAMILY_ADDRESS_LIMIT } from '../src/mail/family-addresses.js';
import { runMailJobs } from '../src/mail/scheduler.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';
import { startSmtp } from './smtp.js';

/**
 * Decision 134: a family address (the student's or a parent's, typed by the pupil) gets one short
 * confirmation mail and nothing else until its owner confirms it; centre moves, and so the
 * convocation mails they trigger, are limited per pupil. Real SMTP server on loopback, no mock.
 */
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let t: TestApp;
let A: string, B: string;
let chapterId: string;
let otherChapterId: string;
type Headers = Record<string, string>;

/** A name a spammer would choose: it must never reach an unconfirmed address. */
const SPAM_NAME = 'Gagnez 500 EUR sur http://arnaque.example';
const unfold = (data: string) => data.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
const mailsTo = (address: string, from = 0) => smtp.received.slice(from).filter((m) => m.to.includes(address));
/** The Subject header, unfolded and decoded from its RFC 2047 « Q » words. */
const subjectOf = (data: string) =>
  (/^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(data)?.[1] ?? '')
    .replace(/\r?\n[ \t]/g, '')
    .replace(/=\?UTF-8\?Q\?(.*?)\?=/gi, (_, q: string) => decodeURIComponent(q.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, '%$1')))
    .replace(/\s+/g, ' ');

async function confirmLinkOf(address: string): Promise<string> {
  const [mail] = await t.database.db.select().from(sentMails).where(eq(sentMails.to, address)).orderBy(desc(sentMails.id)).limit(1);
  const link = mail && /https?:\/\/\S+\/api\/mail\/confirm-address\?t=\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no confirmation link mailed to ${address}`);
  return link.replace('http://olympe.test', '');
}

const register = (headers: Headers, institution: string, chapter = chapterId) =>
  inject(t, { method: 'PATCH', url: `/api/center/user/${chapter}`, headers, payload: { institution } });
const saveProfile = (headers: Headers, payload: Record<string, unknown>) =>
  inject(t, { method: 'PUT', url: '/api/auth/me', headers, payload });
const convocationsTo = async (address: string) =>
  (
    await t.database.db
      .select()
      .from(mailDeliveries)
      .where(and(eq(mailDeliveries.kind, 'convocation'), eq(mailDeliveries.to, address)))
  ).length;

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
  [{ id: chapterId }, { id: otherChapterId }] = await db
    .insert(chapters)
    .values([
      { title: 'Coupe papier', offline: true },
      { title: 'Autre coupe', offline: true },
    ])
    .returning();
  for (const chapter of [chapterId, otherChapterId]) {
    await db.insert(accessGroups).values({ chapterId: chapter, position: 0, accessStart: new Date('2027-03-12T08:00:00Z') });
    for (const school of [A, B]) {
      const teacher = await createUser(t, 'teacher', { institutionId: school });
      const res = await inject(t, {
        method: 'PATCH',
        url: `/api/center/${chapter}`,
        headers: teacher.headers,
        payload: { opened: true, nb_places: 50 },
      });
      expect(res.status).toBe(200);
    }
  }
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('double opt-in of family addresses', () => {
  it('mails an unconfirmed parent only the confirmation, never the convocation; once confirmed, the convocation', async () => {
    const pupil = await createUser(t, 'pupil', {
      ...PUPIL_PROFILE,
      institutionId: A,
      emailNotifications: true,
      firstName: SPAM_NAME,
      emailParent: null,
    });
    const before = smtp.received.length;
    const saved = await saveProfile(pupil.headers, { emailParent: 'Maman@Exemple.fr' });
    expect(saved.status).toBe(200);
    expect(saved.body.pendingEmails).toEqual(['maman@exemple.fr']);

    expect((await register(pupil.headers, A)).status).toBe(200);
    await runMailJobs(t.app.deps);
    // The pupil has their convocation; the parent only the short confirmation, without the pupil's text.
    expect(mailsTo(pupil.email, before)).toHaveLength(1);
    const toParent = mailsTo('maman@exemple.fr', before);
    expect(toParent).toHaveLength(1);
    const confirmation = unfold(toParent[0].data);
    expect(subjectOf(toParent[0].data)).toBe('Olympe : confirmez votre adresse');
    expect(confirmation).not.toMatch(/Gagnez|arnaque|500 EUR/);
    expect(confirmation).not.toMatch(/application\/pdf/);
    expect(await convocationsTo('maman@exemple.fr')).toBe(0);
    const [row] = await t.database.db.select().from(familyAddresses).where(eq(familyAddresses.userId, pupil.id));
    // Only the token's hash is stored.
    const link = await confirmLinkOf('maman@exemple.fr');
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(link).not.toContain(row.tokenHash!);

    // The link shows a button (a link scanner confirms nothing); the button confirms.
    const page = await t.app.inject({ method: 'GET', url: link });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Confirmer mon adresse');
    const [still] = await t.database.db.select().from(familyAddresses).where(eq(familyAddresses.userId, pupil.id));
    expect(still.confirmedAt).toBeNull();
    const done = await t.app.inject({
      method: 'POST',
      url: link,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'x=1',
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Adresse confirmée.');
    expect((await saveProfile(pupil.headers, {})).body.pendingEmails).toEqual([]);

    // The next move's convocation reaches the parent, PDF attached.
    const beforeMove = smtp.received.length;
    expect((await register(pupil.headers, B)).status).toBe(200);
    await runMailJobs(t.app.deps);
    const convocation = mailsTo('maman@exemple.fr', beforeMove);
    expect(convocation).toHaveLength(1);
    expect(unfold(convocation[0].data)).toMatch(/Content-Type: application\/pdf; name=convocation\.pdf/);
  });

  it('starts over when the address changes, even back to a confirmed one', async () => {
    const pupil = await createUser(t, 'pupil', { ...PUPIL_PROFILE, institutionId: A, emailNotifications: true, emailParent: null });
    await saveProfile(pupil.headers, { emailParent: 'pere@exemple.fr' });
    await runMailJobs(t.app.deps);
    const oldLink = await confirmLinkOf('pere@exemple.fr');
    expect((await inject(t, { method: 'POST', url: oldLink, payload: {} })).status).toBe(200);

    // Another address: unconfirmed, it gets its confirmation and no convocation.
    const before = smtp.received.length;
    const changed = await saveProfile(pupil.headers, { emailParent: 'mere@exemple.fr' });
    expect(changed.body.pendingEmails).toEqual(['mere@exemple.fr']);
    expect((await register(pupil.headers, A)).status).toBe(200);
    await runMailJobs(t.app.deps);
    expect(mailsTo('mere@exemple.fr', before).map((m) => subjectOf(m.data))).toEqual([expect.stringMatching(/confirmez votre adresse/)]);
    expect(await convocationsTo('mere@exemple.fr')).toBe(0);
    expect(mailsTo('pere@exemple.fr', before)).toHaveLength(0);

    // Back to the first address: its confirmation was reset with the change, its old link is dead.
    const back = await saveProfile(pupil.headers, { emailParent: 'pere@exemple.fr' });
    expect(back.body.pendingEmails).toEqual(['pere@exemple.fr']);
    const dead = await inject(t, { method: 'POST', url: oldLink, payload: {} });
    expect(dead.status).toBe(400);
    expect(dead.body.message).toMatch(/n’est pas valable/);
    const beforeMove = smtp.received.length;
    expect((await register(pupil.headers, B)).status).toBe(200);
    await runMailJobs(t.app.deps);
    expect(mailsTo('pere@exemple.fr', beforeMove).map((m) => subjectOf(m.data))).toEqual([
      expect.stringMatching(/confirmez votre adresse/),
    ]);
    expect(await convocationsTo('pere@exemple.fr')).toBe(0);
  });

  it('asks an address typed before the double opt-in (or imported) for its confirmation at the first convocation', async () => {
    const pupil = await createUser(t, 'pupil', {
      ...PUPIL_PROFILE,
      institutionId: A,
      emailNotifications: true,
      emailParent: 'ancien.parent@exemple.fr',
    });
    const me = await saveProfile(pupil.headers, {});
    expect(me.body.pendingEmails).toEqual(['ancien.parent@exemple.fr']);
    const before = smtp.received.length;
    expect((await register(pupil.headers, A)).status).toBe(200);
    await runMailJobs(t.app.deps);
    expect(mailsTo('ancien.parent@exemple.fr', before).map((m) => subjectOf(m.data))).toEqual([
      expect.stringMatching(/confirmez votre adresse/),
    ]);
    expect(await convocationsTo('ancien.parent@exemple.fr')).toBe(0);
  });

  it('mails at most a few confirmations an hour per pupil and per address, and never refuses the profile for it', async () => {
    const pupil = await createUser(t, 'pupil', { ...PUPIL_PROFILE, institutionId: A, emailParent: null });
    for (let i = 0; i < FAMILY_ADDRESS_LIMIT.limit; i++) {
      expect((await saveProfile(pupil.headers, { emailParent: `victime${i}@exemple.fr` })).status).toBe(200);
    }
    const before = smtp.received.length;
    // Past the limit the profile is saved (a pupil is never kept from a test by it); the address waits, unmailed.
    const past = await saveProfile(pupil.headers, { emailParent: 'victime-de-trop@exemple.fr' });
    expect(past.status).toBe(200);
    expect(past.body.pendingEmails).toEqual(['victime-de-trop@exemple.fr']);
    await runMailJobs(t.app.deps);
    expect(mailsTo('victime-de-trop@exemple.fr', before)).toEqual([]);
    const rows = await t.database.db.select().from(familyAddresses).where(eq(familyAddresses.address, 'victime-de-trop@exemple.fr'));
    expect(rows).toHaveLength(1);
    expect(rows[0].confirmedAt).toBeNull();

    // Classmates who all type one parent's address: every profile is saved, the address is asked three times at most.
    const shared = 'parent.partage@exemple.fr';
    const sent = smtp.received.length;
    for (let i = 0; i < 5; i++) {
      const classmate = await createUser(t, 'pupil', { ...PUPIL_PROFILE, institutionId: A, emailParent: null });
      expect((await saveProfile(classmate.headers, { emailParent: shared })).status).toBe(200);
    }
    await runMailJobs(t.app.deps);
    expect(mailsTo(shared, sent)).toHaveLength(ADDRESS_CONFIRM_PER_ADDRESS_LIMIT.limit);
  });
});

describe('centre moves per pupil (decision 134)', () => {
  it('refuses the move past 5 a day for a test with a French 429, writes nothing and mails nothing', async () => {
    const pupil = await createUser(t, 'pupil', { ...PUPIL_PROFILE, institutionId: A, emailNotifications: true });
    for (let i = 0; i < CENTER_MOVES_PER_CHAPTER; i++) expect((await register(pupil.headers, i % 2 === 0 ? A : B)).status).toBe(200);
    // Asking again for the centre one is already in writes nothing, so it is not counted.
    expect((await register(pupil.headers, A)).status).toBe(200);
    await runMailJobs(t.app.deps);
    const queued = await convocationsTo(pupil.email);
    expect(queued).toBe(CENTER_MOVES_PER_CHAPTER);
    const before = smtp.received.length;

    const refused = await register(pupil.headers, B);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: TOO_MANY_MOVES_MESSAGE, code: 'rate_limited' });
    expect(refused.body.message).toMatch(/Réessayez demain\.$/);
    const [reg] = await t.database.db.select().from(centerRegistrations).where(eq(centerRegistrations.userId, pupil.id));
    expect(reg.institutionId).toBe(A);
    await runMailJobs(t.app.deps);
    expect(await convocationsTo(pupil.email)).toBe(queued);
    expect(smtp.received.length).toBe(before);
  });

  it('counts 24 hours back, and 10 moves over all tests', async () => {
    const pupil = await createUser(t, 'pupil', { ...PUPIL_PROFILE, institutionId: A, emailNotifications: true });
    const db = t.database.db;
    // Moves of yesterday do not count.
    await db.execute(sql`INSERT INTO center_moves (user_id, chapter_id, created_at)
      SELECT ${pupil.id}, ${chapterId}, now() - interval '25 hours' FROM generate_series(1, 20)`);
    expect((await register(pupil.headers, A)).status).toBe(200);
    // 9 more today on another test: the 11th of the day, whatever the test, is refused.
    await db.execute(sql`INSERT INTO center_moves (user_id, chapter_id) SELECT ${pupil.id}, ${otherChapterId} FROM generate_series(1, 9)`);
    const refused = await register(pupil.headers, B);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(TOO_MANY_MOVES_IN_ALL_MESSAGE);
    // Yesterday's rows were cleared by the move that was allowed.
    const left = await one(
      db,
      z.object({ n: column.number }),
      sql`SELECT count(*)::int AS n FROM center_moves WHERE user_id = ${pupil.id}`,
    );
    expect(Number(left?.n)).toBe(10);
  });
});
