import type { Roles } from '../../../session/roles';
import { useSession } from '../../../session/session-context';
import { CenterManagementPanel } from './center-management-panel';
import { CenterSelectionPanel } from './center-selection-panel';

export type PaperPanelKind = 'selection' | 'management' | 'none';

/**
 * docs/product.md#spec-2 / §6: on a paper chapter a pupil, or a teacher who is also a member, chooses a centre;
 * a teacher who is not a member manages their school's centre. Admins see the selection panel
 * with every centre; a member alone has no centre to choose.
 */
export function paperPanelKind(roles: Pick<Roles, 'isAdmin' | 'isMember' | 'isTeacher'>): PaperPanelKind {
  if (roles.isAdmin) return 'selection';
  if (roles.isTeacher) return roles.isMember ? 'selection' : 'management';
  return roles.isMember ? 'none' : 'selection';
}

/** The paper-chapter block of the chapter page (outside analysis mode). */
export function PaperPanel({ chapterId, userId }: { chapterId: string; userId: string }) {
  const { roles } = useSession();
  const kind = paperPanelKind(roles);
  if (kind === 'management') return <CenterManagementPanel chapterId={chapterId} userId={userId} />;
  if (kind === 'selection') return <CenterSelectionPanel chapterId={chapterId} />;
  return null;
}
