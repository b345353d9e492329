import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { sentMails } from '../db/schema.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Notifications (issue 22): a stable Message-ID per delivery, List-Unsubscribe headers, the convocation PDF. */
  messageId?: string;
  headers?: Record<string, string>;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * DESIGN §2/§5: SMTP_URL sends for real; without it each mail becomes one .eml file in
 * DATA_DIR/outbox, so sign-up works on a laptop. Every mail is also recorded in sent_mails.
 */
export function createMailer(opts: {
  db: Db;
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  const transport = opts.smtpUrl
    ? nodemailer.createTransport(opts.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: opts.from, ...mail });
      if (!opts.smtpUrl) {
        mkdirSync(opts.outboxDir, { recursive: true });
        const file = path.join(opts.outboxDir, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}.eml`);
        writeFileSync(file, (info as unknown as { message: Buffer }).message);
        opts.log.info({ to: mail.to, file }, `Courriel écrit dans ${file}`);
      }
      await opts.db.insert(sentMails).values({ to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The French mail that carries a set-password link (sign-up, password reset, first admin). */
export function passwordLinkMail(to: string, link: string, kind: 'signup' | 'reset' | 'admin'): Mail {
  const subject =
    kind === 'reset' ? 'Olympe : nouveau mot de passe' : 'Olympe : confirmez votre adresse et choisissez un mot de passe';
  const intro =
    kind === 'reset'
      ? 'Vous avez demandé à recevoir un nouveau lien pour choisir votre mot de passe.'
      : kind === 'admin'
        ? 'Un compte administrateur Olympe a été créé pour cette adresse.'
        : 'Bienvenue sur Olympe ! Pour terminer votre inscription, choisissez votre mot de passe.';
  const text = `Bonjour,\n\n${intro}\n\nOuvrez ce lien (valable 48 heures, une seule fois) :\n${link}\n\nSi vous n'êtes pas à l'origine de cette demande, ignorez ce message.\n\nL'équipe Olympe`;
  const html = `<p>Bonjour,</p><p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(link)}">Choisir mon mot de passe</a> (lien valable 48 heures, une seule fois)</p><p>Si vous n'êtes pas à l'origine de cette demande, ignorez ce message.</p><p>L'équipe Olympe</p>`;
  return { to, subject, text, html };
}
