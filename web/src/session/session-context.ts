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
  /** Stores the token and loads user, groups and chapters; rejects (after logging out) on failure. */
  login: (token: string) => Promise<void>;
  /** Removes the token and clears the state; navigation is left to the caller. */
  logout: () => void;
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
  logout: () => {},
  reload: async () => {},
};

export const SessionContext = createContext<Session>(LOGGED_OUT);

export function useSession(): Session {
  return useContext(SessionContext);
}
