import { lazy } from 'react';
import { Later } from '../../../components/later';
import type { Roles } from '../../../session/roles';
import { useSession } from '../../../session/session-context';

// Each panel is its own chunk (decision 117): a pupil's chapter page does not bring the centre's management
// (dates, files, scans) nor, on an online chapter, the centre's choice (select, dialog, map).
const CenterManagementPanel = lazy(() => import('./center-management-panel').then((m) => ({ default: m.CenterManagementPanel })));
const CenterSelectionPanel = lazy(() => import('./center-selection-panel').then((m) => ({ default: m.CenterSelectionPanel })));

/** The centre's choice, loaded as its own chunk: the chapter page's panel, and the profile's (one per paper chapter). */
export function CenterSelection({ chapterId }: { chapterId: string }) {
  return (
    <Later>
      <CenterSelectionPanel chapterId={chapterId} />
    </Later>
  );
}

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
  if (kind === 'none') return null;
  if (kind === 'selection') return <CenterSelection chapterId={chapterId} />;
  return (
    <Later>
      <CenterManagementPanel chapterId={chapterId} userId={userId} />
    </Later>
  );
}
