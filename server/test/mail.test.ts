import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapAdmin } from '../src/auth/service.js';
import { users } from '../src/db/schema.js';
import { buildTestApp, inject, lastLinkTo, type TestApp } from './helpers.js';
import { startSmtp } from './smtp.js';

describe('mail through a real SMTP server', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await buildTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Olympe <coupe@olympe.test>' } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('sends the French sign-up mail with its link', async () => {
    const res = await inject(t, { method: 'POST', url: '/api/auth/register', payload: { email: 'eleve@college.fr' } });
    expect(res.status).toBe(200);
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail.from).toBe('coupe@olympe.test');
    expect(mail.to).toEqual(['eleve@college.fr']);
    expect(mail.data).toMatch(/Subject: =\?UTF-8\?|Subject: Olympe/);
    const link = await lastLinkTo(t, 'eleve@college.fr');
    // Quoted-printable may fold the link across lines: compare unfolded.
    const unfolded = mail.data.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(unfolded).toContain(link);
  });
});

describe('outbox without SMTP and the first admin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  it('writes one .eml file per mail in DATA_DIR/outbox', async () => {
    await inject(t, { method: 'POST', url: '/api/auth/register', payload: { email: 'boite@exemple.fr' } });
    const outbox = path.join(t.config.dataDir, 'outbox');
    const files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const eml = readFileSync(path.join(outbox, files[0]), 'utf8');
    expect(eml).toMatch(/To: boite@exemple\.fr/);
  });

  it('makes ADMIN_EMAIL an admin and mails it a link until it has a password', async () => {
    await bootstrapAdmin(t.app.deps, 'chef@olympe.test');
    const [admin] = await t.database.db.select().from(users).where(eq(users.email, 'chef@olympe.test'));
    expect(admin.isAdmin).toBe(true);
    expect(await lastLinkTo(t, 'chef@olympe.test')).toContain('/confirm?token=');
    // Running again does not duplicate the account.
    await bootstrapAdmin(t.app.deps, 'chef@olympe.test');
    const rows = await t.database.db.select().from(users).where(eq(users.email, 'chef@olympe.test'));
    expect(rows).toHaveLength(1);
  });
});
