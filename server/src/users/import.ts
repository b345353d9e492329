import type { ImportLine, ImportReport } from '@olympe/contract';
import { eq, inArray } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import { sendPasswordLink } from '../auth/service.js';
import { audit } from '../db/audit.js';
import type { Db, Tx } from '../db/client.js';
import { institutions, jobs, users } from '../db/schema.js';
import type { Deps } from '../deps.js';
import { badRequest, notFound } from '../errors.js';
import { importSchoolOf } from './policies.js';
import { presentImportReport } from './presenters.js';
import type { Job } from '../jobs/queue.js';
import { hitRateLimit, type RateLimiter } from '../http/rate-limit.js';
import { wakeJobWorkers } from '../jobs/worker.js';
import { syncFamilyAddresses } from '../mail/family-addresses.js';
import { type Cell, findColumns, isBlankLine, parsePupilLine, type PupilLine } from './import-rows.js';

/** The background job that mails one imported pupil the link to choose a password. */
export const INVITE_JOB = 'invite-pupil';

/**
 * Decision 134: an address that has an account is « déjà inscrit », whatever its school, as
 * registration answers: a file of guessed addresses must not tell staff who is a pupil where.
 */
export const ALREADY_REGISTERED = 'Déjà inscrit sur Olympe : ce compte n’est pas modifié.';

/**
 * Decision 134: imports (previews included) per school and hour. Each import mails an invitation to
 * every new address of the file, and a confirmation to each new parent's address.
 */
export const IMPORT_LIMIT = {
  limit: 20,
  windowSeconds: 3600,
  message: 'Trop d’imports pour cet établissement en une heure. Réessayez plus tard.',
};

/** Counts one import of the school; past the limit, a 429 before the file is read. */
export async function limitImports(limiter: RateLimiter, schoolId: string): Promise<void> {
  await hitRateLimit(limiter, { key: `users-import:${schoolId}`, ...IMPORT_LIMIT });
}

/** Rows written per statement: 500 × 9 parameters stays far below PostgreSQL's 65,535. */
const BATCH = 500;

/** Which school an import fills (users/policies.ts importSchoolOf), read from the database. */
export async function resolveImportSchool(db: Db, auth: AuthContext, requested: string | undefined): Promise<{ id: string; name: string }> {
  const id = importSchoolOf(auth, requested);
  const [school] = await db.select({ id: institutions.id, name: institutions.name }).from(institutions).where(eq(institutions.id, id));
  if (!school) throw notFound('Établissement introuvable.');
  return school;
}

const pick = (p: PupilLine) => ({ line: p.line, email: p.email, firstName: p.firstName, lastName: p.lastName });

/** The file's lines: each pupil to create, or refused with its reason (a bad line, an address twice in the file). */
function readImportLines(rows: Cell[][]): { lines: ImportLine[]; pupils: PupilLine[] } {
  const [header, ...body] = rows;
  if (!header) throw badRequest('Ce fichier est vide.');
  let columns;
  try {
    columns = findColumns(header);
  } catch (err) {
    throw badRequest((err as Error).message);
  }
  const lines: ImportLine[] = [];
  const pupils: PupilLine[] = [];
  const seen = new Map<string, number>();
  body.forEach((cells, i) => {
    if (isBlankLine(cells)) return;
    const line = i + 2;
    const parsed = parsePupilLine(cells, columns, line);
    if (!parsed.ok) {
      lines.push({
        line,
        email: parsed.email,
        firstName: parsed.firstName,
        lastName: parsed.lastName,
        outcome: 'rejected',
        message: parsed.message,
      });
      return;
    }
    const { pupil } = parsed;
    const earlier = seen.get(pupil.email);
    if (earlier !== undefined) {
      lines.push({ ...pick(pupil), outcome: 'rejected', message: `Adresse déjà présente ligne ${earlier} de ce fichier.` });
      return;
    }
    seen.set(pupil.email, line);
    pupils.push(pupil);
    lines.push({ ...pick(pupil), outcome: 'created' });
  });
  if (lines.length === 0) throw badRequest('Ce fichier ne contient aucun élève sous sa ligne d’en-tête.');
  return { lines, pupils };
}

/**
 * The accounts of the file, BATCH at a time: an address with an account is matched (« existing »), the others
 * are created with their invitation job and family addresses, unless `preview`.
 */
async function writeAccounts(
  db: Tx,
  input: { schoolId: string; preview: boolean; pupils: PupilLine[]; markExisting: (pupil: PupilLine) => void },
) {
  const { pupils, markExisting } = input;
  for (let from = 0; from < pupils.length; from += BATCH) {
    const batch = pupils.slice(from, from + BATCH);
    const known = await db
      .select({ email: users.email })
      .from(users)
      .where(
        inArray(
          users.email,
          batch.map((p) => p.email),
        ),
      );
    const knownEmails = new Set(known.map((k) => k.email));
    const fresh = batch.filter((p) => !knownEmails.has(p.email));
    for (const p of batch) if (knownEmails.has(p.email)) markExisting(p);
    if (input.preview || fresh.length === 0) continue;
    const created = await db
      .insert(users)
      .values(
        fresh.map((p) => ({
          email: p.email,
          firstName: p.firstName,
          lastName: p.lastName,
          birthDate: p.birthDate,
          grade: p.grade,
          gender: p.gender,
          emailParent: p.emailParent,
          institutionId: input.schoolId,
        })),
      )
      // Created meanwhile by a sign-up or a parallel import: matched, not duplicated.
      .onConflictDoNothing()
      .returning({ id: users.id, email: users.email });
    const createdEmails = new Set(created.map((c) => c.email));
    for (const p of fresh) if (!createdEmails.has(p.email)) markExisting(p);
    if (created.length > 0) {
      await db.insert(jobs).values(created.map((c) => ({ kind: INVITE_JOB, payload: { userId: c.id, institutionId: input.schoolId } })));
      // The parents' addresses the file gives are unconfirmed: each gets its confirmation mail (decision 134).
      await syncFamilyAddresses(
        db,
        created.map((c) => c.id),
      );
    }
  }
}

/**
 * POST /users/import (decision 68): every line becomes an account of the school (created), is matched
 * by e-mail to an account that already exists (left as it is: never duplicated, never moved to
 * another school), or is refused with its reason. Importing the same file twice creates nothing.
 * Accounts and their invitation jobs are written in one transaction; the mails leave through the
 * job queue. `preview` answers the same report without writing anything.
 */
export async function importPupils(
  deps: Deps,
  auth: AuthContext,
  input: { school: { id: string; name: string }; rows: Cell[][]; preview: boolean },
): Promise<ImportReport> {
  const { lines, pupils } = readImportLines(input.rows);
  const outcomeOf = new Map(lines.map((l) => [l.line, l]));
  const markExisting = (pupil: PupilLine) => {
    const entry = outcomeOf.get(pupil.line)!;
    entry.outcome = 'existing';
    entry.message = ALREADY_REGISTERED;
  };
  const write = { schoolId: input.school.id, preview: input.preview, pupils, markExisting };
  if (input.preview) await writeAccounts(deps.db, write);
  else {
    await deps.db.transaction(async (tx) => {
      await writeAccounts(tx, write);
      const counts = countOutcomes(lines);
      await audit(tx, auth, 'users.import', input.school.id, {
        created: counts.created,
        existing: counts.existing,
        rejected: counts.rejected,
      });
    });
    wakeJobWorkers();
  }
  return presentImportReport(lines, input.school, input.preview);
}

function countOutcomes(lines: ImportLine[]) {
  const counts = { created: 0, existing: 0, rejected: 0 };
  for (const l of lines) counts[l.outcome]++;
  return counts;
}

/**
 * The invitation job: mails the pupil a 48 h link to choose a password, unless they chose one
 * meanwhile (signed up by themselves). A failed mail throws: the queue tries again later.
 */
export function inviteJobHandler(deps: Deps) {
  return async (job: Job): Promise<Record<string, unknown>> => {
    const userId = String(job.payload.userId);
    const [row] = await deps.db
      .select({ email: users.email, passwordHash: users.passwordHash, school: institutions.name })
      .from(users)
      .leftJoin(institutions, eq(institutions.id, users.institutionId))
      .where(eq(users.id, userId));
    if (!row) return { skipped: 'compte supprimé' };
    if (row.passwordHash) return { skipped: 'mot de passe déjà choisi' };
    await sendPasswordLink(deps, { userId, email: row.email, kind: 'invite', institutionName: row.school ?? undefined });
    return { sent: true };
  };
}
