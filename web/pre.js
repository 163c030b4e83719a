// Runs in <head>, synchronously, before the body paints (a classic script:
// the Content-Security-Policy forbids inline script). It marks <html> with
// the language the page opens in (the URL's lang=, else the one remembered,
// else English) and the route: data-route="start" on the start page as a
// first visit opens it (`#/`, no hash, or only a lang=), where the
// stylesheet shows the static start page of that language that the build
// wrote into #boot (src/prerender.rs); anywhere else the boot line.
// On a plain URL of a topic route that has a static snapshot (no query but
// lang=; the routes and the build are on this script's tag, written by the
// build, src/prerender/snap.rs), it fetches that panel's snapshot for this
// language and screen class at once and puts it into #boot
// (data-route="snap"), shown until the app has rendered the panel (it
// removes #boot then; the app mounts hidden under it, style/main.css).
// web/boot.js takes the language from here. Until the app mounts (it
// removes #boot), a click on a static card moves the mark with the hash.
(() => {
  const root = document.documentElement;
  const tag = document.currentScript;
  const build = tag && tag.dataset.snap;
  const snapRoutes = ((tag && tag.dataset.snapRoutes) || '').split(' ').filter(Boolean);
  // The snapshot put into #boot, as "<route> <lang>" (one a page: the app takes over soon).
  let shown = null;
  const fetched = new Set();
  const snap = (route, lang) => {
    // A page the service worker serves has the app in its cache (it starts in
    // a moment, and offline there is no snapshot to fetch): none there.
    if (navigator.serviceWorker?.controller) return;
    const want = `${route} ${lang}`;
    if (shown === want) { root.dataset.route = 'snap'; return; }
    if (fetched.has(want) || shown) return;
    fetched.add(want);
    const wide = matchMedia('(min-width: 900px)').matches ? 'wide' : 'narrow';
    fetch(`./snap/${route}.${lang}.${wide}-${build}.html`)
      .then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status)))))
      .then((html) => {
        const put = () => {
          const boot = document.getElementById('boot');
          if (!boot || boot.getAttribute('role') === 'alert' || shown) return;
          boot.insertAdjacentHTML('beforeend', html);
          shown = want;
          mark();
        };
        if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', put, { once: true });
        else put();
      })
      .catch(() => { /* no snapshot: the boot line until the app is in */ });
  };
  const mark = () => {
    const boot = document.getElementById('boot');
    if (!boot && document.body) return removeEventListener('hashchange', mark);
    // The app is mounted under a panel's snapshot (it removes #boot when the
    // panel is in): a navigation before that leaves the snapshot.
    if (boot && document.querySelector('#app-root > .app')) { boot.remove(); return removeEventListener('hashchange', mark); }
    const [path, query = ''] = location.hash.slice(1).split('?');
    const params = new URLSearchParams(query);
    const asked = params.getAll('lang');
    let remembered = null;
    try { remembered = JSON.parse(localStorage.getItem('warpscope.lang')); } catch { /* no storage */ }
    const ok = (l) => l === 'en' || l === 'zh';
    const lang = ok(asked[asked.length - 1]) ? asked[asked.length - 1] : ok(remembered) ? remembered : 'en';
    // Anything else in the query (present=, deck=, a bad or repeated lang=)
    // changes the app's first render (a mode, a notice): no static page there.
    const plain = [...params.keys()].every((k) => k === 'lang') && asked.length <= 1 && (!asked.length || ok(asked[0]));
    root.lang = lang === 'zh' ? 'zh-CN' : 'en';
    root.dataset.lang = lang;
    const route = path.replace(/^\//, '');
    root.dataset.route = (path === '' || path === '/') && plain ? 'start' : 'other';
    if (plain && build && snapRoutes.includes(route)) snap(route, lang);
  };
  mark();
  addEventListener('hashchange', mark);
})();
