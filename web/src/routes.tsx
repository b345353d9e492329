import { lazy, type ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { RequireRole } from './layout/require-role';
import { RootLayout } from './layout/root-layout';
import { RouteErrorBoundary } from './layout/route-error';

/**
 * Each screen is its own chunk (React.lazy), so heavy libraries (maps, PDF, KaTeX) load with the
 * route that needs them and never with the home page.
 */
function page<K extends string>(load: () => Promise<{ [P in K]: ComponentType }>, name: K, role?: 'admin' | 'member' | 'teacher') {
  const Page = lazy<ComponentType>(() => load().then((module) => ({ default: module[name] })));
  // A management screen's code is not even loaded for a caller without its role.
  return role ? (
    <RequireRole role={role}>
      <Page />
    </RequireRole>
  ) : (
    <Page />
  );
}

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    children: [
      {
        element: <RouteErrorBoundary />,
        children: [
          { index: true, element: page(() => import('./pages/home/home-page'), 'HomePage') },
          { path: 'login', element: page(() => import('./pages/login/login-page'), 'LoginPage') },
          { path: 'signup', element: page(() => import('./pages/signup/signup-page'), 'SignupPage') },
          { path: 'confirm', element: page(() => import('./pages/confirm/confirm-page'), 'ConfirmPage') },
          { path: 'profile', element: page(() => import('./pages/profile/profile-page'), 'ProfilePage') },
          { path: 'chapters', element: page(() => import('./pages/chapters/chapters-page'), 'ChaptersPage', 'admin') },
          { path: 'groups', element: page(() => import('./pages/groups/groups-page'), 'GroupsPage', 'admin') },
          { path: 'corbeille', element: page(() => import('./pages/bin/bin-page'), 'BinPage', 'admin') },
          { path: 'map', element: page(() => import('./pages/map/map-page'), 'MapPage') },
          { path: 'eleves/import', element: page(() => import('./pages/users-import/users-import-page'), 'UsersImportPage') },
          { path: 'users/:id', id: 'Users', element: page(() => import('./pages/users/users-page'), 'UsersPage', 'admin') },
          {
            path: 'chapter/:id',
            id: 'chapter',
            element: page(() => import('./pages/chapter/chapter-page'), 'ChapterPage'),
          },
          { path: 'a-corriger', element: page(() => import('./pages/to-grade/to-grade-page'), 'ToGradePage', 'member') },
          { path: 'grader/:id', element: page(() => import('./pages/grader/grader-page'), 'GraderPage', 'member') },
          {
            path: 'history/:uid/:eid',
            element: page(() => import('./pages/history/history-page'), 'HistoryPage'),
          },
          // The splat keeps slashes: /viewer/pdfs/2025/a.pdf gives params['*'] = 'pdfs/2025/a.pdf'.
          { path: 'viewer/*', element: page(() => import('./pages/viewer/viewer-page'), 'ViewerPage') },
          { path: 'exos/:id', element: page(() => import('./pages/exos/exos-page'), 'ExosPage', 'admin') },
          { path: 'access/:id', element: page(() => import('./pages/access/access-page'), 'AccessPage', 'admin') },
          { path: 'sorting/:id', element: page(() => import('./pages/sorting/sorting-page'), 'SortingPage', 'member') },
          { path: 'overview/:id', element: page(() => import('./pages/overview/overview-page'), 'OverviewPage', 'member') },
          { path: 'regrade', element: page(() => import('./pages/regrade/regrade-page'), 'RegradeChooserPage', 'member') },
          { path: 'regrade/:id', element: page(() => import('./pages/regrade/regrade-page'), 'RegradePage', 'member') },
          { path: 'stats', element: page(() => import('./pages/stats/stats-page'), 'StatsChooserPage', 'member') },
          { path: 'stats/:id', element: page(() => import('./pages/stats/stats-page'), 'StatsPage', 'member') },
          { path: 'analysis/:id', element: page(() => import('./pages/analysis/analysis-page'), 'AnalysisPage', 'admin') },
          {
            path: 'registrations/:id',
            element: page(() => import('./pages/registrations/registrations-page'), 'RegistrationsPage', 'admin'),
          },
          { path: 'centre/:id', element: page(() => import('./pages/center-day/center-day-page'), 'CenterDayPage', 'teacher') },
          {
            path: 'selections/school',
            element: page(() => import('./pages/selection-school/selection-school-page'), 'SelectionSchoolPage', 'teacher'),
          },
          {
            path: 'selections/:id/school',
            element: page(() => import('./pages/selection-school/selection-school-page'), 'SelectionSchoolPage', 'teacher'),
          },
          { path: 'donnees-personnelles', element: page(() => import('./pages/privacy/privacy-page'), 'PrivacyPage') },
          // A jury member need not be a corrector: the pages say the server's refusal to who is on no jury (decision 155).
          { path: 'selections', element: page(() => import('./pages/selections/selections-page'), 'SelectionsPage') },
          { path: 'selections/new', element: page(() => import('./pages/selections/selection-form-page'), 'NewSelectionPage', 'admin') },
          {
            path: 'selections/:id/edit',
            element: page(() => import('./pages/selections/selection-form-page'), 'EditSelectionPage', 'admin'),
          },
          { path: 'selections/:id', element: page(() => import('./pages/selections/board-page'), 'SelectionBoardPage') },
          { path: 'live/:id', element: page(() => import('./pages/live/live-page'), 'LivePage', 'admin') },
          { path: '*', element: page(() => import('./pages/not-found/not-found-page'), 'NotFoundPage') },
        ],
      },
    ],
  },
];
