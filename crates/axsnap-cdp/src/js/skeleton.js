// axsnap skeleton: what a first answer needs of a page too large to capture in time (its
// landmarks and headings, the controls and text blocks in the viewport, and as many of the
// others as a bound allows), read in one bounded walk. Called as a function,
// `(skeleton)(maxNodes, maxMs)`, in the isolated world "axsnap". Returns an array of the chosen
// elements, in document order; its `meta` property is a JSON string: `rows`, one per element
// ([parent row or -1, tag, role attribute, input type (`multiple` for a list box select),
// name, heading level, flags, x, y, w, h]),
// `secrets` (masked texts seen, for the capture to redact), `complete` (the walk saw the whole
// page), `dropped` (elements left out for the bounds) and the document's `title`. The capture reads the elements'
// backend node ids from the array, so they keep the refs a full capture gives them.
(maxNodes, maxMs) => {
  const start = performance.now();
  const vw = window.innerWidth, vh = window.innerHeight;
  const SKIP = new Set(['HEAD', 'SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'META', 'LINK', 'TITLE', 'BASE']);
  const LANDMARK_TAGS = new Set(['HEADER', 'NAV', 'MAIN', 'ASIDE', 'FOOTER', 'FORM', 'SEARCH', 'DIALOG']);
  const LANDMARK_ROLES = new Set([
    'banner', 'navigation', 'main', 'complementary', 'contentinfo', 'search', 'form', 'region',
    'dialog', 'alertdialog', 'menu', 'menubar', 'tablist', 'toolbar', 'tree', 'grid', 'listbox',
  ]);
  const CONTROL_TAGS = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'SUMMARY']);
  const CONTROL_ROLES = new Set([
    'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'textbox', 'searchbox', 'combobox', 'slider', 'spinbutton',
    'treeitem', 'gridcell',
  ]);
  const TEXT_TAGS = new Set(['P', 'LI', 'TD', 'TH', 'PRE', 'BLOCKQUOTE', 'DT', 'DD', 'FIGCAPTION', 'LABEL', 'CAPTION', 'LEGEND']);
  // A control's own content (a select's options, a text area's text) is its value, not text.
  const FIELDS = new Set(['SELECT', 'TEXTAREA', 'OPTION', 'DATALIST', 'OPTGROUP']);
  const NAME_CHARS = 200, TEXT_CHARS = 600, MAX_CHARS = 100000;
  const clip = (s, n) => {
    s = (s || '').replace(/\s+/g, ' ').trim();
    return s.length > n ? s.slice(0, n) + '…' : s;
  };
  const inView = (r) => r.width + r.height > 0 && r.right > 0 && r.bottom > 0 && r.left < vw && r.top < vh;
  // Text masked as a password's (-webkit-text-security) is never read out; its texts go back
  // so that the capture redacts them wherever else they show.
  const secrets = [];
  const masked = (el) => {
    const m = getComputedStyle(el).webkitTextSecurity;
    return m && m !== 'none';
  };
  // An element's rendered text, up to about n characters: a bounded walk, not textContent (a
  // paragraph may hold megabytes).
  const textOf = (root, n) => {
    let s = '';
    const st = [root];
    while (st.length && s.length <= n) {
      const x = st.pop();
      if (x.nodeType === 3) { s += x.data; continue; }
      if (x.nodeType !== 1 || SKIP.has(x.tagName) || (x !== root && FIELDS.has(x.tagName))) continue;
      if (masked(x)) { secrets.push(x.textContent.slice(0, 4000)); continue; }
      if (x.tagName === 'BR') s += ' ';
      for (let c = x.lastChild; c; c = c.previousSibling) st.push(c);
    }
    return clip(s, n);
  };
  const labelled = (el) => {
    const ids = el.getAttribute('aria-labelledby');
    if (!ids) return '';
    const root = el.getRootNode();
    return ids.split(/\s+/).map((id) => {
      const t = root.getElementById ? root.getElementById(id) : document.getElementById(id);
      return t ? textOf(t, NAME_CHARS) : '';
    }).join(' ');
  };
  const BUTTON_INPUTS = { submit: 'Submit', reset: 'Reset', button: '' };
  const nameOf = (el, fromContent) => {
    if (el.tagName === 'INPUT' && el.type in BUTTON_INPUTS) {
      return clip(el.getAttribute('aria-label') || el.value || BUTTON_INPUTS[el.type], NAME_CHARS);
    }
    const n = labelled(el) || el.getAttribute('aria-label') || el.getAttribute('alt') ||
      (el.labels && el.labels[0] ? textOf(el.labels[0], NAME_CHARS) : '') || el.getAttribute('title') ||
      el.getAttribute('placeholder') || '';
    if (n.trim() || !fromContent) return clip(n, NAME_CHARS);
    return textOf(el, NAME_CHARS);
  };
  const out = [];
  const rows = [];
  let seen = 0, chars = 0, dropped = 0;
  let complete = true;
  // Depth-first, with a work list (a page may nest deeper than the script's stack); each entry
  // carries the row of its nearest chosen ancestor and whether it is inside a chosen text block
  // (whose text is its name: only controls are chosen in it). Open shadow roots are walked
  // under their host.
  const work = [[document.documentElement, -1, false]];
  while (work.length) {
    const [el, up, inText] = work.pop();
    if (!el || el.nodeType !== 1 || SKIP.has(el.tagName)) continue;
    if ((++seen & 1023) === 0 && performance.now() - start > maxMs) { complete = false; break; }
    if (out.length >= maxNodes) { complete = false; break; }
    const tag = el.tagName;
    const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
    if (el.getAttribute('aria-hidden') === 'true' || el.hidden) continue;
    const heading = /^H[1-6]$/.test(tag) || role === 'heading';
    const landmark = LANDMARK_ROLES.has(role) || (!role && LANDMARK_TAGS.has(tag));
    const control = CONTROL_ROLES.has(role) || (!role && CONTROL_TAGS.has(tag) && (tag !== 'A' || el.hasAttribute('href'))) ||
      (el.hasAttribute('tabindex') && el.getAttribute('tabindex') !== '-1') || el.isContentEditable && !el.parentElement?.isContentEditable;
    const text = !inText && !control && !heading && (TEXT_TAGS.has(tag) || role === 'paragraph' || role === 'cell');
    let row = -1;
    if (control || (!inText && (heading || landmark || text))) {
      const r = el.getBoundingClientRect();
      const shown = r.width + r.height > 0;
      // Outside the viewport, controls and text only while half the rows and the text budget
      // last: the viewport's own must still fit after them.
      const spare = out.length < maxNodes / 2 && chars < MAX_CHARS;
      const keep = shown && (heading || landmark || inView(r) || spare);
      if (shown && !keep) dropped++;
      if (keep) {
        row = out.length;
        let type = tag === 'INPUT' ? (el.getAttribute('type') || 'text').toLowerCase() : '';
        if (tag === 'SELECT' && (el.multiple || el.size > 1)) type = 'multiple';
        let level = 0;
        if (heading) level = parseInt(el.getAttribute('aria-level') || tag.slice(1), 10) || 2;
        let flags = 0;
        if (el.hasAttribute('href')) flags |= 1;
        if (el.disabled || el.getAttribute('aria-disabled') === 'true') flags |= 2;
        if (el.checked === true || el.getAttribute('aria-checked') === 'true') flags |= 4;
        const ex = el.getAttribute('aria-expanded');
        if (ex === 'true') flags |= 8;
        if (ex === 'false') flags |= 16;
        if (control) flags |= 32;
        const name = text ? textOf(el, TEXT_CHARS) : nameOf(el, heading || control);
        chars += name.length;
        out.push(el);
        rows.push([up, tag, role, type, name, level, flags, r.x, r.y, r.width, r.height]);
      }
    }
    const next = row >= 0 ? row : up;
    const below = inText || (text && row >= 0);
    const kids = el.children;
    for (let i = kids.length - 1; i >= 0; i--) work.push([kids[i], next, below]);
    if (el.shadowRoot) {
      const sk = el.shadowRoot.children;
      for (let i = sk.length - 1; i >= 0; i--) work.push([sk[i], next, below]);
    }
  }
  out.meta = JSON.stringify({ title: document.title, rows, secrets, complete, seen, dropped, ms: Math.round(performance.now() - start) });
  return out;
}
