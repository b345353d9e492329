import { createContext, useContext } from 'react';
import type { ChapterSummary, GroupSummary, User } from '@olympe/contract';
import { NO_ROLES, type Roles } from './roles';

export interface SessionData {
  user: User;
  groups: GroupSummary[];
  chapters: ChapterSummary[];
}

export interface Session {
  token: string | null;
  user: User | null;
  groups: GroupSummary[];
  chapters: ChapterSummary[];
  roles: Roles;
  /** True while the first load after a token is known has not finished. */
  loading: boolean;
  /**
   * Stores the token (and the session's refresh token, decision 136: null forgets the stored one) and loads
   * user, groups and chapters; rejects (after logging out) on failure.
   */
  login: (token: string, refreshToken: string | null) => Promise<void>;
  /**
   * Sends the user's unsent answers, then ends the session on the server (POST /auth/logout) and removes
   * the token, the state and what this browser keeps of their answers; resolves false when the pupil chose
   * to stay. Navigation is left to the caller.
   */
  logout: () => Promise<boolean>;
  /** Reloads user, groups and chapters (e.g. after a profile save). */
  reload: () => Promise<void>;
}

export const LOGGED_OUT: Session = {
  token: null,
  user: null,
  groups: [],
  chapters: [],
  roles: NO_ROLES,
  loading: false,
  login: async () => {},
  logout: async () => true,
  reload: async () => {},
};

export const SessionContext = createContext<Session>(LOGGED_OUT);

export function useSession(): Session {
  return useContext(SessionContext);
}
