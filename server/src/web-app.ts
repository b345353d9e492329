import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import { SIGNED_IN_COOKIE, type PublicConfig } from '@olympe/contract/public-config';
import type { FastifyInstance } from 'fastify';
import { notFound } from './errors.js';
import { sendError } from './http/errors.js';
import { escapeHtml } from './http/escape-html.js';

/** The meta tag that carries the public config in the page (web/src/api/config.ts reads it). */
export const CONFIG_META = 'olympe-config';

/** A session is kept in this browser (web/src/session/token.ts): no visitor's screen in its pages. */
const SIGNED_IN = new RegExp(`(?:^|;\\s*)${SIGNED_IN_COOKIE}=`);

/** The server bundle `vite build --ssr src/prerender.tsx` writes beside the app (web/src/prerender.tsx). */
interface PrerenderModule {
  PRERENDERED_PATHS: string[];
  renderScreen(urlPath: string, config: PublicConfig): Promise<string>;
  renderSessionShell?(config: PublicConfig): Promise<string>;
}

/** The key of the signed-in browser's frame among the rendered screens (decision 120); never a path. */
export const SESSION_SHELL = 'session';

/**
 * The visitor's screens rendered once at start (decision 117), by path. Empty without the server bundle
 * (a build without it, the tests' fake builds) or if rendering fails: the pages are then sent without them and
 * the app draws everything, as before.
 */
export function renderVisitorScreens(
  webDist: string,
  publicConfig: PublicConfig,
  warn: (message: string) => void,
): Promise<ReadonlyMap<string, string>> {
  const file = path.join(webDist, 'ssr', 'prerender.js');
  if (!existsSync(file)) return Promise.resolve(new Map());
  // Once per build and config in a process (the API tests build many apps on one build).
  const key = `${file} ${JSON.stringify(publicConfig)}`;
  let screens = renderedScreens.get(key);
  if (screens === undefined) {
    screens = renderScreens(file, publicConfig).catch((error: unknown) => {
      warn(`Pages sans écran pré-rendu : ${error instanceof Error ? error.message : String(error)}`);
      renderedScreens.delete(key);
      return new Map<string, string>();
    });
    renderedScreens.set(key, screens);
  }
  return screens;
}

const renderedScreens = new Map<string, Promise<ReadonlyMap<string, string>>>();

async function renderScreens(file: string, publicConfig: PublicConfig): Promise<Map<string, string>> {
  const bundle = (await import(pathToFileURL(file).href)) as PrerenderModule;
  // The first render loads the screen's lazy chunks; the second finds them loaded and writes them in place.
  const settled = async (render: () => Promise<string>) => {
    await render();
    return render();
  };
  const screens = new Map<string, string>();
  for (const urlPath of bundle.PRERENDERED_PATHS) screens.set(urlPath, await settled(() => bundle.renderScreen(urlPath, publicConfig)));
  const { renderSessionShell } = bundle;
  if (renderSessionShell) screens.set(SESSION_SHELL, await settled(() => renderSessionShell(publicConfig)));
  return screens;
}

/** `/chapter/:id` → a RegExp matching the paths of that route (`*` matches the rest, slashes included). */
function routePattern(route: string): RegExp {
  const body = route
    .split('/')
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}/?$`);
}

/** What web/public/boot.js looks for (it repeats these two names): the app's script and preloads, not yet fetched. */
const PARKED_SCRIPT_TYPE = 'olympe/after-first-paint';
const PARKED_PRELOAD_REL = 'olympe-after-first-paint';

/**
 * Decision 118: a page that carries its screen asks for the app's code only once that screen is painted. The
 * module script and the modulepreloads get a type and a rel the browser does not know, so it fetches neither;
 * web/public/boot.js puts them back after the first paint. On a slow network the screen's stylesheet no longer
 * shares the line with 100 kB of script, and the reader sees the page sooner; the app then takes it over.
 */
function parkAppScripts(page: string): string {
  return rewriteAppScripts(page, `<script type="${PARKED_SCRIPT_TYPE}"`, `<link rel="${PARKED_PRELOAD_REL}"`);
}

/**
 * Decision 127: a session's frame is painted once the stylesheet has arrived, and its app's code is asked for at
 * once but after the stylesheet (`fetchpriority="low"`): on a slow network the frame no longer waits for 150 kB of
 * script sharing the line, and the app's code still starts downloading with the page, not after a paint (the app
 * is what shows the pupil's own screen, so it is not held back as behind a visitor's screen).
 */
function lowerAppScripts(page: string): string {
  return rewriteAppScripts(page, '<script type="module" fetchpriority="low"', '<link rel="modulepreload" fetchpriority="low"');
}

/** The built page with the opening of its module script and of each modulepreload (as Vite writes them) replaced. */
function rewriteAppScripts(page: string, script: string, preload: string): string {
  return page.replace(/<script type="module"/g, script).replace(/<link rel="modulepreload"/g, preload);
}

/**
 * The page of a path: the built index.html with the public config in a meta tag (the app does not wait
 * for GET /api/config) and a modulepreload of the screen's chunks (route-chunks.json, written by
 * web/vite-first-load.ts), so they download beside the entry instead of after it has run (decision 96).
 * No inline script: the CSP stays `script-src 'self'`.
 */
export function pageRenderer(
  webDist: string,
  publicConfig: PublicConfig,
  screens: ReadonlyMap<string, string> = new Map(),
): (urlPath: string, signedIn: boolean) => string {
  const html = readFileSync(path.join(webDist, 'index.html'), 'utf8');
  const manifestFile = path.join(webDist, 'route-chunks.json');
  const manifest: Record<string, string[]> = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : {};
  // The catch-all route (the not-found screen) is tried last.
  const routes = Object.entries(manifest)
    .sort(([a], [b]) => Number(a === '/*') - Number(b === '/*'))
    .map(([route, files]) => ({ route, pattern: routePattern(route), files }));
  const meta = `<meta name="${CONFIG_META}" content="${escapeHtml(JSON.stringify(publicConfig))}">`;
  const pages = new Map<string, string>();
  return (urlPath, signedIn) => {
    const route = routes.find((r) => r.pattern.test(urlPath));
    // A visitor's screen only on its exact path (`/login/` or `/login?x` are the same screen), never to a session.
    const normalised = urlPath.length > 1 ? urlPath.replace(/\/$/, '') : urlPath;
    const screen = signedIn ? undefined : screens.get(normalised);
    // Decision 120: a signed-in browser gets the frame its pages show while the session loads.
    const shell = signedIn ? screens.get(SESSION_SHELL) : undefined;
    const key = `${route?.route ?? ''} ${screen === undefined ? '' : normalised} ${shell === undefined ? '' : SESSION_SHELL}`;
    let page = pages.get(key);
    if (page === undefined) {
      // A screen's stylesheet is linked as the app would link it (Vite's loader then finds it there and adds none).
      const preloads = (route?.files ?? [])
        .map((file) =>
          file.endsWith('.css')
            ? `<link rel="stylesheet" crossorigin href="${file}">`
            : `<link rel="modulepreload" crossorigin href="${file}">`,
        )
        .join('');
      page = html.replace('</head>', `${meta}${preloads}</head>`);
      if (screen !== undefined) {
        // data-screen: the app hydrates this HTML only on that path (web/src/main.tsx); the service worker's copy
        // of a page may be opened at another one.
        page = parkAppScripts(page).replace(
          '<div id="root"></div>',
          `<div id="root" data-screen="${escapeHtml(normalised)}">${screen}</div>`,
        );
      } else if (shell !== undefined) {
        // The app replaces it at its first render (web/src/main.tsx); its code comes after the frame's stylesheet.
        page = lowerAppScripts(page).replace('<div id="root"></div>', `<div id="root" data-shell="${SESSION_SHELL}">${shell}</div>`);
      }
      pages.set(key, page);
    }
    return page;
  };
}

/** Production: the built SPA at /, with history fallback; /api/* unknown routes stay JSON 404s. */
export async function serveWebApp(app: FastifyInstance, webDist: string | undefined, publicConfig: PublicConfig) {
  const hasWeb = !!webDist && existsSync(path.join(webDist, 'index.html'));
  const screens = hasWeb
    ? await renderVisitorScreens(webDist, publicConfig, (message) => app.log.warn(message))
    : new Map<string, string>();
  const renderPage = hasWeb ? pageRenderer(webDist, publicConfig, screens) : undefined;
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      // `/` is a screen like the others: its page is rendered below, not sent as built.
      index: false,
      // The build writes a .br and a .gz of each file (web/vite-first-load.ts): sent as they are.
      preCompressed: true,
      // The server's own bundle (decision 117) is not part of the site.
      allowedPath: (pathName) => !pathName.startsWith('/ssr/'),
      setHeaders: (res, file) => {
        if (file.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    // HEAD too: `/` answered HEAD when @fastify/static sent it as built.
    if (renderPage && (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api')) {
      const urlPath = request.url.split('?')[0];
      const signedIn = SIGNED_IN.test(request.headers.cookie ?? '');
      return (
        reply
          .header('cache-control', 'no-cache')
          // The same address gives a visitor's screen or an empty one, by that cookie.
          .header('vary', 'Cookie')
          .type('text/html; charset=utf-8')
          .send(renderPage(urlPath, signedIn))
      );
    }
    return sendError(reply, notFound('Adresse inconnue.'));
  });
}
