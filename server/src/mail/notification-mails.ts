import { formatLongFrenchDate, formatSitting, qualifiedText, type CenterDetails } from '@olympe/contract';
import { escapeHtml } from '../http/escape-html.js';

/** The French notification mails, plain text and HTML; reminders carry an unsubscribe link (decision 143). */

export interface MailBody {
  subject: string;
  text: string;
  html: string;
}

const SIGNATURE = 'L’équipe Olympe';

/**
 * The footer: a reminder says how to stop reminders (its link turns the profile's box off); a service mail has
 * no such link, as the box does not govern it (decision 143).
 */
function footer(unsubscribe: string | null): { text: string; html: string } {
  if (!unsubscribe) {
    const note =
      'Ce message concerne une inscription ou une épreuve sur Olympe : il est envoyé même quand les rappels par e-mail sont désactivés.';
    return { text: note, html: escapeHtml(note) };
  }
  const why =
    'Vous recevez ce rappel car les rappels par e-mail sont activés sur votre compte Olympe (les convocations et les résultats sont envoyés dans tous les cas).';
  return {
    text: `${why} Pour ne plus recevoir de rappels : ${unsubscribe}`,
    html: `${escapeHtml(why)} <a href="${escapeHtml(unsubscribe)}">Ne plus recevoir de rappels</a>`,
  };
}

/** Paragraphs to a mail: text joined by blank lines, HTML as <p>, then the footer. */
function compose(
  subject: string,
  greeting: string,
  paragraphs: string[],
  links: { unsubscribe: string | null; action?: { label: string; url: string } },
): MailBody {
  const end = footer(links.unsubscribe);
  const text = [
    greeting,
    ...paragraphs,
    ...(links.action ? [`${links.action.label} : ${links.action.url}`] : []),
    SIGNATURE,
    '—',
    end.text,
  ].join('\n\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    ...paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`),
    ...(links.action ? [`<p><a href="${escapeHtml(links.action.url)}">${escapeHtml(links.action.label)}</a></p>`] : []),
    `<p>${escapeHtml(SIGNATURE)}</p>`,
    `<hr><p style="font-size:12px;color:#555">${end.html}</p>`,
  ].join('\n');
  return { subject: `Olympe : ${subject}`, text, html };
}

const hello = (name: string | null) => (name ? `Bonjour ${name},` : 'Bonjour,');

function whereWhen(centre: string, d: CenterDetails): string[] {
  return [
    `Centre : ${centre}${d.address ? `\nAdresse : ${d.address}` : ''}${d.room ? `\nSalle : ${d.room}` : ''}`,
    d.sittingAt ? `Date : le ${formatSitting(d.sittingAt)} (heure de Paris)` : 'La date sera précisée par le centre.',
    `À apporter : ${d.bring}`,
  ];
}

export interface Links {
  /** Reminders only (decision 143): null for a service mail. */
  unsubscribe: string | null;
  chapter: string;
}

/** Registration confirmed, the convocation attached; sent to the pupil and to the parents' addresses. */
export function convocationMail(
  p: { pupil: string; forParent: boolean; chapter: string; centre: string; details: CenterDetails },
  links: Links,
): MailBody {
  const who = p.forParent ? `${p.pupil} est inscrit(e)` : 'Votre inscription est confirmée';
  return compose(
    `convocation à l’épreuve « ${p.chapter} »`,
    p.forParent ? 'Bonjour,' : hello(p.pupil),
    [
      `${who} pour l’épreuve « ${p.chapter} ».`,
      ...whereWhen(p.centre, p.details),
      'La convocation est jointe à ce message : présentez-la, imprimée ou sur téléphone, à l’entrée de la salle.',
    ],
    { unsubscribe: links.unsubscribe, action: { label: 'Voir l’épreuve sur Olympe', url: links.chapter } },
  );
}

/** The centre's date, address or room changed, or it closed. */
export function centerChangeMail(
  p: { pupil: string | null; chapter: string; centre: string; closed: boolean; details: CenterDetails },
  links: Links,
): MailBody {
  if (p.closed) {
    return compose(
      `le centre ${p.centre} n’accueille plus l’épreuve`,
      hello(p.pupil),
      [
        `Le centre ${p.centre} a indiqué qu’il n’organise plus l’épreuve « ${p.chapter} ».`,
        'Choisissez un autre centre d’examen sur la page de l’épreuve.',
      ],
      { unsubscribe: links.unsubscribe, action: { label: 'Choisir un autre centre', url: links.chapter } },
    );
  }
  return compose(
    `changement pour votre centre d’examen`,
    hello(p.pupil),
    [
      `Le centre ${p.centre} a modifié les informations de l’épreuve « ${p.chapter} ». Les voici à jour :`,
      ...whereWhen(p.centre, p.details),
    ],
    { unsubscribe: links.unsubscribe, action: { label: 'Télécharger la convocation à jour', url: links.chapter } },
  );
}

/**
 * The pupil is no longer registered at a centre (its staff turned them away): which centre, which
 * test, and what to do — choose another centre on the test's page before the sitting.
 */
export function departureMail(
  p: { pupil: string | null; chapter: string; centre: string; sittingAt: string | null; registeredElsewhere: string | null },
  links: Links,
): MailBody {
  const before = p.sittingAt ? ` avant le ${formatSitting(p.sittingAt)} (heure de Paris)` : ' au plus tôt';
  return compose(
    `vous n’êtes plus inscrit(e) au centre ${p.centre}`,
    hello(p.pupil),
    [
      `Le centre ${p.centre} a retiré votre inscription à l’épreuve « ${p.chapter} » : vous n’y êtes plus inscrit(e) et vous ne pouvez pas vous y réinscrire.`,
      p.registeredElsewhere
        ? `Vous êtes inscrit(e) au centre ${p.registeredElsewhere} : vous n’avez rien d’autre à faire.`
        : `Pour passer l’épreuve, choisissez un autre centre d’examen sur la page de l’épreuve${before}.`,
    ],
    { unsubscribe: links.unsubscribe, action: { label: 'Choisir un autre centre', url: links.chapter } },
  );
}

/** A test opens in 24 hours. */
export function openingMail(p: { pupil: string | null; chapter: string; start: string; offline: boolean }, links: Links): MailBody {
  return compose(
    `l’épreuve « ${p.chapter} » ouvre demain`,
    hello(p.pupil),
    [
      `L’épreuve « ${p.chapter} » ouvre le ${formatSitting(p.start)} (heure de Paris).`,
      p.offline
        ? 'Elle se passe sur papier dans votre centre d’examen : vérifiez votre convocation.'
        : 'Elle se passe en ligne sur Olympe : connectez-vous quelques minutes avant.',
    ],
    { unsubscribe: links.unsubscribe, action: { label: 'Voir l’épreuve', url: links.chapter } },
  );
}

/** Results published for a test the pupil took part in. */
export function resultsMail(p: { pupil: string | null; chapter: string }, links: Links): MailBody {
  return compose(`résultats de l’épreuve « ${p.chapter} »`, hello(p.pupil), [`Les résultats de l’épreuve « ${p.chapter} » sont publiés.`], {
    unsubscribe: links.unsubscribe,
    action: { label: 'Voir mes résultats', url: links.chapter },
  });
}

/**
 * A selection's list published (decision 157): « Qualifié(e) pour … » with the category and the next round's date
 * and place, or « Non qualifié(e) »; to the pupil, and to the family addresses they confirmed.
 */
export function selectionMail(
  p: {
    pupil: string | null;
    forFamily: boolean;
    title: string;
    qualified: boolean;
    category: string | null;
    nextRoundTitle: string;
    nextRoundDate: string | null;
    nextRoundPlace: string;
  },
  links: Links,
): MailBody {
  const status = `${qualifiedText(p)}${p.qualified && p.category ? ` (catégorie « ${p.category} »)` : ''}`;
  const whose = p.forFamily ? `Résultat de ${p.pupil ?? 'votre enfant'}` : 'Votre résultat';
  const when = p.nextRoundDate ? `Date : ${formatLongFrenchDate(p.nextRoundDate)}` : '';
  const where = p.nextRoundPlace ? `Lieu : ${p.nextRoundPlace}` : '';
  const body = compose(
    '',
    p.forFamily ? 'Bonjour,' : hello(p.pupil),
    [
      `La liste de la sélection « ${p.title} » est publiée.`,
      `${whose} : ${status}.`,
      ...(p.qualified && (when || where) ? [[when, where].filter(Boolean).join('\n')] : []),
    ],
    { unsubscribe: links.unsubscribe, action: { label: 'Voir le résultat sur Olympe', url: links.chapter } },
  );
  return { ...body, subject: `Sélection « ${p.title} » : résultat` };
}

/** Decision 161: the marking scheme of an exercise changed after publication and the pupil's grade moved. */
export function gradeChangeMail(p: { pupil: string | null; chapter: string; exercise: string }, links: Links): MailBody {
  return compose(
    `note modifiée à l’épreuve « ${p.chapter} »`,
    hello(p.pupil),
    [
      `Le barème de l’exercice « ${p.exercise} » de l’épreuve « ${p.chapter} » a été corrigé et votre note a changé.`,
      'Le changement est inscrit dans l’historique de votre copie.',
    ],
    { unsubscribe: links.unsubscribe, action: { label: 'Voir mes résultats', url: links.chapter } },
  );
}

/** Daily digest to a school's staff: who registered at their centre yesterday, and who left it (turned away). */
export function digestMail(
  p: {
    staff: string | null;
    day: string;
    centres: Array<{ chapter: string; pupils: string[]; departed: string[]; total: number; places: number }>;
  },
  links: Links,
): MailBody {
  const lines = p.centres.map((c) => {
    const departed = c.departed;
    const head = `« ${c.chapter} » : ${c.pupils.length} nouvelle${c.pupils.length > 1 ? 's' : ''} inscription${c.pupils.length > 1 ? 's' : ''}${departed.length > 0 ? `, ${departed.length} départ${departed.length > 1 ? 's' : ''}` : ''} (${c.total} inscrit${c.total > 1 ? 's' : ''} au total, ${c.places} place${c.places > 1 ? 's' : ''} pour les élèves extérieurs)`;
    return [head, ...c.pupils.map((n) => `– ${n}`), ...departed.map((n) => `– ${n} : inscription retirée par le centre`)].join('\n');
  });
  return compose(
    `inscriptions dans votre centre (${p.day})`,
    hello(p.staff),
    [
      `Voici les élèves inscrits dans votre centre le ${p.day}${p.centres.some((c) => c.departed.length > 0) ? ', et ceux qui l’ont quitté' : ''} :`,
      ...lines,
    ],
    { unsubscribe: links.unsubscribe, action: { label: 'Ouvrir la page du centre', url: links.chapter } },
  );
}
