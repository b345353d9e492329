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
  // Decision 121: a page's first Intl formatter loads the browser's locale data (15–25 ms on a desktop, four times
  // that on a phone), which a session's screens pay when they first show a date or a number. It is paid here, while
  // the app's code downloads and the main thread waits, not inside the screen's first render: the dates' data in a
  // task, the numbers' in the next, so that a tap waits for one of them at most (at 4× slowdown the dates' task
  // alone takes 70–130 ms, the numbers' a few ms more: decision 122).
  setTimeout(function () {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Paris', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit' }).format(0);
    } catch (e) {
      // A browser without Intl's time zones formats its dates later as it can.
    }
    setTimeout(function () {
      new Intl.NumberFormat('fr-FR').format(0.5);
    }, 0);
  }, 0);
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
