// Decision 97: the session's three calls (docs/product.md#spec-7: PUT /auth/me, GET /group, GET /chapter)
// leave as soon as the page is read, not after the app's script has downloaded and run. This file runs first
// (a deferred classic script placed before the app's module script, which runs after it in document order; no
// inline script: the CSP stays `script-src 'self'`). The app's
// HTTP client (web/src/api/early-requests.ts) takes each answer once, for this same token only, and reads it
// as it reads any other: a refusal ends the session, a network failure is retried with a new call.
(function () {
  var token;
  try {
    token = localStorage.getItem('jwt');
  } catch (e) {
    return;
  }
  if (!token) return;
  // Decision 117: a session the server did not know of (kept from before the cookie existed) gets its cookie,
  // and the visitor's screen the page carries is not shown to it while the app loads.
  if (document.cookie.indexOf('olympe_signed_in=') === -1) {
    document.cookie = 'olympe_signed_in=1; Max-Age=31536000; Path=/; SameSite=Lax' + (location.protocol === 'https:' ? '; Secure' : '');
  }
  var root = document.getElementById('root');
  if (root && root.dataset.screen) root.replaceChildren();
  var responses = {};
  function send(method, path, body) {
    var headers = { Authorization: 'Bearer ' + token };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    var response = fetch('/api' + path, { method: method, headers: headers, body: body });
    // Taken later by the app; until then a failure must not show as an unhandled rejection.
    response.catch(function () {});
    responses[method + ' /api' + path + ' ' + (body === undefined ? '' : body)] = response;
  }
  send('PUT', '/auth/me', '{}');
  send('GET', '/group');
  send('GET', '/chapter');
  // A chapter's page asks for its exercises at once too. Not for its session state: the countdown counts the time
  // left from when that answer arrives, and an answer kept waiting would give the pupil seconds they do not have.
  var chapter = /^\/chapter\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(location.pathname);
  if (chapter) send('GET', '/exos/chapter/' + chapter[1]);
  window.olympeEarly = { token: token, responses: responses };
  // Nothing here makes an Intl object (decision 123): a page's first one loads the browser's locale data, a 70–230 ms
  // task on a phone, and the session's first screens need none (Paris dates come from the summer-time rule,
  // contract/src/dates.ts).
})();

// Decision 118: a page that carries its screen (rendered by the server, decision 117) holds back the app's code
// until that screen is painted: the server gave the module script and its preloads a type and a rel the browser
// does not fetch. They are put back here, after the first paint, or at once when there is no screen to show (a
// session emptied it above). A hidden tab paints nothing: the timer starts the app there.
(function () {
  var parked = document.querySelectorAll('script[type="olympe/after-first-paint"], link[rel="olympe-after-first-paint"]');
  if (parked.length === 0) return;
  var started = false;
  function start() {
    if (started) return;
    started = true;
    for (var i = 0; i < parked.length; i++) {
      var old = parked[i];
      var element;
      if (old.tagName === 'SCRIPT') {
        element = document.createElement('script');
        element.type = 'module';
        element.src = old.getAttribute('src');
      } else {
        element = document.createElement('link');
        element.rel = 'modulepreload';
        element.href = old.getAttribute('href');
      }
      element.crossOrigin = 'anonymous';
      old.replaceWith(element);
    }
  }
  var root = document.getElementById('root');
  if (!root || !root.firstElementChild || root.dataset.screen !== location.pathname) return start();
  requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
  setTimeout(start, 500);
})();
