import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { sentMails } from '../db/schema.js';
import { escapeHtml } from '../http/escape-html.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Notifications: a stable Message-ID per delivery, List-Unsubscribe headers, the convocation PDF; the outbox adds X-Olympe-Lien. */
  messageId?: string;
  headers?: Record<string, string>;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * docs/product.md#design-2/§5: SMTP_URL sends for real; without it each mail becomes one .eml file in
 * DATA_DIR/outbox, so sign-up works on a laptop. Every mail is also recorded in sent_mails.
 */
export function createMailer(opts: {
  db: Db;
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
  /** Called after each outbox file is written (the demo prints the mail's link). */
  onOutboxMail?: (mail: Mail, file: string) => void;
}): Mailer {
  const transport = opts.smtpUrl
    ? nodemailer.createTransport(opts.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      // In the outbox, the link is also a header: headers are not quoted-printable, so it can be copied
      // from the .eml as it is (the body's link is cut and carries =3D for each "=").
      const link = opts.smtpUrl ? null : firstLinkOf(mail);
      const info = await transport.sendMail({
        from: opts.from,
        ...mail,
        ...(link ? { headers: { ...mail.headers, 'X-Olympe-Lien': link } } : {}),
      });
      if (!opts.smtpUrl) {
        mkdirSync(opts.outboxDir, { recursive: true });
        const file = path.join(opts.outboxDir, outboxFileName(mail));
        writeFileSync(file, (info as unknown as { message: Buffer }).message);
        opts.log.info({ to: mail.to, file }, `Courriel écrit dans ${file}`);
        opts.onOutboxMail?.(mail, file);
      }
      await opts.db.insert(sentMails).values({ to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}

const slug = (s: string, max: number) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9@.]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max);

/**
 * An outbox file is named by date, recipient and subject, so the demo's folder reads as a mailbox:
 * `2026-11-25T19-30-27-123Z_eleve@exemple.fr_olympe-confirmez-votre-adresse.eml`. The random tail
 * keeps two mails of the same millisecond apart.
 */
export function outboxFileName(mail: Pick<Mail, 'to' | 'subject'>, now = new Date()): string {
  const date = now.toISOString().replace(/:/g, '-').replace('.', '-');
  return `${date}_${slug(mail.to, 80)}_${slug(mail.subject, 60)}_${Math.random().toString(36).slice(2, 6)}.eml`;
}

/** The first link of a mail's text (the demo prints it). */
export function firstLinkOf(mail: Pick<Mail, 'text'>): string | null {
  return /https?:\/\/\S+/.exec(mail.text)?.[0] ?? null;
}

/** The French mail that carries a set-password link (sign-up, password reset, first admin). */
export function passwordLinkMail(
  to: string,
  link: string,
  kind: 'signup' | 'reset' | 'admin' | 'invite' | 'lockout',
  institutionName?: string,
): Mail {
  const subject =
    kind === 'reset'
      ? 'Olympe : nouveau mot de passe'
      : kind === 'lockout'
        ? 'Olympe : votre lien de connexion'
        : kind === 'invite'
          ? 'Olympe : votre établissement vous a inscrit'
          : 'Olympe : confirmez votre adresse et choisissez un mot de passe';
  const intro =
    kind === 'invite'
      ? `Votre établissement${institutionName ? ` (${institutionName})` : ''} vous a créé un compte sur Olympe, la coupe de sélection de la préparation aux olympiades de mathématiques. Pour l’activer, choisissez votre mot de passe, puis complétez votre profil.`
      : kind === 'lockout'
        ? 'De très nombreux mots de passe erronés ont été essayés sur votre compte Olympe : la connexion par mot de passe est suspendue pour une heure. Ce lien vous connecte tout de suite, en choisissant un nouveau mot de passe.'
        : kind === 'reset'
          ? 'Vous avez demandé à recevoir un nouveau lien pour choisir votre mot de passe.'
          : kind === 'admin'
            ? 'Un compte administrateur Olympe a été créé pour cette adresse.'
            : 'Bienvenue sur Olympe ! Pour terminer votre inscription, choisissez votre mot de passe.';
  const text = `Bonjour,\n\n${intro}\n\nOuvrez ce lien (valable 48 heures, une seule fois) :\n${link}\n\nSi vous n’êtes pas à l’origine de cette demande, ignorez ce message.\n\nL’équipe Olympe`;
  const html = `<p>Bonjour,</p><p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(link)}">Choisir mon mot de passe</a> (lien valable 48 heures, une seule fois)</p><p>Si vous n’êtes pas à l’origine de cette demande, ignorez ce message.</p><p>L’équipe Olympe</p>`;
  return { to, subject, text, html };
}

/**
 * Decision 134: the double opt-in of a family address. Short, and nothing a pupil typed (no name):
 * until the address is confirmed, this is the only mail Olympe sends it.
 */
export function addressConfirmationMail(to: string, link: string): Mail {
  const subject = 'Olympe : confirmez votre adresse';
  const intro =
    'Un élève inscrit sur Olympe, la coupe de sélection de la préparation aux olympiades de mathématiques, a indiqué cette adresse dans son profil (élève ou parent). Pour recevoir ses convocations, confirmez-la.';
  const after = 'Si vous ne connaissez pas cet élève, ignorez ce message : vous ne recevrez rien d’autre.';
  const text = `Bonjour,\n\n${intro}\n\nConfirmez votre adresse :\n${link}\n\n${after}\n\nL’équipe Olympe`;
  const html = `<p>Bonjour,</p><p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(link)}">Confirmez votre adresse</a></p><p>${escapeHtml(after)}</p><p>L’équipe Olympe</p>`;
  return { to, subject, text, html };
}
