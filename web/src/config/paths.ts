/**
 * Every URL of docs/product.md#spec-2 in one place: `pattern` for the router, builders for links,
 * so a renamed route is changed once.
 */
export const paths = {
  home: '/',
  privacy: '/donnees-personnelles',
  live: (id: string) => `/live/${id}`,
  login: '/login',
  /** The login page that comes back to `returnTo` afterwards (decision 66). */
  loginFor: (returnTo: string) => `/login?retour=${encodeURIComponent(returnTo)}`,
  /** The sign-up page that carries `returnTo` into the e-mailed link. */
  signupFor: (returnTo: string) => `/signup?retour=${encodeURIComponent(returnTo)}`,
  usersImport: '/eleves/import',
  signup: '/signup',
  confirm: '/confirm',
  profile: '/profile',
  chapters: '/chapters',
  groups: '/groups',
  /** Decision 73: deleted chapters and exercises, restorable for 30 days. */
  bin: '/corbeille',
  map: '/map',
  users: (id: string) => `/users/${id}`,
  chapter: (id: string) => `/chapter/${id}`,
  grader: (id: string) => `/grader/${id}`,
  /** Decision 141: the chapters and exercises with copies waiting for the corrector. */
  toGrade: '/a-corriger',
  history: (uid: string, eid: string) => `/history/${uid}/${eid}`,
  // The viewer path is a file path that may contain slashes; it is kept as is.
  viewer: (path: string) => `/viewer/${path.replace(/^\/+/, '')}`,
  exos: (id: string) => `/exos/${id}`,
  access: (id: string) => `/access/${id}`,
  sorting: (id: string) => `/sorting/${id}`,
  overview: (id: string) => `/overview/${id}`,
  analysis: (id: string) => `/analysis/${id}`,
  /** Decision 74: a chapter's regrade requests (correctors and admins); without an id, the chapter to choose. */
  regradeChooser: '/regrade',
  regrade: (id: string) => `/regrade/${id}`,
  /** Decision 75: a chapter's statistics and errata (correctors and admins). */
  statsChooser: '/stats',
  stats: (id: string) => `/stats/${id}`,
  registrations: (id: string) => `/registrations/${id}`,
  /** Selections (docs/product.md#selections): the list, a new one, the jury's board, the settings (admins). */
  selections: '/selections',
  selectionNew: '/selections/new',
  selection: (id: string) => `/selections/${id}`,
  selectionEdit: (id: string) => `/selections/${id}/edit`,
  /** Decision 59: a school's exam day (registered pupils, convocations, attendance). */
  centerDay: (id: string) => `/centre/${id}`,
  /** docs/product.md#selections: a school's qualified pupils, per published selection (staff; admins add ?institution=). */
  schoolSelections: '/selections/school',
  selectionSchool: (id: string) => `/selections/${id}/school`,
} as const;
