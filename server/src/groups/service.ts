import { isReservedGroupName, type GroupDetail, type GroupSummary } from '@olympe/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Db, Tx } from '../db/client.js';
import { rows } from '../db/query.js';
import { groupMembers, groups, institutions, MEMBERS_GROUP_ID, TEACHERS_GROUP_ID, users } from '../db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { presentGroupMember } from '../users/presenters.js';
import { audit } from '../db/audit.js';
import { canSeeEveryGroup } from './policies.js';

/** GET /group: the caller's own groups; admins see every group. */
export async function listVisibleGroups(db: Db, auth: AuthContext): Promise<GroupSummary[]> {
  const rows = canSeeEveryGroup(auth)
    ? await db.select({ id: groups.id, name: groups.name }).from(groups).orderBy(asc(groups.createdAt), asc(groups.name))
    : await db
        .select({ id: groups.id, name: groups.name })
        .from(groups)
        .innerJoin(groupMembers, eq(groupMembers.groupId, groups.id))
        .where(eq(groupMembers.userId, auth.userId))
        .orderBy(asc(groups.name));
  return rows.map((g) => ({ _id: g.id, name: g.name }));
}

async function findGroup(db: Tx, id: string, lock = false) {
  const query = db.select({ id: groups.id, name: groups.name, systemKey: groups.systemKey }).from(groups).where(eq(groups.id, id));
  const [group] = lock ? await query.for('update') : await query;
  if (!group) throw notFound('Groupe introuvable.');
  return group;
}

/** GET /group/{id}: the group and its members with their institution (one query, any size). */
export async function getGroupDetail(db: Db, id: string): Promise<GroupDetail> {
  const group = await findGroup(db, id);
  const rows = await db
    .select({
      user: {
        id: users.id,
        email: users.email,
        emailStudent: users.emailStudent,
        emailParent: users.emailParent,
        emailOtherParent: users.emailOtherParent,
        firstName: users.firstName,
        lastName: users.lastName,
        birthDate: users.birthDate,
        gender: users.gender,
        grade: users.grade,
        defaultChoice: users.defaultChoice,
        emailNotifications: users.emailNotifications,
        isAdmin: users.isAdmin,
        extraTimePercent: users.extraTimePercent,
      },
      institution: { id: institutions.id, name: institutions.name, email: institutions.email },
    })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .leftJoin(institutions, eq(institutions.id, users.institutionId))
    .where(eq(groupMembers.groupId, id))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.email));
  return {
    _id: group.id,
    name: group.name,
    system: group.systemKey !== null,
    members: rows.map((r) => presentGroupMember(r.user, r.institution)),
  };
}

/** Group names are unique (case-insensitive) and 'teachers'/'members' belong to the role groups only. */
async function assertNameFree(db: Tx, name: string, exceptId: string | null) {
  if (isReservedGroupName(name)) throw conflict(`Le nom « ${name} » est réservé à un groupe du système.`);
  const clash = await db
    .select({ id: groups.id })
    .from(groups)
    .where(and(sql`lower(${groups.name}) = lower(${name})`, exceptId ? sql`${groups.id} <> ${exceptId}` : undefined))
    .limit(1);
  if (clash.length > 0) throw conflict(`Un groupe s’appelle déjà « ${name} ».`);
}

/** POST /group: a new empty group. */
export async function createGroup(db: Db, auth: AuthContext, name: string): Promise<GroupSummary> {
  return db.transaction(async (tx) => {
    await assertNameFree(tx, name, null);
    const [row] = await tx.insert(groups).values({ name }).returning({ id: groups.id, name: groups.name });
    await audit(tx, auth, 'group.create', row.id, { name });
    return { _id: row.id, name: row.name };
  });
}

/** PATCH /group/{id} with a name. The role groups keep their names (the app reads roles from them). */
export async function renameGroup(db: Db, auth: AuthContext, id: string, name: string): Promise<void> {
  await db.transaction(async (tx) => {
    const group = await findGroup(tx, id, true);
    if (group.name === name) return;
    if (group.systemKey) throw forbidden(`Le groupe « ${group.name} » ne peut pas être renommé.`);
    await assertNameFree(tx, name, id);
    await tx.update(groups).set({ name }).where(eq(groups.id, id));
    await audit(tx, auth, 'group.rename', id, { from: group.name, to: name });
  });
}

/** DELETE /group/{id}. The role groups cannot be deleted (docs/product.md#design-3). */
export async function deleteGroup(db: Db, auth: AuthContext, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const group = await findGroup(tx, id, true);
    if (group.systemKey || id === TEACHERS_GROUP_ID || id === MEMBERS_GROUP_ID) {
      throw forbidden(`Le groupe « ${group.name} » ne peut pas être supprimé.`);
    }
    await tx.delete(groups).where(eq(groups.id, id));
    await audit(tx, auth, 'group.delete', id, { name: group.name });
  });
}

export type SetMembersResult = { added: number; removed: number };

const SHOWN_UNKNOWN = 20;

/** Names the unknown e-mails (the first 20 in the message; `unknown` carries them all). */
function unknownEmailsMessage(unknown: string[]): string {
  const n = unknown.length;
  const shown = unknown.slice(0, SHOWN_UNKNOWN).join(', ') + (n > SHOWN_UNKNOWN ? ` et ${n - SHOWN_UNKNOWN} autres` : '');
  const head = n > 1 ? `${n} adresses ne correspondent à aucun compte` : 'Une adresse ne correspond à aucun compte';
  return `${head} : ${shown}. Aucune modification enregistrée.`;
}

/**
 * PATCH /group/{id} with members: the list is the whole new membership (docs/product.md#spec-7). If any e-mail
 * matches no account, nothing changes and the refusal lists the unknown e-mails, so none is silently dropped.
 * The list travels as one JSON parameter: 10,000 addresses stay one statement on either driver.
 */
const userIdRow = z.object({ user_id: z.string() });

export async function setGroupMembers(db: Db, auth: AuthContext, id: string, emails: string[]): Promise<SetMembersResult> {
  const list = JSON.stringify([...new Set(emails.map((e) => e.trim().toLowerCase()).filter(Boolean))]);
  const wanted = sql`(SELECT value FROM jsonb_array_elements_text(${list}::jsonb))`;
  return db.transaction(async (tx) => {
    const group = await findGroup(tx, id, true);
    const unknown = await rows(
      tx,
      z.object({ email: z.string() }),
      sql`
      SELECT e.value AS email FROM jsonb_array_elements_text(${list}::jsonb) AS e
      WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.email = e.value)`,
    );
    if (unknown.length > 0) {
      const emails = unknown.map((r) => r.email);
      throw badRequest(unknownEmailsMessage(emails), 'bad_request', { unknown: emails });
    }

    const removed = await rows(
      tx,
      userIdRow,
      sql`
      DELETE FROM group_members gm WHERE gm.group_id = ${id}
        AND gm.user_id NOT IN (SELECT u.id FROM users u WHERE u.email IN ${wanted})
      RETURNING gm.user_id`,
    );
    const added = await rows(
      tx,
      userIdRow,
      sql`
      INSERT INTO group_members (group_id, user_id)
        SELECT ${id}::uuid, u.id FROM users u WHERE u.email IN ${wanted}
      ON CONFLICT DO NOTHING
      RETURNING user_id`,
    );
    if (added.length + removed.length > 0) {
      // Membership of teachers/members grants roles: who changed it is kept.
      await audit(tx, auth, 'group.members', id, {
        name: group.name,
        added: added.map((r) => r.user_id),
        removed: removed.map((r) => r.user_id),
      });
    }
    return { added: added.length, removed: removed.length };
  });
}

/** Role flags of any user, as the auth context computes them for the caller. */
export async function rolesOf(db: Db, userId: string): Promise<{ isMember: boolean; isTeacher: boolean }> {
  const rows = await db
    .select({ groupId: groupMembers.groupId })
    .from(groupMembers)
    .where(and(eq(groupMembers.userId, userId), sql`${groupMembers.groupId} IN (${TEACHERS_GROUP_ID}, ${MEMBERS_GROUP_ID})`));
  return {
    isMember: rows.some((r) => r.groupId === MEMBERS_GROUP_ID),
    isTeacher: rows.some((r) => r.groupId === TEACHERS_GROUP_ID),
  };
}
