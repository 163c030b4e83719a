// Runs in <head>, synchronously, before the body paints (a classic script:
// the Content-Security-Policy forbids inline script). It marks <html> with
// the language the page opens in (the URL's lang=, else the one remembered,
// else English) and the route: data-route="start" on the start page as a
// first visit opens it (`#/`, no hash, or only a lang=), where the
// stylesheet shows the static start page of that language that the build
// wrote into #boot (src/prerender.rs); anywhere else the boot line.
// web/boot.js takes the language from here. Until the app mounts (it
// removes #boot), a click on a static card moves the mark with the hash.
(() => {
  const root = document.documentElement;
  const mark = () => {
    if (!document.getElementById('boot') && document.body) return removeEventListener('hashchange', mark);
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
    root.dataset.route = (path === '' || path === '/') && plain ? 'start' : 'other';
  };
  mark();
  addEventListener('hashchange', mark);
})();
