// axsnap change signal and capture helpers. Runs in the isolated world "axsnap" of every frame,
// so page scripts cannot see or break it. It counts every event that may change what a capture
// shows (a generation counter) and answers read() with that count plus what cannot be counted
// (form values set from script, window scroll, running animations).
(() => {
  if (window.__axsnap) return;
  const MARK = 'data-axsnap-cover';
  const SCROLL = 'data-axsnap-scroll';
  const CHECKED = 'data-axsnap-scroll-checked';
  const COVERING = 'data-axsnap-covering';
  const S = {
    token: Math.random().toString(36).slice(2) + ':' + performance.timeOrigin,
    gen: 0,
    openRoots: 0,
    closedRoots: 0,
  };
  window.__axsnap = S;
  const roots = new WeakSet();
  const openList = [];
  const opts = { childList: true, subtree: true, attributes: true, characterData: true };
  const bump = () => { S.gen++; };
  const scan = (n) => {
    if (!n || n.nodeType !== 1) return;
    if (n.shadowRoot) observe(n.shadowRoot);
    if (n.firstElementChild) {
      for (const e of n.querySelectorAll('*')) if (e.shadowRoot) observe(e.shadowRoot);
    }
  };
  const mo = new MutationObserver((records) => {
    for (const r of records) {
      // Our own marks (obscured, scrollable) are not changes.
      if (r.type === 'attributes' && (r.attributeName === MARK || r.attributeName === SCROLL ||
        r.attributeName === CHECKED || r.attributeName === COVERING)) continue;
      S.gen++;
      if (r.type === 'childList') for (const n of r.addedNodes) scan(n);
    }
  });
  // Observes `first` and the open shadow roots inside it, at any nesting: a work list, not
  // recursion (a page can nest shadow roots deeper than the script stack goes).
  function observe(first) {
    const work = [first];
    while (work.length) {
      const root = work.pop();
      if (roots.has(root)) continue;
      roots.add(root);
      mo.observe(root, opts);
      if (root !== document) {
        S.openRoots++;
        openList.push(new WeakRef(root));
        for (const e of root.querySelectorAll('*')) if (e.shadowRoot) work.push(e.shadowRoot);
      }
    }
  }
  observe(document);
  // What the first look misses, begin() and the observer find later; the helpers below must
  // exist whatever it meets.
  try { scan(document.documentElement); } catch (_) {}
  // While the parser runs, a declarative shadow root can be attached after its host was
  // reported, so capture looks again (begin()); once parsing is done, shadow roots only come
  // with inserted nodes, which the observer scans. One last look when the parser finishes.
  let parsing = document.readyState === 'loading';
  if (parsing) {
    document.addEventListener('DOMContentLoaded', () => {
      parsing = false;
      try { scan(document.documentElement); } catch (_) {}
    }, { capture: true, once: true });
  }
  const events = ['input', 'change', 'focusin', 'focusout', 'scroll', 'mouseover', 'mouseout',
    'transitionrun', 'transitionstart', 'transitionend', 'transitioncancel', 'animationstart',
    'animationend', 'animationiteration', 'animationcancel', 'toggle', 'resize', 'hashchange',
    'popstate', 'pageshow', 'load', 'fullscreenchange', 'visibilitychange', '__axsnap_bump'];
  for (const t of events) window.addEventListener(t, bump, { capture: true, passive: true });
  // The main-world shim announces shadow roots made with attachShadow on their host.
  window.addEventListener('__axsnap_shadow', (e) => {
    S.gen++;
    const host = e.composedPath()[0];
    if (host && host.shadowRoot) observe(host.shadowRoot);
  }, { capture: true });
  window.addEventListener('__axsnap_closed_root', () => { S.gen++; S.closedRoots++; }, { capture: true });
  if (document.fonts) document.fonts.addEventListener('loadingdone', bump);

  // Form state that script can change without any event or mutation.
  const inputs = document.getElementsByTagName('input');
  const selects = document.getElementsByTagName('select');
  const areas = document.getElementsByTagName('textarea');
  const mix = (h, s) => {
    for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
    return h;
  };
  const formState = () => {
    let h = 7;
    for (const e of inputs) {
      h = mix(h, e.type === 'password' ? String(e.value.length) : e.value);
      h = (h * 3 + (e.checked ? 1 : 0) + (e.indeterminate ? 2 : 0)) | 0;
    }
    for (const e of selects) h = mix(h, String(e.selectedIndex) + ',' + e.value);
    for (const e of areas) h = mix(h, e.value);
    return h;
  };
  const animating = () => {
    try {
      return document.getAnimations().some((a) => a.playState === 'running');
    } catch (_) {
      return true;
    }
  };
  // Focus can move without a focus event (an unfocused window gets none): compare the active
  // element, through open shadow roots, with the one seen last.
  let lastActive = null;
  const activeNow = () => {
    let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  };
  S.read = () => {
    const a = activeNow();
    if (a !== lastActive) {
      lastActive = a;
      S.gen++;
    }
    return S.snapshot();
  };
  S.snapshot = () => ({
    token: S.token,
    gen: S.gen,
    form: formState(),
    sx: window.scrollX,
    sy: window.scrollY,
    anim: animating(),
    open: S.openRoots,
    closed: S.closedRoots,
    focus: document.hasFocus(),
  });

  // Capture helpers. begin() comes before the accessibility tree is read: it finds shadow
  // roots attached since the last look and returns read() plus the element count (capture
  // orders its calls by page size). mark() comes after, just before the DOM snapshot: it marks
  // actionable elements in the viewport whose centre hit-tests to another element, and the
  // snapshot reads the mark. Hit-testing costs ~1.5 ms per element on a large page, so only
  // elements whose centre is in the viewport are tested.
  const ARIA_SEL = '[role],[aria-label],[aria-labelledby],[aria-describedby],[aria-owns],' +
    '[aria-activedescendant],[aria-controls]';
  const SEL = 'a[href],button,input,select,textarea,summary,[role],[tabindex],[contenteditable=""],' +
    '[contenteditable="true"],[onclick]';
  const marked = [];
  const covers = [];
  // Whether `a` holds `b`, across shadow roots: a shadow host holds what its root draws.
  const holds = (a, b) => {
    for (let n = b; n; n = n.parentNode || n.host) if (n === a) return true;
    return false;
  };
  const up = (n) => n.parentElement || (n.parentNode && n.parentNode.host) || null;
  // The element drawn at a point, looked for inside shadow roots: a menu a component draws in
  // a shadow root of its own is otherwise hit as its host, and the cover found from the host
  // was a pane of the app around it (a code editor's context menu covered through its host
  // made three workbench panes covers, and their contents moved under them).
  const hitAt = (root, x, y) => {
    let hit = root.elementFromPoint(x, y);
    for (let depth = 0; hit && hit.shadowRoot && depth < 32; depth++) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  };
  // What covers `el` when `hit` is on top of it: going up from `hit` to just below the
  // ancestor it shares with `el`, the nearest fixed layer (a menu's or a dialog's own, which
  // escapes the panes it is written in), else the outermost positioned one (a dropdown, a
  // modal's backdrop), else the top of that branch. One cover then stands for all it covers.
  const coverOf = (hit, el, seen) => {
    const known = seen.get(hit);
    if (known && !holds(known, el)) return known;
    let top = hit, layer = null, fixed = null;
    for (let n = hit; n && n.nodeType === 1 && !holds(n, el); n = up(n)) {
      top = n;
      const pos = getComputedStyle(n).position;
      if (pos === 'fixed' && !fixed) fixed = n;
      if (pos === 'fixed' || pos === 'absolute' || pos === 'sticky') layer = n;
    }
    const c = fixed || layer || top;
    seen.set(hit, c);
    return c;
  };
  // Most time the hit tests of one mark() take: in a deep inline chain (1,500 links nested in
  // code spans) each box and hit test walks the chain, and testing them all took 5.6 s, more
  // than a capture's deadline on a busy machine. Past it the rest count as uncovered; a click
  // still hit-tests its target before it acts.
  const MARK_MS = 1000;
  const markIn = (root, vw, vh, stop) => {
    const seen = new Map();
    let n = 0;
    for (const el of root.querySelectorAll(SEL)) {
      if ((++n & 15) === 0 && performance.now() > stop) return;
      // Presentation (a scroll bar a pane draws, an icon) is nothing anyone acts on: that
      // something lies over it says nothing, and made the panes over hidden scroll bars
      // covers that came and went as the bars faded.
      const role = el.getAttribute('role');
      if ((role === 'presentation' || role === 'none') && el.tabIndex < 0) continue;
      const r = el.getBoundingClientRect();
      // Under 2 px either way (a 1 px live region, a measuring sliver) is nothing anyone aims
      // at, and what lies on it covers nothing worth saying.
      if (r.width < 2 || r.height < 2) continue;
      const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
      if (cx < 0 || cy < 0 || cx >= vw || cy >= vh) continue;
      const hit = hitAt(root, cx, cy);
      if (!hit || hit === el || holds(el, hit)) continue;
      // A click on its own label still reaches it.
      if (el.labels && [...el.labels].some((l) => holds(l, hit))) continue;
      // Hitting an ancestor means the element itself takes no pointer events here; only a
      // foreign element on top counts as covering it.
      if (holds(hit, el)) continue;
      // The value only helps a person reading the DOM; capture reads the mark's presence.
      el.setAttribute(MARK, hit.tagName.toLowerCase() + (hit.id ? '#' + hit.id : ''));
      marked.push(el);
      const c = coverOf(hit, el, seen);
      if (!c.hasAttribute(COVERING)) {
        c.setAttribute(COVERING, '');
        covers.push(c);
      }
    }
  };
  // Elements that can scroll now: overflow auto or scroll on an axis where the content is
  // larger than the box. The style alone says "could scroll" (rustdoc gives every paragraph
  // overflow-x: auto); the DOM snapshot's own rectangles would say it too, but asking for them
  // doubles the snapshot's time on a large page (~0.5 s more on the std Vec page), while this
  // walk takes ~50 ms there. The document element says the walk ran.
  const scrollers = [];
  const markScrollIn = (root) => {
    const w = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let el = w.nextNode(); el; el = w.nextNode()) {
      const st = getComputedStyle(el);
      const x = st.overflowX, y = st.overflowY;
      const sx = x === 'auto' || x === 'scroll', sy = y === 'auto' || y === 'scroll';
      if (!sx && !sy) continue;
      if ((sx && el.scrollWidth > el.clientWidth + 1) || (sy && el.scrollHeight > el.clientHeight + 1)) {
        el.setAttribute(SCROLL, '');
        scrollers.push(el);
      }
    }
  };
  const markScroll = () => {
    const top = document.documentElement;
    if (!top) return;
    markScrollIn(document);
    for (const w of openList) {
      const root = w.deref();
      if (root && root.host && root.host.isConnected) markScrollIn(root);
    }
    top.setAttribute(CHECKED, '');
    scrollers.push(top);
  };
  // The deepest nesting of elements in the document (light DOM), by a walk without recursion
  // (a page may nest deeper than the script's stack). Chromium's getFullAXTree grows far
  // faster than the page on deep nesting, so the capture plans by it.
  const depthOf = () => {
    let n = document.documentElement, d = 0, max = 0;
    while (n) {
      if (d > max) max = d;
      if (n.firstElementChild) { n = n.firstElementChild; d++; continue; }
      while (n && !n.nextElementSibling) { n = n.parentElement; d--; }
      if (n) n = n.nextElementSibling;
    }
    return max;
  };
  S.begin = () => {
    if (parsing) {
      try { scan(document.documentElement); } catch (_) {}
    }
    const state = S.read();
    state.elements = document.getElementsByTagName('*').length;
    state.depth = depthOf();
    // Elements whose role, name or relations ARIA sets: how much of the page an app made
    // (a document has few); capture reads it to choose which tree to build from.
    state.aria = document.querySelectorAll(ARIA_SEL).length;
    state.origin = location.origin;
    return state;
  };
  S.mark = () => {
    const vw = window.innerWidth, vh = window.innerHeight;
    const stop = performance.now() + MARK_MS;
    try {
      markScroll();
      markIn(document, vw, vh, stop);
      for (const w of openList) {
        const root = w.deref();
        if (root && root.host && root.host.isConnected) markIn(root, vw, vh, stop);
      }
    } catch (_) {}
    return marked.length;
  };
  S.capture = () => {
    const state = S.begin();
    state.marked = S.mark();
    return state;
  };
  S.unmark = () => {
    for (const el of marked.splice(0)) el.removeAttribute(MARK);
    for (const el of covers.splice(0)) el.removeAttribute(COVERING);
    for (const el of scrollers.splice(0)) {
      el.removeAttribute(SCROLL);
      el.removeAttribute(CHECKED);
    }
    return true;
  };
})();
