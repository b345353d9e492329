import { PAST_INSTANT_MESSAGE } from '@olympe/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, familyAddresses, institutions, mailDeliveries, sentMails } from '../src/db/schema.js';
import { queueTimedMails, runMailJobs } from '../src/mail/scheduler.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';
import { insertSelection, insertVersion, type SelectionFixture } from './selection-fixtures.js';
import { startSmtp } from './smtp.js';

/**
 * Decision 157: a selection is published now, at an instant, or withdrawn, as the results; never without a frozen
 * version. Becoming published mails each participant of the latest version and their confirmed family addresses,
 * once per publication, through a real SMTP server.
 */

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let t: TestApp;
let admin: Record<string, string>;
let school: string;
type Headers = Record<string, string>;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await buildTestApp({
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Olympe <coupe@olympe.test>', MAIL_RATE_PER_SECOND: '0' },
  });
  admin = (await createUser(t, 'admin')).headers;
  [{ id: school }] = await t.database.db.insert(institutions).values({ name: 'Collège Sophie Germain', confirmed: true }).returning();
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

let n = 0;
const pupil = (firstName: string, fields: Parameters<typeof createUser>[2] = {}) =>
  createUser(t, 'pupil', {
    ...PUPIL_PROFILE,
    firstName,
    lastName: 'Lovelace',
    email: `${firstName.toLowerCase()}-${++n}@eleves.fr`,
    institutionId: school,
    ...fields,
  });
const publish = (id: string, payload: Record<string, unknown>, headers: Headers = admin) =>
  inject(t, { method: 'PUT', url: `/api/selection/${id}/publication`, headers, payload });
const mine = async (headers: Headers) => (await inject(t, { method: 'GET', url: '/api/selection/mine', headers })).body as unknown[];
/** The mails recorded for an address, no-break spaces read as spaces. */
const mailsTo = async (to: string) =>
  (await t.database.db.select().from(sentMails).where(eq(sentMails.to, to))).map((m) => ({
    subject: m.subject.replace(/\u00a0/g, ' '),
    text: m.text.replace(/\u00a0/g, ' '),
  }));

/** Ada qualified (her parent's address confirmed, her other parent's not), Bob not, Eve not a participant. */
async function listWithThree() {
  const k = ++n;
  const [parent, otherParent] = [`parent-ada-${k}@famille.fr`, `autre-ada-${k}@famille.fr`];
  const ada = await pupil('Ada', { emailParent: parent, emailOtherParent: otherParent });
  await t.database.db.insert(familyAddresses).values([
    { userId: ada.id, address: parent, confirmedAt: new Date() },
    { userId: ada.id, address: otherParent },
  ]);
  const bob = await pupil('Bob');
  const eve = await pupil('Eve');
  const title = `Sélection ${k}`;
  const s: SelectionFixture = await insertSelection(t, { title }, [{ name: 'Collège', cutoff: 12 }]);
  return { ada, bob, eve, s, title, parent, otherParent };
}

async function freeze(f: Awaited<ReturnType<typeof listWithThree>>) {
  await insertVersion(
    t,
    f.s,
    1,
    [
      { userId: f.ada.id, score: 15, categories: f.s.categories, qualifiedIn: f.s.categories },
      { userId: f.bob.id, score: 9, categories: f.s.categories, qualifiedIn: [] },
    ],
    { names: ['Collège'], cutoffs: [12] },
  );
}

describe('PUT /selection/:id/publication', () => {
  it('refuses to publish a list with no frozen version, and anyone but an admin', async () => {
    const f = await listWithThree();
    const refused = await publish(f.s.id, { mode: 'now' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Gelez une version de la liste avant de la publier.');
    expect((await publish(f.s.id, { mode: 'scheduled', publishAt: new Date(Date.now() + 3_600_000).toISOString() })).status).toBe(409);
    expect((await publish(f.s.id, { mode: 'unpublished' })).status).toBe(200);
    await freeze(f);
    expect((await publish(f.s.id, { mode: 'now' }, f.ada.headers)).status).toBe(403);
    expect((await publish('00000000-0000-4000-8000-000000000000', { mode: 'now' })).status).toBe(404);
    expect((await publish(f.s.id, { mode: 'scheduled' })).body.message).toContain('Indiquez la date et l’heure de publication.');
  });

  it('publishes now: audited, and mails each participant and confirmed family address once, qualified or not', async () => {
    const f = await listWithThree();
    await freeze(f);
    const res = await publish(f.s.id, { mode: 'now' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Sélection publiée');
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'selection.publication'), eq(auditLog.targetId, f.s.id)));
    expect(entry.details).toMatchObject({ before: { publishAt: null }, after: { mode: 'now' } });
    expect(await mine(f.ada.headers)).toHaveLength(1);

    const before = smtp.received.length;
    await runMailJobs(t.app.deps);
    const [adaMail] = await mailsTo(f.ada.email);
    expect(adaMail.subject).toBe(`Sélection « ${f.title} » : résultat`);
    expect(adaMail.text).toContain('Qualifié(e) pour la finale nationale (catégorie « Collège »)');
    expect(adaMail.text).toContain('samedi 13 mars 2027');
    expect(adaMail.text).toContain('Lycée Louis-le-Grand, Paris');
    const [bobMail] = await mailsTo(f.bob.email);
    expect(bobMail.text).toContain('Votre résultat : Non qualifié(e).');
    expect(bobMail.text).not.toContain('Qualifié(e) pour');
    const [parentMail] = await mailsTo(f.parent);
    expect(parentMail.text).toContain('Résultat de Ada Lovelace : Qualifié(e) pour la finale nationale');
    expect(await mailsTo(f.otherParent)).toHaveLength(0);
    expect(await mailsTo(f.eve.email)).toHaveLength(0);
    const sent = smtp.received.slice(before).flatMap((m) => m.to);
    expect(sent.sort()).toEqual([f.ada.email, f.bob.email, f.parent].sort());

    // Published again, or the clock passing by: nothing more.
    expect((await publish(f.s.id, { mode: 'now' })).status).toBe(200);
    await queueTimedMails(t.app.deps);
    await runMailJobs(t.app.deps);
    expect(smtp.received.length).toBe(before + 3);
  });

  it('schedules at an instant (a past one publishes now), mails when it passes, and withdraws', async () => {
    const f = await listWithThree();
    await freeze(f);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await publish(f.s.id, { mode: 'scheduled', publishAt: later });
    expect(scheduled.body.message).toBe('Publication programmée');
    expect(await mine(f.ada.headers)).toEqual([]);
    await queueTimedMails(t.app.deps);
    await runMailJobs(t.app.deps);
    expect(await mailsTo(f.ada.email)).toHaveLength(0);

    // The instant passes.
    await t.database.db.execute(`UPDATE selections SET publish_at = now() - interval '1 second' WHERE id = '${f.s.id}'`);
    expect(await mine(f.ada.headers)).toHaveLength(1);
    expect((await queueTimedMails(t.app.deps)).published).toBe(1);
    expect((await queueTimedMails(t.app.deps)).published).toBe(0);
    await runMailJobs(t.app.deps);
    expect(await mailsTo(f.ada.email)).toHaveLength(1);
    expect(await mailsTo(f.bob.email)).toHaveLength(1);
    const deliveries = await t.database.db.select().from(mailDeliveries).where(eq(mailDeliveries.kind, 'selection'));
    expect(deliveries.filter((d) => d.userId === f.ada.id)).toHaveLength(2);

    const withdrawn = await publish(f.s.id, { mode: 'unpublished' });
    expect(withdrawn.body.message).toBe('Publication retirée');
    expect(await mine(f.ada.headers)).toEqual([]);
    const past = await publish(f.s.id, { mode: 'scheduled', publishAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past.body.message).toBe(PAST_INSTANT_MESSAGE);
    expect(await mine(f.ada.headers)).toHaveLength(1);
  });
});
